import type { SqliteDatabase, SqliteStatement } from '@mira/sqlite';

/**
 * A part of the notes store's statements, by name: each is prepared on first use and kept for the life of
 * the store (better-sqlite3 compiles a statement once; running it again costs only the binding).
 */
export class Statements<Name extends string> {
  readonly #db: SqliteDatabase;
  readonly #sql: Readonly<Record<Name, string>>;
  readonly #plucked: ReadonlySet<Name>;
  readonly #prepared = new Map<Name, SqliteStatement>();

  /** `plucked`: the statements that return only their first column. */
  constructor(db: SqliteDatabase, sql: Readonly<Record<Name, string>>, plucked: ReadonlyArray<NoInfer<Name>> = []) {
    this.#db = db;
    this.#sql = sql;
    this.#plucked = new Set(plucked);
  }

  /** The named statement, prepared on first use. */
  get(name: Name): SqliteStatement {
    let statement = this.#prepared.get(name);
    if (!statement) {
      statement = this.#db.prepare(this.#sql[name]);
      if (this.#plucked.has(name)) statement.pluck();
      this.#prepared.set(name, statement);
    }
    return statement;
  }
}
