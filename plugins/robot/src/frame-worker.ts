/**
 * The thread that brings camera frames within the model's budget (see camera-frame.ts), so decoding a large
 * frame (seconds for 12 megapixels in JavaScript) never holds the main thread, whose stall the dead-man
 * would answer with a stop.
 */
import { parentPort } from 'node:worker_threads';
import type { SensorImage } from '@mira/core';
import { frameForModel, type ShownFrame } from './camera-frame.js';

/** A frame to shrink. */
export interface FrameRequest {
  readonly id: number;
  readonly image: SensorImage;
}

/** The frame shrunk, or why it could not be. */
export type FrameReply =
  { readonly id: number; readonly frame: ShownFrame } | { readonly id: number; readonly error: string };

parentPort?.on('message', ({ id, image }: FrameRequest) => {
  let reply: FrameReply;
  try {
    reply = { id, frame: frameForModel(image) };
  } catch (error) {
    reply = { id, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
