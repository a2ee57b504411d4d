import { longerThan } from '@mira/core';
import type { SqliteStatement } from '@mira/sqlite';
import {
  BROWSE_SORTS,
  MAX_BROWSE_PAGE,
  UNLABELED,
  foldForFilter,
  type BrowseCounts,
  type BrowseOptions,
  type BrowsePage,
  type BrowseSort,
  type LabelCount,
  type Viewer,
} from '../contract.js';
import { NotesErrors } from '../errors.js';
import { MAX_QUERY_LENGTH } from '../text.js';
import type { NoteRow, NoteRows } from './rows.js';
import { SCOPE_VISIBLE, VISIBLE, keyParams, labelFilter, visibleParams } from './visibility.js';

/** Per sort: the ordering key's SQL and its direction. */
const BROWSE_ORDER: Readonly<Record<BrowseSort, { key: string; ascending: boolean }>> = {
  newest: { key: 'n.created_at', ascending: false },
  oldest: { key: 'n.created_at', ascending: true },
  longest: { key: 'length(n.content)', ascending: false },
  shortest: { key: 'length(n.content)', ascending: true },
  label: {
    key: `coalesce((SELECT l.label FROM note_labels l WHERE l.note_id = n.id AND l.position = 0), '${UNLABELED}')`,
    ascending: true,
  },
};
/**
 * Whether a note's text, labels and key hold every word of the filter (`?`, a JSON array of folded words):
 * the text folded once per note, however many words.
 */
const BROWSE_FILTER = `mira_has_words(n.content || char(10) || coalesce((SELECT group_concat(l.label, char(10))
  FROM note_labels l WHERE l.note_id = n.id), '${UNLABELED}') || char(10) || coalesce(n.private_key, ''), ?)`;

/** Labels with their counts, most common first, ties by label (code point order). */
export const mostCommonFirst = (a: LabelCount, b: LabelCount): number =>
  b.count - a.count || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

/**
 * Browsing, as the Mind view's Memories tab pages through a scope: sorted, filtered, counted and paged in
 * SQL with a keyset cursor, so a page costs the same however deep it is and however many notes the scope
 * (or any other) holds.
 */
export class NoteBrowser {
  readonly #rows: NoteRows;
  readonly #labels: (viewer: Viewer) => LabelCount[];
  readonly #statements = new Map<string, SqliteStatement>();
  /** The last counts per viewer and filter, as of a revision: unchanged notes are not counted again. */
  readonly #countsCache = new Map<string, { revision: string; counts: BrowseCounts }>();

  /** `labels`: the labels of the notes a viewer sees, most common first. */
  constructor(rows: NoteRows, labels: (viewer: Viewer) => LabelCount[]) {
    this.#rows = rows;
    this.#labels = labels;
    // The filter: every word (folded as the page folds what is typed) in the folded text.
    rows.db.function('mira_has_words', { deterministic: true }, (text: string | null, words: string) => {
      const hay = foldForFilter(text ?? '');
      return (JSON.parse(words) as string[]).every((word) => hay.includes(word)) ? 1 : 0;
    });
  }

  /**
   * One page of the notes the viewer may see, ordered by `sort` (ties: newer ID first, oldest: older
   * first), with a label (`unlabeled`: notes without) and a filter (every word, in any order, in the
   * folded text, labels or key), counted and paged in SQL: the page starts after `after` (the `next` of
   * the page before), so a page costs the same however deep it is (keyset paging).
   * @throws MiraError MIRA_ERR_NOTES_BROWSE_INVALID for an unknown sort or a malformed cursor
   */
  browse(viewer: Viewer, options: BrowseOptions = {}): BrowsePage {
    const sort = options.sort ?? 'newest';
    const order = BROWSE_ORDER[sort];
    if (viewer.scopes.length === 0) throw NotesErrors.error('SCOPE_INVALID.unknown', { scope: '' });
    if (!order) {
      throw NotesErrors.error('BROWSE_INVALID.sort', { sorts: BROWSE_SORTS.join(', '), sort });
    }
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), MAX_BROWSE_PAGE);
    const label = labelFilter(options.label ?? null);
    const filter = options.filter ?? '';
    // Bounded as a search query is: every word costs a pass over the text of every note in view.
    if (longerThan(filter, MAX_QUERY_LENGTH)) {
      throw NotesErrors.error('BROWSE_INVALID.filterTooLong', { max: MAX_QUERY_LENGTH });
    }
    const words = foldForFilter(filter).split(/\s+/u).filter(Boolean);
    // What a note must pass besides being visible: the label, the filter.
    const extra: string[] = [];
    const extraParams: unknown[] = [];
    if (label === UNLABELED) extra.push('NOT EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id)');
    else if (label !== null) {
      extra.push('EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id AND l.label = ?)');
      extraParams.push(label);
    }
    if (words.length > 0) {
      extra.push(BROWSE_FILTER);
      extraParams.push(JSON.stringify(words));
    }
    // Ties on the key go newest ID first, except for "oldest", which reads in ID order.
    const idAscending = sort === 'oldest';
    const direction = `${order.ascending ? 'ASC' : 'DESC'}, n.id ${idAscending ? 'ASC' : 'DESC'}`;
    const cursor: string[] = [];
    const cursorParams: unknown[] = [];
    if (options.after) {
      const [key, id] = parseCursor(options.after);
      const beyond = order.ascending ? '>' : '<';
      // The first term bounds the index range (a seek, however deep the page); the second skips the ties read.
      cursor.push(`${order.key} ${beyond}= ? AND (${order.key} ${beyond} ? OR n.id ${idAscending ? '>' : '<'} ?)`);
      cursorParams.push(key, key, id);
    }
    // One branch per scope in view, each read in order from its scope's index and stopped after a page; the
    // branches are merged. A page then costs the same however many notes the scope, or any other, holds.
    const branch = `SELECT * FROM (SELECT n.*, ${order.key} AS sort_key FROM notes n
       WHERE ${[SCOPE_VISIBLE, ...extra, ...cursor].join(' AND ')} ORDER BY ${order.key} ${direction} LIMIT ?)`;
    const keys = keyParams(viewer);
    const rows = this.#statement(
      `SELECT * FROM (${viewer.scopes.map(() => branch).join(' UNION ALL ')})
       ORDER BY sort_key ${order.ascending ? 'ASC' : 'DESC'}, id ${idAscending ? 'ASC' : 'DESC'} LIMIT ?`,
    ).all(
      ...viewer.scopes.flatMap((scope) => [scope, ...keys, ...extraParams, ...cursorParams, limit + 1]),
      limit + 1,
    ) as Array<NoteRow & { sort_key: string | number }>;
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      notes: shown.map((row) => this.#rows.hydrate(row)),
      next: more && last ? formatCursor(last.sort_key, last.id) : null,
      counts: options.counts === false ? null : this.#counts(viewer, extra, extraParams),
    };
  }

  /**
   * The page's counts in one pass over the notes in view (every note, those that match, those without a
   * label), then the labels.
   */
  #counts(viewer: Viewer, extra: readonly string[], extraParams: readonly unknown[]): BrowseCounts {
    // Counts change only when notes do (here or in another process, which the revision also sees): a sort
    // change, a later page's return to the first, or a reload reads them from memory. Keyed viewers count
    // afresh, so no key or digest is kept for this.
    const cacheKey = viewer.key === null ? JSON.stringify([viewer.scopes, viewer.operator, extra, extraParams]) : null;
    const revision = this.#rows.revision();
    const cached = cacheKey === null ? undefined : this.#countsCache.get(cacheKey);
    if (cached?.revision === revision) return cached.counts;
    const counts = this.#count(viewer, extra, extraParams);
    if (cacheKey !== null) {
      // A handful of recent filters is enough: typing a filter makes a new key per keystroke.
      if (this.#countsCache.size >= 16) this.#countsCache.delete(this.#countsCache.keys().next().value!);
      this.#countsCache.set(cacheKey, { revision, counts });
    }
    return counts;
  }

  #count(viewer: Viewer, extra: readonly string[], extraParams: readonly unknown[]): BrowseCounts {
    const matches = extra.length === 0 ? '1' : extra.join(' AND ');
    const counted = this.#statement(
      `SELECT count(*) AS total, coalesce(sum(${matches}), 0) AS matching,
       coalesce(sum(NOT EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id)), 0) AS unlabeled
       FROM notes n WHERE ${VISIBLE}`,
    ).get(...extraParams, ...visibleParams(viewer)) as { total: number; matching: number; unlabeled: number };
    const { total, matching, unlabeled } = counted;
    const labels = [...this.#labels(viewer), ...(unlabeled > 0 ? [{ label: UNLABELED, count: unlabeled }] : [])]
      .sort(mostCommonFirst)
      .slice(0, 10);
    return { total, matching, labels };
  }

  /** A browse statement, prepared once per shape (sort, label kind, number of filter words). */
  #statement(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#rows.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/** A page's end as the next page's start: the row's sort key and ID, as opaque text. */
function formatCursor(key: string | number, id: number): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/** The sort key and ID a cursor holds. @throws MiraError MIRA_ERR_NOTES_BROWSE_INVALID for one not made here */
function parseCursor(cursor: string): [string | number, number] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      (typeof value[0] === 'string' || typeof value[0] === 'number') &&
      Number.isSafeInteger(value[1])
    ) {
      return [value[0], value[1] as number];
    }
  } catch {
    // reported below
  }
  throw NotesErrors.error('BROWSE_INVALID.cursor');
}
