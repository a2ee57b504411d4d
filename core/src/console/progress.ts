import { createRequire } from 'node:module';
import type { Writable } from 'node:stream';
import type * as CliProgress from 'cli-progress';
import type { ConsoleOutput, Progress, Waiting } from './command.js';

// cli-progress (and the readline it loads) only when a bar is drawn: not at every start-up.
const require = createRequire(import.meta.url);

/** Progress that shows nothing: for output that is not a terminal. */
export const NO_PROGRESS: Progress = Object.freeze({ update: () => {}, stop: () => {} });

/**
 * A progress bar on `stream` (cli-progress) when it is a terminal, and nothing at all when it is not:
 * scripts reading Mira's output never see bar characters.
 */
export function terminalProgress(stream: Writable & { isTTY?: boolean }, label: string, total: number): Progress {
  if (!stream.isTTY || total <= 0) return NO_PROGRESS;
  const cliProgress = require('cli-progress') as typeof CliProgress;
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {value}/{total}`,
      stream,
      clearOnComplete: true,
      hideCursor: true,
      barsize: 30,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return {
    update: (done) => bar.update(Math.min(done, total)),
    stop: () => bar.stop(),
  };
}

/** How long a wait lasts before its line is shown: a quick answer shows none. */
export const WAITING_DELAY_MS = 1000;

/**
 * A waiting line on `stream` when it is a terminal, in the console's progress style (cli-progress, as
 * {@link terminalProgress}): `label` and the seconds waited so far, shown after `delayMs` and cleared by
 * `stop()`. Nothing at all when the stream is not a terminal, or when `stop()` came first.
 *
 * @example
 * const waiting = terminalWaiting(process.stdout, 'Mira is thinking…');
 * await answer; // after a second: "Mira is thinking… 1s", counting
 * waiting.stop(); // the line is cleared
 */
export function terminalWaiting(
  stream: Writable & { isTTY?: boolean },
  label: string,
  delayMs = WAITING_DELAY_MS,
): Waiting {
  if (!stream.isTTY) return { stop: () => {} };
  let bar: CliProgress.SingleBar | undefined;
  const timer = setTimeout(() => {
    const cliProgress = require('cli-progress') as typeof CliProgress;
    bar = new cliProgress.SingleBar({
      format: `${label} {duration}s`,
      stream,
      clearOnComplete: true,
      hideCursor: true,
    });
    bar.start(1, 0);
  }, delayMs);
  return {
    stop: () => {
      clearTimeout(timer);
      bar?.stop();
      bar = undefined;
    },
  };
}

/** The progress bar of `out` for an operation of `total` steps, or {@link NO_PROGRESS}. */
export function progressOf(out: ConsoleOutput, label: string, total: number): Progress {
  return out.progress?.(label, total) ?? NO_PROGRESS;
}
