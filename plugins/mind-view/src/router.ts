import type { IncomingMessage, ServerResponse } from 'node:http';
import type FindMyWayRouter from 'find-my-way';
import type { HTTPMethod, HTTPVersion } from 'find-my-way';
import type { RouteContext } from './context.js';
import { MindViewErrors } from './errors.js';

/** One request as a handler sees it: the path's parameters decoded. */
export interface Call {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly params: Readonly<Record<string, string | undefined>>;
}

/** What a handler returns when it has written its answer itself (a stream). */
export const STREAMED: unique symbol = Symbol('streamed');

/**
 * A route's handler: its answer (sent as JSON, or a `RawBody`), or {@link STREAMED}. A thrown error is
 * answered with its code and status by the server, once, for every route.
 */
export type Handler = (ctx: RouteContext, call: Call) => Promise<unknown>;

/** A method and a path (find-my-way's syntax: `:name(^regex$)`) with its handler. */
export interface Route {
  readonly method: HTTPMethod;
  readonly path: string;
  readonly handler: Handler;
}

/** Answers a request by its route; no route is a MIRA_ERR_MIND_VIEW_NOT_FOUND (404). */
export type Dispatch = (ctx: RouteContext, req: IncomingMessage, res: ServerResponse, url: URL) => Promise<unknown>;

/**
 * The routing table over find-my-way (Fastify's router). Loaded with the server, not with the plugin: a
 * profile whose Mind view is off never loads the router.
 */
export async function createRouter(routes: readonly Route[]): Promise<Dispatch> {
  // A CommonJS module: its function is the default export of the namespace import gives.
  const { default: FindMyWay } = (await import('find-my-way')) as unknown as { default: typeof FindMyWayRouter };
  const router = FindMyWay<HTTPVersion.V1>({ maxParamLength: 500 });
  // Each route's handler is kept as its store (find-my-way's handler signature is node's (req, res)).
  for (const { method, path, handler } of routes) router.on(method, path, () => undefined, handler);
  return async (ctx, req, res, url) => {
    const method = (req.method ?? 'GET') as HTTPMethod;
    const found = router.find(method, url.pathname);
    if (!found) throw MindViewErrors.error('NOT_FOUND', { method, path: url.pathname });
    return (found.store as Handler)(ctx, { req, res, url, params: found.params });
  };
}
