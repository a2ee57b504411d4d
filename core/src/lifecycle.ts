/**
 * How a `mira` console or service ends: every way the process can be ended — a signal, the parent that
 * started it dying, its output closing, an error nothing caught — first stops the robot (zero velocity on
 * every drive, every navigation goal cancelled), then takes the orderly shutdown, within a hard deadline,
 * and exits with a status that says what happened.
 */

import { ENDING_SIGNALS, inspectorRequested } from './start-up-guard.js';

export { inspectorRequested };

/** Exit statuses of `mira` (the console and `mira run`); `mira --help` lists them. */
export const ExitStatus = Object.freeze({
  /** Ended as asked: `quit`, end of input, SIGINT or SIGTERM, after the orderly stop. */
  OK: 0,
  /** Start-up failed, or (a console without a terminal) a line failed. */
  FAILED: 1,
  USAGE: 2,
  /** The process that started Mira died (launch, a supervisor, a shell); the robot was stopped first. */
  PARENT_DIED: 3,
  /** Standard output or standard error was closed (its reader is gone); the robot was stopped first. */
  OUTPUT_CLOSED: 4,
  /** The orderly stop did not finish within the deadline (the robot's stop was sent first regardless). */
  STOP_OVERDUE: 5,
  /** An error nothing caught (a defect); the robot was stopped first. */
  INTERNAL: 70,
});

/** How long the orderly stop may take after the first ending, before the process exits regardless. */
export const STOP_DEADLINE_MS = 2000;
/** How often the parent is looked for: a dead parent is noticed within this. */
export const PARENT_POLL_MS = 250;

/** Why the process is ending. */
export interface Ending {
  /** What ended it, for the log: `SIGTERM received`, `the parent process (1234) died`, … */
  readonly why: string;
  /** The exit status it calls for. */
  readonly status: number;
}

/** What the guard drives. */
export interface ProcessGuardOptions {
  /** Zero velocity on every drive and a cancel of every goal, now (the kernel's emergency stop). */
  haltRobot(): Promise<unknown>;
  /** Begins the orderly stop: the console stops reading, a headless run ends. Called once. */
  end(ending: Ending): void;
  /** Where the guard says what it does; it must not throw when standard error is closed. */
  log(line: string): void;
  /** Ends the process (`process.exit`). */
  exit(status: number): void;
  readonly deadlineMs?: number;
  readonly parentPollMs?: number;
}

/**
 * Watches the process for every way it can end. The first ending stops the robot at once, then begins
 * the orderly stop; a second signal while stopping is said and changes nothing (the stop is never
 * skipped); past the deadline the process exits with {@link ExitStatus.STOP_OVERDUE}. SIGUSR1, which would
 * open Node's inspector to any local user, is refused unless the inspector was asked for.
 */
export class ProcessGuard {
  readonly #options: ProcessGuardOptions;
  #ending: Ending | undefined;
  readonly #undo: Array<() => void> = [];

  constructor(options: ProcessGuardOptions) {
    this.#options = options;
  }

  /** What ended the process, once something did. */
  get ending(): Ending | undefined {
    return this.#ending;
  }

  /** Starts watching: signals, the parent, standard output and error, uncaught errors. */
  install(): void {
    const on = <A extends unknown[]>(target: NodeJS.EventEmitter, event: string, listener: (...args: A) => void) => {
      target.on(event, listener as (...args: unknown[]) => void);
      this.#undo.push(() => target.off(event, listener as (...args: unknown[]) => void));
    };
    for (const [signal, status] of Object.entries(ENDING_SIGNALS) as Array<[NodeJS.Signals, number]>) {
      on(process, signal, () => this.trigger({ why: `${signal} received`, status }));
    }
    if (!inspectorRequested()) {
      on(process, 'SIGUSR1', () =>
        this.#options.log('SIGUSR1 ignored: the Node inspector opens only when asked for (node --inspect)'),
      );
    }
    // A closed pipe (EPIPE: the reader is gone) ends Mira in order, never by an unhandled stream error.
    for (const [name, stream] of [
      ['standard output', process.stdout],
      ['standard error', process.stderr],
    ] as const) {
      on(stream, 'error', (error: NodeJS.ErrnoException) => {
        // Once ending, a closed stream's further failures are the writes of the stop itself: saying them
        // would write again, and fail again, for ever.
        if (this.#ending) return;
        this.trigger({ why: `${name} failed (${error.code ?? error.message})`, status: ExitStatus.OUTPUT_CLOSED });
      });
    }
    on(process, 'uncaughtException', (error: Error) => {
      this.#options.log(`internal error: ${error.stack ?? String(error)}`);
      this.trigger({ why: 'an internal error', status: ExitStatus.INTERNAL });
    });
    const parent = process.ppid;
    // Started by init (or a subreaper that is PID 1) there is no parent to lose; otherwise a new parent
    // means ours died and we were handed on.
    if (parent > 1) {
      const poll = setInterval(() => {
        if (process.ppid !== parent)
          this.trigger({ why: `the parent process (${parent}) died`, status: ExitStatus.PARENT_DIED });
      }, this.#options.parentPollMs ?? PARENT_POLL_MS);
      poll.unref();
      this.#undo.push(() => clearInterval(poll));
    }
  }

  /** Stops watching (after the orderly stop). */
  dispose(): void {
    for (const undo of this.#undo.splice(0)) undo();
  }

  /** An ending: the first stops the robot and begins the orderly stop; later ones are only said. */
  trigger(ending: Ending): void {
    if (this.#ending) {
      this.#say(`${ending.why} while stopping (${this.#ending.why}); the stop goes on`);
      return;
    }
    this.#ending = ending;
    this.#say(`${ending.why}; stopping the robot, then shutting down`);
    let halted = false;
    this.#options
      .haltRobot()
      .catch((error: Error) => this.#say(`the robot's stop failed: ${error.message}`))
      .finally(() => (halted = true));
    const deadline = setTimeout(() => {
      this.#say(
        `the orderly stop did not finish within ${this.#options.deadlineMs ?? STOP_DEADLINE_MS} ms` +
          (halted ? '' : " (the robot's stop was not confirmed either)") +
          '; exiting',
      );
      this.#options.exit(ExitStatus.STOP_OVERDUE);
    }, this.#options.deadlineMs ?? STOP_DEADLINE_MS);
    // Referenced: a stop that hangs on nothing the event loop waits for must still reach the exit.
    this.#undo.push(() => clearTimeout(deadline));
    this.#options.end(ending);
  }

  /** A log line that never fails: standard error may be the very stream that closed. */
  #say(line: string): void {
    try {
      this.#options.log(line);
    } catch {
      // Nowhere left to say it.
    }
  }
}
