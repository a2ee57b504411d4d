import { DataSource, type EntityManager, type EntitySchema, type MigrationInterface, type QueryRunner } from 'typeorm';
import { MiraError, systemClock, type Clock } from '@mira/core';
import {
  DEFAULT_MAX_OBJECT_BYTES,
  MemoryErrors,
  DEFAULT_PROPOSAL_TTL_MS,
  prepareName,
  type Entity,
  type Memory,
  type MemorySlot,
  type MemorySnapshot,
  type NewestMemories,
  type Recalled,
  objectRef,
  type ObjectUsage,
  type Payload,
  type PreparedMemory,
  type PreparedObject,
  type ProposalRow,
  type SlotMemory,
} from '@mira/memory-contract';
import { ScriptedMemoryStore } from '../algorithm.js';
import type { PreparedProposal } from '../rules.js';
import {
  entityFromColumns,
  formatIds,
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
import { runAsync, type AsyncStatements, type Script } from '../script.js';
import { soleId } from '../slot.js';
import type { AdmitWritten, StoreCounts } from '../statements.js';
import {
  AliasSchema,
  EntitySchemaV1,
  FLEET_ENTITIES,
  LinkSchema,
  MemorySchema,
  PayloadSchema,
  ProposalSchema,
  type ProposalDbRow,
} from './entities.js';
import { FleetErrors } from './errors.js';
import { SPACE_PATTERN } from './space.js';
import { FLEET_APPLICATION, MemorySchemaV1 } from './migrations/0001-schema-v1.js';
import { MemorySchemaV2, TABLES_V1 } from './migrations/0002-proposals.js';
import { MemorySchemaV3, TABLES_V2 } from './migrations/0003-admission.js';
import {
  ADMIT_FUNCTION,
  ADMIT_VERSION,
  admitVersionOf,
  ENTITY_NAMES,
  INSERT_LINKS,
  INSERT_MEMORY,
  INSERT_PAYLOAD,
  INSTALLED_ADMIT_BODY,
  LOCK_SLOT,
  NEXT_MEMORY_IDS,
  SLOT_MEMORIES,
} from './write-half.js';
import { FLEET_SCHEMA_VERSION, MemorySchemaV4 } from './migrations/0004-objects.js';

type EntitySchemaLike = EntitySchema<any>;

/** How to open a {@link PostgresMemoryStore}. */
export interface PostgresMemoryStoreOptions {
  /** `postgres://user:password@host:port/database`. */
  readonly url: string;
  /** The memory space: robots naming the same space share entities and memories. */
  readonly space: string;
  readonly clock?: Clock;
  /** How long to wait for the server when connecting, in ms (default 5000). */
  readonly connectTimeoutMs?: number;
  /** Read-only sessions (`mira mcp`): the schema must exist; the server refuses every write. */
  readonly readOnly?: boolean;
  /** How long a proposal waits for the operator, in ms (default 7 days). */
  readonly proposalTtlMs?: number;
  /** The largest object payload a memory may keep, in bytes (default 4 MiB). */
  readonly maxObjectBytes?: number;
  /**
   * Hears what fails after the failure that is thrown (the connection that would not close after a
   * failed open), so it is reported rather than lost; stderr by default.
   */
  readonly log?: (line: string) => void;
}

/** The server, database and user of a connection string, without the password. */
export function describeUrl(url: string): { server: string; database: string; user: string } {
  try {
    const u = new URL(url);
    return {
      server: `${u.hostname || 'localhost'}:${u.port || '5432'}`,
      database: decodeURIComponent(u.pathname.replace(/^\//, '')) || '(default)',
      user: decodeURIComponent(u.username) || '(default)',
    };
  } catch {
    return { server: '(unparsable connection string)', database: '?', user: '?' };
  }
}

/** The SQLSTATE of a driver error, as typeorm wraps it or as pg throws it. */
function sqlState(error: unknown): string | undefined {
  const e = error as { code?: string; driverError?: { code?: string } };
  return e.driverError?.code ?? e.code;
}

/** A driver or network failure as one clear Mira error. */
export function fleetError(error: unknown, where: string): MiraError {
  if (error instanceof MiraError) return error;
  const e = error as { driverError?: { message?: string }; message?: string };
  const code = sqlState(error);
  const message = e.driverError?.message ?? e.message ?? String(error);
  if (code === '28P01' || code === '28000') return FleetErrors.error('SERVER_AUTH', { where, reason: message });
  if (code === '3D000') return FleetErrors.error('SERVER_DATABASE', { where, reason: message });
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH' ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    /Connection terminated|connection timeout|timeout expired|not queryable|Client has encountered a connection error|not currently accepting connections|database system is (starting up|shutting down)/i.test(
      message,
    )
  ) {
    return FleetErrors.error('SERVER_UNREACHABLE', { where, reason: message });
  }
  return MemoryErrors.error(
    'BACKEND.failed',
    { reason: message },
    {
      cause: error,
    },
  );
}

/** The IDs of the entities named `$2` exactly (canonical name or alias) in space `$1`. */
const IDS_BY_KEY = `SELECT id FROM entities WHERE space = $1 AND name_key = $2
  UNION SELECT entity_id FROM aliases WHERE space = $1 AND alias_key = $2`;
const IDS_BY_KEY_ORDERED = `${IDS_BY_KEY} ORDER BY 1`;
/** {@link IDS_BY_KEY} for an array of keys at once: each key with its IDs. */
const KEYS_AND_IDS = `SELECT name_key AS key, id FROM entities WHERE space = $1 AND name_key = ANY($2::text[])
  UNION SELECT alias_key, entity_id FROM aliases WHERE space = $1 AND alias_key = ANY($2::text[])`;
const IDS_BY_KEYS = `${KEYS_AND_IDS} ORDER BY 2`;
/**
 * {@link IDS_BY_KEYS} (rows with `part` 0) and, when exactly one entity has the name `$3`, its slot under role
 * `$4` and predicate `$5` as {@link SLOT_MEMORIES} reads it (rows with `part` 1): admission's two reads in one
 * round trip.
 */
const NAMED_SLOT = `WITH r AS (${KEYS_AND_IDS}),
  one AS (SELECT min(id) AS id FROM r WHERE key = $3 HAVING count(DISTINCT id) = 1)
  SELECT 0 AS part, r.key, r.id, NULL::text AS kind, NULL::text AS value, NULL::json AS links FROM r
  UNION ALL
  SELECT 1, NULL, m.id, m.kind, m.value,
    (SELECT json_agg(json_build_array(k.entity_id, k.role)) FROM memory_links k WHERE k.space = m.space AND k.memory_id = m.id)
  FROM one JOIN memories m ON m.space = $1 AND m.status = 'active' AND m.predicate = $5 AND m.id IN (
    SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = one.id AND role = $4)`;

/** The IDs of each of `keys`, ascending, from rows of a key and an ID (as {@link KEYS_AND_IDS} reads them). */
function idsOfKeys(keys: readonly string[], rows: ReadonlyArray<{ key: string | null; id: string }>): number[][] {
  return keys.map((key) =>
    rows
      .filter((row) => row.key === key)
      .map((row) => Number(row.id))
      .sort((a, b) => a - b),
  );
}

/** An entity's columns with its aliases (as JSON, in ID order), as one row per entity of `e`. */
const ENTITY_FIELDS = `e.id, e.entity_type, e.canonical_name, e.name_key, e.created_at,
  (SELECT coalesce(json_agg(json_build_object('id', a.id, 'alias', a.alias, 'alias_key', a.alias_key,
     'created_at', a.created_at) ORDER BY a.id), '[]')
   FROM aliases a WHERE a.space = e.space AND a.entity_id = e.id) AS aliases`;
const ENTITY_SELECT = `SELECT ${ENTITY_FIELDS} FROM entities e`;

/**
 * A memory's columns, what superseded it, its links (with the entities' names) and its payloads (never
 * a body: recall and listings do not load one), as one row per memory of `m`.
 */
const MEMORY_FIELDS = `m.id, m.kind, m.summary, m.predicate, m.value, m.source_kind, m.source_label, m.confidence,
  m.status, m.created_at, m.superseded_by, m.superseded_at,
  (SELECT s.id FROM memories s WHERE s.space = m.space AND s.superseded_by = m.id) AS supersedes,
  (SELECT coalesce(json_agg(json_build_object('entity_id', l.entity_id, 'role', l.role,
     'canonical_name', e.canonical_name) ORDER BY l.entity_id, l.role COLLATE "C"), '[]')
   FROM memory_links l JOIN entities e ON e.space = l.space AND e.id = l.entity_id
   WHERE l.space = m.space AND l.memory_id = m.id) AS links,
  (SELECT coalesce(json_agg(json_build_object('id', p.id, 'payload_kind', p.payload_kind, 'media_type', p.media_type,
     'object_ref', p.object_ref, 'sha256', p.sha256, 'byte_size', p.byte_size, 'created_at', p.created_at)
     ORDER BY p.id), '[]')
   FROM payloads p WHERE p.space = m.space AND p.memory_id = m.id) AS payloads`;
const MEMORY_SELECT = `SELECT ${MEMORY_FIELDS} FROM memories m`;

/** Entities `$2` (an array) of space `$1`, with their aliases. */
const ENTITIES_BY_ID = `${ENTITY_SELECT} WHERE e.space = $1 AND e.id = ANY($2::bigint[])`;
/** The entities named `$2` exactly (canonical name or alias) in space `$1`, with their aliases, in ID order. */
const ENTITIES_BY_KEY = `${ENTITY_SELECT} WHERE e.space = $1 AND e.id IN (${IDS_BY_KEY}) ORDER BY e.id`;
/** Memories `$2` (an array) of space `$1`, as {@link MEMORY_FIELDS} shows them. */
const MEMORIES_BY_ID = `${MEMORY_SELECT} WHERE m.space = $1 AND m.id = ANY($2::bigint[])`;

/**
 * The newest `$3` (all when null) active memories of each entity of `$2` in space `$1`, ascending, with
 * how many each has in all: one row per memory, or one row without a memory for an entity that has none.
 */
const NEWEST_ACTIVE = `WITH wanted AS (SELECT DISTINCT unnest($2::bigint[]) AS entity_id),
  picked AS (
    SELECT w.entity_id, p.memory_id FROM wanted w CROSS JOIN LATERAL (
      SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories a ON a.space = l.space AND a.id = l.memory_id
      WHERE l.space = $1 AND l.entity_id = w.entity_id AND a.status = 'active'
      ORDER BY l.memory_id DESC LIMIT $3) p),
  totals AS (
    SELECT l.entity_id, count(DISTINCT l.memory_id) AS n
    FROM memory_links l JOIN memories a ON a.space = l.space AND a.id = l.memory_id
    WHERE l.space = $1 AND l.entity_id IN (SELECT entity_id FROM wanted) AND a.status = 'active'
    GROUP BY l.entity_id)
  SELECT w.entity_id AS of_entity, coalesce(t.n, 0) AS total, ${MEMORY_FIELDS}
  FROM wanted w LEFT JOIN totals t ON t.entity_id = w.entity_id
  LEFT JOIN picked k ON k.entity_id = w.entity_id
  LEFT JOIN memories m ON m.space = $1 AND m.id = k.memory_id
  ORDER BY w.entity_id, m.id`;

/** The active memories of entity `e.id` in space `$1`, as a set of their IDs (DISTINCT: one per memory). */
const ACTIVE_OF_E = `SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories a ON a.space = l.space AND a.id = l.memory_id
  WHERE l.space = $1 AND l.entity_id = e.id AND a.status = 'active'`;

/**
 * Recall in one statement: the entities named `$2` exactly in space `$1` (as {@link ENTITIES_BY_KEY}), in ID
 * order, one row per entity; for the first `$3` of them, how many active memories each has (`total`) and its
 * newest `$4` as JSON rows of {@link MEMORY_FIELDS} (`memories`), both null for the others.
 */
const RECALL = `WITH found AS (${IDS_BY_KEY}), shown AS (SELECT id FROM found ORDER BY id LIMIT $3)
  SELECT ${ENTITY_FIELDS},
    CASE WHEN e.id IN (SELECT id FROM shown) THEN (SELECT count(*) FROM (${ACTIVE_OF_E}) t) END AS total,
    CASE WHEN e.id IN (SELECT id FROM shown) THEN (
      SELECT coalesce(json_agg(n ORDER BY n.id), '[]') FROM (
        ${MEMORY_SELECT} WHERE m.space = $1 AND m.id IN (${ACTIVE_OF_E} ORDER BY l.memory_id DESC LIMIT $4)) n) END
      AS memories
  FROM entities e WHERE e.space = $1 AND e.id IN (SELECT id FROM found) ORDER BY e.id`;

type Runner = Pick<EntityManager, 'query'>;

/**
 * Where the store prepares its hottest statements: a statement sent with a name is parsed and planned once
 * per connection, not on every call.
 */
interface PreparingPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** A `pg` client of the data source's pool, as typeorm's `obtainMasterConnection` hands it out. */
interface PooledClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
  once(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * The data source's own pool through typeorm's public driver API: each statement checks a connection out
 * and gives it back, as `pg`'s `Pool.query` does. A connection that fails is given back with its error, so
 * the pool drops it; one that fails while no statement runs on it (the server restarted, the link broke)
 * is handled here, as `Pool.query` handles it: a client's `error` with no listener would end the process.
 */
function poolOf(ds: DataSource): PreparingPool {
  return {
    async query(config) {
      const [client, release] = (await ds.driver.obtainMasterConnection()) as [PooledClient, (error?: unknown) => void];
      // pg rejects the statement itself when the link breaks, then emits 'error': that event only has to be
      // listened to (and the connection given back with it), or it ends the process.
      const onError = (error: Error) => giveBack(error);
      let released = false;
      const giveBack = (error?: unknown) => {
        if (released) return;
        released = true;
        client.removeListener('error', onError);
        release(error);
      };
      client.once('error', onError);
      try {
        const result = await client.query(config);
        giveBack();
        return result;
      } catch (error) {
        giveBack(error);
        throw error;
      }
    },
  };
}

/**
 * A memory's values in the order both ways of writing it take them (INSERT_MEMORY's `$3`…`$9` and
 * mira_admit's `p_kind`…`p_confidence`), then its links as two arrays (INSERT_LINKS' `$3`, `$4`; `p_link_*`).
 */
const memoryValues = (m: PreparedMemory) =>
  [m.kind, m.summary, m.predicate, m.value, m.sourceKind, m.sourceLabel, m.confidence] as const;
const linkArrays = (m: PreparedMemory) => [m.links.map((l) => l.entityId), m.links.map((l) => l.role)] as const;

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
function returned<T>(result: unknown): T[] {
  const rows = result as [T[], number] | T[];
  return (Array.isArray(rows[0]) ? rows[0] : rows) as T[];
}

/**
 * The PostgreSQL dialect of the store's statements, in one memory space, on a pooled data source or on
 * one transaction's connection. Every read is one statement, however many rows it involves (JSON
 * aggregation, `= ANY($n)`, lateral joins); IDs are allocated per space from the space's row, which a
 * write transaction holds only from its first allocation to its end.
 */
class PostgresStatements implements AsyncStatements {
  readonly #m: Runner;
  readonly #space: string;
  readonly #pool: PreparingPool | undefined;

  /** `pool`: the data source's pool, for the statements outside a transaction (none inside one). */
  constructor(m: Runner, space: string, pool?: PreparingPool) {
    this.#m = m;
    this.#space = space;
    this.#pool = pool;
  }

  async #query<T>(sql: string, params: readonly unknown[]): Promise<T[]> {
    return (await this.#m.query(sql, [this.#space, ...params])) as T[];
  }

  /**
   * A statement every admission or recall sends (the name lookups, the slot read, the write, the entity and
   * memory reads): outside a transaction it goes to the pool as a named statement, so PostgreSQL parses it
   * once per connection instead of on every call (a quarter of the server's work per admission and over
   * half of it per recall, measured); inside one, as any other. One name, one text: `pg` refuses a name
   * sent again with another.
   */
  async #prepared<T>(name: string, sql: string, params: readonly unknown[]): Promise<T[]> {
    if (!this.#pool) return this.#query<T>(sql, params);
    return (await this.#pool.query({ name, text: sql, values: [this.#space, ...params] })).rows as T[];
  }

  /** The next ID of `kind` in this space; locks the space's row until the transaction ends. */
  async #nextId(kind: 'entity' | 'alias' | 'memory' | 'payload' | 'proposal'): Promise<number> {
    const rows = returned<{ id: string }>(
      await this.#m.query(
        `UPDATE spaces SET next_${kind} = next_${kind} + 1 WHERE name = $1 RETURNING next_${kind} - 1 AS id`,
        [this.#space],
      ),
    );
    return Number(rows[0]!.id);
  }

  async entities(ids: readonly number[]): Promise<Entity[]> {
    if (ids.length === 0) return [];
    const rows = await this.#prepared<EntityJoinedRow>('mira_entities_by_id', ENTITIES_BY_ID, [ids]);
    return inOrder(ids, rows.map(toEntity));
  }

  async entityIdsByKey(key: string): Promise<number[]> {
    return (await this.#prepared<{ id: string }>('mira_ids_by_key', IDS_BY_KEY_ORDERED, [key])).map((r) =>
      Number(r.id),
    );
  }

  async entityIdsByKeys(keys: readonly string[]): Promise<number[][]> {
    const rows = await this.#prepared<{ key: string; id: string }>('mira_ids_by_keys', IDS_BY_KEYS, [[...keys]]);
    return idsOfKeys(keys, rows);
  }

  async namedSlot(
    keys: readonly string[],
    role: string,
    predicate: string,
  ): Promise<{ ids: number[][]; slot: { entityId: number; memories: SlotMemory[] } | undefined }> {
    const rows = await this.#prepared<{
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
    const rows = await this.#prepared<EntityJoinedRow>('mira_entities_by_key', ENTITIES_BY_KEY, [key]);
    return rows.map(toEntity);
  }

  async entityPage(
    entityType: string | null,
    limit: number,
    offset: number,
  ): Promise<{ entities: Entity[]; total: number }> {
    // The page and the total in one statement (the window counts the rows before LIMIT); a page past
    // the end has no row to carry the total, so only then is it counted on its own.
    const rows = await this.#query<EntityJoinedRow & { total: string }>(
      `${ENTITY_SELECT.replace('SELECT ', 'SELECT count(*) OVER () AS total, ')}
       WHERE e.space = $1 AND ($2::text IS NULL OR e.entity_type = $2) ORDER BY e.id LIMIT $3 OFFSET $4`,
      [entityType, limit, offset],
    );
    if (rows.length > 0) return { entities: rows.map(toEntity), total: Number(rows[0]!.total) };
    const [count] = await this.#query<{ n: string }>(
      `SELECT count(*) AS n FROM entities WHERE space = $1 AND ($2::text IS NULL OR entity_type = $2)`,
      [entityType],
    );
    return { entities: [], total: Number(count!.n) };
  }

  async entityNames(ids: readonly number[]): Promise<Array<string | undefined>> {
    if (ids.length === 0) return [];
    const rows = await this.#query<{ id: string; canonical_name: string }>(ENTITY_NAMES, [ids]);
    const names = new Map(rows.map((r) => [Number(r.id), r.canonical_name]));
    return ids.map((id) => names.get(id));
  }

  async memories(ids: readonly number[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = await this.#prepared<MemoryJoinedRow>('mira_memories_by_id', MEMORIES_BY_ID, [ids]);
    return inOrder(ids, rows.map(toMemory));
  }

  async slot(slot: MemorySlot): Promise<Memory[]> {
    const rows = await this.#query<MemoryJoinedRow>(
      `${MEMORY_SELECT} WHERE m.space = $1 AND m.status = 'active' AND m.predicate = $4 AND m.id IN (
         SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2 AND role = $3) ORDER BY m.id`,
      [slot.entityId, slot.role, slot.predicate],
    );
    return rows.map(toMemory);
  }

  async slotMemories(slot: MemorySlot): Promise<SlotMemory[]> {
    const rows = await this.#prepared<SlotColumns>('mira_slot_memories', SLOT_MEMORIES, [
      slot.entityId,
      slot.role,
      slot.predicate,
    ]);
    return rows.map(slotMemoryFromColumns);
  }

  async newestActive(entityIds: readonly number[], newest: number | undefined): Promise<NewestMemories[]> {
    if (entityIds.length === 0) return [];
    // Walks memory_links_by_entity backwards for each entity (see the plans in the fleet benchmark).
    const rows = await this.#prepared<MemoryJoinedRow & { of_entity: string; total: string }>(
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
    const rows = await this.#prepared<EntityJoinedRow & { total: string | null; memories: MemoryJoinedRow[] | null }>(
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
    const rows = await this.#query<MemoryJoinedRow>(
      `${MEMORY_SELECT} WHERE m.space = $1
       AND m.id IN (SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2) ORDER BY m.id`,
      [entityId],
    );
    return rows.map(toMemory);
  }

  async payloads(memoryId: number): Promise<Payload[]> {
    const rows = await this.#query<PayloadColumns & { text_body: string | null }>(
      `SELECT id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at
       FROM payloads WHERE space = $1 AND memory_id = $2 ORDER BY id`,
      [memoryId],
    );
    return rows.map((row) => ({ ...payloadInfoFromColumns(row), text: row.text_body }));
  }

  async proposal(id: number): Promise<ProposalRow | undefined> {
    const [row] = await this.#query<ProposalDbRow>(`SELECT * FROM proposals WHERE space = $1 AND id = $2`, [id]);
    return row && proposalFromColumns(row);
  }

  async proposals(): Promise<ProposalRow[]> {
    return (await this.#query<ProposalDbRow>(`SELECT * FROM proposals WHERE space = $1 ORDER BY id`, [])).map(
      proposalFromColumns,
    );
  }

  async counts(): Promise<StoreCounts> {
    const [c] = await this.#query<Record<keyof StoreCounts, string>>(
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
    const [r] = await this.#query<Record<string, string>>(
      `SELECT s.next_entity, s.next_alias, s.next_memory, s.next_payload, s.next_proposal,
              (SELECT count(*) FROM proposals p WHERE p.space = s.name AND p.decision <> 'pending') AS decided
       FROM spaces s WHERE s.name = $1`,
      [],
    );
    return r ? Object.values(r).join(':') : '';
  }

  async lockSlot(slot: MemorySlot): Promise<void> {
    await this.#query(LOCK_SLOT, [slot.entityId, slot.role, slot.predicate]);
  }

  async lockProposal(id: number): Promise<void> {
    await this.#query(`SELECT id FROM proposals WHERE space = $1 AND id = $2 FOR UPDATE`, [id]);
  }

  async insertEntity(entityType: string, name: { display: string; key: string }, now: string): Promise<number> {
    const id = await this.#nextId('entity');
    await this.#query(
      `INSERT INTO entities (space, id, entity_type, canonical_name, name_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, entityType, name.display, name.key, now],
    );
    return id;
  }

  async insertAlias(entityId: number, name: { display: string; key: string }, now: string): Promise<number> {
    const id = await this.#nextId('alias');
    await this.#query(
      `INSERT INTO aliases (space, id, entity_id, alias, alias_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, entityId, name.display, name.key, now],
    );
    return id;
  }

  async putObject(object: PreparedObject): Promise<void> {
    // Stored once per digest in the space; a row whose bytes no longer hash to its name is replaced. An
    // object stored before is made young again: a collection running meanwhile must not take it away
    // before the rows that now refer to it commit.
    await this.#query(
      `INSERT INTO objects (space, sha256, media_type, byte_size, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (space, sha256) DO UPDATE SET created_at = now(),
         body = CASE WHEN sha256(objects.body) <> decode(objects.sha256, 'hex') THEN EXCLUDED.body ELSE objects.body END`,
      [object.sha256, object.mediaType, object.bytes.length, object.bytes],
    );
  }

  async objectBytes(sha256: string): Promise<{ bytes: Buffer; where: string } | undefined> {
    const [row] = await this.#query<{ body: Buffer }>(`SELECT body FROM objects WHERE space = $1 AND sha256 = $2`, [
      sha256,
    ]);
    return row && { bytes: row.body, where: `table objects, space ${this.#space}` };
  }

  async objectUsage(): Promise<ObjectUsage> {
    const [row] = await this.#query<{ objects: string; bytes: string }>(
      `SELECT count(*) AS objects, coalesce(sum(byte_size), 0) AS bytes FROM objects WHERE space = $1`,
      [],
    );
    return { objects: Number(row!.objects), bytes: Number(row!.bytes) };
  }

  async collectObjects(graceMs: number): Promise<ObjectUsage> {
    const rows = returned<{ byte_size: string }>(
      await this.#m.query(
        `DELETE FROM objects o WHERE o.space = $1 AND o.created_at < now() - make_interval(secs => $2::double precision / 1000)
         AND NOT EXISTS (SELECT 1 FROM payloads p WHERE p.space = o.space AND p.sha256 = o.sha256)
       RETURNING o.byte_size`,
        [this.#space, graceMs],
      ),
    );
    return { objects: rows.length, bytes: rows.reduce((sum, r) => sum + Number(r.byte_size), 0) };
  }

  async insertObjectPayload(memoryId: number, object: PreparedObject, now: string): Promise<number> {
    const payloadId = await this.#nextId('payload');
    await this.#query(
      `INSERT INTO payloads (space, id, memory_id, payload_kind, media_type, object_ref, sha256, byte_size, created_at)
       VALUES ($1, $2, $3, 'object_ref', $4, $5, $6, $7, $8)`,
      [payloadId, memoryId, object.mediaType, objectRef(object.sha256), object.sha256, object.bytes.length, now],
    );
    return payloadId;
  }

  async insertMemory(
    m: PreparedMemory,
    byteSize: number,
    now: string,
  ): Promise<{ memoryId: number; payloadId: number }> {
    const [ids] = returned<{ memory_id: string; payload_id: string }>(
      await this.#m.query(NEXT_MEMORY_IDS, [this.#space]),
    );
    const memoryId = Number(ids!.memory_id);
    const payloadId = Number(ids!.payload_id);
    await this.#query(INSERT_MEMORY, [memoryId, ...memoryValues(m), now]);
    if (m.links.length > 0) await this.#query(INSERT_LINKS, [memoryId, ...linkArrays(m)]);
    await this.#query(INSERT_PAYLOAD, [payloadId, memoryId, m.payloadText, byteSize, now]);
    return { memoryId, payloadId };
  }

  /** One round trip (mira_admit): the slot's lock, the check that it still holds `seenIds`, the IDs and rows. */
  async admitWrite(
    slot: MemorySlot,
    seenIds: readonly number[],
    m: PreparedMemory,
    byteSize: number,
    now: string,
  ): Promise<AdmitWritten | undefined> {
    const [row] = await this.#prepared<{
      memory_id: string | null;
      payload_id: string | null;
      missing_entity: string | null;
      link_names: string[] | null;
    }>(
      'mira_admit',
      `SELECT memory_id, payload_id, missing_entity, link_names
       FROM mira_admit($1, $2, $3, $4, $5::bigint[], $6, $7, $8, $9, $10, $11, $12, $13::bigint[], $14::text[], $15, $16, $17)`,
      [
        slot.entityId,
        slot.role,
        slot.predicate,
        seenIds,
        ...memoryValues(m),
        ...linkArrays(m),
        m.payloadText,
        byteSize,
        now,
      ],
    );
    if (!row) return undefined;
    if (row.missing_entity !== null) return { missingEntity: Number(row.missing_entity) };
    return { memoryId: Number(row.memory_id), payloadId: Number(row.payload_id), linkNames: row.link_names! };
  }

  async supersede(oldId: number, newId: number, now: string): Promise<void> {
    await this.#query(
      `UPDATE memories SET status = 'superseded', superseded_by = $3, superseded_at = $4
       WHERE space = $1 AND id = $2 AND status = 'active'`,
      [oldId, newId, now],
    );
  }

  async insertProposal(p: PreparedProposal, slotIds: readonly number[]): Promise<number> {
    const id = await this.#nextId('proposal');
    await this.#query(
      `INSERT INTO proposals (space, id, kind, entity_type, name, name_key, memory_id, value, slot_ids, evidence, utterance, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        id,
        p.kind,
        p.entityType,
        p.name,
        p.nameKey,
        p.memoryId,
        p.value,
        formatIds(slotIds),
        p.evidence,
        p.utterance,
        p.createdAt,
        p.expiresAt,
      ],
    );
    return id;
  }

  async decideProposal(
    id: number,
    decision: 'accepted' | 'rejected',
    now: string,
    reason: string | null,
    result: string | null,
  ): Promise<void> {
    // A decided proposal keeps its evidence, not the rest of what was said.
    await this.#query(
      `UPDATE proposals SET decision = $3, decided_at = $4, reason = $5, result = $6, utterance = evidence
       WHERE space = $1 AND id = $2 AND decision = 'pending'`,
      [id, decision, now, reason, result],
    );
  }

  async eraseSpentUtterances(now: string): Promise<void> {
    await this.#query(
      `UPDATE proposals SET utterance = evidence
       WHERE space = $1 AND utterance <> evidence AND (decision <> 'pending' OR expires_at <= $2)`,
      [now],
    );
  }
}
/**
 * Persistent memory on PostgreSQL through typeorm, for a fleet: robots naming the same space share
 * entities and memories. The same contract as the SQLite store: exact keys computed by Mira, one
 * transaction per write, admission decided under a lock on the slot so robots admitting into one
 * slot at once are decided one after the other.
 */
export class PostgresMemoryStore extends ScriptedMemoryStore {
  readonly backend = 'postgres';
  readonly space: string;
  readonly #ds: DataSource;
  readonly #where: { server: string; database: string; user: string };
  readonly #statements: PostgresStatements;
  // READ COMMITTED: the slot, proposal and ID locks serialise what must be.
  readonly #transact = <U>(body: (s: AsyncStatements) => Promise<U>): Promise<U> =>
    this.#ds.transaction('READ COMMITTED', (m) => body(new PostgresStatements(m, this.space)));
  #closed = false;

  private constructor(ds: DataSource, options: PostgresMemoryStoreOptions) {
    super(options.clock ?? systemClock, options.proposalTtlMs ?? DEFAULT_PROPOSAL_TTL_MS, FLEET_SCHEMA_VERSION);
    this.#ds = ds;
    this.space = options.space;
    this.#where = describeUrl(options.url);
    this.maxObjectBytes = options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
    this.#statements = new PostgresStatements(ds, options.space, poolOf(ds));
  }

  /** Where the memory lives, for `memory persistent` (never the password). */
  get location(): string {
    return `postgres://${this.#where.user}@${this.#where.server}/${this.#where.database} (space ${this.space})`;
  }

  /**
   * Connects, and opens Mira's schema: an empty database is initialised (versioned typeorm migrations);
   * Mira's schema at the supported version opens; an unversioned, foreign or newer schema is refused
   * and left unchanged.
   */
  static async open(options: PostgresMemoryStoreOptions): Promise<PostgresMemoryStore> {
    if (!SPACE_PATTERN.test(options.space)) {
      throw FleetErrors.error('SPACE_INVALID', { space: options.space });
    }
    const where = describeUrl(options.url);
    const ds = new DataSource({
      type: 'postgres',
      url: options.url,
      entities: FLEET_ENTITIES,
      migrations: [MemorySchemaV1, MemorySchemaV2, MemorySchemaV3, MemorySchemaV4],
      migrationsTableName: 'mira_migrations',
      synchronize: false,
      logging: false,
      connectTimeoutMS: options.connectTimeoutMs ?? 5000,
      extra: {
        max: 4,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
        ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
      },
    });
    try {
      await ds.initialize();
    } catch (error) {
      throw fleetError(error, `cannot open memory at ${where.server}/${where.database}`);
    }
    try {
      await PostgresMemoryStore.#openSchema(ds, where, options.readOnly ?? false);
      if (!options.readOnly)
        await PostgresMemoryStore.#currentAdmitFunction(
          ds,
          options.log ?? ((line: string) => process.stderr.write(`${line}\n`)),
        );
      const store = new PostgresMemoryStore(ds, options);
      if (options.readOnly) return store;
      await ds.query(`INSERT INTO spaces (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
        options.space,
        store.now(),
      ]);
      // What was said beside the evidence of proposals decided or expired since (rows of earlier versions
      // included): erased at open, as every new proposal erases it for those that expired meanwhile.
      await store.#statements.eraseSpentUtterances(store.now());
      return store;
    } catch (error) {
      const thrown = fleetError(error, `cannot open memory at ${where.server}/${where.database}`);
      // A connection never made has nothing to close (destroy() would refuse as much).
      if (ds.isInitialized)
        await ds.destroy().catch((closeError: unknown) => {
          const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
          log(
            `memory at ${where.server}/${where.database}: after ${thrown.code}, its connections did not close: ${(closeError as Error).message}`,
          );
        });
      throw thrown;
    }
  }

  static async #openSchema(
    ds: DataSource,
    where: { server: string; database: string },
    readOnly: boolean,
  ): Promise<void> {
    const tables = (await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
    )) as Array<{ table_name: string }>;
    const db = `${where.server}/${where.database}`;
    if (tables.length === 0) {
      if (readOnly) {
        throw FleetErrors.error('FOREIGN_DATABASE.noMemoryYet', { db });
      }
      await ds.runMigrations({ transaction: 'all' });
      return;
    }
    const names = new Set(tables.map((t) => t.table_name));
    if (!names.has('mira_meta')) {
      throw FleetErrors.error('FOREIGN_DATABASE.unversionedTables', {
        db,
        tables: [...names].slice(0, 5).join(', '),
      });
    }
    const meta = new Map(
      ((await ds.query(`SELECT key, value FROM mira_meta`)) as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    if (meta.get('application') !== FLEET_APPLICATION) {
      throw FleetErrors.error('FOREIGN_DATABASE.otherApplication', {
        db,
        application: meta.get('application') ?? 'unnamed',
      });
    }
    const version = Number(meta.get('schema_version'));
    if ((version === 1 || version === 2 || version === 3) && !readOnly) {
      await PostgresMemoryStore.#upgrade(ds, db, version);
      return;
    }
    if (version !== FLEET_SCHEMA_VERSION) {
      throw FleetErrors.error('UNSUPPORTED_SCHEMA.version', {
        db,
        found: String(meta.get('schema_version')),
        version: FLEET_SCHEMA_VERSION,
      });
    }
  }

  /**
   * Version 1, 2 or 3 → 4, once, in one transaction under an advisory lock (robots starting together
   * upgrade one after the other; the later ones find version 4). Only Mira's exact tables and migration
   * history of the version found under the lock are upgraded; anything else is refused and left unchanged.
   */
  static async #upgrade(ds: DataSource, db: string, from: 1 | 2 | 3): Promise<void> {
    await PostgresMemoryStore.#underSchemaLock(ds, async (q) => {
      // Read again under the lock: a robot that started at the same time may have upgraded meanwhile (its
      // version 4 tables and history are then what this robot finds, and nothing is left to do).
      const [row] = (await q.query(`SELECT value FROM mira_meta WHERE key = 'schema_version'`)) as Array<{
        value: string;
      }>;
      if (Number(row?.value) === FLEET_SCHEMA_VERSION) return;
      // The version under the lock decides (another robot of an earlier build may have upgraded to it).
      const at = Number(row?.value);
      const expected = [...(at === 1 ? TABLES_V1 : TABLES_V2), 'mira_migrations'].sort();
      const history = [
        new MemorySchemaV1().name,
        ...(at >= 2 ? [new MemorySchemaV2().name] : []),
        ...(at >= 3 ? [new MemorySchemaV3().name] : []),
      ];
      const found = (
        (await q.query(
          `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
        )) as Array<{ table_name: string }>
      ).map((t) => t.table_name);
      const ran = ((await q.query(`SELECT name FROM mira_migrations ORDER BY id`)) as Array<{ name: string }>).map(
        (r) => r.name,
      );
      if (
        !(at === 1 || at === 2 || at === 3) ||
        found.join(',') !== expected.join(',') ||
        ran.join(',') !== history.join(',')
      ) {
        throw FleetErrors.error('UNSUPPORTED_SCHEMA.notWhatItMade', {
          db,
          found: String(row?.value ?? from),
          tables: found.join(', '),
          migrations: ran.join(', '),
        });
      }
      const steps: Array<[number, MigrationInterface & { name: string }, number]> = [
        [1, new MemorySchemaV2(), 1700000000002],
        [2, new MemorySchemaV3(), 1700000000003],
        [3, new MemorySchemaV4(), 1700000000004],
      ];
      for (const [version, migration, timestamp] of steps) {
        if (at > version) continue;
        await migration.up(q);
        await q.query(`INSERT INTO mira_migrations (timestamp, name) VALUES ($1, $2)`, [timestamp, migration.name]);
      }
    });
  }

  /**
   * `body` in one transaction on a connection of its own, under the schema's advisory lock, which robots
   * changing the schema take first: committed when it returns, rolled back when it throws.
   */
  static async #underSchemaLock(ds: DataSource, body: (q: QueryRunner) => Promise<void>): Promise<void> {
    const q = ds.createQueryRunner();
    try {
      await q.startTransaction();
      await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('mira-memory-schema', 0))`);
      await body(q);
      await q.commitTransaction();
    } catch (error) {
      if (q.isTransactionActive) await q.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await q.release();
    }
  }

  /**
   * Replaces `mira_admit` when its body is of an earlier version than the one write-half.ts generates from
   * the statements this build sends (a database made or upgraded by an earlier build): in one transaction
   * under the schema's advisory lock, so robots starting together replace it once. A later version is left
   * as it is (robots of two builds never take turns), and so is any body when this role may not replace
   * the function (another role owns it): the installed one does the same work, so the store says so and
   * opens. The signature stays, so a robot of another build calling it meanwhile is not refused.
   */
  static async #currentAdmitFunction(ds: DataSource, log: (line: string) => void): Promise<void> {
    const installed = async (run: Runner) =>
      admitVersionOf(((await run.query(INSTALLED_ADMIT_BODY)) as Array<{ body: string }>)[0]?.body ?? '');
    if ((await installed(ds)) >= ADMIT_VERSION) return;
    try {
      await PostgresMemoryStore.#underSchemaLock(ds, async (q) => {
        if ((await installed(q)) < ADMIT_VERSION) await q.query(ADMIT_FUNCTION);
      });
    } catch (error) {
      if (sqlState(error) !== '42501') throw error;
      log(
        `memory: mira_admit is of an earlier version and this role may not replace it (${(error as Error).message}); ` +
          'admissions use the installed one, which does the same work. To update it, start one robot as the role that owns the function.',
      );
    }
  }

  protected async execute<T>(what: string, script: Script<T>): Promise<T> {
    if (this.#closed) throw MemoryErrors.error('CLOSED.closed');
    try {
      return await runAsync(script, this.#statements, this.#transact);
    } catch (error) {
      throw fleetError(error, what);
    }
  }

  async #run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.#closed) throw MemoryErrors.error('CLOSED.closed');
    try {
      return await fn();
    } catch (error) {
      throw fleetError(error, what);
    }
  }

  /**
   * Writes a robot's memory (an SQLite snapshot) into this space, keeping its IDs, in one transaction,
   * through the typeorm entities; refused unless the space is empty.
   */
  importSnapshot(
    snapshot: MemorySnapshot,
    onProgress: (done: number, total: number) => void = () => {},
  ): Promise<{ entities: number; aliases: number; memories: number }> {
    return this.#run('copying memory', () =>
      this.#ds.transaction(async (m) => {
        // The space row is locked first: no robot writes into it while it is filled.
        await m.query(`SELECT name FROM spaces WHERE name = $1 FOR UPDATE`, [this.space]);
        const [used] = (await m.query(
          `SELECT (SELECT count(*) FROM entities WHERE space = $1) + (SELECT count(*) FROM memories WHERE space = $1) AS n`,
          [this.space],
        )) as Array<{ n: string }>;
        if (Number(used!.n) > 0) {
          throw FleetErrors.error('SPACE_NOT_EMPTY', {
            space: this.space,
            server: this.#where.server,
            database: this.#where.database,
            count: used!.n,
          });
        }
        const space = this.space;
        const batches: Array<[EntitySchemaLike, Array<Record<string, unknown>>]> = [
          [
            EntitySchemaV1,
            snapshot.entities.map((e) => ({
              space,
              id: e.id,
              entity_type: e.entityType,
              canonical_name: e.canonicalName,
              name_key: e.nameKey,
              created_at: e.createdAt,
            })),
          ],
          [
            AliasSchema,
            snapshot.aliases.map((a) => ({
              space,
              id: a.id,
              entity_id: a.entityId,
              alias: a.alias,
              alias_key: a.aliasKey,
              created_at: a.createdAt,
            })),
          ],
          [
            MemorySchema,
            snapshot.memories.map((r) => ({
              space,
              id: r.id,
              kind: r.kind,
              summary: r.summary,
              predicate: r.predicate,
              value: r.value,
              source_kind: r.sourceKind,
              source_label: r.sourceLabel,
              confidence: r.confidence,
              // A superseded memory is written active and marked below, once the memory that
              // replaced it exists (the row refers to it).
              status: r.status === 'superseded' ? 'active' : r.status,
              created_at: r.createdAt,
              superseded_by: null,
              superseded_at: null,
            })),
          ],
          [
            LinkSchema,
            snapshot.links.map((l) => ({ space, memory_id: l.memoryId, entity_id: l.entityId, role: l.role })),
          ],
          [
            PayloadSchema,
            snapshot.payloads.map((p) => ({
              space,
              id: p.id,
              memory_id: p.memoryId,
              payload_kind: p.payloadKind,
              media_type: p.mediaType,
              text_body: p.textBody,
              object_ref: p.objectRef,
              sha256: p.sha256,
              byte_size: p.byteSize,
              created_at: p.createdAt,
            })),
          ],
          [
            ProposalSchema,
            (snapshot.proposals ?? []).map((p) => ({
              space,
              id: p.id,
              kind: p.kind,
              entity_type: p.entityType,
              name: p.name,
              name_key: p.name === null ? null : prepareName(p.name).key,
              memory_id: p.memoryId,
              value: p.value,
              slot_ids: formatIds(p.slotIds),
              evidence: p.evidence,
              utterance: p.utterance,
              decision: p.decision,
              created_at: p.createdAt,
              expires_at: p.expiresAt,
              decided_at: p.decidedAt,
              reason: p.reason,
              result: p.result,
            })),
          ],
        ];
        const total = batches.reduce((n, [, rows]) => n + rows.length, 0);
        let done = 0;
        onProgress(0, total);
        for (const [schema, rows] of batches) {
          for (let i = 0; i < rows.length; i += 500) {
            const chunk = rows.slice(i, i + 500);
            await m.insert(schema, chunk as never);
            done += chunk.length;
            onProgress(done, total);
          }
        }
        // The objects the payloads refer to, once each, read and verified one at a time.
        const objects = new Map(
          snapshot.payloads.flatMap((p) => (p.payloadKind === 'object_ref' && p.sha256 ? [[p.sha256, p]] : [])),
        );
        if (objects.size > 0 && !snapshot.readObject)
          throw MemoryErrors.error('OBJECT_MISSING.copyUnreadable', { count: objects.size });
        for (const [sha256, payload] of objects) {
          const bytes = await snapshot.readObject!(sha256);
          await m.query(
            `INSERT INTO objects (space, sha256, media_type, byte_size, body) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (space, sha256) DO NOTHING`,
            [space, sha256, payload.mediaType, bytes.length, bytes],
          );
        }
        for (const r of snapshot.memories) {
          if (r.supersededBy == null) continue;
          await m.query(
            `UPDATE memories SET status = 'superseded', superseded_by = $3, superseded_at = $4 WHERE space = $1 AND id = $2`,
            [space, r.id, r.supersededBy, r.supersededAt],
          );
        }
        const next = (ids: number[]) => (ids.length === 0 ? 1 : Math.max(...ids) + 1);
        await m.query(
          `UPDATE spaces SET next_entity = $2, next_alias = $3, next_memory = $4, next_payload = $5,
             next_proposal = $6 WHERE name = $1`,
          [
            this.space,
            next(snapshot.entities.map((e) => e.id)),
            next(snapshot.aliases.map((a) => a.id)),
            next(snapshot.memories.map((r) => r.id)),
            next(snapshot.payloads.map((p) => p.id)),
            next((snapshot.proposals ?? []).map((p) => p.id)),
          ],
        );
        return {
          entities: snapshot.entities.length,
          aliases: snapshot.aliases.length,
          memories: snapshot.memories.length,
        };
      }),
    );
  }

  /** The data source, for the copy command and the benchmark's plans. */
  get dataSource(): DataSource {
    return this.#ds;
  }

  /** Closes the connections, once; a failure is reported (the kernel logs it), never swallowed. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#ds.destroy();
    } catch (error) {
      throw MemoryErrors.error('BACKEND.close', { reason: (error as Error).message }, { cause: error });
    }
  }
}
