import { DataSource, type EntityManager, type EntitySchema, type MigrationInterface } from 'typeorm';
import {
  MemoryErrorCodes,
  MiraError,
  entityRef,
  memoryRef,
  normalizeToken,
  DEFAULT_PROPOSAL_TTL_MS,
  assertDecidable,
  assertNameFree,
  assertEntityNameFree,
  assertSlotUnchanged,
  formatIds,
  prepareProposal,
  proposalFromColumns,
  rejectReason,
  requireProposal,
  slotFactIds,
  slotOf,
  supersedableSlot,
  supersedingMemory,
  toProposal,
  prepareMemory,
  prepareName,
  prepareNewName,
  systemClock,
  writtenMemory,
  type AcceptedProposal,
  type AliasAdded,
  type Clock,
  type Entity,
  type Memory,
  type MemoryLink,
  type MemorySlot,
  type MemoryStore,
  type MemorySnapshot,
  type NewMemory,
  type NewProposal,
  type NewestMemories,
  type Payload,
  type Proposal,
  type ProposalStatus,
  type PayloadInfo,
  type PreparedMemory,
  type SlotDecision,
  type SlotMemory,
  type SlotOutcome,
  type StoreInfo,
} from '@mira/core';
import {
  AliasSchema,
  EntitySchemaV1,
  FLEET_ENTITIES,
  LinkSchema,
  MemorySchema,
  PayloadSchema,
  ProposalSchema,
  type ProposalDbRow,
  type MemoryRow,
  type PayloadRow,
} from './entities.js';

type EntitySchemaLike = EntitySchema<any>;
import { FleetErrors } from './errors.js';
import { SPACE_PATTERN } from './space.js';
import { sameSlot } from '../slot.js';
import { FLEET_APPLICATION, MemorySchemaV1 } from './migrations/0001-schema-v1.js';
import { MemorySchemaV2, TABLES_V1 } from './migrations/0002-proposals.js';
import { FLEET_SCHEMA_VERSION, MemorySchemaV3, TABLES_V2 } from './migrations/0003-admission.js';

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
}

type Runner = Pick<EntityManager, 'query'>;

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

/** A driver or network failure as one clear Mira error. */
export function fleetError(error: unknown, where: string): MiraError {
  if (error instanceof MiraError) return error;
  const e = error as { code?: string; driverError?: { code?: string; message?: string }; message?: string };
  const code = e.driverError?.code ?? e.code;
  const message = e.driverError?.message ?? e.message ?? String(error);
  if (code === '28P01' || code === '28000') return FleetErrors.error('SERVER_AUTH', `${where}: ${message}`);
  if (code === '3D000') return FleetErrors.error('SERVER_DATABASE', `${where}: ${message}`);
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
    return FleetErrors.error(
      'SERVER_UNREACHABLE',
      `${where}: ${message}; nothing was written; the next command tries again`,
    );
  }
  return new MiraError(MemoryErrorCodes.BACKEND, `the memory database failed and nothing was written: ${message}`, {
    cause: error,
  });
}

const num = (v: string | number | null): number => Number(v);

/** The IDs of the entities named `$2` exactly (canonical name or alias) in space `$1`. */
const IDS_BY_KEY = `SELECT id FROM entities WHERE space = $1 AND name_key = $2
  UNION SELECT entity_id FROM aliases WHERE space = $1 AND alias_key = $2`;

/** An entity with its aliases (as JSON, in ID order): one row per entity. */
const ENTITY_SELECT = `SELECT e.id, e.entity_type, e.canonical_name, e.name_key, e.created_at,
  (SELECT coalesce(json_agg(json_build_object('id', a.id, 'alias', a.alias, 'alias_key', a.alias_key,
     'created_at', a.created_at) ORDER BY a.id), '[]')
   FROM aliases a WHERE a.space = e.space AND a.entity_id = e.id) AS aliases
  FROM entities e`;

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

/** The active memories of slot ($2, $3, $4) in space $1 with their links, as an admission sees them. */
const SLOT_MEMORIES = `SELECT m.id, m.kind, m.predicate, m.value,
  (SELECT json_agg(json_build_array(k.entity_id, k.role)) FROM memory_links k
   WHERE k.space = m.space AND k.memory_id = m.id) AS links
  FROM memories m WHERE m.space = $1 AND m.status = 'active' AND m.predicate = $4 AND m.id IN (
    SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2 AND role = $3) ORDER BY m.id`;

interface EntityJoinedRow {
  id: string;
  entity_type: string;
  canonical_name: string;
  name_key: string;
  created_at: string;
  aliases: Array<{ id: number; alias: string; alias_key: string; created_at: string }>;
}
type MemoryJoinedRow = Omit<MemoryRow, 'space'> & {
  supersedes: string | null;
  links: Array<{ entity_id: number; role: string; canonical_name: string }>;
  payloads: Array<
    Omit<PayloadRow, 'space' | 'memory_id' | 'text_body' | 'id' | 'byte_size'> & {
      id: number;
      byte_size: number;
    }
  >;
};

function toEntity(row: EntityJoinedRow): Entity {
  const id = num(row.id);
  return {
    id,
    ref: entityRef(id),
    entityType: row.entity_type,
    canonicalName: row.canonical_name,
    nameKey: row.name_key,
    createdAt: row.created_at,
    aliases: row.aliases.map((a) => ({
      id: num(a.id),
      entityId: id,
      alias: a.alias,
      aliasKey: a.alias_key,
      createdAt: a.created_at,
    })),
  };
}

function toMemory(row: MemoryJoinedRow): Memory {
  return {
    id: num(row.id),
    ref: memoryRef(num(row.id)),
    kind: row.kind,
    summary: row.summary,
    predicate: row.predicate,
    value: row.value,
    source: { kind: row.source_kind, label: row.source_label },
    confidence: row.confidence === null ? null : Number(row.confidence),
    status: row.status,
    createdAt: row.created_at,
    supersededBy: row.superseded_by === null ? null : num(row.superseded_by),
    supersededAt: row.superseded_at,
    supersedes: row.supersedes === null ? null : num(row.supersedes),
    links: row.links.map((l): MemoryLink => ({
      entityId: num(l.entity_id),
      entityRef: entityRef(num(l.entity_id)),
      entityName: l.canonical_name,
      role: l.role,
    })),
    payloads: row.payloads.map((p) => ({
      id: num(p.id),
      payloadKind: p.payload_kind,
      mediaType: p.media_type,
      byteSize: num(p.byte_size),
      objectRef: p.object_ref,
      sha256: p.sha256,
      createdAt: p.created_at,
    })),
  };
}

/** The items of `ids` in that order (rows come back in whatever order the plan gives). */
function inOrder<T extends { id: number }>(ids: readonly number[], items: readonly T[]): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Persistent memory on PostgreSQL through typeorm, for a fleet: robots naming the same space share
 * entities and memories. The same contract as the SQLite store: exact keys computed by Mira, one
 * transaction per write, admission decided under a lock on the slot so robots admitting into one
 * slot at once are decided one after the other.
 */
export class PostgresMemoryStore implements MemoryStore {
  readonly backend = 'postgres';
  readonly space: string;
  readonly #ds: DataSource;
  readonly #clock: Clock;
  readonly #proposalTtlMs: number;
  readonly #where: { server: string; database: string; user: string };
  #closed = false;

  private constructor(ds: DataSource, options: PostgresMemoryStoreOptions) {
    this.#ds = ds;
    this.space = options.space;
    this.#clock = options.clock ?? systemClock;
    this.#proposalTtlMs = options.proposalTtlMs ?? DEFAULT_PROPOSAL_TTL_MS;
    this.#where = describeUrl(options.url);
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
      throw new MiraError(
        MemoryErrorCodes.BACKEND,
        `memory space "${options.space}" is not a valid name (a-z, 0-9, _ . -; at most 64)`,
      );
    }
    const where = describeUrl(options.url);
    const ds = new DataSource({
      type: 'postgres',
      url: options.url,
      entities: FLEET_ENTITIES,
      migrations: [MemorySchemaV1, MemorySchemaV2, MemorySchemaV3],
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
      const store = new PostgresMemoryStore(ds, options);
      if (options.readOnly) return store;
      await ds.query(`INSERT INTO spaces (name, created_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
        options.space,
        store.#now(),
      ]);
      // What was said beside the evidence of proposals decided or expired since (rows of earlier versions
      // included): erased at open, as every new proposal erases it for those that expired meanwhile.
      await store.#eraseSpentUtterances(ds);
      return store;
    } catch (error) {
      await ds.destroy().catch(() => undefined);
      throw fleetError(error, `cannot open memory at ${where.server}/${where.database}`);
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
        throw FleetErrors.error(
          'FOREIGN_DATABASE',
          `${db} holds no Mira memory yet; start a robot on it once, then serve it read-only`,
        );
      }
      await ds.runMigrations({ transaction: 'all' });
      return;
    }
    const names = new Set(tables.map((t) => t.table_name));
    if (!names.has('mira_meta')) {
      throw FleetErrors.error(
        'FOREIGN_DATABASE',
        `${db} holds tables (${[...names].slice(0, 5).join(', ')}) but no Mira schema version: not Mira's database; left unchanged`,
      );
    }
    const meta = new Map(
      ((await ds.query(`SELECT key, value FROM mira_meta`)) as Array<{ key: string; value: string }>).map((r) => [
        r.key,
        r.value,
      ]),
    );
    if (meta.get('application') !== FLEET_APPLICATION) {
      throw FleetErrors.error(
        'FOREIGN_DATABASE',
        `${db} belongs to another application (${meta.get('application') ?? 'unnamed'}); left unchanged`,
      );
    }
    const version = Number(meta.get('schema_version'));
    if ((version === 1 || version === 2) && !readOnly) {
      await PostgresMemoryStore.#upgrade(ds, db, names, version);
      return;
    }
    if (version !== FLEET_SCHEMA_VERSION) {
      throw FleetErrors.error(
        'UNSUPPORTED_SCHEMA',
        `${db} has Mira's memory schema version ${meta.get('schema_version')}; this build reads version ${FLEET_SCHEMA_VERSION}; left unchanged`,
      );
    }
  }

  /**
   * Version 1 or 2 → 3, once, in one transaction under an advisory lock (robots starting together upgrade
   * one after the other; the later ones find version 3). Only Mira's exact tables and migration history of
   * that version are upgraded; anything else is refused and left unchanged.
   */
  static async #upgrade(ds: DataSource, db: string, names: ReadonlySet<string>, from: 1 | 2): Promise<void> {
    const expected = [...(from === 1 ? TABLES_V1 : TABLES_V2), 'mira_migrations'].sort();
    const history = [new MemorySchemaV1().name, ...(from === 2 ? [new MemorySchemaV2().name] : [])];
    const found = [...names].sort();
    const ran = ((await ds.query(`SELECT name FROM mira_migrations ORDER BY id`)) as Array<{ name: string }>).map(
      (r) => r.name,
    );
    if (found.join(',') !== expected.join(',') || ran.join(',') !== history.join(',')) {
      throw FleetErrors.error(
        'UNSUPPORTED_SCHEMA',
        `${db} says Mira's memory schema version ${from}, but its tables (${found.join(', ')}) or migrations (${ran.join(', ')}) are not what version ${from} made; it is not upgraded and was left unchanged`,
      );
    }
    const q = ds.createQueryRunner();
    try {
      await q.startTransaction();
      await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('mira-memory-schema', 0))`);
      const [row] = (await q.query(`SELECT value FROM mira_meta WHERE key = 'schema_version'`)) as Array<{
        value: string;
      }>;
      const steps: Array<[number, MigrationInterface & { name: string }, number]> = [
        [1, new MemorySchemaV2(), 1700000000002],
        [2, new MemorySchemaV3(), 1700000000003],
      ];
      for (const [version, migration, timestamp] of steps) {
        if (Number(row?.value) > version) continue;
        await migration.up(q);
        await q.query(`INSERT INTO mira_migrations (timestamp, name) VALUES ($1, $2)`, [timestamp, migration.name]);
      }
      await q.commitTransaction();
    } catch (error) {
      if (q.isTransactionActive) await q.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await q.release();
    }
  }

  #now(): string {
    return this.#clock.now().toISOString();
  }

  async #run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new MiraError(MemoryErrorCodes.CLOSED, 'the memory store is closed');
    try {
      return await fn();
    } catch (error) {
      throw fleetError(error, what);
    }
  }

  /** One transaction (READ COMMITTED; the slot and ID locks below serialise what must be). */
  #tx<T>(fn: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.#ds.transaction(fn);
  }

  /** The next ID of `kind` in this space; locks the space's row until the transaction ends. */
  async #nextId(m: Runner, kind: 'entity' | 'alias' | 'memory' | 'payload' | 'proposal'): Promise<number> {
    const rows = (await m.query(
      `UPDATE spaces SET next_${kind} = next_${kind} + 1 WHERE name = $1 RETURNING next_${kind} - 1 AS id`,
      [this.space],
    )) as [Array<{ id: string }>, number] | Array<{ id: string }>;
    // typeorm's postgres driver answers an UPDATE … RETURNING with [rows, count].
    const list = (Array.isArray(rows[0]) ? rows[0] : rows) as Array<{ id: string }>;
    return num(list[0]!.id);
  }

  async #entity(m: Runner, id: number): Promise<Entity | undefined> {
    return (await this.#entities(m, [id]))[0];
  }

  /**
   * The entities of `ids` that exist, in that order, each with its aliases: one statement (the aliases
   * aggregated as JSON), however many there are.
   */
  async #entities(m: Runner, ids: readonly number[]): Promise<Entity[]> {
    if (ids.length === 0) return [];
    const rows = (await m.query(`${ENTITY_SELECT} WHERE e.space = $1 AND e.id = ANY($2::bigint[])`, [
      this.space,
      ids,
    ])) as EntityJoinedRow[];
    return inOrder(ids, rows.map(toEntity));
  }

  /** The memories of `ids` that exist, in that order, with their links and payloads: one statement. */
  async #memories(m: Runner, ids: readonly number[]): Promise<Memory[]> {
    if (ids.length === 0) return [];
    const rows = (await m.query(`${MEMORY_SELECT} WHERE m.space = $1 AND m.id = ANY($2::bigint[])`, [
      this.space,
      ids,
    ])) as MemoryJoinedRow[];
    return inOrder(ids, rows.map(toMemory));
  }

  /** A memory's payloads; the bodies only when asked (recall and listings never load them). */
  async #payloadRows(m: Runner, memoryId: number, withBodies = false): Promise<PayloadRow[]> {
    return (await m.query(
      `SELECT id, payload_kind, media_type, ${withBodies ? 'text_body' : 'NULL AS text_body'}, object_ref, sha256, byte_size, created_at
       FROM payloads WHERE space = $1 AND memory_id = $2 ORDER BY id`,
      [this.space, memoryId],
    )) as PayloadRow[];
  }

  async #entitiesByKey(m: Runner, key: string): Promise<number[]> {
    const rows = (await m.query(`${IDS_BY_KEY} ORDER BY 1`, [this.space, key])) as Array<{ id: string }>;
    return rows.map((r) => num(r.id));
  }

  async #memory(m: Runner, id: number): Promise<Memory | undefined> {
    return (await this.#memories(m, [id]))[0];
  }

  info(): Promise<StoreInfo> {
    return this.#run('reading memory counts', async () => {
      const [c] = (await this.#ds.query(
        `SELECT (SELECT count(*) FROM entities WHERE space = $1) AS entities,
                (SELECT count(*) FROM aliases WHERE space = $1) AS aliases,
                (SELECT count(*) FROM memories WHERE space = $1) AS memories,
                (SELECT count(*) FROM memories WHERE space = $1 AND status = 'active') AS active,
                (SELECT count(*) FROM memory_links WHERE space = $1) AS links,
                (SELECT count(*) FROM payloads WHERE space = $1) AS payloads`,
        [this.space],
      )) as Array<Record<string, string>>;
      return {
        backend: this.backend,
        location: this.location,
        schemaVersion: FLEET_SCHEMA_VERSION,
        entities: num(c!.entities!),
        aliases: num(c!.aliases!),
        memories: num(c!.memories!),
        activeMemories: num(c!.active!),
        links: num(c!.links!),
        payloads: num(c!.payloads!),
      };
    });
  }

  /** Validates and writes an entity: what `createEntity` and an accepted entity proposal both do. */
  async #insertEntity(m: Runner, input: { entityType: string; canonicalName: string }, now: string): Promise<number> {
    const entityType = normalizeToken(input.entityType, 'entity type');
    const name = prepareNewName(input.canonicalName, 'canonical name');
    const id = await this.#nextId(m, 'entity');
    await m.query(
      `INSERT INTO entities (space, id, entity_type, canonical_name, name_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [this.space, id, entityType, name.display, name.key, now],
    );
    return id;
  }

  createEntity(input: { entityType: string; canonicalName: string }): Promise<Entity> {
    return this.#run('creating an entity', () =>
      this.#tx(async (m) => (await this.#entity(m, await this.#insertEntity(m, input, this.#now())))!),
    );
  }

  addAlias(entityId: number, alias: string): Promise<AliasAdded> {
    return this.#run('adding an alias', async () => {
      const name = prepareNewName(alias, 'alias');
      return this.#tx(async (m) => {
        const entity = await this.#entity(m, entityId);
        if (!entity) {
          throw new MiraError(
            MemoryErrorCodes.ENTITY_NOT_FOUND,
            `there is no entity ${entityRef(entityId)}; find one with "memory entity find"`,
          );
        }
        if (entity.nameKey === name.key || entity.aliases.some((a) => a.aliasKey === name.key)) {
          throw new MiraError(
            MemoryErrorCodes.ALIAS_EXISTS,
            `${entity.ref} "${entity.canonicalName}" is already named "${name.display}" (same exact key); nothing was added`,
          );
        }
        const id = await this.#nextId(m, 'alias');
        await m.query(
          `INSERT INTO aliases (space, id, entity_id, alias, alias_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
          [this.space, id, entityId, name.display, name.key, this.#now()],
        );
        const alsoNames = await this.#entities(
          m,
          (await this.#entitiesByKey(m, name.key)).filter((e) => e !== entityId),
        );
        const added = (await this.#entity(m, entityId))!;
        return { entity: added, alias: added.aliases.find((a) => a.id === id)!, alsoNames };
      });
    });
  }

  getEntity(entityId: number): Promise<Entity | undefined> {
    return this.#run('reading an entity', () => this.#entity(this.#ds, entityId));
  }

  listEntities(
    options: { readonly entityType?: string | null; readonly offset?: number; readonly limit?: number } = {},
  ): Promise<{ entities: Entity[]; total: number }> {
    return this.#run('listing entities', async () => {
      const type = options.entityType ?? null;
      const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
      const offset = Math.max(options.offset ?? 0, 0);
      // The page and the total in one statement (the window counts the rows before LIMIT); a page past
      // the end has no row to carry the total, so only then is it counted on its own.
      const rows = (await this.#ds.query(
        `${ENTITY_SELECT.replace('SELECT ', 'SELECT count(*) OVER () AS total, ')}
         WHERE e.space = $1 AND ($2::text IS NULL OR e.entity_type = $2) ORDER BY e.id LIMIT $3 OFFSET $4`,
        [this.space, type, limit, offset],
      )) as Array<EntityJoinedRow & { total: string }>;
      if (rows.length > 0) return { entities: rows.map(toEntity), total: num(rows[0]!.total) };
      const [count] = (await this.#ds.query(
        `SELECT count(*) AS n FROM entities WHERE space = $1 AND ($2::text IS NULL OR entity_type = $2)`,
        [this.space, type],
      )) as Array<{ n: string }>;
      return { entities: [], total: num(count!.n) };
    });
  }

  revision(): Promise<string> {
    // The next IDs move with every write, from any robot; an accept or reject changes no ID, so the
    // count of decided proposals is part of it (a supersede also creates a memory).
    return this.#run('reading the memory revision', async () => {
      const [r] = (await this.#ds.query(
        `SELECT s.next_entity, s.next_alias, s.next_memory, s.next_payload, s.next_proposal,
                (SELECT count(*) FROM proposals p WHERE p.space = s.name AND p.decision <> 'pending') AS decided
         FROM spaces s WHERE s.name = $1`,
        [this.space],
      )) as Array<Record<string, string>>;
      return r ? Object.values(r).join(':') : '';
    });
  }

  findEntities(name: string): Promise<Entity[]> {
    return this.#run('finding entities', async () => {
      const { key } = prepareName(name);
      const rows = (await this.#ds.query(
        `${ENTITY_SELECT} WHERE e.space = $1 AND e.id IN (${IDS_BY_KEY}) ORDER BY e.id`,
        [this.space, key],
      )) as EntityJoinedRow[];
      return rows.map(toEntity);
    });
  }

  findEntityIds(name: string): Promise<number[]> {
    return this.#run('finding entities', async () => this.#entitiesByKey(this.#ds, prepareName(name).key));
  }

  async #insertMemory(m: Runner, p: PreparedMemory): Promise<Memory> {
    const links: MemoryLink[] = [];
    for (const link of p.links) {
      const [row] = (await m.query(`SELECT canonical_name FROM entities WHERE space = $1 AND id = $2`, [
        this.space,
        link.entityId,
      ])) as Array<{ canonical_name: string }>;
      if (!row) {
        throw new MiraError(
          MemoryErrorCodes.ENTITY_NOT_FOUND,
          `there is no entity ${entityRef(link.entityId)}; find one with "memory entity find"`,
        );
      }
      links.push({
        entityId: link.entityId,
        entityRef: entityRef(link.entityId),
        entityName: row.canonical_name,
        role: link.role,
      });
    }
    const now = this.#now();
    const id = await this.#nextId(m, 'memory');
    await m.query(
      `INSERT INTO memories (space, id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active', $10)`,
      [this.space, id, p.kind, p.summary, p.predicate, p.value, p.sourceKind, p.sourceLabel, p.confidence, now],
    );
    for (const link of links) {
      await m.query(`INSERT INTO memory_links (space, memory_id, entity_id, role) VALUES ($1, $2, $3, $4)`, [
        this.space,
        id,
        link.entityId,
        link.role,
      ]);
    }
    const byteSize = Buffer.byteLength(p.payloadText, 'utf8');
    const payloadId = await this.#nextId(m, 'payload');
    await m.query(
      `INSERT INTO payloads (space, id, memory_id, payload_kind, media_type, text_body, byte_size, created_at)
       VALUES ($1, $2, $3, 'inline_text', 'text/plain', $4, $5, $6)`,
      [this.space, payloadId, id, p.payloadText, byteSize, now],
    );
    return writtenMemory(p, { id, createdAt: now, links, payloadId, byteSize });
  }

  createMemory(input: NewMemory): Promise<Memory> {
    return this.#run('writing a memory', async () => {
      const p = prepareMemory(input);
      return this.#tx((m) => this.#insertMemory(m, p));
    });
  }

  /** The active memories of a slot, ascending: one statement. */
  async #slot(m: Runner, slot: MemorySlot): Promise<Memory[]> {
    const rows = (await m.query(
      `${MEMORY_SELECT} WHERE m.space = $1 AND m.status = 'active' AND m.predicate = $4 AND m.id IN (
         SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2 AND role = $3) ORDER BY m.id`,
      [this.space, slot.entityId, slot.role, slot.predicate],
    )) as MemoryJoinedRow[];
    return rows.map(toMemory);
  }

  admitToSlot<R>(
    slot: MemorySlot,
    decide: (existing: readonly SlotMemory[]) => SlotDecision<R>,
  ): Promise<SlotOutcome<R>> {
    return this.#run('admitting a memory', async () => {
      // Read without a lock or a transaction (one statement sees one committed state): most decisions
      // write nothing, and they hold no robot up.
      const seen = await this.#slotMemories(this.#ds, slot);
      const first = decide(seen);
      if (!('create' in first)) return { answer: first.answer };
      // The write in one statement (mira_admit): the slot's lock, the check that the slot is still what
      // was read, the IDs and the rows, with no transaction waiting on this client.
      const written = await this.#admitWrite(slot, seen, prepareMemory(first.create));
      if (written) return { created: written };
      // The slot changed since it was read: decided again under the lock, in a transaction.
      return this.#tx(async (m): Promise<SlotOutcome<R>> => {
        // Robots writing into one slot at once wait here for each other, so each decides on what the one
        // before it wrote (the lock lasts until this transaction ends).
        await this.#lockSlot(m, slot);
        const now = await this.#slotMemories(m, slot);
        const decision = sameSlot(now, seen) ? first : decide(now);
        if ('create' in decision) return { created: await this.#insertMemory(m, prepareMemory(decision.create)) };
        return { answer: decision.answer };
      });
    });
  }

  /** Writes `p` if the slot still holds `seen`: one round trip; undefined when it changed (nothing written). */
  async #admitWrite(slot: MemorySlot, seen: readonly SlotMemory[], p: PreparedMemory): Promise<Memory | undefined> {
    const now = this.#now();
    const byteSize = Buffer.byteLength(p.payloadText, 'utf8');
    const [row] = (await this.#ds.query(
      `SELECT memory_id, payload_id, missing_entity, link_names
       FROM mira_admit($1, $2, $3, $4, $5::bigint[], $6, $7, $8, $9, $10, $11, $12, $13::bigint[], $14::text[], $15, $16, $17)`,
      [
        this.space,
        slot.entityId,
        slot.role,
        slot.predicate,
        seen.map((m) => m.id),
        p.kind,
        p.summary,
        p.predicate,
        p.value,
        p.sourceKind,
        p.sourceLabel,
        p.confidence,
        p.links.map((l) => l.entityId),
        p.links.map((l) => l.role),
        p.payloadText,
        byteSize,
        now,
      ],
    )) as Array<{
      memory_id: string | null;
      payload_id: string | null;
      missing_entity: string | null;
      link_names: string[] | null;
    }>;
    if (!row) return undefined;
    if (row.missing_entity !== null) {
      const id = num(row.missing_entity);
      throw new MiraError(
        MemoryErrorCodes.ENTITY_NOT_FOUND,
        `there is no entity ${entityRef(id)}; find one with "memory entity find"`,
      );
    }
    const links = p.links.map((link, i): MemoryLink => ({
      entityId: link.entityId,
      entityRef: entityRef(link.entityId),
      entityName: row.link_names![i]!,
      role: link.role,
    }));
    return writtenMemory(p, {
      id: num(row.memory_id),
      createdAt: now,
      links,
      payloadId: num(row.payload_id),
      byteSize,
    });
  }

  /** What an admission sees of a slot: one statement. */
  async #slotMemories(m: Runner, slot: MemorySlot): Promise<SlotMemory[]> {
    const rows = (await m.query(SLOT_MEMORIES, [this.space, slot.entityId, slot.role, slot.predicate])) as Array<{
      id: string;
      kind: string;
      predicate: string | null;
      value: string | null;
      links: Array<[number, string]>;
    }>;
    return rows.map((r) => ({
      id: num(r.id),
      ref: memoryRef(num(r.id)),
      kind: r.kind,
      predicate: r.predicate,
      value: r.value,
      links: r.links.map(([entityId, role]) => ({ entityId: num(entityId), role })),
    }));
  }

  getMemory(memoryId: number): Promise<Memory | undefined> {
    return this.#run('reading a memory', () => this.#memory(this.#ds, memoryId));
  }

  getPayloads(memoryId: number): Promise<Payload[]> {
    return this.#run('reading payloads', async () => {
      const rows = await this.#payloadRows(this.#ds, memoryId, true);
      return rows.map((row) => ({ ...toPayloadInfo(row), text: row.text_body }));
    });
  }

  listActiveMemories(entityId: number, options: { newest?: number } = {}): Promise<NewestMemories> {
    return this.#run('listing memories', async () => (await this.#newestActive([entityId], options.newest))[0]!);
  }

  listActiveMemoriesOf(
    entityIds: readonly number[],
    options: { readonly newest?: number } = {},
  ): Promise<NewestMemories[]> {
    return this.#run('listing memories', () => this.#newestActive(entityIds, options.newest));
  }

  /** The newest active memories of each entity, in the order of `entityIds`: one statement for them all. */
  async #newestActive(entityIds: readonly number[], newest: number | undefined): Promise<NewestMemories[]> {
    if (entityIds.length === 0) return [];
    // Walks memory_links_by_entity backwards for each entity (see the plans in the fleet benchmark).
    const rows = (await this.#ds.query(NEWEST_ACTIVE, [this.space, entityIds, newest ?? null])) as Array<
      MemoryJoinedRow & { of_entity: string; total: string }
    >;
    const byEntity = new Map<number, NewestMemories>();
    for (const row of rows) {
      const entity = num(row.of_entity);
      let list = byEntity.get(entity);
      if (!list) byEntity.set(entity, (list = { memories: [], total: num(row.total) }));
      if (row.id !== null) (list.memories as Memory[]).push(toMemory(row));
    }
    return entityIds.map((id) => byEntity.get(id)!);
  }

  findActiveBySlot(entityId: number, role: string, predicate: string): Promise<Memory[]> {
    return this.#run('reading a slot', () => this.#slot(this.#ds, { entityId, role, predicate }));
  }

  listMemoryHistory(entityId: number): Promise<Memory[]> {
    return this.#run('reading memory history', async () => {
      const rows = (await this.#ds.query(
        `${MEMORY_SELECT} WHERE m.space = $1
         AND m.id IN (SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2) ORDER BY m.id`,
        [this.space, entityId],
      )) as MemoryJoinedRow[];
      return rows.map(toMemory);
    });
  }

  async #proposal(m: Runner, id: number): Promise<Proposal | undefined> {
    const [row] = (await m.query(`SELECT * FROM proposals WHERE space = $1 AND id = $2`, [this.space, id])) as
      ProposalDbRow[] | [];
    return row && toProposal(proposalFromColumns(row), this.#clock.now());
  }

  /** Locks a slot until the transaction ends: admissions and accepts into one slot go one after the other. */
  async #lockSlot(m: Runner, slot: MemorySlot): Promise<void> {
    await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `mira-slot\u0001${this.space}\u0001${slot.entityId}\u0001${slot.role}\u0001${slot.predicate}`,
    ]);
  }

  /** Keeps only the evidence of this space's decided or expired proposals. */
  async #eraseSpentUtterances(m: Runner, now = this.#now()): Promise<void> {
    await m.query(
      `UPDATE proposals SET utterance = evidence
       WHERE space = $1 AND utterance <> evidence AND (decision <> 'pending' OR expires_at <= $2)`,
      [this.space, now],
    );
  }

  createProposal(input: NewProposal): Promise<Proposal> {
    return this.#run('writing a proposal', async () => {
      const p = prepareProposal(input, this.#clock.now(), this.#proposalTtlMs);
      return this.#tx(async (m) => {
        await this.#eraseSpentUtterances(m, p.createdAt);
        let slotIds: number[] = [];
        if (p.kind === 'entity') {
          assertNameFree(p.name!, await this.#entitiesByKey(m, p.nameKey!));
        } else {
          const { slot } = supersedableSlot(await this.#memory(m, p.memoryId!), p.memoryId!);
          slotIds = slotFactIds(await this.#slot(m, slot));
        }
        const id = await this.#nextId(m, 'proposal');
        await m.query(
          `INSERT INTO proposals (space, id, kind, entity_type, name, name_key, memory_id, value, slot_ids, evidence, utterance, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            this.space,
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
        return (await this.#proposal(m, id))!;
      });
    });
  }

  getProposal(proposalId: number): Promise<Proposal | undefined> {
    return this.#run('reading a proposal', () => this.#proposal(this.#ds, proposalId));
  }

  listProposals(options: { readonly status?: ProposalStatus } = {}): Promise<Proposal[]> {
    return this.#run('listing proposals', async () => {
      const now = this.#clock.now();
      const rows = (await this.#ds.query(`SELECT * FROM proposals WHERE space = $1 ORDER BY id`, [
        this.space,
      ])) as ProposalDbRow[];
      const all = rows.map((row) => toProposal(proposalFromColumns(row), now));
      return options.status === undefined ? all : all.filter((p) => p.status === options.status);
    });
  }

  acceptProposal(proposalId: number): Promise<AcceptedProposal> {
    return this.#run('accepting a proposal', () =>
      this.#tx(async (m): Promise<AcceptedProposal> => {
        // The proposal's row is locked: a second accept of it waits, then finds it decided.
        await m.query(`SELECT id FROM proposals WHERE space = $1 AND id = $2 FOR UPDATE`, [this.space, proposalId]);
        const proposal = requireProposal(await this.#proposal(m, proposalId), proposalId);
        assertDecidable(proposal, true);
        const now = this.#now();
        const decide = (result: string) =>
          m.query(
            `UPDATE proposals SET decision = 'accepted', decided_at = $3, result = $4, utterance = evidence WHERE space = $1 AND id = $2`,
            [this.space, proposalId, now, result],
          );
        if (proposal.kind === 'entity') {
          assertEntityNameFree(proposal, await this.#entitiesByKey(m, prepareName(proposal.name!).key));
          const entityId = await this.#insertEntity(
            m,
            { entityType: proposal.entityType!, canonicalName: proposal.name! },
            now,
          );
          await decide(entityRef(entityId));
          return { proposal: (await this.#proposal(m, proposalId))!, entity: (await this.#entity(m, entityId))! };
        }
        const before = await this.#memory(m, proposal.memoryId!);
        const slot = before && slotOf(before);
        if (slot) await this.#lockSlot(m, slot);
        const old = await this.#memory(m, proposal.memoryId!);
        assertSlotUnchanged(proposal, old, slot ? slotFactIds(await this.#slot(m, slot)) : []);
        const created = await this.#insertMemory(m, prepareMemory(supersedingMemory(old!, proposal)));
        await m.query(
          `UPDATE memories SET status = 'superseded', superseded_by = $3, superseded_at = $4
           WHERE space = $1 AND id = $2 AND status = 'active'`,
          [this.space, old!.id, created.id, now],
        );
        await decide(created.ref);
        return {
          proposal: (await this.#proposal(m, proposalId))!,
          memory: (await this.#memory(m, created.id))!,
          superseded: (await this.#memory(m, old!.id))!,
        };
      }),
    );
  }

  rejectProposal(proposalId: number, reason: string | null = null): Promise<Proposal> {
    return this.#run('rejecting a proposal', () =>
      this.#tx(async (m) => {
        await m.query(`SELECT id FROM proposals WHERE space = $1 AND id = $2 FOR UPDATE`, [this.space, proposalId]);
        const proposal = requireProposal(await this.#proposal(m, proposalId), proposalId);
        assertDecidable(proposal, false);
        await m.query(
          `UPDATE proposals SET decision = 'rejected', decided_at = $3, reason = $4, utterance = evidence WHERE space = $1 AND id = $2`,
          [this.space, proposalId, this.#now(), rejectReason(reason)],
        );
        return (await this.#proposal(m, proposalId))!;
      }),
    );
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
      this.#tx(async (m) => {
        // The space row is locked first: no robot writes into it while it is filled.
        await m.query(`SELECT name FROM spaces WHERE name = $1 FOR UPDATE`, [this.space]);
        const [used] = (await m.query(
          `SELECT (SELECT count(*) FROM entities WHERE space = $1) + (SELECT count(*) FROM memories WHERE space = $1) AS n`,
          [this.space],
        )) as Array<{ n: string }>;
        if (num(used!.n) > 0) {
          throw FleetErrors.error(
            'SPACE_NOT_EMPTY',
            `space ${this.space} at ${this.#where.server}/${this.#where.database} already holds ${used!.n} entities and memories; nothing was copied`,
          );
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#ds.destroy().catch(() => undefined);
  }
}

function toPayloadInfo(row: PayloadRow): PayloadInfo {
  return {
    id: num(row.id),
    payloadKind: row.payload_kind,
    mediaType: row.media_type,
    byteSize: num(row.byte_size),
    objectRef: row.object_ref,
    sha256: row.sha256,
    createdAt: row.created_at,
  };
}
