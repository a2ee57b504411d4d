import { longerThan } from '@mira/core';
import {
  BROWSE_SORTS,
  MAX_BROWSE_PAGE,
  UNLABELED,
  type BrowseOptions,
  type BrowseSort,
  type Viewer,
} from '../contract.js';
import { NotesErrors } from '../errors.js';
import { MAX_QUERY_LENGTH } from '../text.js';
import { filterWords } from './filter-index.js';
import { labelFilter } from './visibility.js';

/**
 * What a browse request asks for, read and checked before any SQL runs (store/browse.ts runs it): the sort's
 * key, the page size, the label's condition, the filter's words and the keyset cursor a page starts after.
 */

/** Per sort: the ordering key's SQL and its direction. */
export const BROWSE_ORDER: Readonly<Record<BrowseSort, { key: string; ascending: boolean }>> = {
  newest: { key: 'n.created_at', ascending: false },
  oldest: { key: 'n.created_at', ascending: true },
  longest: { key: 'length(n.content)', ascending: false },
  shortest: { key: 'length(n.content)', ascending: true },
  label: {
    key: `coalesce((SELECT l.label FROM note_labels l WHERE l.note_id = n.id AND l.position = 0), '${UNLABELED}')`,
    ascending: true,
  },
};
/** A cursor's content: the sort key and ID of a page's last row, and for a ranked list how many words it holds. */
export type Cursor = [string | number, number] | [string | number, number, number];

/** A browse request read and checked: its sort, page size, filter words, cursor and conditions. */
export interface BrowseQuery {
  readonly sort: BrowseSort;
  readonly order: { readonly key: string; readonly ascending: boolean };
  readonly limit: number;
  readonly words: readonly string[];
  readonly after: Cursor | undefined;
  /** What a note must pass besides being visible (label, times, filter), as SQL over `n`, and its parameters. */
  readonly extra: string[];
  readonly extraParams: unknown[];
}

/** A ranked list's rows as SQL, with the parameters before the scope's and after them (see NoteBrowser). */
export interface RankedRows {
  readonly sql: string;
  readonly before: readonly unknown[];
  readonly after: readonly unknown[];
}

/**
 * A browse request read and checked, with the label's and the times' conditions (the filter's come with the words).
 * @throws MiraError MIRA_ERR_NOTES_BROWSE_INVALID for an unknown sort, a filter too long, a time that is not one
 *   or a malformed cursor
 */
export function browseQuery(viewer: Viewer, options: BrowseOptions): BrowseQuery {
  const sort = options.sort ?? 'newest';
  const order = BROWSE_ORDER[sort];
  if (viewer.scopes.length === 0) throw NotesErrors.error('SCOPE_INVALID.unknown', { scope: '' });
  if (!order) {
    throw NotesErrors.error('BROWSE_INVALID.sort', { sorts: BROWSE_SORTS.join(', '), sort });
  }
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), MAX_BROWSE_PAGE);
  const label = labelFilter(options.label ?? null);
  const filter = options.filter ?? '';
  // Bounded as a search query is: every word is a phrase of the filter's index, or a pass over folded text.
  if (longerThan(filter, MAX_QUERY_LENGTH)) {
    throw NotesErrors.error('BROWSE_INVALID.filterTooLong', { max: MAX_QUERY_LENGTH });
  }
  const extra: string[] = [];
  const extraParams: unknown[] = [];
  if (label === UNLABELED) extra.push('NOT EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id)');
  else if (label !== null) {
    extra.push('EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id AND l.label = ?)');
    extraParams.push(label);
  }
  // Added or last changed within the times given: a note's updated_at is its creation time until it is changed.
  for (const [bound, op] of [
    [options.since, '>='],
    [options.until, '<'],
  ] as const) {
    if (bound === null || bound === undefined) continue;
    extra.push(`n.updated_at ${op} ?`);
    extraParams.push(isoTime(bound));
  }
  const after = options.after ? parseCursor(options.after) : undefined;
  return { sort, order, limit, words: filterWords(filter), after, extra, extraParams };
}

/**
 * A time as the store writes them (`2026-05-01T08:00:00.000Z`), so it compares with `updated_at` as text.
 * @throws MiraError MIRA_ERR_NOTES_BROWSE_INVALID for anything else
 */
function isoTime(text: string): string {
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/u.test(text) ? new Date(text) : undefined;
  if (time === undefined || Number.isNaN(time.getTime()))
    throw NotesErrors.error('BROWSE_INVALID.date', { date: text });
  return time.toISOString();
}

/**
 * A page's end as the next page's start: the row's sort key and ID (and for a ranked filter, how many of its
 * words the row holds), as opaque text.
 */
export function formatCursor(key: string | number, id: number, held?: number): string {
  return Buffer.from(JSON.stringify(held === undefined ? [key, id] : [key, id, held])).toString('base64url');
}

/**
 * The sort key and ID a cursor holds, and for a ranked filter's list how many words its row holds.
 * @throws MiraError MIRA_ERR_NOTES_BROWSE_INVALID for one not made here
 */
export function parseCursor(cursor: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      (value.length === 2 || (value.length === 3 && Number.isSafeInteger(value[2]))) &&
      (typeof value[0] === 'string' || typeof value[0] === 'number') &&
      Number.isSafeInteger(value[1])
    ) {
      return value.length === 3 ? [value[0], value[1] as number, value[2] as number] : [value[0], value[1] as number];
    }
  } catch {
    // reported below
  }
  throw NotesErrors.error('BROWSE_INVALID.cursor');
}
