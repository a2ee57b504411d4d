import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { MIRA_BIN, REPO_ROOT } from './run-mira.js';

/** A Twist seen by an independent subscriber, with the wall-clock time it arrived. */
export interface Seen {
  readonly linear: number;
  readonly at: number;
}

/** A real `mira` process fed line by line, its output read as it comes. */
export class MiraProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  /** When the process was seen to end (ms), with its output read to the end. */
  closedAt: number | undefined;

  /**
   * `options.headless` runs `mira run` (a service) instead of the console; `options.detached` puts the
   * process in a process group of its own (a terminal's Ctrl-C reaches the whole group).
   */
  constructor(
    profileDir: string,
    env: NodeJS.ProcessEnv = {},
    extraArgs: readonly string[] = [],
    options: { readonly headless?: boolean; readonly detached?: boolean } = {},
  ) {
    const command = options.headless ? ['run', '--profile', profileDir] : ['--profile', profileDir];
    this.child = spawn(process.execPath, [MIRA_BIN, ...command, ...extraArgs], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      detached: options.detached ?? false,
    });
    this.child.stdout.on('data', (d) => (this.stdout += d));
    this.child.stderr.on('data', (d) => (this.stderr += d));
    this.exited = new Promise((resolve) =>
      this.child.on('close', (code) => {
        this.closedAt = Date.now();
        resolve(code);
      }),
    );
  }

  /** Writes one console line and returns when it was written (ms). */
  say(line: string): number {
    this.child.stdin.write(`${line}\n`);
    return Date.now();
  }

  /**
   * Waits until `find` finds something: the process's readiness, not a fixed time. It fails at once when
   * the process has exited (what it waited for can no longer come); `timeoutMs` is only a ceiling for a
   * process that hangs, far above any start-up on a loaded machine.
   */
  async until<T>(find: () => T | undefined, what: string, timeoutMs = 180_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined && found !== null && found !== false) return found;
      const gone = this.closedAt !== undefined;
      if (gone || Date.now() > deadline)
        throw new Error(
          `${gone ? `the process ended (${this.child.exitCode ?? this.child.signalCode})` : 'timed out'} ` +
            `waiting for ${what}\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Twists the probe's own thread saw on the simulator's bus. */
  probeTwists(): Seen[] {
    return [...this.stderr.matchAll(/^probe: twist (\S+) (\S+) (\d+)$/gm)].map((m) => ({
      linear: Number(m[1]),
      at: Number(m[3]),
    }));
  }

  blockedAt(): number | undefined {
    const match = /^probe: blocking (\d+)$/m.exec(this.stderr);
    return match ? Number(match[1]) : undefined;
  }

  /** Ends the process at once (a run that is cut short). */
  async kill(): Promise<void> {
    this.child.kill('SIGKILL');
    await this.exited;
  }

  async quit(): Promise<number | null> {
    this.child.stdin.end('quit\n');
    return this.exited;
  }
}
