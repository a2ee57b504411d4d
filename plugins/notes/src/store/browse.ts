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
  type ScopeCounts,
  type Viewer,
} from '../contract.js';
import { NotesErrors } from '../errors.js';
import { MAX_QUERY_LENGTH } from '../text.js';
import { filterAnyMatch, filterMatch, filterWords } from './filter-index.js';
import type { NoteRow, NoteRows } from './rows.js';
import { COUNTS_FOR_VIEWER, COUNTS_TABLE, COUNT_ALL, COUNT_UNLABELED } from './scope-counts.js';
import { filterIndexCurrent, scopeCountsCurrent } from './upgrades.js';
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
 * the text folded once per note, however many words. Only for a file opened read-only without the filter's
 * index (see store/filter-index.ts), which finds the same notes without folding every one.
 */
const FOLDED_TEXT = `n.content || char(10) || coalesce((SELECT group_concat(l.label, char(10))
  FROM note_labels l WHERE l.note_id = n.id), '${UNLABELED}') || char(10) || coalesce(n.private_key, '')`;
const FOLDING_FILTER = `mira_has_words(${FOLDED_TEXT}, ?)`;
/** How many of the filter's words (`?`, a JSON array) a note holds, likewise for a file without the index. */
const FOLDING_HELD = `mira_count_words(${FOLDED_TEXT}, ?)`;

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
  readonly #statements = new Map<string, SqliteStatement>();
  /**
   * The last counts per viewer (all notes in view, those without a label, the labels) and per viewer and
   * filter (those that match), as of a revision: unchanged notes are not counted again, and a new filter
   * counts only the notes that match it.
   */
  readonly #countsCache = new Map<string, { revision: string; counts: unknown }>();
  /** Whether the file has the filter's index; read at the first filter (a writable open has made it by then). */
  #filterIndexed: boolean | undefined;
  /**
   * Whether the file keeps the counts (see store/scope-counts.ts), as of a revision: looked at again when the
   * file changes, so counts another process removes or rebuilds are never read as they were.
   */
  #countsKept: { revision: string; kept: boolean } | undefined;

  constructor(rows: NoteRows) {
    this.#rows = rows;
    // The filter: every word (folded as the page folds what is typed) in the folded text.
    rows.db.function('mira_has_words', { deterministic: true }, (text: string | null, words: string) => {
      const hay = foldForFilter(text ?? '');
      return (JSON.parse(words) as string[]).every((word) => hay.includes(word)) ? 1 : 0;
    });
    rows.db.function('mira_count_words', { deterministic: true }, (text: string | null, words: string) => {
      const hay = foldForFilter(text ?? '');
      return (JSON.parse(words) as string[]).filter((word) => hay.includes(word)).length;
    });
  }

  /**
   * One page of the notes the viewer may see, ordered by `sort` (ties: newer ID first, oldest: older
   * first), with a label (`unlabeled`: notes without) and a filter (its words, see filterWords(), in the
   * folded text, labels or key: a word must be there; of two words or more, any one must, and the notes
   * holding more of them come first, then the sort), counted and paged in SQL: the page starts after `after`
   * (the `next` of the page before), so a page costs the same however deep it is (keyset paging).
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
    // Bounded as a search query is: every word is a phrase of the filter's index, or a pass over folded text.
    if (longerThan(filter, MAX_QUERY_LENGTH)) {
      throw NotesErrors.error('BROWSE_INVALID.filterTooLong', { max: MAX_QUERY_LENGTH });
    }
    const words = filterWords(filter);
    // What a note must pass besides being visible: the label, the filter.
    const extra: string[] = [];
    const extraParams: unknown[] = [];
    if (label === UNLABELED) extra.push('NOT EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id)');
    else if (label !== null) {
      extra.push('EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id AND l.label = ?)');
      extraParams.push(label);
    }
    const every = words.length > 0 ? this.#holdsEvery(words) : undefined;
    // A filter no note in view holds every word of (a typed question, often) lists the notes holding any of
    // them, most words first: the cursor of such a list says so, so its later pages stay that list.
    const after = options.after ? parseCursor(options.after) : undefined;
    const ranked =
      words.length >= 2 &&
      (after !== undefined
        ? after.length === 3
        : this.#statement(`SELECT 1 FROM notes n WHERE ${[VISIBLE, ...extra, every!.sql].join(' AND ')} LIMIT 1`).get(
            ...visibleParams(viewer),
            ...extraParams,
            ...every!.params,
          ) === undefined);
    if (after !== undefined && (after.length === 3) !== ranked) throw NotesErrors.error('BROWSE_INVALID.cursor');
    // A ranked list's rows: the notes in view with how many words each holds, the label's condition kept; the
    // parameters before the scope's and after them.
    const rankedRows = { sql: '', before: [] as unknown[], after: [] as unknown[] };
    if (ranked) {
      const any = this.#holdsAny(words);
      rankedRows.sql = `SELECT n.id AS id, ${order.key} AS sort_key, ${any.held} AS held FROM ${any.from}
        WHERE ${[SCOPE_VISIBLE, ...extra, ...any.where].join(' AND ')}`;
      rankedRows.before = [...any.heldParams, ...any.fromParams];
      rankedRows.after = [...extraParams, ...any.whereParams];
      extra.push(any.sql);
      extraParams.push(...any.params);
    } else if (every) {
      extra.push(every.sql);
      extraParams.push(...every.params);
    }
    // Ties on the key go newest ID first, except for "oldest", which reads in ID order.
    const idAscending = sort === 'oldest';
    const direction = `${order.ascending ? 'ASC' : 'DESC'}, n.id ${idAscending ? 'ASC' : 'DESC'}`;
    const cursor: string[] = [];
    const cursorParams: unknown[] = [];
    const beyond = order.ascending ? '>' : '<';
    const idBeyond = idAscending ? '>' : '<';
    if (after && !ranked) {
      const [key, id] = after;
      // The first term bounds the index range (a seek, however deep the page); the second skips the ties read.
      cursor.push(`${order.key} ${beyond}= ? AND (${order.key} ${beyond} ? OR n.id ${idBeyond} ?)`);
      cursorParams.push(key, key, id);
    } else if (after) {
      // Ranked: fewer words held, or as many and further in the sort.
      const [key, id, count] = after as [string | number, number, number];
      cursor.push(`(held < ? OR (held = ? AND (sort_key ${beyond} ? OR (sort_key = ? AND id ${idBeyond} ?))))`);
      cursorParams.push(count, count, key, key, id);
    }
    const outer = `ORDER BY ${ranked ? 'held DESC, ' : ''}sort_key ${order.ascending ? 'ASC' : 'DESC'}, id ${
      idAscending ? 'ASC' : 'DESC'
    } LIMIT ?`;
    // One branch per scope in view, each read in order from its scope's index and stopped after a page; the
    // branches are merged. A page then costs the same however many notes the scope, or any other, holds. A
    // ranked filter reads every note holding one of its words, as counting them does, to rank them.
    // A ranked list sorts the IDs alone, then reads the page's notes (sorting whole rows took twice as long).
    const branch = ranked
      ? `SELECT n.*, r.sort_key AS sort_key, r.held AS held FROM (SELECT * FROM (${rankedRows.sql})
         ${cursor.length > 0 ? `WHERE ${cursor[0]}` : ''} ${outer}) r CROSS JOIN notes n ON n.id = r.id`
      : `SELECT * FROM (SELECT n.*, ${order.key} AS sort_key FROM notes n
         WHERE ${[SCOPE_VISIBLE, ...extra, ...cursor].join(' AND ')} ORDER BY ${order.key} ${direction} LIMIT ?)`;
    const keys = keyParams(viewer);
    const rows = this.#statement(`SELECT * FROM (${viewer.scopes.map(() => branch).join(' UNION ALL ')}) ${outer}`).all(
      ...viewer.scopes.flatMap((scope) =>
        ranked
          ? [...rankedRows.before, scope, ...keys, ...rankedRows.after, ...cursorParams, limit + 1]
          : [scope, ...keys, ...extraParams, ...cursorParams, limit + 1],
      ),
      limit + 1,
    ) as Array<NoteRow & { sort_key: string | number; held?: number }>;
    const more = rows.length > limit;
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      notes: shown.map((row) => this.#rows.hydrate(row)),
      next: more && last ? formatCursor(last.sort_key, last.id, ranked ? last.held : undefined) : null,
      partial: ranked,
      counts: options.counts === false ? null : this.#counts(viewer, extra, extraParams),
    };
  }

  /** The notes holding every filter word, as SQL over `n.id`: through the index, or by folding each note. */
  #holdsEvery(words: readonly string[]): { sql: string; params: unknown[] } {
    this.#filterIndexed ??= filterIndexCurrent(this.#rows);
    return this.#filterIndexed ? filterMatch(words) : { sql: FOLDING_FILTER, params: [JSON.stringify(words)] };
  }

  /**
   * The notes holding any filter word (`sql` over `n.id`, for counting them), and how a ranked list reads them:
   * the notes to read (`from`), how many words each holds (`held`, over `n`) and what else they must pass
   * (`where`). Through the index, each word's notes are read once and counted (a third of the time of
   * looking each word up in each note); without it, each note is folded.
   */
  #holdsAny(words: readonly string[]): {
    sql: string;
    params: unknown[];
    from: string;
    fromParams: unknown[];
    held: string;
    heldParams: unknown[];
    where: string[];
    whereParams: unknown[];
  } {
    if (this.#filterIndexed) {
      const any = filterAnyMatch(words);
      // CROSS JOIN keeps the words' notes the outer loop: planned the other way, SQLite read every note of the
      // scope to look each up among them (10 ms at 100,000 notes for a filter no note holds a word of).
      return {
        sql: any.sql,
        params: any.params,
        from: `(${any.held}) h CROSS JOIN notes n ON n.id = h.id`,
        fromParams: any.heldParams,
        held: 'h.held',
        heldParams: [],
        where: [],
        whereParams: [],
      };
    }
    const json = JSON.stringify(words);
    return {
      sql: `${FOLDING_HELD} > 0`,
      params: [json],
      from: 'notes n',
      fromParams: [],
      held: FOLDING_HELD,
      heldParams: [json],
      where: [`${FOLDING_HELD} > 0`],
      whereParams: [json],
    };
  }

  /**
   * The page's counts: every note in view, those without a label and the labels, counted once per viewer
   * whatever the filter; then the notes that match the label and filter, which reads those notes only
   * when the filter's index narrows them (see store/filter-index.ts).
   */
  #counts(viewer: Viewer, extra: readonly string[], extraParams: readonly unknown[]): BrowseCounts {
    const scope = this.scopeCounts(viewer);
    const matching =
      extra.length === 0
        ? scope.total
        : this.#cached(viewer, [extra, extraParams], () => {
            const sql = `SELECT count(*) FROM notes n WHERE ${VISIBLE} AND ${extra.join(' AND ')}`;
            return this.#statement(sql)
              .pluck()
              .get(...visibleParams(viewer), ...extraParams) as number;
          });
    return { total: scope.total, matching, labels: scope.labels.slice(0, 10) };
  }

  /**
   * Every note the viewer sees and every label with its count (`unlabeled` among them), most common first:
   * the page shows the ten most common, a duplicates scan offers each. Counted once per viewer and revision.
   */
  scopeCounts(viewer: Viewer): { readonly total: number; readonly labels: readonly LabelCount[] } {
    return this.#cached(viewer, [], () => this.#countScope(viewer));
  }

  /**
   * Every note the viewer sees and every label's count (`unlabeled` among them), most common first. Read from
   * the counts the file keeps (a few rows per scope and key, see store/scope-counts.ts); a file opened
   * read-only without them is counted by passing over the notes in view: the notes counted, then each label's
   * notes and the notes without one (the null label of a left join) in one pass (~100 ms at 100,000 notes from
   * a cold cache).
   */
  #countScope(viewer: Viewer): { total: number; labels: LabelCount[] } {
    const params = visibleParams(viewer);
    if (this.#keepsCounts()) {
      let total = 0;
      const labels: LabelCount[] = [];
      for (const { what, label, n } of this.#statement(COUNTS_FOR_VIEWER).all(...params) as Array<{
        what: number;
        label: string;
        n: number;
      }>) {
        if (what === COUNT_ALL) total = n;
        else if (n > 0) labels.push({ label: what === COUNT_UNLABELED ? UNLABELED : label, count: n });
      }
      return { total, labels: labels.sort(mostCommonFirst) };
    }
    const total = this.#statement(`SELECT count(*) AS total FROM notes n WHERE ${VISIBLE}`).get(...params) as {
      total: number;
    };
    const counted = this.#statement(
      `SELECT l.label AS label, count(*) AS count FROM notes n LEFT JOIN note_labels l ON l.note_id = n.id
       WHERE ${VISIBLE} GROUP BY l.label`,
    ).all(...params) as Array<{ label: string | null; count: number }>;
    const labels = counted.map(({ label, count }) => ({ label: label ?? UNLABELED, count })).sort(mostCommonFirst);
    return { total: total.total, labels };
  }

  /**
   * Notes and keyed notes per scope (not the staging scopes of imports under way, `~import-…`, which no viewer
   * can name), by name: from the counts the file keeps, or by passing over every note of a file opened
   * read-only without them (66–165 ms at 100,000 notes).
   */
  countsByScope(): ScopeCounts[] {
    return this.#statement(
      this.#keepsCounts()
        ? `SELECT s.name AS scope, coalesce(sum(c.n), 0) AS notes,
             coalesce(sum(CASE WHEN c.key_digest <> '' THEN c.n END), 0) AS keyed
           FROM scopes s LEFT JOIN ${COUNTS_TABLE} c ON c.scope = s.name AND c.what = ${COUNT_ALL}
           WHERE s.name NOT LIKE '~%' GROUP BY s.name ORDER BY s.name`
        : `SELECT s.name AS scope, count(n.id) AS notes, count(n.key_digest) AS keyed
           FROM scopes s LEFT JOIN notes n ON n.scope = s.name WHERE s.name NOT LIKE '~%' GROUP BY s.name ORDER BY s.name`,
    ).all() as ScopeCounts[];
  }

  #keepsCounts(): boolean {
    const revision = this.#rows.revision();
    if (this.#countsKept?.revision !== revision) this.#countsKept = { revision, kept: scopeCountsCurrent(this.#rows) };
    return this.#countsKept.kept;
  }

  /**
   * A count as of the file's revision. Counts change only when notes do (here or in another process, which
   * the revision also sees): a sort change, a later page's return to the first, or a reload reads them from
   * memory. Keyed viewers count afresh, so no key or digest is kept for this.
   */
  #cached<T>(viewer: Viewer, what: unknown, count: () => T): T {
    const cacheKey = viewer.key === null ? JSON.stringify([viewer.scopes, viewer.operator, what]) : null;
    const revision = this.#rows.revision();
    const cached = cacheKey === null ? undefined : this.#countsCache.get(cacheKey);
    if (cached?.revision === revision) return cached.counts as T;
    const counts = count();
    if (cacheKey !== null) {
      // A handful of recent filters is enough: typing a filter makes a new key per keystroke.
      if (this.#countsCache.size >= 16) this.#countsCache.delete(this.#countsCache.keys().next().value!);
      this.#countsCache.set(cacheKey, { revision, counts });
    }
    return counts;
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

/**
 * A page's end as the next page's start: the row's sort key and ID (and for a ranked filter, how many of its
 * words the row holds), as opaque text.
 */
function formatCursor(key: string | number, id: number, held?: number): string {
  return Buffer.from(JSON.stringify(held === undefined ? [key, id] : [key, id, held])).toString('base64url');
}

/**
 * The sort key and ID a cursor holds, and for a ranked filter's list how many words its row holds.
 * @throws MiraError MIRA_ERR_NOTES_BROWSE_INVALID for one not made here
 */
function parseCursor(cursor: string): [string | number, number] | [string | number, number, number] {
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
