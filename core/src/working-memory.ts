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
 * is never persisted and is never admission evidence. When an entry would pass
 * the bound, all but the newest tenth (whole turns of two entries, at least one
 * turn: 4 of 40) fall out at once. What is kept then stays the same, and only
 * grows, for many turns, so the prompt that carries it keeps its prefix and a
 * server's cache reuses it; a first-in-first-out window instead changes the
 * prompt from its start on every turn. Why so few are kept: the turn after a
 * drop re-reads what was kept, and to reuse at least 90% of that prompt the
 * kept turns and the new message must be under a tenth of it (measured in
 * test/cognition-reuse.test.ts: keeping half gave about 0.8, a tenth 0.91).
 */
export class WorkingMemory {
  readonly #limit: number;
  readonly #keptAfterDrop: number;
  #entries: WorkingMemoryEntry[] = [];

  constructor(limit = DEFAULT_WORKING_MEMORY_ENTRIES) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError('WorkingMemory limit must be a positive integer');
    this.#limit = limit;
    this.#keptAfterDrop = Math.min(limit, Math.max(2, Math.ceil(limit / 10 / 2) * 2));
  }

  /** The bound on entries. */
  get limit(): number {
    return this.#limit;
  }

  add(speaker: Speaker, text: string, at: Date): void {
    this.#entries.push(Object.freeze({ speaker, text, at }));
    if (this.#entries.length <= this.#limit) return;
    // Whole turns: what is kept starts with the operator's words (an entry is added as it is said).
    let from = this.#entries.length - this.#keptAfterDrop;
    while (from < this.#entries.length - 1 && this.#entries[from]!.speaker !== 'operator') from += 1;
    this.#entries = this.#entries.slice(from);
  }

  /** Entries oldest first. */
  entries(): readonly WorkingMemoryEntry[] {
    return [...this.#entries];
  }

  clear(): void {
    this.#entries = [];
  }
}
