/**
 * The time seam. Historical timestamps come from `now()` (wall clock, UTC);
 * durations come from `monotonic()` (milliseconds, never goes backwards).
 */
export interface Clock {
  /** Wall-clock time, used for stored ISO-8601 UTC timestamps. */
  now(): Date;
  /** Session-local monotonic milliseconds, used for ages and timeouts. */
  monotonic(): number;
}

/**
 * Milliseconds on the monotonic clock that every thread of this process shares (`process.hrtime`, not
 * `performance.now()`, whose origin is each thread's own start): for ordering events across threads — a
 * stop typed on the line reader's thread and a drive asked on the main thread — never a wall time.
 */
export function crossThreadNow(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The real clock. */
export const systemClock: Clock = Object.freeze({
  now: () => new Date(),
  monotonic: () => performance.now(),
});

/**
 * A clock that moves only when told to; for tests and simulations.
 *
 * @example
 * const clock = new ManualClock('2026-01-01T00:00:00Z');
 * clock.advance(1500); // both now() and monotonic() move 1.5 s
 */
export class ManualClock implements Clock {
  #wall: number;
  #mono = 0;

  constructor(start: string | Date = '2026-01-01T00:00:00.000Z') {
    this.#wall = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.#wall);
  }

  monotonic(): number {
    return this.#mono;
  }

  /** Moves both clocks forward by `ms` milliseconds. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError('ManualClock.advance() takes a non-negative number of milliseconds');
    this.#wall += ms;
    this.#mono += ms;
  }
}

/** Renders a date as the deterministic ISO-8601 UTC form used in storage. */
export function isoUtc(date: Date): string {
  return date.toISOString();
}
