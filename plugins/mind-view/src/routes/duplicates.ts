import { noteJson } from '../json.js';
import { errorAnswer, SECURITY_HEADERS, whileConnected } from '../reply.js';
import { operator, scopeOf } from '../request.js';
import type { RouteContext } from '../context.js';
import { STREAMED, type Handler, type Route } from '../router.js';

/** The least time between two progress lines of a streamed duplicates scan. */
const PROGRESS_MS = 100;

/**
 * A duplicates scan of the scope's own notes (?label= narrows to one label, `unlabeled` to notes without),
 * of any size: the store compares them in slices, and `signal` stops it.
 */
async function duplicates(
  ctx: RouteContext,
  url: URL,
  signal: AbortSignal,
  onProgress?: (done: number, total: number) => void,
) {
  const pairs = await ctx.notes().duplicates(operator(scopeOf(url)), {
    label: url.searchParams.get('label'),
    signal,
    ...(onProgress ? { onProgress } : {}),
  });
  return pairs.map((p) => ({
    a: noteJson(p.a, ctx.now()),
    b: noteJson(p.b, ctx.now()),
    similarity: p.similarity,
  }));
}

/**
 * `GET /api/notes/duplicates?stream=1`: the scan's progress as it goes, then its answer, as lines of JSON
 * (`{"progress":{"done":…,"total":…}}` at most every {@link PROGRESS_MS}, then `{"pairs":[…]}` or
 * `{"error":{…}}`). The page's Stop closes the request, and the scan stops with it.
 */
const streamDuplicates: Handler = async (ctx, { req, res, url }) => {
  ctx.notes(); // notes disabled: an error answer, not a stream
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
    res.end(`${JSON.stringify({ pairs: await duplicates(ctx, url, connection.signal, progress) })}\n`);
  } catch (error) {
    // Stopped by the page: nobody is left to answer.
    if (!connection.signal.aborted) res.end(`${JSON.stringify(errorAnswer(error, ctx.log).body)}\n`);
  } finally {
    connection.done();
  }
  return STREAMED;
};

/** `GET /api/notes/duplicates`: the pairs in one answer, or streamed with `?stream=1`. */
const findDuplicates: Handler = async (ctx, call) => {
  if (call.url.searchParams.get('stream') === '1') return streamDuplicates(ctx, call);
  // The scan stops when the connection closes before the answer (a closed tab, a client giving up).
  const connection = whileConnected(call.req);
  try {
    return { pairs: await duplicates(ctx, call.url, connection.signal) };
  } finally {
    connection.done();
  }
};

/** The duplicates panel's scan. */
export const DUPLICATES_ROUTES: readonly Route[] = Object.freeze([
  { method: 'GET', path: '/api/notes/duplicates', handler: findDuplicates },
]);
