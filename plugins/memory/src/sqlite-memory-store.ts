import { MiraError, systemClock, type Clock } from '@mira/core';
import {
  DEFAULT_MAX_OBJECT_BYTES,
  MemoryErrors,
  DEFAULT_PROPOSAL_TTL_MS,
  type Entity,
  type Memory,
  type MemorySlot,
  type MemorySnapshot,
  type MemoryStatus,
  objectRef,
  verifiedObject,
  type NewestMemories,
  type Recalled,
  type ObjectUsage,
  type Payload,
  type PreparedMemory,
  type PreparedObject,
  type ProposalRow,
  type SlotMemory,
} from '@mira/memory-contract';
import { openDatabase, openDatabaseReadOnly, type SqliteDatabase, type UpgradeDone } from '@mira/sqlite';
import { ScriptedMemoryStore } from './algorithm.js';
import { ObjectFiles } from './object-files.js';
import type { PreparedProposal } from './rules.js';
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
  type ProposalColumns,
} from './rows.js';
import { MEMORY_SCHEMA, SCHEMA_VERSION } from './schema-v2.js';
import { soleId } from './slot.js';
import { runSync, type Script } from './script.js';
import type { MemoryStatements, StoreCounts } from './statements.js';

/** How to open a {@link SqliteMemoryStore}. */
export interface SqliteMemoryStoreOptions {
  /** Source of creation timestamps; the system clock by default. */
  readonly clock?: Clock;
  /** How long a write waits for another process's lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /** Open an existing file read-only (`mira mcp`): every write is refused. */
  readonly readOnly?: boolean;
  /** How long a proposal waits for the operator, in ms (default 7 days). */
  readonly proposalTtlMs?: number;
  /** Hears that a file of an earlier schema version was upgraded, and where its backup is. */
  readonly onUpgrade?: (done: UpgradeDone) => void;
  /** Called once when this open created the store (a new file, or an empty one): the operator is told. */
  readonly onCreated?: () => void;
  /** The largest object payload a memory may keep, in bytes (default 4 MiB). */
  readonly maxObjectBytes?: number;
  /** Where a line for the operator goes (a file made owner-only); `mira: <line>` on stderr by default. */
  readonly log?: (line: string) => void;
}

/** The most names and aliases one range read of {@link SqliteMemoryStore.entityIdsByKeys} takes in. */
const KEY_RANGE_LIMIT = 64;

/**
 * Compares two strings in code-point order, which is UTF-8's byte order (SQLite's BINARY collation):
 * JavaScript's `<` compares UTF-16 units, which puts a character past U+FFFF (a surrogate pair) before
 * U+E000–U+FFFF.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}

/** A UTF-16 unit moved so that surrogates sort after U+E000–U+FFFF. */
const inCodePointOrder = (unit: number) => (unit < 0xd800 ? unit : unit <= 0xdfff ? unit + 0x2000 : unit - 0x800);

const PROPOSAL_COLUMNS =
  'id, kind, entity_type, name, memory_id, value, slot_ids, evidence, utterance, decision, created_at, expires_at, decided_at, reason, result';
const MEMORY_COLUMNS =
  'id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at, superseded_by, superseded_at';

/**
 * The SQLite dialect of the store's statements (better-sqlite3): each prepared once, each answered
 * synchronously, so a whole script runs inside one better-sqlite3 transaction.
 */
class SqliteStatements implements MemoryStatements {
  readonly #db: SqliteDatabase;
  readonly #objects: ObjectFiles;
  readonly #readOnly: boolean;
  readonly #s;

  constructor(db: SqliteDatabase, objects: ObjectFiles, readOnly: boolean) {
    this.#db = db;
    this.#objects = objects;
    this.#readOnly = readOnly;
    this.#s = {
      insertEntity: db.prepare(
        'INSERT INTO entities (entity_type, canonical_name, name_key, created_at) VALUES (?, ?, ?, ?)',
      ),
      entityNameById: db.prepare('SELECT canonical_name FROM entities WHERE id = ?').pluck(),
      entityById: db.prepare('SELECT id, entity_type, canonical_name, name_key, created_at FROM entities WHERE id = ?'),
      aliasesOf: db.prepare('SELECT id, alias, alias_key, created_at FROM aliases WHERE entity_id = ? ORDER BY id'),
      insertAlias: db.prepare('INSERT INTO aliases (entity_id, alias, alias_key, created_at) VALUES (?, ?, ?, ?)'),
      entityIdsByKey: db
        .prepare(
          'SELECT id FROM entities WHERE name_key = ? UNION SELECT entity_id FROM aliases WHERE alias_key = ? ORDER BY 1',
        )
        .pluck(),
      // Several keys in one statement (a JSON array; `k.key` is each key's index): one call into SQLite
      // costs about what one key's lookup does, so remember's longer-name check adds little to its name's.
      entityIdsByKeys: db.prepare(
        `SELECT k.key AS i, e.id AS id FROM json_each(?) k JOIN entities e ON e.name_key = k.value
         UNION SELECT k.key, a.entity_id FROM json_each(?) k JOIN aliases a ON a.alias_key = k.value ORDER BY 1, 2`,
      ),
      // The keys and IDs of every name and alias between two keys (byte order, as the indexes hold them): one
      // seek into each index for remember's name and its longer names, which sort beside it (anna, anna maria).
      // Bounded: a range holding more than the limit is read key by key instead.
      // Rows as [key, id] arrays, the bounds given twice (positional parameters bind faster than named ones).
      keysBetween: db
        .prepare(
          `SELECT name_key, id FROM entities WHERE name_key BETWEEN ? AND ?
             UNION ALL SELECT alias_key, entity_id FROM aliases WHERE alias_key BETWEEN ? AND ? LIMIT ${KEY_RANGE_LIMIT + 1}`,
        )
        .raw(),
      // keysBetween's rows (tagged 0: [0, key, id]) and, when exactly one entity has the name (the 1st and
      // 2nd parameters), its slotMemories' rows (tagged 1: [1, id, kind, value, links]): admission's two reads
      // in one statement. The name's entities are looked up on their own (two seeks into pages the range
      // read holds) so that the range is read once, streamed rather than stored in a temporary table.
      namedSlot: db
        .prepare(
          `WITH one (id) AS (
             SELECT min(id) FROM (SELECT id FROM entities WHERE name_key = ? UNION ALL SELECT entity_id FROM aliases WHERE alias_key = ?)
             HAVING min(id) = max(id))
           SELECT 0, k, id, NULL, NULL FROM (
             SELECT name_key AS k, id FROM entities WHERE name_key BETWEEN ? AND ?
             UNION ALL SELECT alias_key, entity_id FROM aliases WHERE alias_key BETWEEN ? AND ? LIMIT ${KEY_RANGE_LIMIT + 1})
           UNION ALL
           SELECT 1, m.id, m.kind, m.value,
                  (SELECT json_group_array(json_array(x.entity_id, x.role)) FROM memory_links x WHERE x.memory_id = m.id)
           FROM one JOIN memory_links l ON l.entity_id = one.id AND l.role = ? JOIN memories m ON m.id = l.memory_id
           WHERE m.predicate = ? AND m.status = 'active'`,
        )
        .raw(),
      insertMemory: db.prepare(
        "INSERT INTO memories (kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?)",
      ),
      insertLink: db.prepare('INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, ?)'),
      insertPayload: db.prepare(
        "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
      ),
      insertObjectPayload: db.prepare(
        "INSERT INTO payloads (memory_id, payload_kind, media_type, object_ref, sha256, byte_size, created_at) VALUES (?, 'object_ref', ?, ?, ?, ?, ?)",
      ),
      objectDigests: db.prepare("SELECT DISTINCT sha256 FROM payloads WHERE payload_kind = 'object_ref'").pluck(),
      memoryById: db.prepare(
        `SELECT ${MEMORY_COLUMNS}, (SELECT s.id FROM memories s WHERE s.superseded_by = m.id) AS supersedes
         FROM memories m WHERE id = ?`,
      ),
      historyOf: db
        .prepare('SELECT DISTINCT memory_id FROM memory_links WHERE entity_id = ? ORDER BY memory_id')
        .pluck(),
      supersede: db.prepare(
        "UPDATE memories SET status = 'superseded', superseded_by = ?, superseded_at = ? WHERE id = ? AND status = 'active'",
      ),
      insertProposal: db.prepare(
        `INSERT INTO proposals (kind, entity_type, name, name_key, memory_id, value, slot_ids, evidence, utterance, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      proposalById: db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals WHERE id = ?`),
      proposals: db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals ORDER BY id`),
      // A decided proposal keeps its evidence, not the rest of what was said.
      decideProposal: db.prepare(
        "UPDATE proposals SET decision = ?, decided_at = ?, reason = ?, result = ?, utterance = evidence WHERE id = ? AND decision = 'pending'",
      ),
      eraseSpentUtterances: db.prepare(
        "UPDATE proposals SET utterance = evidence WHERE utterance <> evidence AND (decision <> 'pending' OR expires_at <= ?)",
      ),
      linksOf: db.prepare(
        'SELECT l.entity_id, l.role, e.canonical_name FROM memory_links l JOIN entities e ON e.id = l.entity_id WHERE l.memory_id = ? ORDER BY l.entity_id, l.role',
      ),
      payloadsOf: db.prepare(
        'SELECT id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at FROM payloads WHERE memory_id = ? ORDER BY id',
      ),
      // What a memory shows of its payloads: no body (recall and listings never load one).
      payloadInfoOf: db.prepare(
        'SELECT id, payload_kind, media_type, object_ref, sha256, byte_size, created_at FROM payloads WHERE memory_id = ? ORDER BY id',
      ),
      newestActive: db
        .prepare(
          `SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories m ON m.id = l.memory_id
           WHERE l.entity_id = ? AND m.status = 'active' ORDER BY l.memory_id DESC LIMIT ?`,
        )
        .pluck(),
      countActive: db
        .prepare(
          `SELECT count(DISTINCT l.memory_id) FROM memory_links l JOIN memories m ON m.id = l.memory_id
           WHERE l.entity_id = ? AND m.status = 'active'`,
        )
        .pluck(),
      bySlot: db
        .prepare(
          `SELECT m.id FROM memory_links l JOIN memories m ON m.id = l.memory_id
           WHERE l.entity_id = ? AND l.role = ? AND m.predicate = ? AND m.status = 'active' ORDER BY m.id`,
        )
        .pluck(),
      // The slot an admission decides on: each memory with its links as JSON ([[entity_id, role], …]), as
      // arrays (no object per row) and in the link index's order (m.id is l.memory_id: no sort). The
      // predicate is the slot's own.
      slotMemories: db
        .prepare(
          `SELECT m.id, m.kind, m.value,
                (SELECT json_group_array(json_array(k.entity_id, k.role)) FROM memory_links k WHERE k.memory_id = m.id)
           FROM memory_links l JOIN memories m ON m.id = l.memory_id
           WHERE l.entity_id = ? AND l.role = ? AND m.predicate = ? AND m.status = 'active' ORDER BY l.memory_id`,
        )
        .raw(),
      entityIdsPage: db
        .prepare('SELECT id FROM entities WHERE (? IS NULL OR entity_type = ?) ORDER BY id LIMIT ? OFFSET ?')
        .pluck(),
      entityCount: db.prepare('SELECT count(*) FROM entities WHERE (? IS NULL OR entity_type = ?)').pluck(),
      revision: db.prepare('SELECT total_changes()').pluck(),
      counts: db.prepare(
        `SELECT (SELECT count(*) FROM entities) AS entities, (SELECT count(*) FROM aliases) AS aliases,
                (SELECT count(*) FROM memories) AS memories,
                (SELECT count(*) FROM memories WHERE status = 'active') AS activeMemories,
                (SELECT count(*) FROM memory_links) AS links, (SELECT count(*) FROM payloads) AS payloads`,
      ),
    };
  }

  #entity(id: number): Entity | undefined {
    const row = this.#s.entityById.get(id) as EntityColumns | undefined;
    return row && entityFromColumns(row, this.#s.aliasesOf.all(id) as AliasColumns[]);
  }

  #memory(id: number): Memory | undefined {
    const row = this.#s.memoryById.get(id) as MemoryColumns | undefined;
    return (
      row &&
      memoryFromColumns(
        row,
        this.#s.linksOf.all(id) as LinkColumns[],
        this.#s.payloadInfoOf.all(id) as PayloadColumns[],
      )
    );
  }

  entities(ids: readonly number[]): Entity[] {
    return ids.flatMap((id) => this.#entity(id) ?? []);
  }

  entityIdsByKey(key: string): number[] {
    return this.#s.entityIdsByKey.all(key, key) as number[];
  }

  entitiesByKey(key: string): Entity[] {
    return this.entities(this.entityIdsByKey(key));
  }

  entityIdsByKeys(keys: readonly string[]): number[][] {
    if (keys.length < 2) return keys.map((key) => this.entityIdsByKey(key));
    const [low, high] = keyRange(keys);
    const rows = this.#s.keysBetween.all(low, high, low, high) as Array<[key: string, id: number]>;
    return rows.length > KEY_RANGE_LIMIT ? this.#entityIdsKeyByKey(keys) : idsOfKeys(keys, rows);
  }

  /** {@link entityIdsByKeys} with each key looked up (a range too wide to read). */
  #entityIdsKeyByKey(keys: readonly string[]): number[][] {
    const list = JSON.stringify(keys);
    const ids = keys.map((): number[] => []);
    for (const { i, id } of this.#s.entityIdsByKeys.all(list, list) as Array<{ i: number; id: number }>)
      ids[i]!.push(id);
    return ids;
  }

  namedSlot(
    keys: readonly string[],
    role: string,
    predicate: string,
  ): { ids: number[][]; slot: { entityId: number; memories: SlotMemory[] } | undefined } {
    const [low, high] = keyRange(keys);
    const [name] = keys;
    const rows = this.#s.namedSlot.all(name, name, low, high, low, high, role, predicate) as NamedSlotRow[];
    const named: Array<[key: string, id: number]> = [];
    const memories: SlotMemory[] = [];
    for (const row of rows)
      if (row[0] === 0) named.push([row[1], row[2]]);
      else
        memories.push(
          slotMemoryFromColumns({
            id: row[1],
            kind: row[2],
            predicate,
            value: row[3],
            links: JSON.parse(row[4]) as Array<[number, string]>,
          }),
        );
    if (named.length > KEY_RANGE_LIMIT) {
      // A range too wide to read whole: the names are looked up key by key, and the slot of the entity they
      // find is read on its own.
      const ids = this.#entityIdsKeyByKey(keys);
      const entityId = soleId(ids[0]!);
      const slot =
        entityId === undefined ? undefined : { entityId, memories: this.slotMemories({ entityId, role, predicate }) };
      return { ids, slot };
    }
    const ids = idsOfKeys(keys, named);
    const entityId = soleId(ids[0]!);
    memories.sort((a, b) => a.id - b.id);
    return { ids, slot: entityId === undefined ? undefined : { entityId, memories } };
  }

  entityPage(entityType: string | null, limit: number, offset: number): { entities: Entity[]; total: number } {
    const ids = this.#s.entityIdsPage.all(entityType, entityType, limit, offset) as number[];
    return { entities: this.entities(ids), total: this.#s.entityCount.get(entityType, entityType) as number };
  }

  entityNames(ids: readonly number[]): Array<string | undefined> {
    return ids.map((id) => this.#s.entityNameById.get(id) as string | undefined);
  }

  memories(ids: readonly number[]): Memory[] {
    return ids.flatMap((id) => this.#memory(id) ?? []);
  }

  slot(slot: MemorySlot): Memory[] {
    return this.memories(this.#s.bySlot.all(slot.entityId, slot.role, slot.predicate) as number[]);
  }

  slotMemories(slot: MemorySlot): SlotMemory[] {
    const { predicate } = slot;
    return (this.#s.slotMemories.all(slot.entityId, slot.role, predicate) as SlotRow[]).map(
      ([id, kind, value, links]) =>
        slotMemoryFromColumns({ id, kind, predicate, value, links: JSON.parse(links) as Array<[number, string]> }),
    );
  }

  newestActive(entityIds: readonly number[], newest: number | undefined): NewestMemories[] {
    const limit = newest ?? -1;
    return entityIds.map((entityId) => {
      const ids = (this.#s.newestActive.all(entityId, limit) as number[]).reverse();
      const total = limit < 0 ? ids.length : (this.#s.countActive.get(entityId) as number);
      return { memories: this.memories(ids), total };
    });
  }

  recallByKey(key: string, entities: number, newest: number): Recalled {
    // Synchronous statements on one connection: nothing is written between the two reads.
    const found = this.entitiesByKey(key);
    const shown = found.slice(0, entities).map((e) => e.id);
    return { entities: found, newest: this.newestActive(shown, newest) };
  }

  history(entityId: number): Memory[] {
    return this.memories(this.#s.historyOf.all(entityId) as number[]);
  }

  payloads(memoryId: number): Payload[] {
    return (this.#s.payloadsOf.all(memoryId) as Array<PayloadColumns & { text_body: string | null }>).map((row) => ({
      ...payloadInfoFromColumns(row),
      text: row.text_body,
    }));
  }

  proposal(id: number): ProposalRow | undefined {
    const row = this.#s.proposalById.get(id) as ProposalColumns | undefined;
    return row && proposalFromColumns(row);
  }

  proposals(): ProposalRow[] {
    return (this.#s.proposals.all() as ProposalColumns[]).map(proposalFromColumns);
  }

  counts(): StoreCounts {
    return this.#s.counts.get() as StoreCounts;
  }

  revision(): string {
    // data_version moves when another connection commits; total_changes counts this connection's writes.
    return `${this.#db.pragma('data_version', { simple: true }) as number}:${this.#s.revision.get() as number}`;
  }

  // A write transaction holds the database's only write lock (BEGIN IMMEDIATE): nothing else to lock.
  lockSlot(): void {}
  lockProposal(): void {}

  insertEntity(entityType: string, name: { display: string; key: string }, now: string): number {
    return Number(this.#s.insertEntity.run(entityType, name.display, name.key, now).lastInsertRowid);
  }

  insertAlias(entityId: number, name: { display: string; key: string }, now: string): number {
    return Number(this.#s.insertAlias.run(entityId, name.display, name.key, now).lastInsertRowid);
  }

  insertMemory(m: PreparedMemory, byteSize: number, now: string): { memoryId: number; payloadId: number } {
    const memoryId = Number(
      this.#s.insertMemory.run(m.kind, m.summary, m.predicate, m.value, m.sourceKind, m.sourceLabel, m.confidence, now)
        .lastInsertRowid,
    );
    for (const link of m.links) this.#s.insertLink.run(memoryId, link.entityId, link.role);
    const payloadId = Number(this.#s.insertPayload.run(memoryId, m.payloadText, byteSize, now).lastInsertRowid);
    return { memoryId, payloadId };
  }

  insertObjectPayload(memoryId: number, object: PreparedObject, now: string): number {
    return Number(
      this.#s.insertObjectPayload.run(
        memoryId,
        object.mediaType,
        objectRef(object.sha256),
        object.sha256,
        object.bytes.length,
        now,
      ).lastInsertRowid,
    );
  }

  putObject(object: PreparedObject): void {
    // A read-only store writes nothing, not even a file beside the database.
    if (this.#readOnly) throw new TypeError('attempt to write a readonly database');
    this.#objects.put(object);
  }

  objectBytes(sha256: string): { bytes: Buffer; where: string } | undefined {
    return this.#objects.get(sha256);
  }

  objectUsage(): ObjectUsage {
    return this.#objects.usage();
  }

  collectObjects(graceMs: number): ObjectUsage {
    if (this.#readOnly) throw new TypeError('attempt to write a readonly database');
    // Digests read after the files are listed would miss nothing: a write stores its file first.
    const referenced = new Set(this.#s.objectDigests.all() as string[]);
    // Object files age by the file system's clock, whatever clock the memories are stamped with.
    return this.#objects.collect(referenced, graceMs, Date.now());
  }

  /** No one-statement admission here: the algorithm's write transaction is as short. */
  // Stryker disable next-line BlockStatement: equivalent, an empty body returns undefined too
  admitWrite(): undefined {
    return undefined;
  }

  supersede(oldId: number, newId: number, now: string): void {
    this.#s.supersede.run(newId, now, oldId);
  }

  insertProposal(p: PreparedProposal, slotIds: readonly number[]): number {
    return Number(
      this.#s.insertProposal.run(
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
      ).lastInsertRowid,
    );
  }

  decideProposal(
    id: number,
    decision: 'accepted' | 'rejected',
    now: string,
    reason: string | null,
    result: string | null,
  ): void {
    this.#s.decideProposal.run(decision, now, reason, result, id);
  }

  eraseSpentUtterances(now: string): void {
    this.#s.eraseSpentUtterances.run(now);
  }
}

/**
 * The canonical, embedded persistent memory store on one SQLite file (better-sqlite3): the store's one
 * algorithm ({@link ScriptedMemoryStore}) over the SQLite dialect. Statements are prepared once; every
 * write is one immediate transaction.
 *
 * @example
 * const store = SqliteMemoryStore.open('/var/lib/mira/memory.sqlite3');
 * const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
 * await store.close();
 */
export class SqliteMemoryStore extends ScriptedMemoryStore {
  readonly backend = 'sqlite';
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #statements: SqliteStatements;
  readonly #transact = <U>(body: () => U): U => this.#db.transaction(body).immediate();
  readonly #objects: ObjectFiles;
  #closed = false;

  private constructor(path: string, db: SqliteDatabase, clock: Clock, options: SqliteMemoryStoreOptions) {
    super(clock, options.proposalTtlMs ?? DEFAULT_PROPOSAL_TTL_MS, SCHEMA_VERSION);
    this.path = path;
    this.#db = db;
    this.maxObjectBytes = options.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
    this.#objects = new ObjectFiles(path);
    this.#statements = new SqliteStatements(db, this.#objects, options.readOnly === true);
  }

  get location(): string {
    return this.path;
  }

  /**
   * Opens or creates the store at `path` (the parent directory must exist).
   * Refuses, leaving the file unchanged, anything that is not a Mira memory
   * database of a version it reads, or a new/empty file.
   */
  static open(path: string, options: SqliteMemoryStoreOptions = {}): SqliteMemoryStore {
    const db = options.readOnly
      ? openDatabaseReadOnly(path, options.busyTimeoutMs ?? 5000, MEMORY_SCHEMA)
      : openDatabase(path, options.busyTimeoutMs ?? 5000, MEMORY_SCHEMA, {
          onUpgrade: options.onUpgrade,
          onCreated: options.onCreated,
          log: options.log,
        });
    const store = new SqliteMemoryStore(path, db, options.clock ?? systemClock, options);
    // What was said beside the evidence of proposals decided or expired since: erased at open (rows of
    // earlier versions included), as every new proposal erases it for those that expired meanwhile.
    if (!options.readOnly) store.#statements.eraseSpentUtterances(store.now());
    return store;
  }

  protected execute<T>(_what: string, script: Script<T>): Promise<T> {
    return this.#guard(() => runSync(script, this.#statements, this.#transact));
  }

  /** `fn()`'s result; refused when closed; a driver's failure as MIRA_ERR_MEMORY_BACKEND. */
  #guard<T>(fn: () => T): Promise<T> {
    if (this.#closed) return Promise.reject(MemoryErrors.error('CLOSED.closed'));
    try {
      return Promise.resolve(fn());
    } catch (error) {
      if (error instanceof MiraError) return Promise.reject(error);
      return Promise.reject(
        MemoryErrors.error('BACKEND.failed', { reason: (error as Error).message }, { cause: error }),
      );
    }
  }

  /**
   * The connection settings in force (journal mode, synchronous level, foreign keys, busy timeout), for
   * diagnostics.
   */
  settings(): { journalMode: string; synchronous: number; foreignKeys: boolean; busyTimeoutMs: number } {
    return {
      journalMode: this.#db.pragma('journal_mode', { simple: true }) as string,
      synchronous: this.#db.pragma('synchronous', { simple: true }) as number,
      foreignKeys: this.#db.pragma('foreign_keys', { simple: true }) === 1,
      busyTimeoutMs: this.#db.pragma('busy_timeout', { simple: true }) as number,
    };
  }

  exportSnapshot(): Promise<MemorySnapshot> {
    return this.#guard(() =>
      this.#db
        .transaction((): MemorySnapshot => {
          const all = (sql: string) => this.#db.prepare(sql).all() as Array<Record<string, unknown>>;
          return {
            entities: all('SELECT id, entity_type, canonical_name, name_key, created_at FROM entities ORDER BY id').map(
              (r) => ({
                id: Number(r.id),
                entityType: String(r.entity_type),
                canonicalName: String(r.canonical_name),
                nameKey: String(r.name_key),
                createdAt: String(r.created_at),
              }),
            ),
            aliases: all('SELECT id, entity_id, alias, alias_key, created_at FROM aliases ORDER BY id').map((r) => ({
              id: Number(r.id),
              entityId: Number(r.entity_id),
              alias: String(r.alias),
              aliasKey: String(r.alias_key),
              createdAt: String(r.created_at),
            })),
            memories: all(`SELECT ${MEMORY_COLUMNS} FROM memories ORDER BY id`).map((r) => ({
              id: Number(r.id),
              kind: String(r.kind),
              summary: String(r.summary),
              predicate: r.predicate as string | null,
              value: r.value as string | null,
              sourceKind: String(r.source_kind),
              sourceLabel: r.source_label as string | null,
              confidence: r.confidence as number | null,
              status: r.status as MemoryStatus,
              createdAt: String(r.created_at),
              supersededBy: r.superseded_by as number | null,
              supersededAt: r.superseded_at as string | null,
            })),
            proposals: (
              this.#db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals ORDER BY id`).all() as ProposalColumns[]
            ).map(proposalFromColumns),
            links: all('SELECT memory_id, entity_id, role FROM memory_links ORDER BY memory_id, entity_id, role').map(
              (r) => ({ memoryId: Number(r.memory_id), entityId: Number(r.entity_id), role: String(r.role) }),
            ),
            payloads: all(
              'SELECT id, memory_id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at FROM payloads ORDER BY id',
            ).map((r) => ({
              id: Number(r.id),
              memoryId: Number(r.memory_id),
              payloadKind: r.payload_kind as 'inline_text' | 'object_ref',
              mediaType: String(r.media_type),
              textBody: r.text_body as string | null,
              objectRef: r.object_ref as string | null,
              sha256: r.sha256 as string | null,
              byteSize: Number(r.byte_size),
              createdAt: String(r.created_at),
            })),
            readObject: async (sha256) => {
              const found = this.#objects.get(sha256);
              if (!found)
                throw MemoryErrors.error('OBJECT_MISSING.copyObjectMissing', { sha256, root: this.#objects.root });
              return verifiedObject(found.bytes, sha256, found.where);
            },
          };
        })
        .deferred(),
    );
  }

  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.#db.close();
    }
    return Promise.resolve();
  }
}

/** The least and the greatest of `keys` in the indexes' byte order. */
function keyRange(keys: readonly string[]): [low: string, high: string] {
  let low = keys[0]!;
  let high = low;
  for (const key of keys) {
    if (compareBytes(key, low) < 0) low = key;
    if (compareBytes(key, high) > 0) high = key;
  }
  return [low, high];
}

/** The IDs of each of `keys`, ascending, from the keys and IDs a range read found. */
function idsOfKeys(keys: readonly string[], rows: ReadonlyArray<readonly [key: string, id: number]>): number[][] {
  const ids = keys.map((): number[] => []);
  for (const [key, id] of rows)
    for (let i = keys.indexOf(key); i !== -1; i = keys.indexOf(key, i + 1)) if (!ids[i]!.includes(id)) ids[i]!.push(id);
  for (const list of ids) list.sort((a, b) => a - b);
  return ids;
}

/** A row of the named slot statement: a name's key and entity, or a slot memory. */
type NamedSlotRow =
  [0, key: string, id: number, null, null] | [1, id: number, kind: string, value: string | null, links: string];

/** A row of the slot statement: ID, kind, value, links as JSON. */
type SlotRow = [id: number, kind: string, value: string | null, links: string];
