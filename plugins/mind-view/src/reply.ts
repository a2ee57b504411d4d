import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CoreErrors, MiraError, whatToDo, type ErrorCatalogue } from '@mira/core';
import { MemoryErrors } from '@mira/memory-contract';
import { NotesErrors } from '@mira/plugin-notes';
import { MindViewErrors } from './errors.js';

/** Every response carries these; the page loads only its own assets. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
});

/** A route's answer that is not JSON: bytes of a media type (a snapshot's image, an export). */
export class RawBody {
  constructor(
    readonly type: string,
    readonly body: Buffer,
  ) {}
}

/** Answers with `body`: JSON unless it is a string of `type` or a {@link RawBody}. */
export function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  type = 'application/json; charset=utf-8',
): void {
  if (body instanceof RawBody) {
    // An image is only ever shown, never run or sniffed as anything else; it is not kept by the browser either.
    res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': body.type, 'content-length': body.body.length });
    res.end(body.body);
    return;
  }
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
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

/** An error answer: its status and its body (`ErrorAnswer` in wire.ts). */
export interface ErrorReply {
  readonly status: number;
  readonly body: { error: Record<string, string> };
}

/**
 * An error as the API answers it: code, message and what to do; anything unexpected is a 500 whose details
 * go to `log` only, under an ID the answer gives.
 */
export function errorAnswer(error: unknown, log: (message: string) => void): ErrorReply {
  if (error instanceof MiraError) {
    // With what to do in the error's situation, which the page shows beside the message.
    const fix = whatToDo(error);
    return {
      status: statusOf(error.code),
      body: { error: { code: error.code, message: error.detail, ...(fix ? { fix } : {}) } },
    };
  }
  const id = randomBytes(6).toString('hex');
  log(`Mind view: internal error ${id}: ${(error as Error)?.stack ?? String(error)}`);
  const internal = CoreErrors.error('INTERNAL.mindView', { id });
  const fix = whatToDo(internal);
  return {
    status: 500,
    body: { error: { code: internal.code, message: internal.detail, id, ...(fix ? { fix } : {}) } },
  };
}

/** Answers with the error's code and status (see {@link errorAnswer}). */
export function fail(res: ServerResponse, error: unknown, log: (message: string) => void): void {
  const { status, body } = errorAnswer(error, log);
  send(res, status, body);
}

/**
 * A signal aborted when the request's connection closes before its answer is sent: the page's Stop (an
 * aborted fetch closes the connection), a closed tab. `done()` stops watching (a kept-alive connection
 * serves other requests after this one).
 */
export function whileConnected(req: IncomingMessage): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  req.socket.once('close', abort);
  return { signal: controller.signal, done: () => req.socket.off('close', abort) };
}
