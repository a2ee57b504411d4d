import {
  GLOBAL_SCOPE,
  MAX_IMPORT_BYTES,
  NotesErrors,
  readExport,
  SEARCH_RESULTS,
  type BrowseSort,
  type Viewer,
} from '@mira/plugin-notes';
import { checkBody } from '../bodies.js';
import { MindViewErrors } from '../errors.js';
import { noteJson } from '../json.js';
import { RawBody } from '../reply.js';
import { MAX_DEPTH, operator, overlay, readBody, readJson, scopeOf } from '../request.js';
import type { Handler, Route } from '../router.js';

const listScopes: Handler = async (ctx) => {
  const store = ctx.notes();
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
};

const addScope: Handler = async (ctx, { req }) => {
  const { name } = checkBody<{ name: string }>('addScope', await readJson(req));
  ctx.notes().ensureScope(name);
  return { scope: name };
};

const unlockScope: Handler = async (ctx, { params: { scope } }) => {
  const store = ctx.notes();
  if (!store.scopes().includes(scope!)) throw NotesErrors.error('SCOPE_INVALID.unknown', { scope: scope! });
  return { scope, forgotten: store.clearKeyMisses(scope!) };
};

/**
 * One page of a scope's notes with the global ones over them, read-only there (they are edited in the
 * global scope): sorted, filtered, counted and paged by the store (?sort=, ?label=, ?filter=, ?after= the
 * previous page's `next`, ?limit= up to 500).
 */
const listNotes: Handler = async (ctx, { url }) => {
  const scope = scopeOf(url);
  const params = url.searchParams;
  const limit = params.get('limit');
  const page = ctx.notes().browse(overlay(scope), {
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
    notes: page.notes.map((n) => ({ ...noteJson(n, ctx.now()), read_only: n.scope !== scope })),
    next: page.next,
    // null on a later page: the first page's counts still hold.
    counts: page.counts,
    partial: page.partial,
  };
};

/**
 * The store's own search, full text and vectors fused, exactly as the model's search_memory sees the scope:
 * without a key, so keyed notes are not found (they are in the list, with their keys).
 */
const searchNotes: Handler = async (ctx, { url }) => {
  const scope = scopeOf(url);
  const q = url.searchParams.get('q') ?? '';
  if (q.trim() === '') throw MindViewErrors.error('BAD_REQUEST.noQuery');
  const result = await ctx.notes().search({ ...overlay(scope), operator: false }, q, null, SEARCH_RESULTS);
  return {
    mode: result.mode,
    ...(result.why ? { why: result.why } : {}),
    hits: result.hits.map((h) => ({ ...noteJson(h.note, ctx.now()), read_only: h.note.scope !== scope })),
  };
};

/** What a duplicates scan of the scope can be narrowed to: its notes' labels with their counts. */
const labelCounts: Handler = async (ctx, { url }) => ({ ...ctx.notes().labelCounts(operator(scopeOf(url))) });

/** Who edits a note from a scope's page: the operator, in that scope with the global notes. */
const noteViewer = (url: URL): Viewer => ({ scopes: [scopeOf(url), GLOBAL_SCOPE], key: null, operator: true });

const combine: Handler = async (ctx, { req, url }) => {
  const { keep, drop } = checkBody<{ keep: number; drop: number }>('combine', await readJson(req));
  // Global notes show read-only on another scope's page, and the API holds to it as the page does.
  const scope = scopeOf(url);
  return { note: noteJson(ctx.notes().combine(keep, drop, noteViewer(url), scope), ctx.now()) };
};

// A large scope's export and import hold the runtime's thread only briefly at a time (see the notes
// plugin's transfer.ts): the export is read and written in slices, the import parsed in a worker thread.
const exportNotes: Handler = async (ctx, { url }) =>
  new RawBody('application/json; charset=utf-8', Buffer.from((await ctx.notes().exportText(scopeOf(url))).text));

const importNotes: Handler = async (ctx, { req, url }) => {
  // An export may be as large as the console's notes import reads.
  const read = await readExport(await readBody(req, MAX_IMPORT_BYTES), { maxDepth: MAX_DEPTH });
  if (!read.ok) {
    const { failure } = read;
    if (failure.kind === 'tooDeep')
      throw MindViewErrors.error('BAD_JSON.tooDeep', { depth: failure.depth, max: MAX_DEPTH });
    if (failure.kind === 'notJson') throw MindViewErrors.error('BAD_JSON.notExport');
    throw NotesErrors.error('IMPORT_INVALID.uploadNotExport', { invalid: failure.invalid });
  }
  return ctx.notes().importNotes(read.data, url.searchParams.get('scope') ?? undefined);
};

const editNote: Handler = async (ctx, { req, url, params: { id } }) => {
  const body = checkBody<{ content: string; labels?: string[] | string | null }>('editNote', await readJson(req));
  const labels = body.labels === undefined || body.labels === null ? null : [body.labels].flat().join(',');
  const updated = await ctx.notes().update(Number(id), noteViewer(url), scopeOf(url), body.content, labels);
  // An over-long edit is trimmed at a word boundary, as on the console; the page shows what was cut.
  return { note: noteJson(updated.note, ctx.now()), cut: updated.cut };
};

const deleteNote: Handler = async (ctx, { url, params: { id } }) => ({
  deleted: ctx.notes().delete(Number(id), noteViewer(url), scopeOf(url)).id,
});

/** What the notes panel reads and writes: scopes, a scope's notes, search, labels, combine, export, import. */
export const NOTES_ROUTES: readonly Route[] = Object.freeze([
  { method: 'GET', path: '/api/scopes', handler: listScopes },
  { method: 'POST', path: '/api/scopes', handler: addScope },
  { method: 'POST', path: '/api/scopes/:scope/unlock', handler: unlockScope },
  { method: 'GET', path: '/api/notes', handler: listNotes },
  { method: 'GET', path: '/api/notes/search', handler: searchNotes },
  { method: 'GET', path: '/api/notes/labels', handler: labelCounts },
  { method: 'POST', path: '/api/notes/combine', handler: combine },
  { method: 'GET', path: '/api/notes/export', handler: exportNotes },
  { method: 'POST', path: '/api/notes/import', handler: importNotes },
  { method: 'PATCH', path: '/api/notes/:id(^\\d+$)', handler: editNote },
  { method: 'DELETE', path: '/api/notes/:id(^\\d+$)', handler: deleteNote },
]);
