import { MemoryErrors } from './errors.js';
import type { Entity, Memory, MemoryStore, NewMemory } from './types.js';

/**
 * Places: entities of type `place` whose pose (frame, x, y, yaw) is a memory of the place — kind `fact`,
 * predicate `pose`, a value in one canonical form — written by the operator on the console (`memory
 * place add`). The model cannot create one (entities are the operator's), and a pose the operator did
 * not write is never used to drive to.
 */
export const PLACE_ENTITY_TYPE = 'place';
/** The predicate of a place's pose memory. */
export const POSE_PREDICATE = 'pose';
/** The provenance a pose must have to be driven to: written on the console by the operator. */
export const POSE_SOURCE_KIND = 'console';
/** The frame a pose is in when none is given (Nav2's global frame). */
export const DEFAULT_POSE_FRAME = 'map';
/** How far from the frame's origin a place may be, in metres. */
export const MAX_POSE_DISTANCE_M = 10_000;

/** Where a place is: metres in a frame, and a heading in degrees (0: along x, 90: along y). */
export interface Pose {
  readonly frame: string;
  readonly x: number;
  readonly y: number;
  readonly yawDeg: number;
}

const FRAME = /^[A-Za-z_][A-Za-z0-9_/]{0,63}$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** `x=3.2 y=-1 yaw=90 frame=map`: the value of a pose memory. */
const CANONICAL = /^x=(\S+) y=(\S+) yaw=(\S+) frame=(\S+)$/;

/** A number as a pose keeps it: at most three decimals (millimetres, thousandths of a degree), no -0. */
const keep = (n: number) => Number(n.toFixed(3)) + 0;

/**
 * The pose `x,y,yaw` (metres, metres, degrees) in `frame`, checked.
 * @throws MiraError MIRA_ERR_MEMORY_POSE_INVALID naming what is wrong
 */
export function parsePose(text: string, frame: string = DEFAULT_POSE_FRAME): Pose {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length !== 3 || !parts.every((p) => NUMBER.test(p))) {
    throw MemoryErrors.error('POSE_INVALID.notPose', { text: text.slice(0, 80) });
  }
  if (!FRAME.test(frame)) {
    throw MemoryErrors.error('POSE_INVALID.frame', { frame: frame.slice(0, 80) });
  }
  const [x, y, yaw] = parts.map(Number) as [number, number, number];
  if (Math.abs(x) > MAX_POSE_DISTANCE_M || Math.abs(y) > MAX_POSE_DISTANCE_M) {
    throw MemoryErrors.error('POSE_INVALID.tooFar', { max: MAX_POSE_DISTANCE_M });
  }
  if (Math.abs(yaw) > 360) throw MemoryErrors.error('POSE_INVALID.yaw');
  return { frame, x: keep(x), y: keep(y), yawDeg: keep(yaw) };
}

/** The value a pose memory holds. */
export function poseValue(pose: Pose): string {
  return `x=${pose.x} y=${pose.y} yaw=${pose.yawDeg} frame=${pose.frame}`;
}

/** `(3.2, -1, 90°) in map`. */
export function describePose(pose: Pose): string {
  return `(${pose.x}, ${pose.y}, ${pose.yawDeg}°) in ${pose.frame}`;
}

/** The pose a memory's value holds, or undefined when it is not a pose in the canonical form. */
export function poseOfValue(value: string | null): Pose | undefined {
  const m = value === null ? null : CANONICAL.exec(value);
  if (!m) return undefined;
  const [x, y, yaw] = [m[1]!, m[2]!, m[3]!];
  if (![x, y, yaw].every((n) => NUMBER.test(n)) || !FRAME.test(m[4]!)) return undefined;
  return { x: Number(x), y: Number(y), yawDeg: Number(yaw), frame: m[4]! };
}

/** Whether a memory is a pose the operator wrote: the only kind a robot drives to. */
export function isOperatorPose(memory: Memory): boolean {
  return (
    memory.status === 'active' &&
    memory.kind === 'fact' &&
    memory.predicate === POSE_PREDICATE &&
    memory.source.kind === POSE_SOURCE_KIND &&
    poseOfValue(memory.value) !== undefined
  );
}

/** The memory that keeps `place`'s pose, as the operator writes it on the console ({@link isOperatorPose}). */
export function poseMemory(place: Entity, pose: Pose): NewMemory {
  return {
    kind: 'fact',
    summary: `${place.canonicalName} is at ${describePose(pose)}`,
    links: [{ entityId: place.id, role: 'subject' }],
    predicate: POSE_PREDICATE,
    value: poseValue(pose),
    sourceKind: POSE_SOURCE_KIND,
  };
}

/** The newest of a place's active memories that is a pose the operator wrote, if any. */
export function newestOperatorPose(memories: readonly Memory[]): Memory | undefined {
  return memories.filter(isOperatorPose).sort((a, b) => b.id - a.id)[0];
}

/** Why a place cannot be driven to, with the candidates' IDs where there are some. */
export interface PlaceRefusal {
  readonly reason: 'place_not_found' | 'place_ambiguous' | 'place_has_no_pose';
  readonly error: string;
  readonly candidates: readonly string[];
}

/** A place and the pose to drive to. */
export interface ResolvedPlace {
  readonly entity: Entity;
  readonly pose: Pose;
  readonly memory: Memory;
}

/**
 * The place named `name` (its exact name or an alias, as recall resolves names), with its newest operator
 * pose; a miss, an ambiguity or a place without a pose is refused with the candidates, never guessed.
 */
export async function resolvePlace(store: MemoryStore, name: string): Promise<ResolvedPlace | PlaceRefusal> {
  const named = await store.findEntities(name);
  const places = named.filter((e) => e.entityType === PLACE_ENTITY_TYPE);
  const shown = name.length > 80 ? `${name.slice(0, 79)}…` : name;
  if (places.length === 0) {
    return {
      reason: 'place_not_found',
      error:
        named.length > 0
          ? `"${shown}" names ${named.map((e) => `${e.ref} (a ${e.entityType})`).join(', ')}, not a place; nothing was sent`
          : `no place is named "${shown}" (exact name or alias); an operator adds one with memory place add; nothing was sent`,
      candidates: named.map((e) => e.ref),
    };
  }
  if (places.length > 1) {
    return {
      reason: 'place_ambiguous',
      error: `"${shown}" names ${places.length} places (${places.map((e) => e.ref).join(', ')}); ask which one; nothing was sent`,
      candidates: places.map((e) => e.ref),
    };
  }
  const entity = places[0]!;
  const memory = newestOperatorPose((await store.listActiveMemories(entity.id)).memories);
  if (!memory) {
    return {
      reason: 'place_has_no_pose',
      error: `${entity.ref} "${entity.canonicalName}" has no pose the operator gave; nothing was sent`,
      candidates: [entity.ref],
    };
  }
  return { entity, pose: poseOfValue(memory.value)!, memory };
}
