// The Mind view's API client: every request the page makes goes through here, and each answer has its type
// from ../src/wire.ts (the JSON server.ts sends). This module alone holds the access token.
/**
 * @import { ApiError, ChangeEvent, CombineAnswer, DecisionAnswer, DeleteAnswer, DeleteManyAnswer,
 *   DuplicatesAnswer, DuplicatesLine, EditAnswer, EntitiesAnswer, EntityAnswer, EntityMemories, EntityPage,
 *   ErrorAnswer, HistoryAnswer, ImportAnswer, MatchingIds, MemoryAnswer, NotesExportJson, NotesPage, PlaceAnswer,
 *   ProposalsAnswer, RelabelAnswer, ScopeCreated, ScopesAnswer, SearchAnswer, UnlockAnswer } from '../src/wire.js'
 */

// The console prints the address with the token in the fragment (#token=…), which browsers never send to a
// server. The page moves it into sessionStorage (this tab only), removes it from the address bar, and sends
// it itself as a header: no cookie, so no other page or local server ever receives it.
function takeToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem('mira_token', fromHash);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem('mira_token') || '';
}
const token = takeToken();

/** Whether the page was given an access token (the address the console printed, or earlier in this tab). */
export const hasToken = () => token !== '';

/**
 * An API error as the page says it: the code, the message, and what to do (the catalogue's advice).
 * @param {ApiError} error
 */
function failure(error) {
  return `${error.code}: ${error.message}${error.fix ? ` — what to do: ${error.fix}` : ''}`;
}

/** An API request the server refused: the message says the code, what happened and what to do. */
export class ApiFailure extends Error {
  /** @param {ApiError} error */
  constructor(error) {
    super(failure(error));
    /** The `MIRA_ERR_…` code. */
    this.code = error.code;
  }
}

/**
 * A JSON request with the token; an answer of 400 or more throws {@link ApiFailure}.
 * @template T the answer's type
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options] the body is sent as JSON
 * @returns {Promise<T>}
 */
async function call(path, options = {}) {
  const response = await fetch(path, {
    ...(options.method ? { method: options.method } : {}),
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });
  const body = await response.json();
  if (!response.ok) throw new ApiFailure(/** @type {ErrorAnswer} */ (body).error);
  return body;
}

const scopeQuery = (/** @type {string} */ scope) => `scope=${encodeURIComponent(scope)}`;

/** @returns {Promise<ScopesAnswer>} */
export const getScopes = () => call('/api/scopes');

/** @param {string} name @returns {Promise<ScopeCreated>} */
export const createScope = (name) => call('/api/scopes', { method: 'POST', body: { name } });

/** Ends a scope's lockout of keyed calls. @param {string} scope @returns {Promise<UnlockAnswer>} */
export const unlockScope = (scope) => call(`/api/scopes/${encodeURIComponent(scope)}/unlock`, { method: 'POST' });

/**
 * What a page of notes is asked for with: `after`, the previous page's `next`; `counts`, the counts on a
 * later page too; `since` and `until`, the times of the last change (ISO, null for no bound).
 * @typedef {{ scope: string, sort: string, limit: number, label: string | null, filter: string,
 *   since: string | null, until: string | null, after: string | null, counts: boolean }} NotesQuery
 */

/** One page of a scope's notes. @param {NotesQuery} query @returns {Promise<NotesPage>} */
export function getNotes(query) {
  const params = new URLSearchParams({ scope: query.scope, sort: query.sort, limit: String(query.limit) });
  if (query.label) params.set('label', query.label);
  if (query.filter.trim()) params.set('filter', query.filter);
  if (query.since) params.set('since', query.since);
  if (query.until) params.set('until', query.until);
  if (query.after) params.set('after', query.after);
  if (query.after && query.counts) params.set('counts', '1');
  return call(`/api/notes?${params}`);
}

/**
 * Every note the list shows with these filters that can be changed in the scope (at most 1000).
 * @param {Omit<NotesQuery, 'limit' | 'after' | 'counts'>} query @returns {Promise<MatchingIds>}
 */
export function getMatchingIds(query) {
  const params = new URLSearchParams({ scope: query.scope, sort: query.sort });
  if (query.label) params.set('label', query.label);
  if (query.filter.trim()) params.set('filter', query.filter);
  if (query.since) params.set('since', query.since);
  if (query.until) params.set('until', query.until);
  return call(`/api/notes/ids?${params}`);
}

/** The store's own search. @param {string} scope @param {string} q @returns {Promise<SearchAnswer>} */
export const searchNotes = (scope, q) => call(`/api/notes/search?${scopeQuery(scope)}&q=${encodeURIComponent(q)}`);

/**
 * A note's new text and labels (comma-separated).
 * @param {string} scope @param {number} id @param {string} content @param {string} labels
 * @returns {Promise<EditAnswer>}
 */
export const editNote = (scope, id, content, labels) =>
  call(`/api/notes/${id}?${scopeQuery(scope)}`, { method: 'PATCH', body: { content, labels } });

/** A note's earlier texts, newest first. @param {string} scope @param {number} id @returns {Promise<HistoryAnswer>} */
export const getHistory = (scope, id) => call(`/api/notes/${id}/history?${scopeQuery(scope)}`);

/** @param {string} scope @param {number} id @returns {Promise<DeleteAnswer>} */
export const deleteNote = (scope, id) => call(`/api/notes/${id}?${scopeQuery(scope)}`, { method: 'DELETE' });

/**
 * Deletes the notes in one transaction: all of them, or (one missing or read-only) none.
 * @param {string} scope @param {readonly number[]} ids @returns {Promise<DeleteManyAnswer>}
 */
export const deleteNotes = (scope, ids) =>
  call(`/api/notes/delete?${scopeQuery(scope)}`, { method: 'POST', body: { ids } });

/**
 * Adds and removes labels (comma-separated) on the notes, all of them or none.
 * @param {string} scope @param {readonly number[]} ids @param {string} add @param {string} remove
 * @returns {Promise<RelabelAnswer>}
 */
export const relabelNotes = (scope, ids, add, remove) =>
  call(`/api/notes/relabel?${scopeQuery(scope)}`, { method: 'POST', body: { ids, add, remove } });

/**
 * Pairs of near-identical notes in a scope, or in one of its labels, with the scan's progress as it goes
 * (work units: `done` of `total`). Aborting `signal` closes the request, which stops the scan on the
 * server; the promise then rejects with the signal's reason.
 * @param {string} scope @param {string | null} label
 * @param {(done: number, total: number) => void} onProgress
 * @param {AbortSignal} signal
 * @returns {Promise<DuplicatesAnswer>}
 */
export async function scanDuplicates(scope, label, onProgress, signal) {
  const params = new URLSearchParams({ scope, ...(label === null ? {} : { label }), stream: '1' });
  const response = await fetch(`/api/notes/duplicates?${params}`, {
    headers: { authorization: `Bearer ${token}` },
    signal,
  });
  // Refused before the scan started (notes disabled, a bad token): an ordinary error answer.
  if (!response.ok) throw new ApiFailure(/** @type {ErrorAnswer} */ (await response.json()).error);
  if (!response.body) throw new Error('the duplicates scan answered without a body; reload the page and try again');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value;
    let end;
    while ((end = buffered.indexOf('\n')) >= 0) {
      const line = /** @type {DuplicatesLine} */ (JSON.parse(buffered.slice(0, end)));
      buffered = buffered.slice(end + 1);
      if ('progress' in line) onProgress(line.progress.done, line.progress.total);
      else if ('error' in line) throw new ApiFailure(line.error);
      else return line;
    }
  }
  throw new Error('the duplicates scan ended without an answer (the Mind view stopped?); find duplicates again');
}

/**
 * Keeps one note's text with the labels of both, and removes the other.
 * @param {string} scope @param {number} keep @param {number} drop @returns {Promise<CombineAnswer>}
 */
export const combineNotes = (scope, keep, drop) =>
  call(`/api/notes/combine?${scopeQuery(scope)}`, { method: 'POST', body: { keep, drop } });

/** @param {string} scope @returns {Promise<NotesExportJson>} */
export const exportScope = (scope) => call(`/api/notes/export?${scopeQuery(scope)}`);

/**
 * Sends an export file as the request body, read from disk as it goes (not parsed or copied on the page),
 * reporting how much of it is sent; resolves to the import's answer.
 * @param {string} scope
 * @param {File} file
 * @param {(sent: number, total: number) => void} onProgress
 * @returns {Promise<ImportAnswer>}
 */
export function importNotes(scope, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/notes/import?${scopeQuery(scope)}`);
    xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.upload.addEventListener('progress', (e) => e.lengthComputable && onProgress(e.loaded, e.total));
    xhr.upload.addEventListener('load', () => onProgress(file.size, file.size));
    xhr.addEventListener('load', () => {
      let body;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        reject(new Error(`the server answered ${xhr.status} without a body; nothing was imported`));
        return;
      }
      if (xhr.status >= 400) reject(new ApiFailure(/** @type {ErrorAnswer} */ (body).error));
      else resolve(body);
    });
    xhr.addEventListener('error', () =>
      reject(new Error('the upload failed (the runtime stopped?); nothing was imported')),
    );
    xhr.send(file);
  });
}

/** Entities of this exact name or alias. @param {string} name @returns {Promise<EntitiesAnswer>} */
export const findEntities = (name) => call(`/api/entities?name=${encodeURIComponent(name)}`);

/**
 * A page of entities in ID order, of one type unless `type` is empty.
 * @param {{ offset: number, limit: number, type: string }} page @returns {Promise<EntityPage>}
 */
export const getEntityPage = ({ offset, limit, type }) =>
  call(`/api/entities?offset=${offset}&limit=${limit}${type ? `&type=${encodeURIComponent(type)}` : ''}`);

/** An entity's active memories. @param {string} ref `ENT<n>` @returns {Promise<EntityMemories>} */
export const getEntityMemories = (ref) => call(`/api/entities/${ref}/memories`);

/** @param {{ entity_type: string, canonical_name: string }} entity @returns {Promise<EntityAnswer>} */
export const addEntity = (entity) => call('/api/entities', { method: 'POST', body: entity });

/**
 * A place with its pose (`x,y,yaw°`), in a frame (the default frame when null).
 * @param {{ name: string, pose: string, frame: string | null }} place @returns {Promise<PlaceAnswer>}
 */
export const addPlace = (place) => call('/api/places', { method: 'POST', body: place });

/** @param {string} ref `ENT<n>` @param {string} alias @returns {Promise<EntityAnswer>} */
export const addAlias = (ref, alias) =>
  call(`/api/entities/${encodeURIComponent(ref)}/aliases`, { method: 'POST', body: { alias } });

/**
 * @param {{ kind: string, summary: string, links: Array<{ entity: string, role: string }> }} memory
 * @returns {Promise<MemoryAnswer>}
 */
export const addMemory = (memory) => call('/api/memories', { method: 'POST', body: memory });

/** @returns {Promise<ProposalsAnswer>} */
export const getProposals = () => call('/api/proposals');

/**
 * Accepts a proposal, or rejects it with the operator's reason (null for none).
 * @param {string} ref `P<n>` @param {'accept' | 'reject'} action @param {string | null} reason
 * @returns {Promise<DecisionAnswer>}
 */
export const decideProposal = (ref, action, reason) =>
  call(`/api/proposals/${encodeURIComponent(ref)}/${action}`, {
    method: 'POST',
    body: action === 'reject' ? { reason } : {},
  });

/**
 * A snapshot's image as an object URL: fetched with the token (an <img> cannot send it), so the image never
 * needs a URL another page could load, and nothing leaves this machine.
 * @param {string} ref `MEM<n>`
 */
export async function snapshotUrl(ref) {
  const response = await fetch(`/api/memories/${ref}/image`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new ApiFailure(/** @type {ErrorAnswer} */ (await response.json()).error);
  return URL.createObjectURL(await response.blob());
}

/**
 * Live updates: calls `onChange` whenever the server's event stream says notes or memories changed (the
 * model, the console, another process), and `onLive` as the stream connects and ends. Read with fetch, since
 * EventSource cannot send the Authorization header; reconnects after a pause if the stream ends. Never returns.
 * @param {(changed: ChangeEvent) => Promise<void>} onChange
 * @param {(live: boolean) => void} onLive
 * @returns {Promise<never>}
 */
export async function listenForChanges(onChange, onLive) {
  for (;;) {
    try {
      const response = await fetch('/api/events', { headers: { authorization: `Bearer ${token}` } });
      if (!response.ok || !response.body) throw new Error(`status ${response.status}`);
      onLive(true);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((line) => line.startsWith('data: '));
          if (frame.includes('event: change') && data) await onChange(JSON.parse(data.slice(6)));
        }
      }
    } catch {
      // the runtime stopped or restarted: try again shortly
    }
    onLive(false);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
