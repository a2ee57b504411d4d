import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryErrors } from '@mira/memory-contract';
import { NotesErrors } from '@mira/plugin-notes';
import { loadAssets, type Asset } from './assets.js';
import type { MindViewSources, RouteContext } from './context.js';
import { apiRefusal, hostRefusal, type Guard } from './guard.js';
import { fail, send } from './reply.js';
import { createRouter, STREAMED, type Dispatch } from './router.js';
import { DUPLICATES_ROUTES } from './routes/duplicates.js';
import { EVENTS_ROUTES } from './routes/events.js';
import { MEMORY_ROUTES } from './routes/memory.js';
import { NOTES_ROUTES } from './routes/notes.js';

export type { MindViewSources } from './context.js';
export { SECURITY_HEADERS, statusOf } from './reply.js';

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

/** Every route of the API, by what it serves (routes/). */
const ROUTES = [...NOTES_ROUTES, ...DUPLICATES_ROUTES, ...MEMORY_ROUTES, ...EVENTS_ROUTES];

const stderrLog = (message: string) => process.stderr.write(`mira: ${message}\n`);

/** The context every route runs in: a disabled store is refused with its own error. */
function routeContext(sources: MindViewSources): RouteContext {
  return {
    sources,
    notes: () => {
      const store = sources.notes();
      if (!store) throw NotesErrors.error('DISABLED');
      return store;
    },
    memory: () => {
      const store = sources.memory();
      if (!store) throw MemoryErrors.error('DISABLED');
      return store;
    },
    now: () => sources.now(),
    log: sources.log ?? stderrLog,
  };
}

/**
 * One request, in the order its checks run: the Host (every request), the page's assets (no data, no token),
 * then the API's origin and token checks and its route. Every error is answered here, once.
 */
async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  parts: { guard: Guard; assets: Readonly<Record<string, Asset>>; dispatch: Dispatch; ctx: RouteContext },
): Promise<void> {
  const { guard, assets, dispatch, ctx } = parts;
  try {
    const url = new URL(req.url ?? '/', 'http://mind-view.invalid');
    const refused = hostRefusal(req, guard);
    if (refused) throw refused;
    const asset = assets[url.pathname];
    // The page holds no data; it asks for the data with the token it was handed in the URL fragment.
    if (asset && req.method === 'GET') return send(res, 200, asset.body, asset.type);
    const unauthorized = apiRefusal(req, guard);
    if (unauthorized) throw unauthorized;
    const body = await dispatch(ctx, req, res, url);
    if (body !== STREAMED) send(res, 200, body);
  } catch (error) {
    fail(res, error, ctx.log);
  }
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
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  const guard: Guard = { host: options.host, hostInUrl, port: options.port, token };
  const parts = { guard, assets: loadAssets(), dispatch: await createRouter(ROUTES), ctx: routeContext(sources) };
  const server: Server = createServer((req, res) => void answer(req, res, parts));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  guard.port = (server.address() as AddressInfo).port;
  return {
    url: `http://${hostInUrl}:${guard.port}/#token=${token}`,
    port: guard.port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
