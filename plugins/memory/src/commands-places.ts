/** The `memory place …`, `memory snapshot …` and `memory objects …` commands: the robot's places and what it saw. */
import { writeFileSafely, type CommandDefinition } from '@mira/core';
import {
  DEFAULT_POSE_FRAME,
  describePose,
  formatEntity,
  newestOperatorPose,
  parsePose,
  poseMemory,
  PLACE_ENTITY_TYPE,
  poseOfValue,
  MemoryErrors,
  parseEntityRef,
  parseMemoryRef,
  memoryRef,
  freshPose,
  takeSnapshot,
  type Pose,
  type SnapshotSensors,
} from '@mira/memory-contract';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { formatBytes, quote, single, type MemoryCommandContext } from './commands-kit.js';

/** `path` with its existing part's links resolved: where a write to it would land. */
function landing(path: string): string {
  const absolute = resolve(path);
  if (existsSync(absolute)) return realpathSync(absolute);
  const parent = dirname(absolute);
  return parent === absolute ? absolute : join(landing(parent), basename(absolute));
}

/** True when `path` is `dir` or lies inside it, links resolved. */
function inside(path: string, dir: string): boolean {
  const rel = relative(landing(dir), landing(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A profile without sensors: no camera, no pose. */
const NO_SENSORS: SnapshotSensors = { list: () => [], latest: () => undefined };

/**
 * Where the robot is now, for `--here`: the newest fresh reading of a `pose` sensor (Nav2's localisation
 * on amcl_pose, the simulator's map pose), in the frame the reading names.
 * @throws MiraError MIRA_ERR_MEMORY_POSE_INVALID saying why there is none
 */
function currentPose(ctx: MemoryCommandContext): Pose {
  const sensors = ctx.sensors ?? NO_SENSORS;
  if (!sensors.list().some((s) => s.kind === 'pose')) {
    throw MemoryErrors.error('POSE_INVALID.noPoseSensor');
  }
  const { pose, why } = freshPose(sensors, ctx.monotonic?.() ?? 0);
  if (pose) return pose;
  throw MemoryErrors.error('POSE_INVALID.noFreshPose', { why: why.join('; ') });
}

/** Places with their poses, snapshots of what the robot sees, and the object store they use. */
export function placeCommands(ctx: MemoryCommandContext): CommandDefinition[] {
  return [
    {
      name: 'memory place add',
      summary: 'Create a place the robot can be sent to by name (an entity of type place with its pose)',
      usage: '"<name>"',
      args: { min: 1, max: 1 },
      options: {
        pose: {
          takesValue: true,
          valueName: '<x>,<y>,<yaw>',
          description: 'where it is: metres, metres, degrees (0: along x, 90: along y)',
        },
        frame: {
          takesValue: true,
          valueName: '<frame>',
          description: `the frame of the pose (default ${DEFAULT_POSE_FRAME}, Nav2's global frame)`,
        },
        here: {
          takesValue: false,
          description: "where the robot is now, from the profile's pose sensor (Nav2's amcl_pose), in its frame",
        },
      },
      run: async (input, out) => {
        const given = single(input.options, 'pose');
        const here = input.options.has('here');
        if (given === undefined && !here) {
          throw MemoryErrors.error('POSE_INVALID.placeWithoutPose');
        }
        if (here && (given !== undefined || input.options.has('frame'))) {
          throw MemoryErrors.error('POSE_INVALID.hereAndPose');
        }
        // Checked before anything is written: a bad pose leaves no place without one.
        const pose = here ? currentPose(ctx) : parsePose(given!, single(input.options, 'frame') ?? DEFAULT_POSE_FRAME);
        const store = ctx.store();
        const entity = await store.createEntity({ entityType: PLACE_ENTITY_TYPE, canonicalName: input.args[0]! });
        const memory = await store.createMemory(poseMemory(entity, pose));
        out.print(`${formatEntity(entity)} at ${describePose(pose)} (${memory.ref})`);
        const others = (await store.findEntities(entity.canonicalName)).filter((e) => e.id !== entity.id);
        if (others.length > 0)
          out.print(
            `note: the name also names ${others.map((e) => e.ref).join(', ')}; navigate_to refuses it as ambiguous until one is renamed or given an alias`,
          );
      },
    },
    {
      name: 'memory place pose',
      summary: 'Give a place that has no pose yet (an accepted proposal, memory entity add place …) its pose',
      usage: 'ENT<n>',
      args: { min: 1, max: 1 },
      options: {
        pose: { takesValue: true, valueName: '<x>,<y>,<yaw>', description: 'metres, metres, degrees' },
        frame: { takesValue: true, valueName: '<frame>', description: `default ${DEFAULT_POSE_FRAME}` },
      },
      run: async (input, out) => {
        const given = single(input.options, 'pose');
        if (given === undefined) {
          throw MemoryErrors.error('POSE_INVALID.noPose');
        }
        const pose = parsePose(given, single(input.options, 'frame') ?? DEFAULT_POSE_FRAME);
        const store = ctx.store();
        const entity = await store.getEntity(parseEntityRef(input.args[0]!));
        if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: input.args[0]! });
        if (entity.entityType !== PLACE_ENTITY_TYPE) {
          throw MemoryErrors.error('POSE_INVALID.notPlace', { ref: entity.ref, entityType: entity.entityType });
        }
        const current = newestOperatorPose((await store.listActiveMemories(entity.id)).memories);
        if (current) {
          throw MemoryErrors.error('POSE_INVALID.poseExists', { ref: entity.ref, current: current.ref });
        }
        const memory = await store.createMemory(poseMemory(entity, pose));
        out.print(`${formatEntity(entity)} at ${describePose(pose)} (${memory.ref})`);
      },
    },
    {
      name: 'memory place list',
      summary: 'List the places and their poses',
      args: { min: 0, max: 0 },
      run: async (_input, out) => {
        const store = ctx.store();
        const { entities, total } = await store.listEntities({ entityType: PLACE_ENTITY_TYPE, limit: 200 });
        if (total === 0) out.print('no places yet; add one with memory place add "<name>" --pose x,y,yaw');
        const active = await store.listActiveMemoriesOf(entities.map((e) => e.id));
        entities.forEach((entity, i) => {
          const pose = newestOperatorPose(active[i]!.memories);
          const aliases =
            entity.aliases.length > 0 ? ` (also ${entity.aliases.map((a) => quote(a.alias)).join(', ')})` : '';
          out.print(
            `${entity.ref} ${quote(entity.canonicalName)}${aliases}: ${pose ? `${describePose(poseOfValue(pose.value)!)} (${pose.ref})` : 'no pose'}`,
          );
        });
        if (total > entities.length) out.print(`… and ${total - entities.length} more`);
      },
    },
    {
      name: 'memory snapshot',
      summary: "Keep the camera's latest frame as an observation of an entity, or of the entities of a memory",
      usage: 'ENT<n> | MEM<n> ["caption"]',
      args: { min: 1, max: 2 },
      options: {
        camera: {
          takesValue: true,
          valueName: '<name>',
          description: "which camera (its sensor's id, or the part after camera_); default: the only one",
        },
      },
      run: async (input, out) => {
        const store = ctx.store();
        const target = input.args[0]!;
        let links: Array<{ entityId: number; role: string }>;
        let about: string;
        if (/^ent/i.test(target)) {
          const entity = await store.getEntity(parseEntityRef(target));
          if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: target });
          links = [{ entityId: entity.id, role: 'subject' }];
          about = `${entity.ref} ${quote(entity.canonicalName)}`;
        } else {
          const memory = await store.getMemory(parseMemoryRef(target));
          if (!memory) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: target });
          if (memory.links.length === 0) throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.noEntity', { ref: memory.ref });
          links = memory.links.map((l) => ({ entityId: l.entityId, role: l.role }));
          about = `${memory.links.map((l) => l.entityRef).join(', ')} (the entities of ${memory.ref})`;
        }
        const { memory, camera, reading, where } = await takeSnapshot(
          store,
          ctx.sensors ?? NO_SENSORS,
          ctx.monotonic?.() ?? 0,
          {
            links,
            caption: input.args[1],
            camera: single(input.options, 'camera'),
          },
        );
        const object = memory.payloads.find((p) => p.payloadKind === 'object_ref')!;
        out.print(
          `${memory.ref} observation of ${about}: ${camera.id} ${object.mediaType}, ${object.byteSize} bytes, sha256 ${object.sha256!.slice(0, 12)}…, taken ${reading.at.toISOString()}${where ? ` at ${describePose(where)}` : ''}`,
        );
      },
    },
    {
      name: 'memory snapshot save',
      summary: "Write a memory's image to a file, its SHA-256 verified",
      usage: 'MEM<n> <file>',
      args: { min: 2, max: 2 },
      options: { force: { takesValue: false, description: 'replace an existing file (never a database)' } },
      run: async (input, out) => {
        const id = parseMemoryRef(input.args[0]!);
        const object = await ctx.store().readObject(id);
        if (!object) throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.noImageHint', { ref: memoryRef(id) });
        const path = ctx.resolvePath?.(input.args[1]!) ?? input.args[1]!;
        // The objects directory holds the store's own files: nothing is written there, --force or not.
        const objects = ctx.databasePath === undefined ? undefined : join(dirname(ctx.databasePath), 'objects');
        if (objects !== undefined && inside(path, objects))
          throw MemoryErrors.error('SNAPSHOT_INTO_OBJECTS', { path, root: objects });
        writeFileSafely(path, object.bytes, { force: input.options.has('force'), protect: ctx.protectedFiles?.() });
        out.print(
          `saved ${memoryRef(id)}'s ${object.mediaType} (${object.bytes.length} bytes, sha256 verified) to ${path}`,
        );
      },
    },
    {
      name: 'memory objects',
      summary: 'Show how many objects (snapshot images) the memory keeps and their size',
      args: { min: 0, max: 0 },
      run: async (_input, out) => {
        const usage = await ctx.store().objectUsage();
        out.print(`objects: ${usage.objects}, ${formatBytes(usage.bytes)}`);
      },
    },
    {
      name: 'memory objects collect',
      summary: 'Remove the objects no memory refers to (left by a write that failed), older than ten minutes',
      args: { min: 0, max: 0 },
      run: async (_input, out) => {
        const removed = await ctx.store().collectObjects();
        out.print(
          removed.objects === 0
            ? 'no orphaned objects; nothing removed'
            : `removed ${removed.objects} orphaned objects, ${formatBytes(removed.bytes)}`,
        );
      },
    },
  ];
}
