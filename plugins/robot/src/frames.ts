import { Worker } from 'node:worker_threads';
import { workerEntry, type SensorImage } from '@mira/core';
import type { ShownFrame } from './camera-frame.js';
import type { FrameReply, FrameRequest } from './frame-worker.js';

/**
 * Shrinks camera frames for the model on a worker thread of its own (frame-worker.ts), started at the first
 * frame and kept for the next (its start costs more than a small frame's work); it never keeps the process
 * alive, and a thread that fails is started again at the next frame.
 */
export class FrameShrinker {
  #worker: Worker | undefined;
  #next = 1;
  readonly #pending = new Map<number, { resolve: (frame: ShownFrame) => void; reject: (error: Error) => void }>();

  /** `image` within the budget. @throws Error when it cannot be decoded, or the thread failed */
  shrink(image: SensorImage): Promise<ShownFrame> {
    const worker = this.#thread();
    const id = this.#next++;
    return new Promise<ShownFrame>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, image } satisfies FrameRequest);
    });
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = new Worker(workerEntry(import.meta.url, 'frame-worker'));
    worker.unref();
    worker.on('message', (reply: FrameReply) => {
      const waiting = this.#pending.get(reply.id);
      this.#pending.delete(reply.id);
      if (this.#pending.size === 0) worker.unref();
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.frame);
    });
    const failed = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const { reject } of this.#pending.values()) reject(error);
      this.#pending.clear();
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`the frame thread exited (${code})`)));
    this.#worker = worker;
    return worker;
  }

  /** Ends the thread; frames still being shrunk are refused. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }
}
