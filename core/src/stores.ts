/** Anything the application owns and closes once at the end of shutdown. */
export interface ClosableStore {
  close(): void | Promise<void>;
}

/**
 * A store a plugin registers during `apply`. The application opens it at the
 * start of boot (before any plugin's `start`), owns it, and closes it once
 * after every shutdown phase has run.
 */
export interface StoreDefinition<S extends ClosableStore = ClosableStore> {
  /** Unique name other plugins look the store up by, e.g. `memory`. */
  readonly name: string;
  open(): Promise<S>;
  /**
   * The files the store keeps (an SQLite database: its path; its `-wal`, `-shm` and `-journal` side
   * files are implied). Commands that write a file the operator names never write over one of them.
   */
  readonly files?: readonly string[];
}
