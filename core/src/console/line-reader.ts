/**
 * The console's line reader, a worker thread: it reads standard input and
 * passes every line to the main thread, and sends `stop` and `quit` at once,
 * straight to the robots' safety paths, so an emergency stop never waits for
 * a busy main thread.
 */
import { read } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { crossThreadNow } from '../clock.js';

/** Worker → main. */
export type LineReaderMessage =
  /** A line and when it was read (`crossThreadNow()`). */
  { readonly type: 'line'; readonly line: string; readonly at: number } | { readonly type: 'end' };

/** What the line reader is started with. */
export interface LineReaderData {
  /** Ports of the safety paths; `stop` and `quit` go there as soon as they are read. */
  readonly ports: readonly MessagePort[];
}

/** How long to wait before reading again when standard input is non-blocking and empty. */
const RETRY_MS = 2;

if (parentPort) {
  const port = parentPort;
  const { ports } = workerData as LineReaderData;
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(64 * 1024);
  let pending = '';
  let ended = false;

  const emit = (line: string) => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    const word = text.trim();
    const at = crossThreadNow();
    if (word === 'stop' || word === 'quit') for (const p of ports) p.postMessage({ type: word, at });
    port.postMessage({ type: 'line', line: text, at } satisfies LineReaderMessage);
  };
  const end = () => {
    if (ended) return;
    ended = true;
    pending += decoder.end();
    if (pending !== '') emit(pending);
    port.postMessage({ type: 'end' } satisfies LineReaderMessage);
  };
  // Plain reads on fd 0 work for a terminal, a pipe, a socket and a file; a non-blocking one is polled.
  const next = (): void => {
    read(0, buffer, 0, buffer.length, null, (error, bytes) => {
      if (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return void setTimeout(next, RETRY_MS);
        return end();
      }
      if (bytes === 0) return end();
      pending += decoder.write(buffer.subarray(0, bytes));
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        emit(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
      next();
    });
  };
  next();
}
