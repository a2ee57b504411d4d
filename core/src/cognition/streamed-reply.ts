import type { ConsoleOutput, Waiting } from '../console/command.js';
import { printable } from '../text/printable.js';
import { withoutThinking } from './thinking.js';

const THINK = '<think>';

/**
 * Prints one model answer's text as it streams in, the way the whole reply would be printed
 * (`speakerLines`: `Mira: first line`, further lines indented, escaped by `printable`): no thinking (a
 * `<think>` block, or the start of a tag that may become one, is held back until it is known), no leading
 * white space, and trailing white space only once more text follows it. The first printed piece clears the
 * waiting line. Used only where the output can write part of a line (`ConsoleOutput.write`).
 */
export class StreamedReply {
  readonly #write: (text: string) => void;
  readonly #speaker: string;
  readonly #waiting: Waiting | undefined;
  #raw = '';
  /** How much of the visible text was printed. */
  #printed = 0;

  constructor(write: (text: string) => void, speaker: string, waiting: Waiting | undefined) {
    this.#write = write;
    this.#speaker = speaker;
    this.#waiting = waiting;
  }

  /** True once any of the reply was printed: the reply is then not printed again whole. */
  get started(): boolean {
    return this.#printed > 0;
  }

  /** Takes the next piece of the answer's text. */
  add(delta: string): void {
    this.#raw += delta;
    const visible = (withoutThinking(this.#raw) ?? '').trimStart();
    let ready = visible.trimEnd().length;
    // A tag may be arriving: `<thi` is held back until it is `<think>` (never printed) or not.
    for (let n = Math.min(THINK.length - 1, ready); n > 0; n -= 1) {
      if (visible.slice(0, ready).endsWith(THINK.slice(0, n))) {
        ready -= n;
        break;
      }
    }
    // Never half of a surrogate pair: the other half is printed with the piece after.
    if (ready > 0 && /[\uD800-\uDBFF]/.test(visible[ready - 1]!)) ready -= 1;
    if (ready <= this.#printed) return;
    const piece = printable(visible.slice(this.#printed, ready)).replaceAll('\n', '\n  ');
    if (this.#printed === 0) {
      this.#waiting?.stop();
      this.#write(`${this.#speaker}: `);
    }
    this.#write(piece);
    this.#printed = ready;
  }

  /** Ends the line, when anything was printed. */
  end(): void {
    if (this.#printed > 0) this.#write('\n');
  }
}

/** The waiting line and the streamed reply of one model call, on an output that may have neither. */
export function callProgress(
  out: ConsoleOutput,
  speaker: string,
): { waiting: Waiting | undefined; reply: StreamedReply | undefined } {
  const waiting = out.waiting?.(`${speaker} is thinking…`);
  const write = out.write?.bind(out);
  return { waiting, reply: write ? new StreamedReply(write, speaker, waiting) : undefined };
}
