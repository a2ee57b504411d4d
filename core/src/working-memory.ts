/** Who said a working-memory entry. */
export type Speaker = 'operator' | 'assistant';

/** One entry of recent conversation. */
export interface WorkingMemoryEntry {
  readonly speaker: Speaker;
  readonly text: string;
  /** Wall-clock time the entry was added. */
  readonly at: Date;
}

/** Default number of entries kept. */
export const DEFAULT_WORKING_MEMORY_ENTRIES = 40;

/**
 * Volatile, bounded recent conversational context of the current session. It
 * is never persisted and is never admission evidence; the oldest entries fall
 * out when the bound is reached.
 */
export class WorkingMemory {
  readonly #limit: number;
  #entries: WorkingMemoryEntry[] = [];

  constructor(limit = DEFAULT_WORKING_MEMORY_ENTRIES) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('WorkingMemory limit must be a positive integer');
    this.#limit = limit;
  }

  /** The bound on entries. */
  get limit(): number {
    return this.#limit;
  }

  add(speaker: Speaker, text: string, at: Date): void {
    this.#entries.push(Object.freeze({ speaker, text, at }));
    if (this.#entries.length > this.#limit) this.#entries = this.#entries.slice(-this.#limit);
  }

  /** Entries oldest first. */
  entries(): readonly WorkingMemoryEntry[] {
    return [...this.#entries];
  }

  clear(): void {
    this.#entries = [];
  }
}
