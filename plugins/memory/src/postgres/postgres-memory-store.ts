import { DataSource } from 'typeorm';
import { systemClock, type Clock } from '@mira/core';
import {
  DEFAULT_MAX_OBJECT_BYTES,
  DEFAULT_PROPOSAL_TTL_MS,
  MemoryErrors,
  type MemorySnapshot,
} from '@mira/memory-contract';
import { ScriptedMemoryStore } from '../algorithm.js';
import { runAsync, type AsyncStatements, type Script } from '../script.js';
import { FLEET_ENTITIES } from './entities.js';
import { FleetErrors } from './errors.js';
import { describeUrl, fleetError } from './failures.js';
import { importSnapshot } from './import.js';
import { FLEET_SCHEMA_VERSION } from './migrations/0004-objects.js';
import { poolOf } from './pool.js';
import { currentAdmitFunction, FLEET_MIGRATIONS, openSchema } from './schema.js';
import { SPACE_PATTERN } from './space.js';
import { PostgresStatements } from './statements.js';

export { describeUrl, fleetError } from './failures.js';

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
      migrations: FLEET_MIGRATIONS,
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
      await openSchema(ds, where, options.readOnly ?? false);
      if (!options.readOnly)
        await currentAdmitFunction(ds, options.log ?? ((line: string) => process.stderr.write(`${line}\n`)));
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

  /**
   * Writes a robot's memory (an SQLite snapshot) into this space, keeping its IDs, in one transaction,
   * through the typeorm entities; refused unless the space is empty (import.ts).
   */
  importSnapshot(
    snapshot: MemorySnapshot,
    onProgress: (done: number, total: number) => void = () => {},
  ): Promise<{ entities: number; aliases: number; memories: number }> {
    const target = { space: this.space, server: this.#where.server, database: this.#where.database };
    return this.#run('copying memory', () =>
      this.#ds.transaction((m) => importSnapshot(m, target, snapshot, onProgress)),
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
