import type { Clock } from '@mira/core';
import { AttentionErrors } from './errors.js';

/** A temporal follow-up the operator scheduled. */
export interface Followup {
  readonly id: number;
  readonly ref: string;
  readonly text: string;
  /** Monotonic due time (ms). */
  readonly dueAt: number;
  /** Wall-clock due time, for display. */
  readonly dueWall: Date;
}

/** Volatile follow-ups of this session, due by the injected clock. */
export class FollowupQueue {
  readonly #clock: Clock;
  #next = 1;
  #items: Followup[] = [];

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  add(delayMs: number, text: string): Followup {
    if (text.trim() === '') throw AttentionErrors.error('FOLLOWUP_EMPTY');
    const id = this.#next++;
    const item: Followup = {
      id,
      ref: `F${id}`,
      text: text.trim(),
      dueAt: this.#clock.monotonic() + delayMs,
      dueWall: new Date(this.#clock.now().getTime() + delayMs),
    };
    this.#items.push(item);
    return item;
  }

  /** Pending follow-ups, soonest first (then by ID). */
  list(): readonly Followup[] {
    return [...this.#items].sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
  }

  cancel(ref: string): Followup {
    const item = this.#items.find((f) => f.ref === ref.trim().toUpperCase());
    if (!item) throw AttentionErrors.error('FOLLOWUP_NOT_FOUND', { ref });
    this.#items = this.#items.filter((f) => f !== item);
    return item;
  }

  /** Removes and returns the follow-ups now due, in due order. */
  takeDue(): Followup[] {
    const now = this.#clock.monotonic();
    const due = this.list().filter((f) => f.dueAt <= now);
    this.#items = this.#items.filter((f) => !due.includes(f));
    return due;
  }

  clear(): void {
    this.#items = [];
  }
}
