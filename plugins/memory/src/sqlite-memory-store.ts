import { MiraError, systemClock, type Clock } from '@mira/core';
import {
  DEFAULT_MAX_OBJECT_BYTES,
  DEFAULT_PROPOSAL_TTL_MS,
  MemoryErrors,
  verifiedObject,
  type MemorySnapshot,
  type MemoryStatus,
} from '@mira/memory-contract';
import { openDatabase, openDatabaseReadOnly, type SqliteDatabase, type UpgradeDone } from '@mira/sqlite';
import { ScriptedMemoryStore } from './algorithm.js';
import { ObjectFiles } from './object-files.js';
import { proposalFromColumns, type ProposalColumns } from './rows.js';
import { MEMORY_SCHEMA, SCHEMA_VERSION } from './schema-v2.js';
import { runSync, type Script } from './script.js';
import { MEMORY_COLUMNS, PROPOSAL_COLUMNS } from './sqlite-prepared.js';
import { SqliteStatements } from './sqlite-statements.js';

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
