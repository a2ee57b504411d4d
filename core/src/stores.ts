/** Anything the application owns and closes once at the end of shutdown. */
export interface ClosableStore {
  close(): void | Promise<void>;
}

/**
 * A store's name with the type of what it opens: a plugin registers its store under the key, and others look
 * it up by the same key and get that type, with no cast (`kernel.stores.get(MEMORY_STORE)` is a
 * `MemoryStore`, both from `@mira/memory-contract`). The key is declared once, beside the store's contract.
 *
 * @example
 * export const NOTES_STORE = storeKey<NotesStore>('notes');
 */
export interface StoreKey<S extends ClosableStore> {
  /** Unique name the store is known by in messages and the registry, e.g. `memory`. */
  readonly name: string;
  /** Never set: carries the store's type. */
  readonly type?: S;
}

/** A {@link StoreKey} for stores of type `S` named `name`. */
export function storeKey<S extends ClosableStore>(name: string): StoreKey<S> {
  return Object.freeze({ name });
}

/**
 * A store a plugin registers during `setup`. The application opens it at the
 * start of boot (before any plugin's `start`), owns it, and closes it once
 * after every shutdown phase has run.
 */
export interface StoreDefinition<S extends ClosableStore = ClosableStore> {
  /** The key other plugins look the store up by. */
  readonly key: StoreKey<S>;
  open(): Promise<S>;
  /**
   * The files the store keeps (an SQLite database: its path; its `-wal`, `-shm` and `-journal` side
   * files are implied). Commands that write a file the operator names never write over one of them.
   */
  readonly files?: readonly string[];
}
