import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type FindMyWayRouter from 'find-my-way';
import type { HTTPMethod, HTTPVersion } from 'find-my-way';
import { CoreErrors, MiraError, whatToDo, type ErrorCatalogue } from '@mira/core';
import {
  assertHandWrittenSource,
  MemoryErrors,
  parseEntityRef,
  parseMemoryRef,
  parsePose,
  poseMemory,
  describePose,
  DEFAULT_POSE_FRAME,
  PLACE_ENTITY_TYPE,
  parseProposalRef,
  whyStale,
  type Entity,
  type Memory,
  type MemoryStore,
  type Proposal,
} from '@mira/memory-contract';
import { checkBody } from './bodies.js';
import { MindViewErrors } from './errors.js';
import {
  NotesErrors,
  GLOBAL_SCOPE,
  MAX_IMPORT_BYTES,
  jsonNesting,
  noteAge,
  readExport,
  SEARCH_RESULTS,
  type Note,
  type BrowseSort,
  type NotesStore,
  type Viewer,
} from '@mira/plugin-notes';

/** What the server reads and writes through. */
export interface MindViewSources {
  notes(): NotesStore | undefined;
  memory(): MemoryStore | undefined;
  now(): Date;
  /** Where details of unexpected failures go (the runtime's log on stderr by default). */
  log?(message: string): void;
}

const stderrLog = (message: string) => process.stderr.write(`mira: ${message}\n`);

/** A running Mind view. */
export interface MindViewServer {
  /**
   * The address to open, token included in the fragment (`#token=`): browsers never send a fragment to a
   * server, and the page keeps the token in `sessionStorage` and sends it as `Authorization: Bearer` itself.
   */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** Every response carries these; the page loads only its own assets. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
});

/** The page's ES modules: app.js, its entry, and what it imports (each served at `/<file>`). */
const PAGE_MODULES: readonly string[] = Object.freeze([
  'app.js',
  'api.js',
  'state.js',
  'dom.js',
  'notes.js',
  'transfer.js',
  'duplicates.js',
  'entities.js',
  'pending.js',
]);

const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  ...Object.fromEntries(PAGE_MODULES.map((file) => [`/${file}`, { file, type: 'text/javascript; charset=utf-8' }])),
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

const MAX_BODY = 2_000_000;
/** The least time between two progress lines of a streamed duplicates scan. */
const PROGRESS_MS = 100;

/**
 * A signal aborted when the request's connection closes before its answer is sent: the page's Stop (an
 * aborted fetch closes the connection), a closed tab. `done()` stops watching (a kept-alive connection
 * serves other requests after this one).
 */
function whileConnected(req: IncomingMessage): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  req.socket.once('close', abort);
  return { signal: controller.signal, done: () => req.socket.off('close', abort) };
}

/** How often the live-update stream looks for changes (two cheap pragmas per store). */
const CHANGE_POLL_MS = 300;

/** A source kind a person may give (runtime-owned kinds such as operator_statement are refused). */
function handWritten(sourceKind: string): string {
  assertHandWrittenSource(sourceKind);
  return sourceKind;
}

/** The catalogues whose codes the API answers with; a code's HTTP status comes from its entry. */
const CATALOGUES: readonly ErrorCatalogue[] = [MindViewErrors, NotesErrors, MemoryErrors, CoreErrors];

/** The HTTP status of a catalogued code (400 when its entry names none). */
export function statusOf(code: string): number {
  for (const catalogue of CATALOGUES) {
    const entry = catalogue.entry(code);
    if (entry) return entry.status ?? 400;
  }
  return 400;
}

/** A route's answer that is not JSON: bytes of a media type (a snapshot's image). */
class RawBody {
  constructor(
    readonly type: string,
    readonly body: Buffer,
  ) {}
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json; charset=utf-8'): void {
  if (body instanceof RawBody) {
    // An image is only ever shown, never run or sniffed as anything else; it is not kept by the browser either.
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': body.type, 'content-length': body.body.length });
    res.end(body.body);
    return;
  }
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** How deeply a request body may nest objects and arrays (an export is 3 deep). */
const MAX_DEPTH = 32;

/** A request's body, bounded while it arrives. */
async function readBody(req: IncomingMessage, max = MAX_BODY): Promise<Buffer> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) {
      throw max === MAX_IMPORT_BYTES
        ? MindViewErrors.error('TOO_LARGE.export', { maxMb: MAX_IMPORT_BYTES / 1024 / 1024 })
        : MindViewErrors.error('TOO_LARGE.body', { maxMb: MAX_BODY / 1_000_000 });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const text = (await readBody(req)).toString('utf8');
  const depth = jsonNesting(text);
  if (depth > MAX_DEPTH) {
    throw MindViewErrors.error('BAD_JSON.tooDeep', { depth, max: MAX_DEPTH });
  }
  try {
    const value = JSON.parse(text || '{}');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    return value as Record<string, unknown>;
  } catch {
    throw MindViewErrors.error('BAD_JSON.notObject');
  }
}

function noteJson(note: Note, now: Date) {
  return {
    id: note.id,
    scope: note.scope,
    content: note.content,
    labels: note.labels,
    private_key: note.privateKey,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    age: noteAge(note.createdAt, now),
  };
}

function entityJson(entity: Entity) {
  return {
    id: entity.ref,
    entity_type: entity.entityType,
    canonical_name: entity.canonicalName,
    aliases: entity.aliases.map((a) => a.alias),
    created_at: entity.createdAt,
  };
}

function proposalJson(p: Proposal, replaces?: Memory) {
  return {
    id: p.ref,
    kind: p.kind,
    status: p.status,
    entity_type: p.entityType,
    name: p.name,
    memory_id: p.memoryId === null ? null : `MEM${p.memoryId}`,
    value: p.value,
    ...(replaces ? { replaces: memoryJson(replaces) } : {}),
    evidence: p.evidence,
    utterance: p.utterance,
    created_at: p.createdAt,
    expires_at: p.expiresAt,
    decided_at: p.decidedAt,
    reason: p.reason,
    result: p.result,
  };
}

function memoryJson(memory: Memory) {
  return {
    id: memory.ref,
    kind: memory.kind,
    summary: memory.summary,
    predicate: memory.predicate,
    value: memory.value,
    source_kind: memory.source.kind,
    source_label: memory.source.label,
    confidence: memory.confidence,
    status: memory.status,
    created_at: memory.createdAt,
    superseded_by: memory.supersededBy === null ? null : `MEM${memory.supersededBy}`,
    supersedes: memory.supersedes === null ? null : `MEM${memory.supersedes}`,
    links: memory.links.map((l) => ({ entity: l.entityRef, name: l.entityName, role: l.role })),
    payloads: memory.payloads.map((p) => ({ media_type: p.mediaType, byte_size: p.byteSize, kind: p.payloadKind })),
    // A snapshot's image, served by GET /api/memories/MEM<n>/image (the page fetches it with the token).
    image: memory.payloads.some((p) => p.payloadKind === 'object_ref'),
  };
}

/**
 * Serves the Mind view on `host:port` (127.0.0.1 by default). Every API request needs the access token as
 * `Authorization: Bearer` (no cookie, so no other page or local server ever receives it); a request from a
 * page of another origin is refused (`Origin`, `Sec-Fetch-Site`); the `Host` header must name this server
 * (no DNS rebinding). Writes go through the same store methods, validation and transactions as the console.
 */
export async function startMindViewServer(
  sources: MindViewSources,
  options: { host: string; port: number; token?: string },
): Promise<MindViewServer> {
  const token = options.token ?? randomBytes(24).toString('hex');
  const assetsDir = new URL('../assets/', import.meta.url);
  const assets = Object.fromEntries(
    Object.entries(ASSETS).map(([path, a]) => [
      path,
      { body: readFileSync(new URL(a.file, assetsDir), 'utf8'), type: a.type },
    ]),
  );
  let port = options.port;
  // `[::1]` is how an IPv6 literal appears in a URL and in the Host header.
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const allowedHosts = () =>
    new Set([`${hostInUrl}:${port}`, ...(options.host === '127.0.0.1' ? [`localhost:${port}`] : [])]);
  // Only a header the page's own script sets counts: no cookie, no query parameter, nothing a browser
  // attaches by itself to a request another page makes.
  const authorized = (req: IncomingMessage) => {
    const header = req.headers.authorization;
    const given = header?.startsWith('Bearer ') ? header.slice(7) : '';
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };
  // A request a page of another origin made (another port of the same host is another origin).
  const crossOrigin = (req: IncomingMessage): string | undefined => {
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${req.headers.host}`) return `Origin: ${origin}`;
    return undefined;
  };
  const notes = () => {
    const store = sources.notes();
    if (!store) throw NotesErrors.error('DISABLED');
    return store;
  };
  const memory = () => {
    const store = sources.memory();
    if (!store) throw MemoryErrors.error('DISABLED');
    return store;
  };
  const operator = (scope: string): Viewer => ({ scopes: [scope], key: null, operator: true });
  const scopeOf = (url: URL) => url.searchParams.get('scope') || 'default';
  const overlay = (scope: string): Viewer => ({
    scopes: scope === GLOBAL_SCOPE ? [GLOBAL_SCOPE] : [scope, GLOBAL_SCOPE],
    key: null,
    operator: true,
  });
  /** A whole number from the query string, or the default; anything else is a bad request. */
  const intParam = (url: URL, name: string, fallback: number, min: number, max: number): number => {
    const raw = url.searchParams.get(name);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max)
      throw MindViewErrors.error('BAD_REQUEST.wholeNumber', { name, min, max });
    return value;
  };

  /** A route's handler: the request, its URL, and the path's parameters (decoded). */
  type Handler = (req: IncomingMessage, url: URL, params: Record<string, string | undefined>) => Promise<unknown>;
  // The API's routes. (The page's assets and the event stream are served before these.)
  // Each route's own handler is kept as its store (find-my-way's handler signature is node's (req, res)).
  // Loaded with the server, not with the plugin: a profile whose Mind view is off never loads the router.
  // (A CommonJS module: its function is the default export of the namespace import gives.)
  const { default: FindMyWay } = (await import('find-my-way')) as unknown as { default: typeof FindMyWayRouter };
  const router = FindMyWay<HTTPVersion.V1>({ maxParamLength: 500 });
  const api = {
    on: (method: HTTPMethod, path: string, handler: Handler) => router.on(method, path, () => undefined, handler),
  };
  api.on('GET', '/api/scopes', async (_req, _url) => {
    const store = notes();
    const counts = new Map(store.countsByScope().map((c) => [c.scope, c]));
    const scopes = store.scopes();
    return {
      scopes,
      counts: scopes.map((name) => ({
        scope: name,
        notes: counts.get(name)?.notes ?? 0,
        keyed: counts.get(name)?.keyed ?? 0,
      })),
      global: GLOBAL_SCOPE,
      // The scope the console's session uses: where the page opens unless the address names another.
      session: store.sessionScope(),
      // Scopes whose keyed calls are refused after too many wrong keys (the key guard).
      lockouts: store.keyLockouts().map((l) => ({
        scope: l.scope,
        origin: l.origin,
        misses: l.misses,
        until: l.until.toISOString(),
      })),
    };
  });
  api.on('POST', '/api/scopes', async (req, _url) => {
    const { name } = checkBody<{ name: string }>('addScope', await readJson(req));
    notes().ensureScope(name);
    return { scope: name };
  });
  api.on('GET', '/api/notes', async (req, url) => {
    // One page of a scope's notes with the global ones over them, read-only there (they are edited in the
    // global scope): sorted, filtered, counted and paged by the store (?sort=, ?label=, ?filter=, ?after=
    // the previous page's `next`, ?limit= up to 500).
    const scope = scopeOf(url);
    const params = url.searchParams;
    const limit = params.get('limit');
    const page = notes().browse(overlay(scope), {
      sort: (params.get('sort') ?? 'newest') as BrowseSort,
      label: params.get('label'),
      filter: params.get('filter') ?? '',
      after: params.get('after'),
      ...(limit === null ? {} : { limit: Number(limit) || 1 }),
      // A later page leaves the counts to the first (`counts=1` asks for them anyway).
      counts: params.get('after') === null || params.get('counts') === '1',
    });
    return {
      scope,
      notes: page.notes.map((n) => ({ ...noteJson(n, sources.now()), read_only: n.scope !== scope })),
      next: page.next,
      // null on a later page: the first page's counts still hold.
      counts: page.counts,
      partial: page.partial,
    };
  });
  api.on('GET', '/api/notes/search', async (req, url) => {
    // The store's own search, full text and vectors fused, exactly as the model's search_memory sees the
    // scope: without a key, so keyed notes are not found (they are in the list, with their keys).
    const scope = scopeOf(url);
    const q = url.searchParams.get('q') ?? '';
    if (q.trim() === '') throw MindViewErrors.error('BAD_REQUEST.noQuery');
    const result = await notes().search({ ...overlay(scope), operator: false }, q, null, SEARCH_RESULTS);
    return {
      mode: result.mode,
      ...(result.why ? { why: result.why } : {}),
      hits: result.hits.map((h) => ({ ...noteJson(h.note, sources.now()), read_only: h.note.scope !== scope })),
    };
  });
  /**
   * A duplicates scan of the scope's own notes (?label= narrows to one label, `unlabeled` to notes without),
   * of any size: the store compares them in slices, and `signal` stops it.
   */
  const duplicates = async (url: URL, signal: AbortSignal, onProgress?: (done: number, total: number) => void) => {
    const pairs = await notes().duplicates(operator(scopeOf(url)), {
      label: url.searchParams.get('label'),
      signal,
      ...(onProgress ? { onProgress } : {}),
    });
    return pairs.map((p) => ({
      a: noteJson(p.a, sources.now()),
      b: noteJson(p.b, sources.now()),
      similarity: p.similarity,
    }));
  };
  api.on('GET', '/api/notes/duplicates', async (req, url) => {
    // The scan stops when the connection closes before the answer (a closed tab, a client giving up).
    const connection = whileConnected(req);
    try {
      return { pairs: await duplicates(url, connection.signal) };
    } finally {
      connection.done();
    }
  });
  api.on('GET', '/api/notes/labels', async (_req, url) => ({
    // What a duplicates scan of the scope can be narrowed to: its notes' labels with their counts.
    ...notes().labelCounts(operator(scopeOf(url))),
  }));
  api.on('POST', '/api/notes/combine', async (req, url) => {
    const { keep, drop } = checkBody<{ keep: number; drop: number }>('combine', await readJson(req));
    // Global notes show read-only on another scope's page, and the API holds to it as the page does.
    const scope = scopeOf(url);
    return {
      note: noteJson(
        notes().combine(keep, drop, { scopes: [scope, GLOBAL_SCOPE], key: null, operator: true }, scope),
        sources.now(),
      ),
    };
  });
  // A large scope's export and import hold the runtime's thread only briefly at a time (see the notes
  // plugin's transfer.ts): the export is read and written in slices, the import parsed in a worker thread.
  api.on(
    'GET',
    '/api/notes/export',
    async (_req, url) =>
      new RawBody('application/json; charset=utf-8', Buffer.from((await notes().exportText(scopeOf(url))).text)),
  );
  api.on('POST', '/api/notes/import', async (req, url) => {
    // An export may be as large as the console's notes import reads.
    const read = await readExport(await readBody(req, MAX_IMPORT_BYTES), { maxDepth: MAX_DEPTH });
    if (!read.ok) {
      const { failure } = read;
      if (failure.kind === 'tooDeep')
        throw MindViewErrors.error('BAD_JSON.tooDeep', { depth: failure.depth, max: MAX_DEPTH });
      if (failure.kind === 'notJson') throw MindViewErrors.error('BAD_JSON.notExport');
      throw NotesErrors.error('IMPORT_INVALID.uploadNotExport', { invalid: failure.invalid });
    }
    return notes().importNotes(read.data, url.searchParams.get('scope') ?? undefined);
  });
  api.on('GET', '/api/entities', async (req, url) => {
    const name = url.searchParams.get('name');
    if (name !== null) return { entities: (await memory().findEntities(name)).map(entityJson) };
    // Browsing: a page of entities in ID order, optionally of one type.
    const offset = intParam(url, 'offset', 0, 0, 1_000_000_000);
    const limit = intParam(url, 'limit', 50, 1, 200);
    const type = url.searchParams.get('type') || null;
    const page = await memory().listEntities({ entityType: type, offset, limit });
    return { entities: page.entities.map(entityJson), total: page.total, offset, limit };
  });
  api.on('POST', '/api/entities', async (req, _url) => {
    const body = checkBody<{ entity_type: string; canonical_name: string }>('addEntity', await readJson(req));
    return {
      entity: entityJson(
        await memory().createEntity({ entityType: body.entity_type, canonicalName: body.canonical_name }),
      ),
    };
  });
  // A place with its pose, as `memory place add` makes one: the pose checked before anything is written.
  api.on('POST', '/api/places', async (req, _url) => {
    const body = checkBody<{ name: string; pose: string; frame?: string | null }>('addPlace', await readJson(req));
    const pose = parsePose(body.pose, body.frame || DEFAULT_POSE_FRAME);
    const entity = await memory().createEntity({ entityType: PLACE_ENTITY_TYPE, canonicalName: body.name });
    const kept = await memory().createMemory(poseMemory(entity, pose));
    return { entity: entityJson(entity), memory: memoryJson(kept), pose: describePose(pose) };
  });
  api.on('POST', '/api/memories', async (req, _url) => {
    const body = checkBody<{
      kind: string;
      summary: string;
      links?: Array<{ entity: string; role: string }>;
      predicate?: string | null;
      value?: string | null;
      source_kind?: string | null;
      source_label?: string | null;
      confidence?: number | null;
    }>('addMemory', await readJson(req));
    const created = await memory().createMemory({
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
  });
  api.on('GET', '/api/proposals', async (_req, _url) => {
    // What awaits the operator (and what expired undecided), with the memory a supersede would replace.
    const store = memory();
    const open = (await store.listProposals()).filter((p) => p.status === 'pending' || p.status === 'expired');
    const proposals = [];
    for (const p of open) {
      const replaces = p.memoryId === null ? undefined : await store.getMemory(p.memoryId);
      proposals.push({ ...proposalJson(p, replaces), stale: (await whyStale(store, p, replaces)) ?? null });
    }
    return { proposals };
  });
  api.on('POST', '/api/scopes/:scope/unlock', async (_req, _url, { scope }) => {
    const store = notes();
    if (!store.scopes().includes(scope!)) throw NotesErrors.error('SCOPE_INVALID.unknown', { scope: scope! });
    return { scope, forgotten: store.clearKeyMisses(scope!) };
  });
  const noteViewer = (url: URL): Viewer => ({ scopes: [scopeOf(url), GLOBAL_SCOPE], key: null, operator: true });
  api.on('PATCH', '/api/notes/:id(^\\d+$)', async (req, url, { id }) => {
    const body = checkBody<{ content: string; labels?: string[] | string | null }>('editNote', await readJson(req));
    const labels = body.labels === undefined || body.labels === null ? null : [body.labels].flat().join(',');
    const updated = await notes().update(Number(id), noteViewer(url), scopeOf(url), body.content, labels);
    // An over-long edit is trimmed at a word boundary, as on the console; the page shows what was cut.
    return { note: noteJson(updated.note, sources.now()), cut: updated.cut };
  });
  api.on('DELETE', '/api/notes/:id(^\\d+$)', async (_req, url, { id }) => ({
    deleted: notes().delete(Number(id), noteViewer(url), scopeOf(url)).id,
  }));
  api.on('POST', '/api/entities/:ref(^[Ee][Nn][Tt]\\d+$)/aliases', async (req, _url, { ref }) => {
    const { alias } = checkBody<{ alias: string }>('addAlias', await readJson(req));
    const added = await memory().addAlias(parseEntityRef(ref!), alias);
    return { entity: entityJson(added.entity), also_names: added.alsoNames.map((e) => e.ref) };
  });
  api.on('GET', '/api/entities/:ref(^[Ee][Nn][Tt]\\d+$)/memories', async (_req, _url, { ref }) => {
    const id = parseEntityRef(ref!);
    const entity = await memory().getEntity(id);
    if (!entity) throw MemoryErrors.error('ENTITY_NOT_FOUND', { ref: ref! });
    return {
      entity: entityJson(entity),
      memories: (await memory().listActiveMemories(id)).memories.map(memoryJson).reverse(),
    };
  });
  api.on('GET', '/api/memories/:ref(^[Mm][Ee][Mm]\\d+$)', async (_req, _url, { ref }) => {
    const found = await memory().getMemory(parseMemoryRef(ref!));
    if (!found) throw MemoryErrors.error('MEMORY_NOT_FOUND', { ref: ref! });
    return { memory: memoryJson(found) };
  });
  api.on('GET', '/api/memories/:ref(^[Mm][Ee][Mm]\\d+$)/image', async (_req, _url, { ref }) => {
    const object = await memory().readObject(parseMemoryRef(ref!));
    if (!object) throw MemoryErrors.error('SNAPSHOT_UNAVAILABLE.noImage', { ref: ref! });
    return new RawBody(object.mediaType, object.bytes);
  });
  for (const decision of ['accept', 'reject'] as const) {
    api.on('POST', `/api/proposals/:ref(^[Pp]\\d+$)/${decision}`, async (req, _url, { ref }) => {
      const id = parseProposalRef(ref!);
      const { reason } = checkBody<{ reason?: string | null }>('decideProposal', await readJson(req));
      if (decision === 'reject') return { proposal: proposalJson(await memory().rejectProposal(id, reason ?? null)) };
      const accepted = await memory().acceptProposal(id);
      return 'entity' in accepted
        ? { proposal: proposalJson(accepted.proposal), entity: entityJson(accepted.entity) }
        : {
            proposal: proposalJson(accepted.proposal),
            memory: memoryJson(accepted.memory),
            superseded: memoryJson(accepted.superseded),
          };
    });
  }

  /** Answers an API request by its route (find-my-way, Fastify's router); no route is a 404. */
  async function route(req: IncomingMessage, url: URL): Promise<unknown> {
    const method = (req.method ?? 'GET') as HTTPMethod;
    const found = router.find(method, url.pathname);
    if (!found) throw MindViewErrors.error('NOT_FOUND', { method, path: url.pathname });
    return (found.store as Handler)(req, url, found.params);
  }

  /**
   * Server-sent events: `event: change` with `{"notes":true|false,"memory":true|false}` whenever a store
   * changes (the model, the console, another process), so the page updates without a reload. The page
   * reads the stream with fetch (EventSource cannot send the Authorization header).
   */
  const streamChanges = (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8' });
    res.write(': connected\n\n');
    const revisions = async () => ({
      notes: sources.notes()?.revision() ?? '',
      memory: (await sources.memory()?.revision()) ?? '',
    });
    let last: { notes: string; memory: string } | undefined;
    void revisions().then(
      (now) => (last ??= now),
      () => undefined,
    );
    let beats = 0;
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      revisions()
        .then((now) => {
          if (last && (now.notes !== last.notes || now.memory !== last.memory)) {
            res.write(
              `event: change\ndata: ${JSON.stringify({ notes: now.notes !== last.notes, memory: now.memory !== last.memory })}\n\n`,
            );
          } else if (++beats % 30 === 0) res.write(': keep-alive\n\n');
          last = now;
        })
        .catch(() => undefined) // a store closing under the stream: the next tick, or the close, ends it
        .finally(() => (busy = false));
    }, CHANGE_POLL_MS);
    req.on('close', () => clearInterval(timer));
  };

  /** An error as the API answers it: code, message and what to do; anything unexpected is a 500 logged on stderr. */
  const errorAnswer = (error: unknown): { status: number; body: { error: Record<string, string> } } => {
    if (error instanceof MiraError) {
      // With what to do in the error's situation, which the page shows beside the message.
      const fix = whatToDo(error);
      return {
        status: statusOf(error.code),
        body: { error: { code: error.code, message: error.detail, ...(fix ? { fix } : {}) } },
      };
    }
    const id = randomBytes(6).toString('hex');
    (sources.log ?? stderrLog)(`Mind view: internal error ${id}: ${(error as Error)?.stack ?? String(error)}`);
    const internal = CoreErrors.error('INTERNAL.mindView', { id });
    const fix = whatToDo(internal);
    return {
      status: 500,
      body: { error: { code: internal.code, message: internal.detail, id, ...(fix ? { fix } : {}) } },
    };
  };

  /** Answers with the error's code and status; anything unexpected is a 500 whose details go to stderr only. */
  const fail = (res: ServerResponse, error: unknown) => {
    const { status, body } = errorAnswer(error);
    send(res, status, body);
  };

  /**
   * `GET /api/notes/duplicates?stream=1`: the scan's progress as it goes, then its answer, as lines of JSON
   * (`{"progress":{"done":…,"total":…}}` at most every {@link PROGRESS_MS}, then `{"pairs":[…]}` or
   * `{"error":{…}}`). The page's Stop closes the request, and the scan stops with it.
   */
  const streamDuplicates = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    notes(); // notes disabled: an error answer, not a stream
    const connection = whileConnected(req);
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'application/x-ndjson; charset=utf-8' });
    let last = 0;
    const progress = (done: number, total: number) => {
      const now = performance.now();
      if (now - last < PROGRESS_MS && done < total) return;
      last = now;
      res.write(`${JSON.stringify({ progress: { done, total } })}\n`);
    };
    try {
      res.end(`${JSON.stringify({ pairs: await duplicates(url, connection.signal, progress) })}\n`);
    } catch (error) {
      // Stopped by the page: nobody is left to answer.
      if (!connection.signal.aborted) res.end(`${JSON.stringify(errorAnswer(error).body)}\n`);
    } finally {
      connection.done();
    }
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://mind-view.invalid');
      if (!req.headers.host || !allowedHosts().has(req.headers.host)) {
        fail(res, MindViewErrors.error('HOST'));
        return;
      }
      const asset = assets[url.pathname];
      if (asset && req.method === 'GET') {
        // The page holds no data; it asks for the data with the token it was handed in the URL fragment.
        send(res, 200, asset.body, asset.type);
        return;
      }
      const foreign = crossOrigin(req);
      if (foreign) {
        fail(res, MindViewErrors.error('CROSS_ORIGIN', { origin: foreign }));
        return;
      }
      if (!authorized(req)) {
        fail(res, MindViewErrors.error('TOKEN'));
        return;
      }
      if (req.method === 'GET' && url.pathname === '/api/events') {
        streamChanges(req, res);
        return;
      }
      if (req.method === 'GET' && url.pathname === '/api/notes/duplicates' && url.searchParams.get('stream') === '1') {
        await streamDuplicates(req, res, url).catch((error: unknown) => fail(res, error));
        return;
      }
      try {
        send(res, 200, await route(req, url));
      } catch (error) {
        fail(res, error);
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${hostInUrl}:${port}/#token=${token}`,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
