import type { SqliteStatement } from '@mira/sqlite';
import type { NoteVersion } from '../contract.js';
import type { NoteRow, NoteRows } from './rows.js';

/**
 * A note's history: each text and labels it had before a change replaced them, with when they were written
 * and replaced and what replaced them (an edit, a relabel, a combine; and for a combine, the removed note's
 * text too). Kept beside the notes in `note_history`, made at a writable open (store/upgrades.ts) like the
 * other tables made since schema version 1; a read-only open of a file without it reads no history. A note's
 * history goes with it when it is deleted; exports carry none. At most {@link MAX_VERSIONS} per note.
 */

/** The versions kept per note: the oldest go first. */
export const MAX_VERSIONS = 50;

/** The history table. */
export const HISTORY_TABLE = 'note_history';

/** Its DDL, run at every writable open (a file that has it is not written to). */
export const HISTORY_DDL = `CREATE TABLE IF NOT EXISTS ${HISTORY_TABLE} (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  note_id     INTEGER NOT NULL REFERENCES notes (id) ON DELETE CASCADE,
  content     TEXT    NOT NULL,
  labels      TEXT    NOT NULL,
  written_at  TEXT    NOT NULL,
  replaced_at TEXT    NOT NULL,
  cause       TEXT    NOT NULL CHECK (cause IN ('edit', 'relabel', 'combine', 'combined')),
  from_note   INTEGER
);
CREATE INDEX IF NOT EXISTS note_history_by_note ON ${HISTORY_TABLE} (note_id, id);`;

/** A version as the table holds it. */
interface VersionRow {
  content: string;
  labels: string;
  written_at: string;
  replaced_at: string;
  cause: NoteVersion['cause'];
  from_note: number | null;
}

/** The history of the notes of one file; statements prepared once, on first use (the table may come later). */
export class NoteHistory {
  readonly #rows: NoteRows;
  #insert: SqliteStatement | undefined;
  #trim: SqliteStatement | undefined;
  #read: SqliteStatement | undefined;

  constructor(rows: NoteRows) {
    this.#rows = rows;
  }

  /**
   * Keeps what `row` held before a change of `cause`, as a version of note `noteId` (the row's own, except
   * for a combine's removed note, kept with the note it was combined into). Call inside the change's
   * transaction, before the change.
   */
  keep(row: NoteRow, cause: NoteVersion['cause'], noteId = row.id, fromNote: number | null = null): void {
    const { db } = this.#rows;
    this.#insert ??= db.prepare(
      `INSERT INTO ${HISTORY_TABLE} (note_id, content, labels, written_at, replaced_at, cause, from_note)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    // The oldest past MAX_VERSIONS go: every version older than the newest MAX_VERSIONS.
    this.#trim ??= db.prepare(
      `DELETE FROM ${HISTORY_TABLE} WHERE note_id = ? AND id <= (SELECT id FROM ${HISTORY_TABLE} WHERE note_id = ?
       ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    );
    const labels = JSON.stringify(this.#rows.labelsOf(row.id));
    this.#insert.run(noteId, row.content, labels, row.updated_at, this.#rows.now(), cause, fromNote);
    this.#trim.run(noteId, noteId, MAX_VERSIONS);
  }

  /** A note's versions, newest first (none in a file without the table: a read-only open of an old file). */
  of(id: number): NoteVersion[] {
    const { db } = this.#rows;
    if (!this.#read) {
      if (db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').pluck().get(HISTORY_TABLE) === undefined) return [];
      this.#read = db.prepare(`SELECT * FROM ${HISTORY_TABLE} WHERE note_id = ? ORDER BY id DESC`);
    }
    return (this.#read.all(id) as VersionRow[]).map((v) => ({
      content: v.content,
      labels: JSON.parse(v.labels) as string[],
      writtenAt: v.written_at,
      replacedAt: v.replaced_at,
      cause: v.cause,
      fromNote: v.from_note,
    }));
  }
}
