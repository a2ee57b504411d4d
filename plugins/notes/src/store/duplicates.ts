import type { DuplicatePair, DuplicatesOptions, Note, Viewer } from '../contract.js';
import { NotesErrors } from '../errors.js';
import { nearDuplicatePairsInSlices, SCAN_SLICE_MS, scanWork } from '../near-duplicates.js';
import { MAX_LABELS } from '../text.js';
import type { NoteHistory } from './history.js';
import type { NoteRow, NoteRows } from './rows.js';
import { Statements } from './statements.js';
import { LABEL_OR_UNLABELED, VISIBLE, labelFilter, visibleParams, visibleTo } from './visibility.js';

/** The notes one read of a duplicates scan takes (each read is a short statement between two slices). */
const DUPLICATES_PAGE = 500;
/** Serves the event loop (timers, I/O, the console) before a scan's next slice. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const SQL = {
  visibleTextsAfter: `SELECT n.id, n.content FROM notes n WHERE ${VISIBLE} ${LABEL_OR_UNLABELED} AND n.id > ? ORDER BY n.id LIMIT ?`,
  countWithLabel: `SELECT count(*) FROM notes n WHERE ${VISIBLE} ${LABEL_OR_UNLABELED}`,
} as const;

/**
 * Find Duplicates: the near-identical pairs among the notes a viewer sees (the comparison itself is
 * near-duplicates.ts), what a scan can be narrowed to, and combining two notes of a pair.
 */
export class NoteDuplicates {
  readonly #rows: NoteRows;
  readonly #q: Statements<keyof typeof SQL>;

  constructor(rows: NoteRows) {
    this.#rows = rows;
    this.#q = new Statements(rows.db, SQL, ['countWithLabel']);
  }

  /**
   * Near-identical pairs among the notes of the viewer's own scope (never one of the global overlay), found
   * in sub-quadratic time (see
   * near-duplicates.ts); with `label`, among those with that label only (`unlabeled`: those without). Any
   * number of notes: they are read a page at a time and compared in slices that each hold the event loop
   * briefly, and the pairs are read back the same way. Progress counts the scan's work units; `signal`
   * stops the scan between two slices. The notes are read over several short statements, not one
   * snapshot: a note changed during the scan is compared as it was read, one deleted is left out.
   * @throws MiraError MIRA_ERR_NOTES_STOPPED once `signal` is aborted (nothing is changed)
   */
  async duplicates(seen: Viewer, options: DuplicatesOptions = {}): Promise<DuplicatePair[]> {
    // Only the notes of the viewer's own scope (its first): a pair with a note of the global overlay could be
    // acted on only by changing the shared note, which a scope's session holds read-only — page, console and
    // tools alike.
    const viewer: Viewer = { ...seen, scopes: seen.scopes.slice(0, 1) };
    const wanted = labelFilter(options.label ?? null);
    const params = [...visibleParams(viewer), wanted, wanted, wanted];
    const { signal } = options;
    let progress = { done: 0, total: scanWork(this.#q.get('countWithLabel').get(...params) as number) };
    options.onProgress?.(progress.done, progress.total);
    const stopped = () => NotesErrors.error('STOPPED', progress);
    const check = () => {
      if (signal?.aborted) throw stopped();
    };
    const ids: number[] = [];
    const texts: string[] = [];
    for (let after = 0, more = true; more;) {
      check();
      const page = this.#q.get('visibleTextsAfter').all(...params, after, DUPLICATES_PAGE) as Array<{
        id: number;
        content: string;
      }>;
      for (const row of page) {
        ids.push(row.id);
        texts.push(row.content);
      }
      more = page.length === DUPLICATES_PAGE;
      if (more) {
        after = page[page.length - 1]!.id;
        await yieldToLoop();
      }
    }
    const found = await nearDuplicatePairsInSlices(texts, {
      onProgress: (done, total) => {
        progress = { done, total };
        options.onProgress?.(done, total);
      },
      ...(signal ? { signal } : {}),
    }).catch((error: unknown) => {
      throw signal?.aborted && error === signal.reason ? stopped() : error;
    });
    const notes = new Map<number, Note | undefined>();
    const note = (id: number) => {
      if (!notes.has(id)) {
        const row = this.#rows.row(id);
        notes.set(id, row && visibleTo(row, viewer) ? this.#rows.hydrate(row) : undefined);
      }
      return notes.get(id);
    };
    const pairs: DuplicatePair[] = [];
    let start = performance.now();
    for (const { i, j, similarity } of found) {
      const [a, b] = [note(ids[i]!), note(ids[j]!)];
      // Deleted (or moved out of sight) while the scan ran: no longer a pair to act on.
      if (a && b) pairs.push({ a, b, similarity });
      if (performance.now() - start >= SCAN_SLICE_MS) {
        await yieldToLoop();
        check();
        start = performance.now();
      }
    }
    return pairs;
  }
}

/**
 * Combines two near-identical notes the caller may change: `kept` gains `dropped`'s labels (up to the
 * most a note holds), and `remove` deletes `dropped`, in one transaction.
 * @throws MiraError MIRA_ERR_NOTES_COMBINE_INVALID, MIRA_ERR_NOTES_COMBINE_SCOPES or MIRA_ERR_NOTES_KEY_MISMATCH
 */
export function combineNotes(
  rows: NoteRows,
  history: NoteHistory,
  kept: NoteRow,
  dropped: NoteRow,
  remove: () => void,
): Note {
  const [keep, drop] = [kept.id, dropped.id];
  if (keep === drop) throw NotesErrors.error('COMBINE_INVALID', { keep });
  // The operator's console sees a scope with the global overlay: folding a global note into a scope's would
  // delete it from every scope that shares it.
  if (kept.scope !== dropped.scope) {
    throw NotesErrors.error('COMBINE_SCOPES', { keep, drop, keepScope: kept.scope, dropScope: dropped.scope });
  }
  // Combining merges labels: across keys it would let one note's labels be found without its key.
  if (kept.key_digest !== dropped.key_digest) {
    throw NotesErrors.error('KEY_MISMATCH', { keep, drop });
  }
  rows.db
    .transaction(() => {
      // Read again under the write lock: another process may have edited or deleted either note since the
      // caller read them, and the indexes must hold the text the kept note has now.
      const current = rows.row(keep);
      if (!current) throw NotesErrors.error('NOT_FOUND.noNote', { id: keep });
      const removed = rows.row(drop);
      if (!removed) throw NotesErrors.error('NOT_FOUND.noNote', { id: drop });
      // Both texts stay in the kept note's history: its own before the combine, and the removed one's.
      history.keep(current, 'combine', keep, drop);
      history.keep(removed, 'combined', keep, drop);
      const labels = [...new Set([...rows.labelsOf(keep), ...rows.labelsOf(drop)])].slice(0, MAX_LABELS);
      rows.writeIndexes(keep, current.content, labels, current.key_digest !== null);
      remove();
    })
    .immediate();
  return rows.read(keep);
}
