import {
  assertHandWrittenSource,
  DEFAULT_POSE_FRAME,
  describePose,
  MemoryErrors,
  parseEntityRef,
  parseMemoryRef,
  parsePose,
  parseProposalRef,
  PLACE_ENTITY_TYPE,
  poseMemory,
  whyStale,
} from '@mira/memory-contract';
import { checkBody } from '../bodies.js';
import { entityJson, memoryJson, proposalJson } from '../json.js';
import { RawBody } from '../reply.js';
import { intParam, readJson } from '../request.js';
import type { Handler, Route } from '../router.js';

/** A source kind a person may give (runtime-owned kinds such as operator_statement are refused). */
function handWritten(sourceKind: string): string {
  assertHandWrittenSource(sourceKind);
  return sourceKind;
}

/** Entities by name (`?name=`), or a page of them in ID order, optionally of one type. */
const listEntities: Handler = async (ctx, { url }) => {
  const name = url.searchParams.get('name');
  if (name !== null) return { entities: (await ctx.memory().findEntities(name)).map(entityJson) };
  const offset = intParam(url, 'offset', 0, 0, 1_000_000_000);
  const limit = intParam(url, 'limit', 50, 1, 200);
  const type = url.searchParams.get('type') || null;
  const page = await ctx.memory().listEntities({ entityType: type, offset, limit });
  return { entities: page.entities.map(entityJson), total: page.total, offset, limit };
};

const addEntity: Handler = async (ctx, { req }) => {
  const body = checkBody<{ entity_type: string; canonical_name: string }>('addEntity', await readJson(req));
  const entity = await ctx.memory().createEntity({ entityType: body.entity_type, canonicalName: body.canonical_name });
  return { entity: entityJson(entity) };
};

/** A place with its pose, as `memory place add` makes one: the pose checked before anything is written. */
const addPlace: Handler = async (ctx, { req }) => {
  const body = checkBody<{ name: string; pose: string; frame?: string | null }>('addPlace', await readJson(req));
  const pose = parsePose(body.pose, body.frame || DEFAULT_POSE_FRAME);
  const entity = await ctx.memory().createEntity({ entityType: PLACE_ENTITY_TYPE, canonicalName: body.name });
  const kept = await ctx.memory().createMemory(poseMemory(entity, pose));
  return { entity: entityJson(entity), memory: memoryJson(kept), pose: describePose(pose) };
};

const addAlias: Handler = async (ctx, { req, params: { ref } }) => {
  const { alias } = checkBody<{ alias: string }>('addAlias', await readJson(req));
  const added = await ctx.memory().addAlias(parseEntityRef(ref!), alias);
  return { entity: entityJson(added.entity), also_names: added.alsoNames.map((e) => e.ref) };
};

/** An entity's active memories, newest first. */
const entityMemories: Handler = async (ctx, { params: { ref } }) => {
  const id = parseEntityRef(ref!);
  const entity = await ctx.memory().getEntity(id);
  if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: ref! });
  return {
    entity: entityJson(entity),
    memories: (await ctx.memory().listActiveMemories(id)).memories.map(memoryJson).reverse(),
  };
};

/** The fields of `POST /api/memories`, as its body schema (bodies.ts) has checked them. */
interface MemoryBody {
  kind: string;
  summary: string;
  links?: Array<{ entity: string; role: string }>;
  predicate?: string | null;
  value?: string | null;
  source_kind?: string | null;
  source_label?: string | null;
  confidence?: number | null;
}

const addMemory: Handler = async (ctx, { req }) => {
  const body = checkBody<MemoryBody>('addMemory', await readJson(req));
  const created = await ctx.memory().createMemory({
    kind: body.kind,
    summary: body.summary,
    links: (body.links ?? []).map((l) => ({ entityId: parseEntityRef(l.entity), role: l.role })),
    predicate: body.predicate ?? null,
    value: body.value ?? null,
    sourceKind: handWritten(body.source_kind ?? 'console'),
    sourceLabel: body.source_label ?? null,
    confidence: body.confidence ?? null,
  });
  return { memory: memoryJson(created) };
};

const getMemory: Handler = async (ctx, { params: { ref } }) => {
  const found = await ctx.memory().getMemory(parseMemoryRef(ref!));
  if (!found) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: ref! });
  return { memory: memoryJson(found) };
};

const memoryImage: Handler = async (ctx, { params: { ref } }) => {
  const object = await ctx.memory().readObject(parseMemoryRef(ref!));
  if (!object) throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.noImage', { ref: ref! });
  return new RawBody(object.mediaType, object.bytes);
};

/** What awaits the operator (and what expired undecided), with the memory a supersede would replace. */
const listProposals: Handler = async (ctx) => {
  const store = ctx.memory();
  const open = (await store.listProposals()).filter((p) => p.status === 'pending' || p.status === 'expired');
  const proposals = [];
  for (const p of open) {
    const replaces = p.memoryId === null ? undefined : await store.getMemory(p.memoryId);
    proposals.push({ ...proposalJson(p, replaces), stale: (await whyStale(store, p, replaces)) ?? null });
  }
  return { proposals };
};

const acceptProposal: Handler = async (ctx, { req, params: { ref } }) => {
  const id = parseProposalRef(ref!);
  checkBody<{ reason?: string | null }>('decideProposal', await readJson(req));
  const accepted = await ctx.memory().acceptProposal(id);
  return 'entity' in accepted
    ? { proposal: proposalJson(accepted.proposal), entity: entityJson(accepted.entity) }
    : {
        proposal: proposalJson(accepted.proposal),
        memory: memoryJson(accepted.memory),
        superseded: memoryJson(accepted.superseded),
      };
};

const rejectProposal: Handler = async (ctx, { req, params: { ref } }) => {
  const id = parseProposalRef(ref!);
  const { reason } = checkBody<{ reason?: string | null }>('decideProposal', await readJson(req));
  return { proposal: proposalJson(await ctx.memory().rejectProposal(id, reason ?? null)) };
};

const ENTITY = ':ref(^[Ee][Nn][Tt]\\d+$)';
const MEMORY = ':ref(^[Mm][Ee][Mm]\\d+$)';
const PROPOSAL = ':ref(^[Pp]\\d+$)';

/** What the entity memory panel reads and writes: entities, places, memories, the operator's proposals. */
export const MEMORY_ROUTES: readonly Route[] = Object.freeze([
  { method: 'GET', path: '/api/entities', handler: listEntities },
  { method: 'POST', path: '/api/entities', handler: addEntity },
  { method: 'POST', path: `/api/entities/${ENTITY}/aliases`, handler: addAlias },
  { method: 'GET', path: `/api/entities/${ENTITY}/memories`, handler: entityMemories },
  { method: 'POST', path: '/api/places', handler: addPlace },
  { method: 'POST', path: '/api/memories', handler: addMemory },
  { method: 'GET', path: `/api/memories/${MEMORY}`, handler: getMemory },
  { method: 'GET', path: `/api/memories/${MEMORY}/image`, handler: memoryImage },
  { method: 'GET', path: '/api/proposals', handler: listProposals },
  { method: 'POST', path: `/api/proposals/${PROPOSAL}/accept`, handler: acceptProposal },
  { method: 'POST', path: `/api/proposals/${PROPOSAL}/reject`, handler: rejectProposal },
]);
