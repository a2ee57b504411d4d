/**
 * Snapshots: the camera's latest frame kept as an `observation` memory, its frame an object payload, its
 * provenance a sensor observation (with when and where it was taken), never an operator statement. The
 * console's `memory snapshot` and the model's `take_snapshot` both keep one through {@link takeSnapshot}.
 */
import type { SensorDefinition, SensorReading } from '@mira/core';
import { MemoryErrors } from './errors.js';
import { describePose, parsePose, type Pose } from './places.js';
import type { Memory, MemoryStore } from './types.js';
import { SENSOR_OBSERVATION_SOURCE } from './validate.js';

/** What a snapshot reads of the runtime's sensors. */
export interface SnapshotSensors {
  list(): readonly SensorDefinition[];
  latest(id: string): SensorReading | undefined;
}

/** How old a reading may be when its sensor names no staleness (ms). */
const DEFAULT_FRESH_MS = 5000;

/** The pose a `pose` sensor's reading gives (x, y, yaw in radians, frame), or undefined when it is not whole. */
export function poseOfReading(reading: SensorReading): Pose | undefined {
  const { x, y, yaw, frame } = reading.value as Record<string, unknown>;
  if (typeof x !== 'number' || typeof y !== 'number' || typeof yaw !== 'number' || typeof frame !== 'string')
    return undefined;
  try {
    return parsePose(`${x},${y},${(yaw * 180) / Math.PI}`, frame);
  } catch {
    return undefined;
  }
}

/**
 * Where the robot is now: the first `pose` sensor (Nav2's localisation on amcl_pose, the simulator's map
 * pose) whose latest reading is fresh (within its `staleAfterMs`) and whole, in the frame it names; else,
 * for each pose sensor, why it gave none. `now` is the runtime's monotonic clock (ms).
 */
export function freshPose(sensors: SnapshotSensors, now: number): { pose?: Pose; why: string[] } {
  const why: string[] = [];
  for (const sensor of sensors.list().filter((s) => s.kind === 'pose')) {
    const reading = sensors.latest(sensor.id);
    if (!reading) {
      why.push(`${sensor.id}: nothing heard yet`);
      continue;
    }
    const age = now - reading.monotonic;
    if (age > (sensor.staleAfterMs ?? DEFAULT_FRESH_MS)) {
      why.push(`${sensor.id}: last heard ${(age / 1000).toFixed(1)} s ago`);
      continue;
    }
    const pose = poseOfReading(reading);
    if (pose) return { pose, why };
    why.push(`${sensor.id}: its reading has no whole pose with a frame`);
  }
  return { why };
}

/**
 * The camera a snapshot is taken with: `name` is the image sensor `<name>` or `camera_<name>`; without
 * one, the profile's only camera.
 * @throws MiraError MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE saying which cameras there are
 */
export function cameraSensor(sensors: SnapshotSensors, name: string | null | undefined): SensorDefinition {
  const cameras = sensors.list().filter((s) => s.kind === 'image');
  const names = cameras.map((c) => c.id).join(', ');
  if (cameras.length === 0) throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.noCamera');
  if (name === undefined || name === null) {
    if (cameras.length > 1)
      throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.whichCamera', { count: cameras.length, names });
    return cameras[0]!;
  }
  const camera = cameras.find((c) => c.id === name || c.id === `camera_${name}`);
  if (!camera) throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.unknownCamera', { name, names });
  return camera;
}

/** A kept snapshot: its memory, the camera, the frame's reading and where the robot was. */
export interface Snapshot {
  readonly memory: Memory;
  readonly camera: SensorDefinition;
  readonly reading: SensorReading;
  readonly where: Pose | undefined;
}

/**
 * Keeps `camera`'s latest frame as an observation memory with `links`, summarised by `caption` (or
 * `snapshot from <camera>`), its source `sensor_observation` labelled with when the frame arrived and, when
 * a fresh `pose` reading says, where the robot was. `now` is the runtime's monotonic clock (ms).
 * @throws MiraError MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE when there is no fresh JPEG or PNG frame
 */
export async function takeSnapshot(
  store: MemoryStore,
  sensors: SnapshotSensors,
  now: number,
  target: {
    readonly links: ReadonlyArray<{ readonly entityId: number; readonly role: string }>;
    readonly caption?: string | null;
    readonly camera?: string | null;
  },
): Promise<Snapshot> {
  const camera = cameraSensor(sensors, target.camera);
  const reading = sensors.latest(camera.id);
  if (!reading?.image) throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.noFrame', { id: camera.id });
  const staleAfter = camera.staleAfterMs ?? DEFAULT_FRESH_MS;
  if (now - reading.monotonic > staleAfter)
    throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.staleFrame', {
      id: camera.id,
      age: Math.round((now - reading.monotonic) / 1000),
      staleAfter: staleAfter / 1000,
    });
  // Where the robot was: a fresh map pose, when the profile has one.
  const { pose: where } = freshPose(sensors, now);
  const memory = await store.createMemory({
    kind: 'observation',
    summary: target.caption ?? `snapshot from ${camera.id}`,
    links: target.links,
    sourceKind: SENSOR_OBSERVATION_SOURCE,
    sourceLabel: `${camera.id} at ${reading.at.toISOString()}${where ? `, ${describePose(where)}` : ''}`,
    object: { bytes: reading.image.bytes, mediaType: reading.image.mediaType },
  });
  return { memory, camera, reading, where };
}
