import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { MiraError } from '@mira/core';
import { MindViewErrors } from './errors.js';

/** Who may use the server: the `Host` it answers to and the token a request must carry. */
export interface Guard {
  /** `[::1]` is how an IPv6 literal appears in a URL and in the Host header. */
  readonly hostInUrl: string;
  /** The port the server listens on, once it does. */
  port: number;
  readonly host: string;
  readonly token: string;
}

/** The Host headers that name this server (no DNS rebinding). */
function allowedHosts(guard: Guard): Set<string> {
  const { hostInUrl, port, host } = guard;
  return new Set([`${hostInUrl}:${port}`, ...(host === '127.0.0.1' ? [`localhost:${port}`] : [])]);
}

/**
 * Whether the request carries the token. Only a header the page's own script sets counts: no cookie, no
 * query parameter, nothing a browser attaches by itself to a request another page makes.
 */
function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization;
  const given = header?.startsWith('Bearer ') ? header.slice(7) : '';
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A request a page of another origin made (another port of the same host is another origin). */
function crossOrigin(req: IncomingMessage): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) return `Origin: ${origin}`;
  return undefined;
}

/** Refuses a request whose `Host` is not this server's (the page's assets too). */
export function hostRefusal(req: IncomingMessage, guard: Guard): MiraError | undefined {
  return !req.headers.host || !allowedHosts(guard).has(req.headers.host) ? MindViewErrors.error('HOST') : undefined;
}

/** Refuses an API request from a page of another origin, or without the token. */
export function apiRefusal(req: IncomingMessage, guard: Guard): MiraError | undefined {
  const foreign = crossOrigin(req);
  if (foreign) return MindViewErrors.error('CROSS_ORIGIN', { origin: foreign });
  if (!authorized(req, guard.token)) return MindViewErrors.error('TOKEN');
  return undefined;
}
