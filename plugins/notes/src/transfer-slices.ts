import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '@mira/core';
import type { SqliteDatabase } from '@mira/sqlite';
import type { CheckpointWorkerData, FromCheckpointWorker } from './checkpoint-worker.js';

/**
 * The slices of a transfer (see transfer.ts): how long one holds the runtime's thread, the pause between
 * two, an import's slice clock with its checkpoints off the thread, and the entries of the transfer's
 * worker threads.
 */

/** The longest a slice of an import holds the runtime's thread (and the write lock). */
export const SLICE_MS = 20;
/** The least work a slice does, however long the last commit took. */
const MIN_WORK_MS = 2;

/** A notes worker's entry (see core's `workerEntry`): the built file, or the sources through tsx. */
export const notesWorker = (name: 'transfer-worker' | 'checkpoint-worker'): URL => workerEntry(import.meta.url, name);

/** Serves the event loop (timers, I/O, the console) before the next slice. */
export const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `step` over `items` in slices of at most {@link SLICE_MS}, yielding between them. */
export async function inSlices<T>(items: readonly T[], step: (item: T, index: number) => void): Promise<void> {
  for (let i = 0; i < items.length;) {
    const start = performance.now();
    do {
      step(items[i]!, i);
      i += 1;
    } while (i < items.length && performance.now() - start < SLICE_MS);
    if (i < items.length) await yieldToLoop();
  }
}

/**
 * Times an import's slices so that each, its commit included, holds the thread about {@link SLICE_MS}: the
 * work of the next slice gets what the last commit left of it. A slice commits without waiting for the disk
 * (`synchronous = NORMAL`, then the connection's own setting again before anything else runs on it): losing
 * the last slices to a power cut leaves a staged import the next open deletes, or a committed one it
 * finishes. The transactions that decide (the commit record, the last one) wait for the disk as usual.
 *
 * Checkpoints: a connection copies its WAL back into the database at the commit that grows the WAL past
 * 1,000 pages, on the committing thread (30–70 ms inside a slice). During the slices that is off, and a
 * worker thread checkpoints instead after each slice while the import waits (the event loop free): the WAL
 * is then wholly copied and the next slice starts it afresh, so it holds one slice's pages at most.
 */
export class SliceClock {
  #commitMs = 0;

  /** @param checkpointer the WAL's checkpoints off this thread, or none (the connection's own, as usual) */
  constructor(readonly checkpointer: Checkpointer | undefined) {}

  /** Whether a slice begun at `start` may do more work. */
  more(start: number): boolean {
    return performance.now() - start < Math.max(MIN_WORK_MS, SLICE_MS - this.#commitMs);
  }

  /** Runs one slice's work in its own transaction and returns what the work returned. */
  run<T>(db: SqliteDatabase, work: (start: number) => T): T {
    const synchronous = db.pragma('synchronous', { simple: true }) as number;
    const autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    db.pragma('synchronous = NORMAL');
    if (this.checkpointer?.running) db.pragma('wal_autocheckpoint = 0');
    try {
      let done = 0;
      const result = db
        .transaction(() => {
          const value = work(performance.now());
          done = performance.now();
          return value;
        })
        .immediate();
      this.#commitMs = performance.now() - done;
      return result;
    } finally {
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    }
  }

  /**
   * Serves the event loop before the next slice, while the worker copies the WAL back into the database:
   * the next slice then starts the WAL afresh, so it never holds more than a slice's pages.
   */
  async pause(): Promise<void> {
    await yieldToLoop();
    await this.checkpointer?.checkpoint();
  }
}

/**
 * Checkpoints the WAL from a worker thread of its own (see {@link SliceClock}). If the worker cannot open the
 * file or fails, the connection's own checkpoints come back: the slices then take longer, nothing else
 * changes.
 */
export class Checkpointer {
  #worker: Worker;
  #waiting: (() => void) | undefined;
  #failed = false;

  private constructor(path: string) {
    this.#worker = new Worker(notesWorker('checkpoint-worker'), {
      workerData: { path } satisfies CheckpointWorkerData,
    });
    this.#worker.on('message', (message: FromCheckpointWorker) => {
      if (message.type === 'failed') this.#fail();
      else this.#answer();
    });
    this.#worker.on('error', () => this.#fail());
    // Not unref'd: an import waiting for a checkpoint keeps the process alive (stop() ends the worker).
    this.#worker.on('exit', () => this.#fail());
  }

  /** A checkpointer for `db`'s file, or none for a database without one (in memory, or not in WAL mode). */
  static start(db: SqliteDatabase): Checkpointer | undefined {
    const main = (db.pragma('database_list') as Array<{ name: string; file: string }>).find((d) => d.name === 'main');
    const wal = String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
    return main?.file && wal ? new Checkpointer(main.file) : undefined;
  }

  /** Whether the worker checkpoints (so the connection need not). */
  get running(): boolean {
    return !this.#failed;
  }

  /** Runs a checkpoint in the worker; resolves when it is done, or at once if the worker failed. */
  checkpoint(): Promise<void> {
    if (this.#failed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#waiting = resolve;
      this.#worker.postMessage('checkpoint');
    });
  }

  /** Ends the worker once its checkpoint under way (if any) is done; it closes its connection. */
  stop(): void {
    this.#failed = true;
    this.#worker.postMessage('stop');
  }

  #answer(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }

  #fail(): void {
    if (!this.#failed) void this.#worker.terminate();
    this.#failed = true;
    this.#answer();
  }
}
