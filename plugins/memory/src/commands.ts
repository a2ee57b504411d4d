import { writeFileSafely, type CommandDefinition, type ConsoleOutput } from '@mira/core';
import {
  assertHandWrittenSource,
  DEFAULT_POSE_FRAME,
  describePose,
  formatEntity,
  newestOperatorPose,
  parsePose,
  poseMemory,
  PLACE_ENTITY_TYPE,
  poseOfValue,
  MemoryErrors,
  entityRef,
  parseEntityRef,
  parseMemoryRef,
  parseProposalRef,
  memoryRef,
  freshPose,
  takeSnapshot,
  type Entity,
  type Memory,
  type MemoryStore,
  type Pose,
  type Proposal,
  type SnapshotSensors,
  whyStale,
} from '@mira/memory-contract';
import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import { readableFileWarnings } from '@mira/sqlite';

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

/** Where the commands find the store; `undefined` when persistent memory is disabled. */
export interface MemoryCommandContext {
  readonly enabled: boolean;
  readonly databasePath: string | undefined;
  /** Whether this runtime created the store (it was not there, or was an empty file, when it opened). */
  createdNow?(): boolean;
  store(): MemoryStore;
  /** The profile's sensors: `memory place add --here` reads the robot's pose from a `pose` sensor. */
  readonly sensors?: SnapshotSensors;
  /** The runtime's monotonic clock (ms), for a reading's age. */
  monotonic?(): number;
  /** A path the operator typed, as the runtime resolves it (`memory snapshot save`). */
  resolvePath?(path: string): string;
  /** Files no command may write over: the stores' databases and their side files. */
  protectedFiles?(): readonly string[];
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

/** The `source_kind` of memories written from the console. */
export const CONSOLE_SOURCE_KIND = 'console';

const quote = (text: string) => JSON.stringify(text);

/** `MEM3 fact "Ada wrote the first program" [ENT1 subject]` */
export function formatMemoryLine(memory: Memory): string {
  const links = memory.links.map((l) => `${l.entityRef} ${l.role}`).join(', ');
  const slot = memory.predicate ? ` ${memory.predicate}=${memory.value === null ? '∅' : quote(memory.value)}` : '';
  return `${memory.ref} ${memory.kind} ${quote(memory.summary)}${slot}${links ? ` [${links}]` : ''}`;
}

function parseLink(text: string): { entityId: number; role: string } {
  const at = text.lastIndexOf(':');
  if (at <= 0 || at === text.length - 1) {
    throw MemoryErrors.error('LINK_INVALID', { text: quote(text) });
  }
  return { entityId: parseEntityRef(text.slice(0, at)), role: text.slice(at + 1) };
}

function parseConfidence(text: string): number {
  const value = /^\s*(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 1)) {
    throw MemoryErrors.error('CONFIDENCE_RANGE.flag', { text: quote(text) });
  }
  return value;
}

/** A size for people: bytes, KB or MB (powers of 1024). */
function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function single(options: ReadonlyMap<string, readonly string[]>, name: string): string | undefined {
  return options.get(name)?.[0];
}

/** Each entity with its active memories (read in one go: one round trip on a networked store). */
async function printEntitiesWithMemories(
  store: MemoryStore,
  entities: readonly Entity[],
  out: ConsoleOutput,
): Promise<void> {
  const active = await store.listActiveMemoriesOf(entities.map((e) => e.id));
  for (const [i, entity] of entities.entries()) {
    out.print(formatEntity(entity));
    const { memories } = active[i]!;
    if (memories.length === 0) out.print('  (no active memories)');
    for (const memory of memories) out.print(`  ${formatMemoryLine(memory)}`);
  }
}

/** A proposal on one line: `P2 supersede MEM1 prefers "tea" → "coffee"` or `P1 entity person "Carol"`. */
export function formatProposalLine(proposal: Proposal, replaced?: Memory): string {
  const what =
    proposal.kind === 'entity'
      ? `entity ${proposal.entityType} ${quote(proposal.name!)}`
      : `supersede ${memoryRef(proposal.memoryId!)}${replaced ? ` ${replaced.predicate} ${quote(replaced.value ?? '')}` : ''} → ${quote(proposal.value!)}`;
  return `${proposal.ref} ${what}`;
}

/** The status line under a memory in its history. */
function historyStatus(memory: Memory): string {
  const status =
    memory.status === 'superseded'
      ? `superseded by ${memoryRef(memory.supersededBy!)} at ${memory.supersededAt}`
      : memory.status === 'active'
        ? 'current'
        : memory.status;
  const supersedes = memory.supersedes === null ? '' : `; supersedes ${memoryRef(memory.supersedes)}`;
  return `  ${status}; created ${memory.createdAt} from ${memory.source.kind}${supersedes}`;
}

/**
 * The chain a memory belongs to, oldest first: back through what it superseded, on through what replaced
 * it. A supersession keeps the subject's slot, so the chain is among `known` (the subject's history)
 * unless the store changed meanwhile; only what is not there is read.
 */
async function chainOf(store: MemoryStore, memory: Memory, known: ReadonlyMap<number, Memory>): Promise<Memory[]> {
  const read = async (id: number) => known.get(id) ?? (await store.getMemory(id));
  const chain = [memory];
  for (let m = memory; m.supersedes !== null;) {
    const previous = await read(m.supersedes);
    if (!previous) break;
    chain.unshift(previous);
    m = previous;
  }
  for (let m = memory; m.supersededBy !== null;) {
    const next = await read(m.supersededBy);
    if (!next) break;
    chain.push(next);
    m = next;
  }
  return chain;
}

function printChain(chain: readonly Memory[], out: ConsoleOutput, indent = ''): void {
  for (const memory of chain) {
    out.print(`${indent}${formatMemoryLine(memory)}`);
    out.print(`${indent}${historyStatus(memory)}`);
  }
}

/** The persistent-memory console commands, exactly as the specification names them. */
export function memoryCommands(ctx: MemoryCommandContext): CommandDefinition[] {
  return [
    {
      name: 'memory persistent',
      summary: 'Show whether persistent memory is enabled, where it lives, its schema version and sizes',
      run: async (_input, out) => {
        if (!ctx.enabled) {
          out.print(
            'persistent memory: disabled in this profile (set [memory] enabled = true and database_path to enable it)',
          );
          return;
        }
        const info = await ctx.store().info();
        out.print(`persistent memory: enabled (${info.backend})`);
        out.print(`database: ${info.location}`);
        if (ctx.createdNow?.()) out.print('created: now, by this start (a new, empty store)');
        if (info.backend === 'sqlite') for (const warning of readableFileWarnings(info.location)) out.print(warning);
        out.print(`schema version: ${info.schemaVersion}`);
        out.print(
          `entities: ${info.entities}, aliases: ${info.aliases}, memories: ${info.memories} (${info.activeMemories} active), links: ${info.links}, payloads: ${info.payloads}`,
        );
        const objects = await ctx.store().objectUsage();
        out.print(`objects: ${objects.objects}, ${formatBytes(objects.bytes)}`);
      },
    },
    {
      name: 'memory entity add',
      summary: 'Create an entity (supervised entity administration)',
      usage: '<entity_type> "<canonical name>"',
      args: { min: 2, max: 2 },
      run: async (input, out) => {
        const store = ctx.store();
        const entity = await store.createEntity({ entityType: input.args[0]!, canonicalName: input.args[1]! });
        const others = (await store.findEntities(entity.canonicalName)).filter((e) => e.id !== entity.id);
        out.print(formatEntity(entity));
        if (others.length > 0)
          out.print(
            `note: the name also names ${others.map((e) => e.ref).join(', ')}; lookups by it are now ambiguous`,
          );
      },
    },
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
    {
      name: 'memory entity find',
      summary: 'Find entities by exact canonical name or alias (no fuzzy matching)',
      usage: '"<name>"',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const found = await ctx.store().findEntities(input.args[0]!);
        if (found.length === 0) out.print(`no entity is named ${quote(input.args[0]!)} (exact name or alias)`);
        for (const entity of found) out.print(formatEntity(entity));
      },
    },
    {
      name: 'memory alias add',
      summary: 'Give an entity another exact name',
      usage: 'ENT<n> "<alias>"',
      args: { min: 2, max: 2 },
      run: async (input, out) => {
        const entityId = parseEntityRef(input.args[0]!);
        const added = await ctx.store().addAlias(entityId, input.args[1]!);
        out.print(`${added.entity.ref} alias ${quote(added.alias.alias)} added`);
        if (added.alsoNames.length > 0) {
          out.print(
            `note: ${quote(added.alias.alias)} also names ${added.alsoNames.map((e) => `${e.ref} ${quote(e.canonicalName)}`).join(', ')}`,
          );
        }
      },
    },
    {
      name: 'memory find',
      summary: 'Show every entity with this exact name or alias and its active memories',
      usage: '"<name>"',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const store = ctx.store();
        const found = await store.findEntities(input.args[0]!);
        if (found.length === 0) out.print(`no entity is named ${quote(input.args[0]!)} (exact name or alias)`);
        await printEntitiesWithMemories(store, found, out);
      },
    },
    {
      name: 'memory add',
      summary: 'Write a memory with one inline text/plain payload holding its summary',
      usage: '<kind> "<summary>"',
      args: { min: 2, max: 2 },
      options: {
        link: {
          takesValue: true,
          repeatable: true,
          valueName: 'ENT<n>:<role>',
          description: 'link an entity under a role',
        },
        predicate: { takesValue: true, valueName: '<token>', description: 'structured predicate' },
        value: { takesValue: true, valueName: '"<text>"', description: 'structured value (needs --predicate)' },
        'source-kind': {
          takesValue: true,
          valueName: '<token>',
          description: `provenance kind (default ${CONSOLE_SOURCE_KIND})`,
        },
        'source-label': { takesValue: true, valueName: '"<text>"', description: 'provenance label' },
        confidence: { takesValue: true, valueName: '<0.0..1.0>', description: 'optional confidence' },
      },
      run: async (input, out) => {
        const store = ctx.store();
        const confidence = single(input.options, 'confidence');
        const sourceKind = single(input.options, 'source-kind') ?? CONSOLE_SOURCE_KIND;
        assertHandWrittenSource(sourceKind);
        const memory = await store.createMemory({
          kind: input.args[0]!,
          summary: input.args[1]!,
          links: (input.options.get('link') ?? []).map(parseLink),
          predicate: single(input.options, 'predicate') ?? null,
          value: single(input.options, 'value') ?? null,
          sourceKind,
          sourceLabel: single(input.options, 'source-label') ?? null,
          confidence: confidence === undefined ? null : parseConfidence(confidence),
        });
        out.print(formatMemoryLine(memory));
      },
    },
    {
      name: 'memory show',
      summary: 'Show everything about one memory',
      usage: 'MEM<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const id = parseMemoryRef(input.args[0]!);
        const memory = await ctx.store().getMemory(id);
        if (!memory) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: memoryRef(id) });
        out.print(`${memory.ref} ${memory.kind}`);
        out.print(`  summary: ${memory.summary}`);
        out.print(`  predicate: ${memory.predicate ?? '(none)'}`);
        out.print(`  value: ${memory.value ?? '(none)'}`);
        out.print(
          `  source: ${memory.source.kind}${memory.source.label === null ? '' : ` (${quote(memory.source.label)})`}`,
        );
        out.print(`  confidence: ${memory.confidence ?? '(none)'}`);
        out.print(`  status: ${memory.status}`);
        if (memory.supersededBy !== null)
          out.print(`  superseded by: ${memoryRef(memory.supersededBy)} at ${memory.supersededAt}`);
        if (memory.supersedes !== null) out.print(`  supersedes: ${memoryRef(memory.supersedes)}`);
        out.print(`  created: ${memory.createdAt}`);
        if (memory.links.length === 0) out.print('  links: (none)');
        for (const link of memory.links)
          out.print(`  link: ${link.entityRef} ${quote(link.entityName)} as ${link.role}`);
        for (const payload of memory.payloads) {
          const where =
            payload.payloadKind === 'inline_text' ? 'inline' : `object ${payload.objectRef} sha256 ${payload.sha256}`;
          out.print(`  payload: ${payload.mediaType}, ${payload.byteSize} bytes (${where})`);
        }
      },
    },
    {
      name: 'memory list',
      summary: "List an entity's active memories",
      usage: 'ENT<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const store = ctx.store();
        const id = parseEntityRef(input.args[0]!);
        const entity = await store.getEntity(id);
        if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: entityRef(id) });
        await printEntitiesWithMemories(store, [entity], out);
      },
    },
    {
      name: 'memory pending',
      summary: 'List the proposals from conversation that await your accept or reject',
      run: async (_input, out) => {
        const store = ctx.store();
        const all = await store.listProposals();
        const waiting = all.filter((p) => p.status === 'pending');
        const expired = all.filter((p) => p.status === 'expired');
        if (waiting.length === 0) out.print('no proposals await a decision');
        for (const proposal of waiting) {
          const replaced = proposal.memoryId === null ? undefined : await store.getMemory(proposal.memoryId);
          out.print(formatProposalLine(proposal, replaced));
          const stale = await whyStale(store, proposal, replaced);
          if (stale)
            out.print(`  stale: ${stale}; it can no longer be accepted (memory reject ${proposal.ref} clears it)`);
          out.print(`  evidence: ${quote(proposal.evidence)}`);
          out.print(`  said: ${quote(proposal.utterance)}`);
          out.print(`  proposed ${proposal.createdAt}; expires ${proposal.expiresAt}`);
        }
        if (expired.length > 0) {
          out.print(
            `${expired.length} expired without a decision and can no longer be accepted: ${expired.map((p) => p.ref).join(', ')} (memory reject P<n> clears one)`,
          );
        }
      },
    },
    {
      name: 'memory accept',
      summary: 'Apply a pending proposal: create the entity, or supersede the memory with the new value',
      usage: 'P<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const accepted = await ctx.store().acceptProposal(parseProposalRef(input.args[0]!));
        if ('entity' in accepted) {
          out.print(formatEntity(accepted.entity));
          // As "memory entity add" says: another entity may have got the name since the proposal.
          const others = (await ctx.store().findEntities(accepted.entity.canonicalName)).filter(
            (e) => e.id !== accepted.entity.id,
          );
          if (others.length > 0)
            out.print(
              `note: the name also names ${others.map((e) => e.ref).join(', ')}; lookups by it are now ambiguous`,
            );
        } else {
          out.print(formatMemoryLine(accepted.memory));
          out.print(
            `${accepted.superseded.ref} superseded by ${accepted.memory.ref} (history: memory history ${accepted.memory.ref})`,
          );
        }
        out.print(`${accepted.proposal.ref} accepted`);
      },
    },
    {
      name: 'memory reject',
      summary: 'Refuse a pending proposal, with a reason if you like; nothing is applied',
      usage: 'P<n> ["reason"]',
      args: { min: 1, max: 2 },
      run: async (input, out) => {
        const rejected = await ctx.store().rejectProposal(parseProposalRef(input.args[0]!), input.args[1] ?? null);
        out.print(`${rejected.ref} rejected${rejected.reason === null ? '' : `: ${rejected.reason}`}`);
      },
    },
    {
      name: 'memory history',
      summary: 'Show the chain of superseded and current memories of a memory (MEM<n>) or of an entity (ENT<n>)',
      usage: 'MEM<n> | ENT<n>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const store = ctx.store();
        const ref = input.args[0]!;
        if (/^\s*ent/i.test(ref)) {
          const id = parseEntityRef(ref);
          const entity = await store.getEntity(id);
          if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: entityRef(id) });
          out.print(formatEntity(entity));
          const memories = await store.listMemoryHistory(id);
          if (memories.length === 0) out.print('  (no memories)');
          const byId = new Map(memories.map((m) => [m.id, m]));
          // One chain per memory that replaced nothing, in ID order; its successors follow it.
          for (const root of memories.filter((m) => m.supersedes === null || !byId.has(m.supersedes))) {
            printChain(await chainOf(store, root, byId), out, '  ');
          }
          return;
        }
        const id = parseMemoryRef(ref);
        const memory = await store.getMemory(id);
        if (!memory) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: memoryRef(id) });
        const subject = memory.links.find((l) => l.role === 'subject') ?? memory.links[0];
        const known =
          subject && (memory.supersedes !== null || memory.supersededBy !== null)
            ? new Map((await store.listMemoryHistory(subject.entityId)).map((m) => [m.id, m]))
            : new Map<number, Memory>();
        printChain(await chainOf(store, memory, known), out);
      },
    },
  ];
}
