/**
 * A read-only view of a WAL-mode database whose writer (the profile's console) is not running, for
 * `mira mcp`: SQLite would create `-wal` and `-shm` beside the file to read it even read-only, so the
 * file is read into memory instead (an immutable image of the checkpointed file: nothing is opened
 * beside it, nothing changes on disk). Before each statement the view looks again: once the console
 * runs (its `-wal` and `-shm` are there) it reads the file through SQLite beside it, seeing each of
 * its commits; while the console stays off, a file that changed (the console ran and stopped) is read
 * again. Statements are prepared again on the connection in use; functions and extensions registered
 * on the view are registered on each connection.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement, SqliteTransaction } from './driver.js';

// The driver's own constraint (any[]), as in driver.ts.
type AnyFunction = (...params: any[]) => unknown;

/** The database file as an image SQLite reads in memory: its WAL-mode mark read as rollback mode. */
export function openImage(path: string): Database.Database {
  const image = readFileSync(path);
  image[18] = 1;
  image[19] = 1;
  const db = new Database(image, { readonly: true });
  db.pragma('query_only = ON');
  return db;
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

  /** Whether it reads the live file beside the console (else an image of the file). */
  get live(): boolean {
    return this.#live;
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
