/**
 * A read-only view of a WAL-mode database whose writer (the profile's console) is not running, for
 * `mira mcp`: SQLite would create `-wal` and `-shm` beside the file to read it even read-only, so the
 * checkpointed file is opened immutable instead (`?immutable=1`: read in place, no lock, nothing created
 * beside it, nothing changes on disk, memory flat in the file's size). Where URI names are off (the
 * environment set `SQLITE_USE_URI=0`) the file is read into memory as an image, which holds the same
 * promise for a store under 2 GiB. Before each statement the view looks again: once the console
 * runs (its `-wal` and `-shm` are there) it reads the file through SQLite beside it, seeing each of
 * its commits; while the console stays off, a file that changed (the console ran and stopped) is read
 * again. Statements are prepared again on the connection in use; functions and extensions registered
 * on the view are registered on each connection.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { immutableUri } from './uri-names.js';
import type { SqliteDatabase, SqliteStatement, SqliteTransaction } from './driver.js';

// The driver's own constraint (any[]), as in driver.ts.
type AnyFunction = (...params: any[]) => unknown;

/**
 * The checkpointed database file, read-only: in place (immutable) where SQLite reads URI names, else as
 * an image in memory with its WAL-mode mark read as rollback mode.
 */
export function openImage(path: string): Database.Database {
  const inPlace = openInPlace(path);
  if (inPlace) return inPlace;
  const image = readFileSync(path);
  image[18] = 1;
  image[19] = 1;
  const db = new Database(image, { readonly: true });
  db.pragma('query_only = ON');
  return db;
}

/** The file opened immutable, or undefined where this process's SQLite does not read URI names. */
function openInPlace(path: string): Database.Database | undefined {
  let db: Database.Database;
  try {
    db = new Database(immutableUri(path), { readonly: true, fileMustExist: true });
  } catch {
    return undefined; // the URI was read as a file name, which does not exist
  }
  const [main] = db.pragma('database_list') as { file: string }[];
  // SQLite names the file it opened by its real path (links followed).
  if (main?.file !== realpathSync(path)) {
    db.close();
    return undefined;
  }
  db.pragma('query_only = ON');
  // The file cannot change under this connection: mapped, its pages are read without a copy each.
  db.pragma(`mmap_size = ${IN_PLACE_MMAP_BYTES}`);
  return db;
}

/** How much of an immutable file is mapped (the rest is read page by page). */
const IN_PLACE_MMAP_BYTES = 1 << 30;

/** Whether a connection reads its file in place (else it is an image in memory). */
export function readsInPlace(db: Database.Database): boolean {
  const [main] = db.pragma('database_list') as { file: string }[];
  return main?.file !== undefined && main.file !== '';
}

/** True when the console's side files are beside the file: SQLite then reads it without creating any. */
export function writerRunning(path: string): boolean {
  return existsSync(`${path}-wal`) && existsSync(`${path}-shm`);
}

const stamp = (path: string) => {
  const { ino, size, mtimeMs } = statSync(path);
  return `${ino}:${size}:${mtimeMs}`;
};

/** A connection that follows the file from its image to the console's live file (see the module). */
export class FollowingDatabase implements SqliteDatabase {
  #db: Database.Database;
  #live = false;
  #stamp: string;
  /** Bumped at each change of connection: statements prepared before are prepared again. */
  #generation = 0;
  readonly #setups: ((db: Database.Database) => void)[] = [];

  constructor(
    readonly path: string,
    readonly busyTimeoutMs: number,
  ) {
    this.#stamp = stamp(path);
    this.#db = openImage(path);
  }

  /** Whether it reads the live file beside the console (else the checkpointed file, in place or as an image). */
  get live(): boolean {
    return this.#live;
  }

  /** Whether it reads the file in place (live, or immutable), not an image of it in memory. */
  get inPlace(): boolean {
    return readsInPlace(this.#db);
  }

  /** The connection to use now: the live file once the console runs, or a fresh image of a changed file. */
  current(): { db: Database.Database; generation: number } {
    if (!this.#live && !this.#db.inTransaction) {
      if (writerRunning(this.path)) {
        const db = new Database(this.path, { readonly: true, fileMustExist: true, timeout: this.busyTimeoutMs });
        db.pragma('query_only = ON');
        this.#replace(db);
        this.#live = true;
      } else if (stamp(this.path) !== this.#stamp) {
        this.#stamp = stamp(this.path);
        this.#replace(openImage(this.path));
      }
    }
    return { db: this.#db, generation: this.#generation };
  }

  #replace(db: Database.Database): void {
    try {
      for (const setup of this.#setups) setup(db);
    } catch (error) {
      db.close();
      throw error;
    }
    this.#db.close();
    this.#db = db;
    this.#generation += 1;
  }

  prepare(sql: string): SqliteStatement {
    return new FollowingStatement(this, sql);
  }

  exec(sql: string): unknown {
    return this.current().db.exec(sql);
  }

  pragma(source: string, options?: { simple?: boolean }): unknown {
    return this.current().db.pragma(source, options);
  }

  transaction<F extends AnyFunction>(fn: F): SqliteTransaction<F> {
    // Made on the connection in use at each call: the connection may change between calls.
    type Loose = ((...args: unknown[]) => unknown) & Record<'immediate' | 'deferred', (...args: unknown[]) => unknown>;
    const on = () => this.current().db.transaction(fn) as unknown as Loose;
    return Object.assign((...args: unknown[]) => on()(...args), {
      immediate: (...args: unknown[]) => on().immediate(...args),
      deferred: (...args: unknown[]) => on().deferred(...args),
    }) as unknown as SqliteTransaction<F>;
  }

  loadExtension(path: string, entryPoint?: string): unknown {
    // better-sqlite3 takes an entry point; its types do not say so.
    const load = (db: Database.Database) => db.loadExtension as (...args: string[]) => unknown;
    const setup = (db: Database.Database) =>
      entryPoint === undefined ? load(db).call(db, path) : load(db).call(db, path, entryPoint);
    this.#setups.push(setup);
    return setup(this.#db);
  }

  function(name: string, options: { readonly deterministic?: boolean }, fn: (...args: never[]) => unknown): unknown {
    const setup = (db: Database.Database) => db.function(name, options, fn as (...args: unknown[]) => unknown);
    this.#setups.push(setup);
    return setup(this.#db);
  }

  close(): unknown {
    return this.#db.close();
  }
}

/** A statement prepared again whenever its database changed connection. */
class FollowingStatement implements SqliteStatement {
  #statement: Database.Statement | undefined;
  #generation = -1;
  /** How rows come back (better-sqlite3 has one mode at a time). */
  #mode: 'objects' | 'pluck' | 'raw' = 'objects';

  constructor(
    readonly database: FollowingDatabase,
    readonly sql: string,
  ) {
    this.#now(); // prepared at once, so a mistake in the SQL shows where the statement is made
  }

  #now(): Database.Statement {
    const { db, generation } = this.database.current();
    if (generation !== this.#generation || !this.#statement) {
      this.#statement = db.prepare(this.sql);
      if (this.#mode === 'pluck') this.#statement.pluck(true);
      if (this.#mode === 'raw') this.#statement.raw(true);
      this.#generation = generation;
    }
    return this.#statement;
  }

  run(...params: unknown[]) {
    return this.#now().run(...params);
  }
  get(...params: unknown[]) {
    return this.#now().get(...params);
  }
  all(...params: unknown[]) {
    return this.#now().all(...params);
  }
  iterate(...params: unknown[]) {
    return this.#now().iterate(...params);
  }
  pluck(toggle = true): this {
    if (toggle || this.#mode === 'pluck') this.#mode = toggle ? 'pluck' : 'objects';
    this.#statement?.pluck(toggle);
    return this;
  }
  raw(toggle = true): this {
    if (toggle || this.#mode === 'raw') this.#mode = toggle ? 'raw' : 'objects';
    this.#statement?.raw(toggle);
    return this;
  }
}
