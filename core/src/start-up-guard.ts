/**
 * The guard of a `mira` process's first moments. The bin installs it on its first line, before the
 * runtime's modules are imported (they, and reading the profile, take most of the start-up): from then on
 * no signal finds Node's default. An ending signal during start-up is said and ends the start-up before
 * anything is opened, with the same status as later; SIGUSR1 never opens the inspector. Once the process
 * guard (`ProcessGuard`, lifecycle.ts) watches, this one stays installed but silent, so no signal
 * ever falls back to Node's default in between, nor after the process guard is disposed.
 *
 * This module imports nothing: it is the only one loaded before the guard is in place.
 */

/**
 * The signals that end Mira, each with its exit status: SIGINT and SIGTERM are the ways to ask it to stop
 * (0); the others end it as a shell would report them (128 + the signal's number), after the same stop.
 */
export const ENDING_SIGNALS: Readonly<Partial<Record<NodeJS.Signals, number>>> = Object.freeze({
  SIGINT: 0,
  SIGTERM: 0,
  SIGHUP: 128 + 1,
  SIGQUIT: 128 + 3,
  SIGUSR2: 128 + 12,
});

/** How long after the guard is installed an inspector opened before it is still looked for (ms). */
const STRAY_INSPECTOR_WATCH_MS = 1000;

/** Whether the Node inspector was asked for (`--inspect…` in the process's flags or `NODE_OPTIONS`). */
export function inspectorRequested(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions = process.env.NODE_OPTIONS ?? '',
): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((flag) => /^--inspect(-brk|-wait)?(=|$)/.test(flag));
}

/** An ending signal that came during start-up. */
export interface StartUpEnding {
  readonly signal: NodeJS.Signals;
  /** The exit status it calls for ({@link ENDING_SIGNALS}). */
  readonly status: number;
}

/**
 * Holds the process's signals from the first line until the process guard takes them.
 *
 * @example
 * // core/bin/mira.js, before anything else:
 * const startUp = new StartUpGuard().install();
 * const { main } = await import('../dist/cli.js');
 * process.exit(await main(process.argv.slice(2), startUp));
 */
export class StartUpGuard {
  readonly #log: (line: string) => void;
  #ending: StartUpEnding | undefined;
  /** start-up: signals are this guard's; watched: the process guard has them; released: Node's again. */
  #mode: 'start-up' | 'watched' | 'released' = 'start-up';
  readonly #listeners = new Map<NodeJS.Signals, () => void>();

  constructor(log: (line: string) => void = (line) => process.stderr.write(`mira: ${line}\n`)) {
    this.#log = log;
  }

  /** The ending signal that came during start-up, if one did. */
  get ending(): StartUpEnding | undefined {
    return this.#ending;
  }

  /** Takes every ending signal and (unless the inspector was asked for) SIGUSR1. */
  install(): this {
    for (const [signal, status] of Object.entries(ENDING_SIGNALS) as Array<[NodeJS.Signals, number]>) {
      const listener = () => this.#received(signal, status);
      this.#listeners.set(signal, listener);
      process.on(signal, listener);
    }
    if (!inspectorRequested()) {
      // Any listener on SIGUSR1 replaces Node's own handler, which would open the inspector to any local
      // user; this one is never removed (removing the last would give SIGUSR1 its default: the end).
      process.on('SIGUSR1', () => {
        if (this.#mode !== 'watched')
          this.#say('SIGUSR1 ignored: the Node inspector opens only when asked for (node --inspect)');
      });
      this.#closeStrayInspector();
    }
    return this;
  }

  /** The process guard watches now: this guard's listeners stay, and do nothing more. */
  handOver(): void {
    this.#mode = 'watched';
  }

  /**
   * For a command that handles its own ending (a package's): the ending signals take Node's default again,
   * and one that already came ends the process by it now. SIGUSR1 stays ignored.
   */
  release(): void {
    this.#mode = 'released';
    for (const [signal, listener] of this.#listeners) process.off(signal, listener);
    this.#listeners.clear();
    if (this.#ending) process.kill(process.pid, this.#ending.signal);
  }

  #received(signal: NodeJS.Signals, status: number): void {
    if (this.#mode !== 'start-up') return;
    if (this.#ending) {
      this.#say(`${signal} received while ending the start-up (${this.#ending.signal} received)`);
      return;
    }
    this.#ending = { signal, status };
    this.#say(`${signal} received during start-up; ending it before anything is opened`);
  }

  /**
   * A SIGUSR1 that came while Node itself was starting, before this guard's first line, found Node's own
   * handler: the inspector opens (Node says `Debugger listening on …`). Closed as soon as it is seen: at
   * once, and for a moment after (Node opens it from another thread, which may be a little late).
   */
  #closeStrayInspector(): void {
    if (!process.features.inspector) return;
    void import('node:inspector').then((inspector) => {
      const check = () => {
        if (inspector.url() === undefined) return;
        inspector.close();
        this.#say('the Node inspector, opened by a SIGUSR1 before Mira was running, is closed');
      };
      check();
      const watch = setInterval(check, 25).unref();
      setTimeout(() => clearInterval(watch), STRAY_INSPECTOR_WATCH_MS).unref();
    });
  }

  /** A log line that never fails: standard error may be closed. */
  #say(line: string): void {
    try {
      this.#log(line);
    } catch {
      // Nowhere left to say it.
    }
  }
}
