import { SECURITY_HEADERS } from '../reply.js';
import { STREAMED, type Handler, type Route } from '../router.js';

/** How often the live-update stream looks for changes (two cheap pragmas per store). */
const CHANGE_POLL_MS = 300;

/**
 * Server-sent events: `event: change` with `{"notes":true|false,"memory":true|false}` whenever a store
 * changes (the model, the console, another process), so the page updates without a reload. The page reads
 * the stream with fetch (EventSource cannot send the Authorization header).
 */
const streamChanges: Handler = async (ctx, { req, res }) => {
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8' });
  res.write(': connected\n\n');
  const revisions = async () => ({
    notes: ctx.sources.notes()?.revision() ?? '',
    memory: (await ctx.sources.memory()?.revision()) ?? '',
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
          const changed = { notes: now.notes !== last.notes, memory: now.memory !== last.memory };
          res.write(`event: change\ndata: ${JSON.stringify(changed)}\n\n`);
        } else if (++beats % 30 === 0) res.write(': keep-alive\n\n');
        last = now;
      })
      .catch(() => undefined) // a store closing under the stream: the next tick, or the close, ends it
      .finally(() => (busy = false));
  }, CHANGE_POLL_MS);
  req.on('close', () => clearInterval(timer));
  return STREAMED;
};

/** The page's live updates. */
export const EVENTS_ROUTES: readonly Route[] = Object.freeze([
  { method: 'GET', path: '/api/events', handler: streamChanges },
]);
