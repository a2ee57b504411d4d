/**
 * A bound on log lines a peer's bad input can cause: each malformed message would otherwise cost a line on
 * stderr and, through the log hook, a /rosout publish, as fast as the peer sends them. Limited where the
 * line is made, so stderr and /rosout carry the same lines.
 */

/** At most `lines` lines of one kind per `intervalMs`. */
export interface LogLimit {
  readonly lines: number;
  readonly intervalMs: number;
}

/** The default: five lines of a kind per 10 s, then one line per 10 s with how many more came. */
export const DEFAULT_LOG_LIMIT: LogLimit = Object.freeze({ lines: 5, intervalMs: 10_000 });

interface Window {
  readonly start: number;
  said: number;
  suppressed: number;
  latest: string;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * Says at most `limit.lines` lines of a kind per interval; the rest of that interval are counted, and when
 * it ends one line says the latest of them with how many more there were:
 * `… (37 more like this in the last 10 s)`.
 *
 * @example
 * const peer = new LimitedLog((line) => log(line));
 * ros.on('error', (event) => peer.say('undecodable', `${name}: ${describe(event)}`));
 */
export class LimitedLog {
  readonly #log: (line: string) => void;
  readonly #limit: LogLimit;
  readonly #windows = new Map<string, Window>();

  constructor(log: (line: string) => void, limit: LogLimit = DEFAULT_LOG_LIMIT) {
    this.#log = log;
    this.#limit = limit;
  }

  /** Says `line`, of the kind `kind`, unless the kind has had its lines this interval. */
  say(kind: string, line: string): void {
    const now = performance.now();
    let window = this.#windows.get(kind);
    if (!window || now - window.start >= this.#limit.intervalMs) {
      if (window) this.#summarise(kind);
      window = { start: now, said: 0, suppressed: 0, latest: '' };
      this.#windows.set(kind, window);
    }
    if (window.said < this.#limit.lines) {
      window.said += 1;
      this.#log(line);
      return;
    }
    window.suppressed += 1;
    window.latest = line;
    if (!window.timer) {
      window.timer = setTimeout(() => this.#summarise(kind), window.start + this.#limit.intervalMs - now);
      window.timer.unref();
    }
  }

  /** Says what is still counted, and forgets every kind (a transport closing). */
  flush(): void {
    for (const kind of [...this.#windows.keys()]) this.#summarise(kind);
  }

  /** Ends the kind's interval: its suppressed lines said in one. */
  #summarise(kind: string): void {
    const window = this.#windows.get(kind);
    if (!window) return;
    clearTimeout(window.timer);
    this.#windows.delete(kind);
    if (window.suppressed === 0) return;
    const more = window.suppressed - 1;
    const ms = this.#limit.intervalMs;
    const span = ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
    this.#log(more === 0 ? window.latest : `${window.latest} (${more} more like this in the last ${span})`);
  }
}
