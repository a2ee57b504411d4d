/**
 * The part of better-sqlite3 that Mira's stores use, declared here so the
 * stores depend on this narrow interface rather than on the driver's types
 * (the Kysely habit). better-sqlite3 12 satisfies it.
 */
export interface SqliteRunResult {
  readonly changes: number;
  readonly lastInsertRowid: number | bigint;
}

/** A prepared statement. */
export interface SqliteStatement {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Return only the first column of each row. */
  pluck(toggle?: boolean): this;
  /** Return each row as an array of its columns, in order (no object per row). */
  raw(toggle?: boolean): this;
}

// The driver's own constraint (any[]), so its transaction type is assignable to this one.
type AnyFunction = (...params: any[]) => unknown;
type ArgumentTypes<F extends AnyFunction> = F extends (...args: infer A) => unknown ? A : never;

/** A function wrapped in a transaction; `immediate()` takes the write lock at BEGIN. */
export interface SqliteTransaction<F extends AnyFunction> {
  (...params: ArgumentTypes<F>): ReturnType<F>;
  immediate(...params: ArgumentTypes<F>): ReturnType<F>;
  deferred(...params: ArgumentTypes<F>): ReturnType<F>;
}

/** An open connection. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  transaction<F extends AnyFunction>(fn: F): SqliteTransaction<F>;
  loadExtension(path: string, entryPoint?: string): unknown;
  /** A function SQL can call, in JavaScript (better-sqlite3's `function`). */
  function(name: string, options: { readonly deterministic?: boolean }, fn: (...args: never[]) => unknown): unknown;
  close(): unknown;
}
