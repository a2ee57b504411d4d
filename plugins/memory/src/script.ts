import type { MemoryStatements } from './statements.js';

/**
 * The store's algorithm is written once, as scripts: generator functions that yield the named statements
 * of {@link MemoryStatements} (and transactions around them) and receive their results. Each store runs the
 * same scripts its own way — SQLite answers every statement synchronously inside one better-sqlite3
 * transaction (whose body must not span an `await`), PostgreSQL awaits each one on the transaction's
 * connection — so the decisions exist once and neither driver is forced into the other's shape.
 *
 * @example
 * function* entityNamed(key: string): Script<Entity[]> {
 *   const ids = yield* statement('entityIdsByKey', key);
 *   return yield* statement('entities', ids);
 * }
 */
export type Script<T> = Generator<Step, T, unknown>;

/** The name of a statement of the port. */
export type StatementName = keyof MemoryStatements;

/** One thing a script asks of its store: a named statement, or a transaction around another script. */
export type Step =
  | { readonly statement: StatementName; readonly args: readonly unknown[] }
  | { readonly transaction: true; readonly body: () => Script<unknown> };

/** Runs the statement `name` with `args` and gives its result to the script. */
export function* statement<K extends StatementName>(
  name: K,
  ...args: Parameters<MemoryStatements[K]>
): Script<ReturnType<MemoryStatements[K]>> {
  return (yield { statement: name, args }) as ReturnType<MemoryStatements[K]>;
}

/**
 * Runs `body` in one write transaction: all of its writes or none, the store's write lock taken at once
 * (SQLite `BEGIN IMMEDIATE`; PostgreSQL READ COMMITTED, with the slot and proposal locks the body takes).
 * Transactions do not nest.
 */
export function* transaction<T>(body: () => Script<T>): Script<T> {
  return (yield { transaction: true, body }) as T;
}

/** The port with every statement answered asynchronously, as a networked database answers. */
export type AsyncStatements = {
  readonly [K in StatementName]: (...args: Parameters<MemoryStatements[K]>) => Promise<ReturnType<MemoryStatements[K]>>;
};

type AnyStatement = (...args: unknown[]) => unknown;

/**
 * Runs `script` synchronously over `statements`; `transact` runs a transaction's body as one unit and
 * returns its result. A statement's error is thrown into the script (its `finally` blocks run).
 */
export function runSync<T>(script: Script<T>, statements: MemoryStatements, transact: <U>(body: () => U) => U): T {
  let next = script.next();
  while (!next.done) {
    const step = next.value;
    let result: unknown;
    try {
      result =
        'statement' in step
          ? (statements[step.statement] as AnyStatement).apply(statements, step.args as unknown[])
          : transact(() => runSync(step.body(), statements, transact));
    } catch (error) {
      next = script.throw(error);
      continue;
    }
    next = script.next(result);
  }
  return next.value;
}

/**
 * Runs `script` over `statements`, awaiting each; `transact` opens a transaction and hands its body the
 * statements bound to the transaction's connection.
 */
export async function runAsync<T>(
  script: Script<T>,
  statements: AsyncStatements,
  transact: <U>(body: (statements: AsyncStatements) => Promise<U>) => Promise<U>,
): Promise<T> {
  let next = script.next();
  while (!next.done) {
    const step = next.value;
    let result: unknown;
    try {
      result =
        'statement' in step
          ? await (statements[step.statement] as AnyStatement).apply(statements, step.args as unknown[])
          : await transact((bound) => runAsync(step.body(), bound, transact));
    } catch (error) {
      next = script.throw(error);
      continue;
    }
    next = script.next(result);
  }
  return next.value;
}
