import { DEFAULT_READ_TIMEOUT_MS, type PluginKernel, type SensorReading } from '@mira/core';
import { SENSOR_FIELDS, SENSOR_MESSAGE_TYPES, SENSOR_UNITS, type SensorMessageType } from './messages.js';
import { attachLook } from './look.js';

/** One sensor mapped to a topic. */
export interface SensorMapping {
  readonly id: string;
  readonly topic: string;
  readonly type: SensorMessageType;
  /** Readings older than this are reported stale (default 5000). */
  readonly stale_after_ms?: number;
  /** `sensor_data` (best effort, depth 5) or `reliable` (default `sensor_data`). */
  readonly qos?: 'sensor_data' | 'reliable';
  /** rosbridge only: forward at most one message per this many milliseconds. */
  readonly throttle_rate_ms?: number;
  /** rosbridge only: how many messages the bridge buffers while throttling (default 0). */
  readonly queue_length?: number;
  /** rosbridge only: `cbor` for binary-encoded messages (large ones such as LaserScan), or `none`. */
  readonly compression?: 'none' | 'cbor';
}

/** Who waits for a sensor's next reading, by sensor: the robot's subscriptions hand each reading to them. */
export type ReadingWaiters = Map<string, Set<(reading: SensorReading) => void>>;

/**
 * Registers the mapped sensors with the kernel, each read as its next reading within the timeout, and the `look`
 * tool when a camera is among them. The waiters are for the subscriptions to hand readings to; `looking`, when
 * there is a camera, is closed with the robot.
 */
export function registerSensors(
  kernel: PluginKernel,
  sensors: readonly SensorMapping[],
  readTimeout: number | undefined,
): { waiters: ReadingWaiters; looking: false | { close(): Promise<void> } } {
  const waiters: ReadingWaiters = new Map();
  const readTimeoutMs = readTimeout ?? DEFAULT_READ_TIMEOUT_MS;
  /** The next reading of a sensor within `timeoutMs`, or undefined. */
  const nextReading = (sensorId: string, timeoutMs: number) =>
    new Promise<SensorReading | undefined>((resolve) => {
      const set = waiters.get(sensorId) ?? new Set();
      waiters.set(sensorId, set);
      const done = (reading: SensorReading | undefined) => {
        clearTimeout(timer);
        set.delete(done);
        resolve(reading);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      set.add(done);
    });

  for (const sensor of sensors) {
    kernel.sensors.register({
      id: sensor.id,
      kind: SENSOR_MESSAGE_TYPES[sensor.type],
      unit: SENSOR_UNITS[sensor.type],
      fields: SENSOR_FIELDS[sensor.type],
      description: `${sensor.type} on ${sensor.topic}`,
      staleAfterMs: sensor.stale_after_ms ?? 5000,
      readTimeoutMs,
      read: (timeoutMs) => nextReading(sensor.id, timeoutMs),
    });
  }
  const cameras = sensors.filter((sensor) => sensor.type === 'sensor_msgs/msg/CompressedImage');
  const looking =
    cameras.length > 0 &&
    attachLook(kernel, {
      cameras: cameras.map((c) => ({ id: c.id, topic: c.topic, staleAfterMs: c.stale_after_ms ?? 5000 })),
      readTimeoutMs,
      next: nextReading,
    });
  return { waiters, looking };
}
