import type { Clock } from '@mira/core';
import type { SqliteDatabase } from '@mira/sqlite';
import type { Note } from '../contract.js';
import { NotesErrors } from '../errors.js';
import { SCOPE_NAME_PATTERN, indexForm } from '../text.js';
import { FILTER_TABLE, filterText } from './filter-index.js';
import { Statements } from './statements.js';

/** A row of the notes table. */
export interface NoteRow {
  id: number;
  scope: string;
  content: string;
  private_key: string | null;
  key_digest: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Keyed notes' text is indexed apart from the others', in `notes_fts_keyed`: a search without a key, or
 * with a key no note carries, reads the other index only, so what keyed notes hold never changes the
 * work it does, nor its time (a word only keyed notes contain costs what an absent word costs).
 */
export const KEYED_FTS = 'notes_fts_keyed';

const SCOPE_NAME = new RegExp(SCOPE_NAME_PATTERN);

const SQL = {
  meta: 'SELECT value FROM meta WHERE key = ?',
  setMeta: 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)',
  addScope: 'INSERT OR IGNORE INTO scopes (name, created_at) VALUES (?, ?)',
  labelsOf: 'SELECT label FROM note_labels WHERE note_id = ? ORDER BY position',
  noteById: 'SELECT * FROM notes WHERE id = ?',
  // Several notes with their labels in one statement (a JSON array of labels in position order).
  notesWithLabels: `SELECT n.*, (SELECT json_group_array(label) FROM
      (SELECT label FROM note_labels WHERE note_id = n.id ORDER BY position)) AS labels
    FROM notes n WHERE n.id IN (SELECT value FROM json_each(?))`,
  insertNote:
    'INSERT INTO notes (scope, content, private_key, key_digest, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  updateNote: 'UPDATE notes SET content = ?, updated_at = ? WHERE id = ?',
  deleteNote: 'DELETE FROM notes WHERE id = ?',
  deleteLabels: 'DELETE FROM note_labels WHERE note_id = ?',
  insertLabel: 'INSERT INTO note_labels (note_id, label, position) VALUES (?, ?, ?)',
  deleteText: 'DELETE FROM notes_fts WHERE rowid = ?',
  insertText: 'INSERT INTO notes_fts (rowid, content, labels) VALUES (?, ?, ?)',
  deleteKeyedText: `DELETE FROM ${KEYED_FTS} WHERE rowid = ?`,
  keyOf: 'SELECT private_key FROM notes WHERE id = ?',
  insertFilterText: `INSERT INTO ${FILTER_TABLE} (rowid, text) VALUES (?, ?)`,
  deleteFilterText: `DELETE FROM ${FILTER_TABLE} WHERE rowid = ?`,
  insertKeyedText: `INSERT INTO ${KEYED_FTS} (rowid, content, labels) VALUES (?, ?, ?)`,
  dataVersion: 'PRAGMA data_version',
  totalChanges: 'SELECT total_changes()',
} as const;

/**
 * The notes file's rows, the layer every part of the store writes through: a note with its labels and its
 * full-text row (a keyed note's in the keyed notes' own index), scopes, the `meta` table, and the file's
 * revision. It checks no viewer: the parts above it decide who may see and change what.
 */
export class NoteRows {
  readonly db: SqliteDatabase;
  readonly #clock: Clock;
  readonly #q: Statements<keyof typeof SQL>;

  constructor(db: SqliteDatabase, clock: Clock) {
    this.db = db;
    this.#clock = clock;
    this.#q = new Statements(db, SQL, ['meta', 'labelsOf', 'keyOf', 'dataVersion', 'totalChanges']);
  }

  /** The clock's time as stored. */
  now(): string {
    return this.#clock.now().toISOString();
  }

  meta(key: string): string | undefined {
    return (this.#q.get('meta').get(key) as string | undefined) ?? undefined;
  }

  setMeta(key: string, value: string): void {
    this.#q.get('setMeta').run(key, value);
  }

  /** Creates a scope if it does not exist. @throws MiraError MIRA_ERR_NOTES_SCOPE_INVALID */
  ensureScope(name: string): void {
    if (!SCOPE_NAME.test(name)) throw NotesErrors.error('SCOPE_INVALID.badName', { name });
    this.#q.get('addScope').run(name, this.now());
  }

  row(id: number): NoteRow | undefined {
    return this.#q.get('noteById').get(id) as NoteRow | undefined;
  }

  labelsOf(id: number): string[] {
    return this.#q.get('labelsOf').all(id) as string[];
  }

  /** The note a row holds, with its labels. */
  hydrate(row: NoteRow): Note {
    return this.hydrateWith(row, this.labelsOf(row.id));
  }

  /**
   * The rows of `ids` that exist, each with its labels, read in one statement (a search reads its best
   * notes so: one statement instead of two a note).
   */
  rowsWithLabels(ids: readonly number[]): Map<number, { row: NoteRow; labels: string[] }> {
    const found = new Map<number, { row: NoteRow; labels: string[] }>();
    if (ids.length === 0) return found;
    // The row as read (its extra `labels` column is never read as a note's field): no copy of each row.
    for (const row of this.#q.get('notesWithLabels').all(JSON.stringify(ids)) as Array<NoteRow & { labels: string }>)
      found.set(row.id, { row, labels: JSON.parse(row.labels) as string[] });
    return found;
  }

  /** The note a row holds, with the labels given (read with it). */
  hydrateWith(row: NoteRow, labels: string[]): Note {
    return {
      id: row.id,
      scope: row.scope,
      content: row.content,
      labels,
      privateKey: row.private_key,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  /** A note known to exist (just written). */
  read(id: number): Note {
    return this.hydrate(this.row(id)!);
  }

  /** Writes a note's row (no labels, no text index); returns its ID. */
  insert(
    scope: string,
    content: string,
    key: string | null,
    keyDigest: string | null,
    createdAt: string,
    updatedAt: string,
  ): number {
    const row = this.#q.get('insertNote').run(scope, content, key, keyDigest, createdAt, updatedAt);
    return Number(row.lastInsertRowid);
  }

  /** Replaces a note's text in its row, stamped now. */
  setContent(id: number, content: string): void {
    this.#q.get('updateNote').run(content, this.now(), id);
  }

  /** Writes a note's labels in their order. */
  addLabels(id: number, labels: readonly string[]): void {
    const insertLabel = this.#q.get('insertLabel');
    labels.forEach((label, position) => insertLabel.run(id, label, position));
  }

  /** Replaces a note's labels, its full-text row and its row in the filter's index. */
  writeIndexes(id: number, content: string, labels: readonly string[], keyed: boolean): void {
    this.#q.get('deleteLabels').run(id);
    this.addLabels(id, labels);
    this.deleteText(id);
    this.indexText(id, content, labels, keyed);
    this.#q.get('deleteFilterText').run(id);
    this.indexFilterText(id, content, labels, this.#q.get('keyOf').get(id) as string | null);
  }

  /** Adds a note to the browse filter's index (see store/filter-index.ts). */
  indexFilterText(id: number, content: string, labels: readonly string[], key: string | null): void {
    this.#q.get('insertFilterText').run(id, filterText(content, labels, key));
  }

  /** Adds a note to the full-text index, a keyed note's to the keyed notes' own. */
  indexText(id: number, content: string, labels: readonly string[], keyed: boolean): void {
    this.addText(id, indexForm(content), labels, keyed);
  }

  /** {@link indexText} for text already in its index form (see {@link indexForm}). */
  addText(id: number, indexed: string, labels: readonly string[], keyed: boolean): void {
    this.#q.get(keyed ? 'insertKeyedText' : 'insertText').run(id, indexed, labels.join(' '));
  }

  /** Removes a note's full-text row, from whichever index holds it. */
  deleteText(id: number): void {
    this.#q.get('deleteText').run(id);
    this.#q.get('deleteKeyedText').run(id);
  }

  /** Deletes a note's row, labels and row in the filter's index (its full text and vector are the caller's). */
  deleteRow(id: number): void {
    this.#q.get('deleteLabels').run(id);
    this.#q.get('deleteFilterText').run(id);
    this.#q.get('deleteNote').run(id);
  }

  /**
   * A token that changes whenever a note, label or scope changes, through this connection or another
   * process's (`PRAGMA data_version` counts the others' commits, `total_changes()` this one's writes).
   */
  revision(): string {
    return `${this.#q.get('dataVersion').get() as number}:${this.#q.get('totalChanges').get() as number}`;
  }
}
