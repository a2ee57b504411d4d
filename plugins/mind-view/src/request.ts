import type { IncomingMessage } from 'node:http';
import { GLOBAL_SCOPE, jsonNesting, MAX_IMPORT_BYTES, type Viewer } from '@mira/plugin-notes';
import { MindViewErrors } from './errors.js';

/** The most a request body may hold, an import's excepted ({@link MAX_IMPORT_BYTES}). */
export const MAX_BODY = 2_000_000;

/** How deeply a request body may nest objects and arrays (an export is 3 deep). */
export const MAX_DEPTH = 32;

/** A request's body, bounded while it arrives. */
export async function readBody(req: IncomingMessage, max = MAX_BODY): Promise<Buffer> {
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

/** A request's body as a JSON object (an empty body is `{}`), no deeper than {@link MAX_DEPTH}. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
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

/** A whole number from the query string, or the default; anything else is a bad request. */
export function intParam(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max)
    throw MindViewErrors.error('BAD_REQUEST.wholeNumber', { name, min, max });
  return value;
}

/** The notes scope a request names (`?scope=`), `default` when it names none. */
export const scopeOf = (url: URL): string => url.searchParams.get('scope') || 'default';

/** The operator in one scope alone. */
export const operator = (scope: string): Viewer => ({ scopes: [scope], key: null, operator: true });

/** The operator in a scope with the global notes over it (the global scope alone when it is the scope). */
export const overlay = (scope: string): Viewer => ({
  scopes: scope === GLOBAL_SCOPE ? [GLOBAL_SCOPE] : [scope, GLOBAL_SCOPE],
  key: null,
  operator: true,
});
