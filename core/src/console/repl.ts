import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { ConsoleOutput } from './command.js';
import type { CommandConsole } from './console.js';

/** Where a REPL reads and writes. */
export interface ReplOptions {
  readonly input: Readable;
  readonly output: Writable;
  /** Interactive: show a prompt and use readline's line editing. */
  readonly interactive: boolean;
  readonly prompt?: string;
  /** Called when the operator presses Ctrl-C at the prompt. */
  readonly onInterrupt?: () => void;
}

/** A running REPL. */
export interface Repl {
  /** Resolves when input ends or `quit` ran: true when every line succeeded. */
  readonly done: Promise<boolean>;
  /** Stops reading after the line in progress. */
  close(): void;
}

/**
 * Reads lines and runs them in order, one at a time. Without a terminal each
 * line runs in order and `done` tells whether all succeeded.
 */
export function startRepl(commands: CommandConsole, options: ReplOptions): Repl {
  const rl = createInterface({
    input: options.input,
    output: options.interactive ? options.output : undefined,
    terminal: options.interactive,
    prompt: options.prompt ?? '> ',
  });
  if (options.interactive && options.onInterrupt) rl.on('SIGINT', options.onInterrupt);
  const out: ConsoleOutput = { print: (line) => options.output.write(`${line}\n`) };
  let closed = false;
  const done = (async () => {
    let allOk = true;
    if (options.interactive) rl.prompt();
    for await (const line of rl) {
      const result = await commands.execute(line, out);
      allOk &&= result.ok;
      if (result.quit || closed) break;
      if (options.interactive) rl.prompt();
    }
    rl.close();
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
