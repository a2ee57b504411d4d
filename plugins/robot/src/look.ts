/**
 * `look`: the model sees a camera's latest frame. The tool's result is a short JSON text (which camera, the
 * size shown, its bytes, its age); the frame rides beside it as the result's image, which the episode engine
 * adds to the request as an image input after the step's tool results, when the profile's model sees images.
 */
import { defineTool, type PluginKernel, type SensorReading, type ToolResult } from '@mira/core';
import type { ShownFrame } from './camera-frame.js';
import { FrameShrinker } from './frames.js';
import { json, rejected } from './tool-result.js';

/** A camera the profile maps (a `sensor_msgs/msg/CompressedImage` sensor). */
export interface LookCamera {
  readonly id: string;
  readonly topic: string;
  /** A frame older than this is not shown; a fresh one is waited for. */
  readonly staleAfterMs: number;
}

/** What the tool needs of the robot bridge. */
export interface LookInputs {
  readonly cameras: readonly LookCamera[];
  /** How long to wait for a fresh frame when the latest is stale or absent (ms). */
  readonly readTimeoutMs: number;
  /** The next reading of a sensor within `timeoutMs`, or undefined. */
  readonly next: (sensorId: string, timeoutMs: number) => Promise<SensorReading | undefined>;
}

/**
 * Registers `look` (an acquisition, operator episodes) over the profile's cameras. Refusals, by reason:
 * `model_sees_no_images` (the episode's model is not shown images: nothing is decoded), `unknown_camera`,
 * `no_frame` (none within the wait, or only a stale one), `unreadable_frame` (not a JPEG or PNG that decodes).
 */
export function attachLook(kernel: PluginKernel, inputs: LookInputs): { close(): Promise<void> } {
  const frames = new FrameShrinker();
  const ids = inputs.cameras.map((camera) => camera.id);
  kernel.tools.register(
    defineTool({
      name: 'look',
      description: `See a camera's latest frame. It is shown to you as an image after this result. Cameras: ${ids.join(', ')}.`,
      agentDescription: "Shows a camera's latest frame.",
      kind: 'acquisition',
      origins: ['operator'],
      parameters: {
        type: 'object',
        properties: { camera: { type: 'string' } },
        required: ['camera'],
        additionalProperties: false,
      },
      run: async ({ camera }, context): Promise<ToolResult> => {
        if (context.seesImages !== true) {
          return rejected(
            'model_sees_no_images',
            "this robot's model is not shown images (the profile's model settings say so); nothing was taken: answer from the sensor readings",
          );
        }
        const found = inputs.cameras.find((c) => c.id === camera);
        if (!found) {
          return rejected('unknown_camera', `no camera ${camera.slice(0, 64)}; the cameras are ${ids.join(', ')}`);
        }
        const age = (reading: SensorReading) => kernel.clock.monotonic() - reading.monotonic;
        let reading = kernel.sensors.latest(found.id);
        if (!reading || age(reading) > found.staleAfterMs) {
          reading = (await inputs.next(found.id, inputs.readTimeoutMs)) ?? reading;
        }
        if (!reading || age(reading) > found.staleAfterMs) {
          const last = reading ? `its last is ${Math.round(age(reading))} ms old` : 'it has sent none';
          return rejected(
            'no_frame',
            `no fresh frame from ${found.id} on ${found.topic} within ${inputs.readTimeoutMs} ms (${last}); is the camera running?`,
          );
        }
        if (!reading.image) {
          return rejected(
            'unreadable_frame',
            `${found.id}'s frame is not a JPEG or PNG image (${JSON.stringify(reading.value).slice(0, 120)})`,
          );
        }
        let shown: ShownFrame;
        try {
          shown = await frames.shrink(reading.image);
        } catch (error) {
          kernel.log.warn(`look ${found.id}: ${(error as Error).stack ?? String(error)}`);
          return rejected('unreadable_frame', `${found.id}'s frame could not be decoded: ${(error as Error).message}`);
        }
        const ageMs = Math.round(age(reading));
        return {
          content: json({
            status: 'shown',
            camera: found.id,
            width: shown.width,
            height: shown.height,
            bytes: shown.jpeg.length,
            age_ms: ageMs,
            taken_at: reading.at.toISOString(),
          }),
          display: `${found.id} ${shown.width}×${shown.height}, ${shown.jpeg.length} bytes, ${ageMs} ms old`,
          image: { mediaType: 'image/jpeg', bytes: shown.jpeg },
        };
      },
    }),
  );
  return { close: () => frames.close() };
}
