import { MAX_BULK, type Note, type Relabel, type Viewer } from '../contract.js';
import { NotesErrors } from '../errors.js';
import { parseLabels } from '../text.js';
import type { NoteHistory } from './history.js';
import type { NoteRow, NoteRows } from './rows.js';
import type { NoteVectors } from './vectors.js';
import { writeRefusal } from './visibility.js';

/**
 * Changes to many notes at once, as the Mind view's selection makes them: every note is checked and changed
 * in one transaction, so either all of them change or, when any is missing or read-only from the scope the
 * change comes from (the global overlay), none does and the error names every one that was in the way.
 */
export class NoteBulk {
  readonly #rows: NoteRows;
  readonly #vectors: NoteVectors;
  readonly #history: NoteHistory;

  constructor(rows: NoteRows, vectors: NoteVectors, history: NoteHistory) {
    this.#rows = rows;
    this.#vectors = vectors;
    this.#history = history;
  }

  /** Deletes the notes with their labels, full-text rows and vectors; returns them as they were. */
  delete(ids: readonly number[], viewer: Viewer, writableScope: string | undefined): Note[] {
    return this.#rows.db
      .transaction(() =>
        this.#require(ids, viewer, writableScope).map((row) => {
          const note = this.#rows.hydrate(row);
          this.#rows.deleteText(row.id);
          this.#vectors.delete(row.id);
          this.#rows.deleteRow(row.id);
          return note;
        }),
      )
      .immediate();
  }

  /**
   * Adds labels to the notes and removes others (a label both added and removed is removed), each note's own
   * labels kept in their order; returns the notes as they are now.
   * @throws MiraError MIRA_ERR_NOTES_LABEL_INVALID for a malformed label or a note left with too many
   */
  relabel(ids: readonly number[], change: Relabel, viewer: Viewer, writableScope: string | undefined): Note[] {
    const add = parseLabels(change.add);
    const remove = new Set(parseLabels(change.remove));
    return this.#rows.db
      .transaction(() =>
        this.#require(ids, viewer, writableScope).map((row) => {
          const before = this.#rows.hydrate(row).labels;
          const labels = [...new Set([...before, ...add])].filter((label) => !remove.has(label));
          // Checked as a note's labels are (at most 8): the whole change is refused if one note would exceed it.
          parseLabels(labels.join(','));
          if (labels.join(',') !== before.join(',')) this.#history.keep(row, 'relabel');
          this.#rows.setContent(row.id, row.content);
          this.#rows.writeIndexes(row.id, row.content, labels, row.key_digest !== null);
          return this.#rows.read(row.id);
        }),
      )
      .immediate();
  }

  /**
   * The rows of the notes, each once, in the order given; refused as a whole when any is missing (first) or
   * in a scope read-only from `writableScope`, the error naming them all.
   */
  #require(ids: readonly number[], viewer: Viewer, writableScope: string | undefined): NoteRow[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw NotesErrors.error('BULK_INVALID.empty');
    if (unique.length > MAX_BULK) throw NotesErrors.error('BULK_INVALID.tooMany', { max: MAX_BULK });
    const rows = unique.map((id) => ({ id, row: this.#rows.row(id) }));
    const refused = (why: 'missing' | 'shared') =>
      rows.filter(({ row }) => writeRefusal(row, viewer, writableScope) === why).map(({ id }) => `N${id}`);
    const missing = refused('missing');
    if (missing.length > 0) throw NotesErrors.error('NOT_FOUND.someNotes', { ids: missing.join(', ') });
    const shared = refused('shared');
    if (shared.length > 0) {
      const scope = rows.find(({ row }) => writeRefusal(row, viewer, writableScope) === 'shared')!.row!.scope;
      throw NotesErrors.error('READ_ONLY_SCOPE.someShared', { ids: shared.join(', '), scope });
    }
    return rows.map(({ row }) => row!);
  }
}
