import type { EntityManager } from 'typeorm';
import type {
  Entity,
  Memory,
  MemorySlot,
  NewestMemories,
  ObjectUsage,
  Payload,
  ProposalRow,
  Recalled,
  SlotMemory,
} from '@mira/memory-contract';
import {
  entityFromColumns,
  memoryFromColumns,
  payloadInfoFromColumns,
  proposalFromColumns,
  slotMemoryFromColumns,
  type AliasColumns,
  type EntityColumns,
  type LinkColumns,
  type MemoryColumns,
  type PayloadColumns,
  type SlotColumns,
} from '../rows.js';
import { soleId } from '../slot.js';
import type { StoreCounts } from '../statements.js';
import type { ProposalDbRow } from './entities.js';
import type { PreparingPool } from './pool.js';
import {
  ENTITIES_BY_ID,
  ENTITIES_BY_KEY,
  ENTITY_SELECT,
  IDS_BY_KEY_ORDERED,
  IDS_BY_KEYS,
  MEMORIES_BY_ID,
  MEMORY_SELECT,
  NAMED_SLOT,
  NEWEST_ACTIVE,
  RECALL,
} from './queries.js';
import { ENTITY_NAMES, SLOT_MEMORIES } from './write-half.js';

/** What the statements send SQL through: the data source (its pool) or one transaction's connection. */
export type Runner = Pick<EntityManager, 'query'>;

/** The IDs of each of `keys`, ascending, from rows of a key and an ID (as {@link KEYS_AND_IDS} reads them). */
function idsOfKeys(keys: readonly string[], rows: ReadonlyArray<{ key: string | null; id: string }>): number[][] {
  return keys.map((key) =>
    rows
      .filter((row) => row.key === key)
      .map((row) => Number(row.id))
      .sort((a, b) => a - b),
  );
}

type EntityJoinedRow = EntityColumns & { aliases: AliasColumns[] };
type MemoryJoinedRow = MemoryColumns & { links: LinkColumns[]; payloads: PayloadColumns[] };

const toEntity = (row: EntityJoinedRow): Entity => entityFromColumns(row, row.aliases);
const toMemory = (row: MemoryJoinedRow): Memory => memoryFromColumns(row, row.links, row.payloads);

/** The items of `ids` in that order (rows come back in whatever order the plan gives). */
function inOrder<T extends { id: number }>(ids: readonly number[], items: readonly T[]): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** typeorm's postgres driver answers an UPDATE … RETURNING with [rows, count]. */
export function returned<T>(result: unknown): T[] {
  const rows = result as [T[], number] | T[];
  return (Array.isArray(rows[0]) ? rows[0] : rows) as T[];
}
/**
 * The reads of the PostgreSQL dialect of the store's statements (the writes: statements.ts), in one memory
 * space, on a pooled data source or on one transaction's connection. Every read is one statement, however
 * many rows it involves (queries.ts).
 */
export class PostgresReads {
  protected readonly runner: Runner;
  protected readonly space: string;
  protected readonly pool: PreparingPool | undefined;

  /** `pool`: the data source's pool, for the statements outside a transaction (none inside one). */
  constructor(runner: Runner, space: string, pool?: PreparingPool) {
    this.runner = runner;
    this.space = space;
    this.pool = pool;
  }

  protected async query<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return (await this.runner.query(sql, [this.space, ...params])) as T[];
  }

  /**
   * A statement every admission or recall sends (the name lookups, the slot read, the write, the entity and
   * memory reads): outside a transaction it goes to the pool as a named statement, so PostgreSQL parses it
   * once per connection instead of on every call (a quarter of the server's work per admission and over
   * half of it per recall, measured); inside one, as any other. One name, one text: `pg` refuses a name
   * sent again with another.
   */
  protected async prepared<T>(name: string, sql: string, params: readonly unknown[]): Promise<T[]> {
    if (!this.pool) return this.query<T>(sql, params);
    return (await this.pool.query({ name, text: sql, values: [this.space, ...params] })).rows as T[];
  }

  async entities(ids: readonly number[]): Promise<Entity[]> {
    if (ids.length === 0) return [];
    const rows = await this.prepared<EntityJoinedRow>('mira_entities_by_id', ENTITIES_BY_ID, [ids]);
    return inOrder(ids, rows.map(toEntity));
  }

  async entityIdsByKey(key: string): Promise<number[]> {
    return (await this.prepared<{ id: string }>('mira_ids_by_key', IDS_BY_KEY_ORDERED, [key])).map((r) => Number(r.id));
  }

  async entityIdsByKeys(keys: readonly string[]): Promise<number[][]> {
    const rows = await this.prepared<{ key: string; id: string }>('mira_ids_by_keys', IDS_BY_KEYS, [[...keys]]);
    return idsOfKeys(keys, rows);
  }

  async namedSlot(
    keys: readonly string[],
    role: string,
    predicate: string,
  ): Promise<{ ids: number[][]; slot: { entityId: number; memories: SlotMemory[] } | undefined }> {
    const rows = await this.prepared<{
      part: number;
      key: string | null;
      id: string;
      kind: string | null;
      value: string | null;
      links: Array<[string, string]> | null;
    }>('mira_named_slot', NAMED_SLOT, [[...keys], keys[0], role, predicate]);
    const ids = idsOfKeys(
      keys,
      rows.filter((row) => row.part === 0),
    );
    const entityId = soleId(ids[0]!);
    if (entityId === undefined) return { ids, slot: undefined };
    const memories = rows
      .filter((row) => row.part === 1)
      .map((row) =>
        slotMemoryFromColumns({ id: row.id, kind: row.kind!, predicate, value: row.value, links: row.links! }),
      )
      .sort((a, b) => a.id - b.id);
    return { ids, slot: { entityId, memories } };
  }

  async entitiesByKey(key: string): Promise<Entity[]> {
    const rows = await this.prepared<EntityJoinedRow>('mira_entities_by_key', ENTITIES_BY_KEY, [key]);
    return rows.map(toEntity);
  }

  async entityPage(
    entityType: string | null,
    limit: number,
    offset: number,
  ): Promise<{ entities: Entity[]; total: number }> {
    // The page and the total in one statement (the window counts the rows before LIMIT); a page past
    // the end has no row to carry the total, so only then is it counted on its own.
    const rows = await this.query<EntityJoinedRow & { total: string }>(
      `${ENTITY_SELECT.replace('SELECT ', 'SELECT count(*) OVER () AS total, ')}
       WHERE e.space = $1 AND ($2::text IS NULL OR e.entity_type = $2) ORDER BY e.id LIMIT $3 OFFSET $4`,
      [entityType, limit, offset],
    );
    if (rows.length > 0) return { entities: rows.map(toEntity), total: Number(rows[0]!.total) };
    const [count] = await this.query<{ n: string }>(
      `SELECT count(*) AS n FROM entities WHERE space = $1 AND ($2::text IS NULL OR entity_type = $2)`,
      [entityType],
    );
    return { entities: [], total: Number(count!.n) };
  }

  async entityNames(ids: readonly number[]): Promise<Array<string | undefined>> {
    if (ids.length === 0) return [];
    const rows = await this.query<{ id: string; canonical_name: string }>(ENTITY_NAMES, [ids]);
    const names = new Map(rows.map((r) => [Number(r.id), r.canonical_name]));
    return ids.map((id) => names.get(id));
  }

  async memories(ids: readonly number[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.prepared<MemoryJoinedRow>('mira_memories_by_id', MEMORIES_BY_ID, [ids]);
    return inOrder(ids, rows.map(toMemory));
  }

  async slot(slot: MemorySlot): Promise<Memory[]> {
    const rows = await this.query<MemoryJoinedRow>(
      `${MEMORY_SELECT} WHERE m.space = $1 AND m.status = 'active' AND m.predicate = $4 AND m.id IN (
         SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2 AND role = $3) ORDER BY m.id`,
      [slot.entityId, slot.role, slot.predicate],
    );
    return rows.map(toMemory);
  }

  async slotMemories(slot: MemorySlot): Promise<SlotMemory[]> {
    const rows = await this.prepared<SlotColumns>('mira_slot_memories', SLOT_MEMORIES, [
      slot.entityId,
      slot.role,
      slot.predicate,
    ]);
    return rows.map(slotMemoryFromColumns);
  }

  async newestActive(entityIds: readonly number[], newest: number | undefined): Promise<NewestMemories[]> {
    if (entityIds.length === 0) return [];
    // Walks memory_links_by_entity backwards for each entity (see the plans in the fleet benchmark).
    const rows = await this.prepared<MemoryJoinedRow & { of_entity: string; total: string }>(
      'mira_newest_active',
      NEWEST_ACTIVE,
      [entityIds, newest ?? null],
    );
    const byEntity = new Map<number, { memories: Memory[]; total: number }>();
    for (const row of rows) {
      const entity = Number(row.of_entity);
      let list = byEntity.get(entity);
      if (!list) byEntity.set(entity, (list = { memories: [], total: Number(row.total) }));
      if (row.id !== null) list.memories.push(toMemory(row));
    }
    return entityIds.map((id) => byEntity.get(id)!);
  }

  async recallByKey(key: string, entities: number, newest: number): Promise<Recalled> {
    const rows = await this.prepared<EntityJoinedRow & { total: string | null; memories: MemoryJoinedRow[] | null }>(
      'mira_recall',
      RECALL,
      [key, entities, newest],
    );
    return {
      entities: rows.map(toEntity),
      newest: rows.flatMap((row) =>
        row.memories === null ? [] : [{ memories: row.memories.map(toMemory), total: Number(row.total) }],
      ),
    };
  }

  async history(entityId: number): Promise<Memory[]> {
    const rows = await this.query<MemoryJoinedRow>(
      `${MEMORY_SELECT} WHERE m.space = $1
       AND m.id IN (SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2) ORDER BY m.id`,
      [entityId],
    );
    return rows.map(toMemory);
  }

  async payloads(memoryId: number): Promise<Payload[]> {
    const rows = await this.query<PayloadColumns & { text_body: string | null }>(
      `SELECT id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at
       FROM payloads WHERE space = $1 AND memory_id = $2 ORDER BY id`,
      [memoryId],
    );
    return rows.map((row) => ({ ...payloadInfoFromColumns(row), text: row.text_body }));
  }

  async proposal(id: number): Promise<ProposalRow | undefined> {
    const [row] = await this.query<ProposalDbRow>(`SELECT * FROM proposals WHERE space = $1 AND id = $2`, [id]);
    return row && proposalFromColumns(row);
  }

  async proposals(): Promise<ProposalRow[]> {
    return (await this.query<ProposalDbRow>(`SELECT * FROM proposals WHERE space = $1 ORDER BY id`, [])).map(
      proposalFromColumns,
    );
  }

  async counts(): Promise<StoreCounts> {
    const [c] = await this.query<Record<keyof StoreCounts, string>>(
      `SELECT (SELECT count(*) FROM entities WHERE space = $1) AS entities,
              (SELECT count(*) FROM aliases WHERE space = $1) AS aliases,
              (SELECT count(*) FROM memories WHERE space = $1) AS memories,
              (SELECT count(*) FROM memories WHERE space = $1 AND status = 'active') AS "activeMemories",
              (SELECT count(*) FROM memory_links WHERE space = $1) AS links,
              (SELECT count(*) FROM payloads WHERE space = $1) AS payloads`,
      [],
    );
    return {
      entities: Number(c!.entities),
      aliases: Number(c!.aliases),
      memories: Number(c!.memories),
      activeMemories: Number(c!.activeMemories),
      links: Number(c!.links),
      payloads: Number(c!.payloads),
    };
  }

  async revision(): Promise<string> {
    // The next IDs move with every write, from any robot; an accept or reject changes no ID, so the
    // count of decided proposals is part of it (a supersede also creates a memory).
    const [r] = await this.query<Record<string, string>>(
      `SELECT s.next_entity, s.next_alias, s.next_memory, s.next_payload, s.next_proposal,
              (SELECT count(*) FROM proposals p WHERE p.space = s.name AND p.decision <> 'pending') AS decided
       FROM spaces s WHERE s.name = $1`,
      [],
    );
    return r ? Object.values(r).join(':') : '';
  }

  async objectBytes(sha256: string): Promise<{ bytes: Buffer; where: string } | undefined> {
    const [row] = await this.query<{ body: Buffer }>(`SELECT body FROM objects WHERE space = $1 AND sha256 = $2`, [
      sha256,
    ]);
    return row && { bytes: row.body, where: `table objects, space ${this.space}` };
  }

  async objectUsage(): Promise<ObjectUsage> {
    const [row] = await this.query<{ objects: string; bytes: string }>(
      `SELECT count(*) AS objects, coalesce(sum(byte_size), 0) AS bytes FROM objects WHERE space = $1`,
      [],
    );
    return { objects: Number(row!.objects), bytes: Number(row!.bytes) };
  }
}
