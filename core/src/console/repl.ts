import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { crossThreadNow } from '../clock.js';
import { whatToDo } from '../errors.js';
import type { ConsoleOutput } from './command.js';
import type { CommandConsole, LineResult } from './console.js';
import { terminalProgress, terminalWaiting } from './progress.js';

/** Where a REPL reads and writes. */
export interface ReplOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Interactive: show a prompt and use readline's line editing. */
  readonly interactive: boolean;
  readonly prompt?: string;
  /** Called when the operator presses Ctrl-C at the prompt. */
  readonly onInterrupt?: () => void;
  /** Lines run at once even while another line runs (the emergency `stop`). */
  readonly immediate?: ReadonlySet<string>;
  /**
   * Called the moment `quit` is read, even while another line runs (the line itself still waits its turn): the
   * runtime stops the robot and cancels what that line may be waiting on, so the quit is not held up by it.
   */
  readonly onQuit?: () => void;
  /**
   * When the next line was read (`crossThreadNow()`), called once per line in order: a line waits while
   * another runs, and motion it asks for must still count as asked before a stop typed after it.
   */
  readonly readAt?: () => number | undefined;
}

/** A running REPL. */
export interface Repl {
  /** Resolves when input ends or `quit` ran: true when every line succeeded. */
  readonly done: Promise<boolean>;
  /** Stops reading after the line in progress. */
  close(): void;
}

/**
 * Reads lines and runs them in order, one at a time — except the lines in
 * `immediate`, which run as soon as they arrive, so an emergency stop works
 * while an episode is running. Without a terminal, `done` tells whether all
 * lines succeeded.
 */
export function startRepl(commands: CommandConsole, options: ReplOptions): Repl {
  // Line editing needs the terminal itself; lines relayed by the line reader thread come edited already.
  const terminal = options.interactive && Boolean((options.input as { isTTY?: boolean }).isTTY);
  const rl = createInterface({
    input: options.input,
    output: options.interactive ? options.output : undefined,
    terminal,
    prompt: options.prompt ?? '> ',
  });
  if (options.interactive && options.onInterrupt) rl.on('SIGINT', options.onInterrupt);
  const out: ConsoleOutput = {
    print: (line) => options.output.write(`${line}\n`),
    progress: (label, total) => terminalProgress(options.output, label, total),
    write: (text) => options.output.write(text),
    waiting: (label) => terminalWaiting(options.output, label),
  };
  const queue: Array<{ readonly text: string; readonly askedAt: number }> = [];
  let allOk = true;
  // A person at the terminal also reads what to do about a failed line; a script reads the one
  // `error: CODE: message` line it matches, and nothing more.
  const finish = (result: LineResult) => {
    allOk &&= result.ok;
    const fix = options.interactive && result.error ? whatToDo(result.error) : undefined;
    if (fix !== undefined) out.print(`  what to do: ${fix}`);
  };
  let closed = false;
  let inputEnded = false;
  let wake: (() => void) | undefined;
  const urgent: Array<Promise<void>> = [];

  rl.on('line', (text) => {
    const line = { text, askedAt: options.readAt?.() ?? crossThreadNow() };
    if (text.trim() === 'quit') options.onQuit?.();
    if (options.immediate?.has(text.trim())) {
      urgent.push(commands.execute(text, out, line).then(finish));
      return;
    }
    queue.push(line);
    wake?.();
  });
  rl.on('close', () => {
    inputEnded = true;
    wake?.();
  });

  const done = (async () => {
    if (options.interactive) rl.prompt();
    while (!closed) {
      const line = queue.shift();
      if (line === undefined) {
        if (inputEnded) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      const result = await commands.execute(line.text, out, line);
      finish(result);
      if (result.quit) break;
      if (options.interactive) rl.prompt();
    }
    rl.close();
    await Promise.all(urgent);
    return allOk;
  })();
  return {
    done,
    close: () => {
      closed = true;
      rl.close();
    },
  };
}
