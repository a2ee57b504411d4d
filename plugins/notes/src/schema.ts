import type { StoreSchema } from '@mira/sqlite';
import { NOTE_CAP } from './text.js';

/**
 * Note memory, schema version 1: notes, their labels and scopes, and an FTS5
 * index over content and labels kept in step by the transaction that writes
 * the note. The index stems words (porter over unicode61 without diacritics),
 * so "teas", "charging" and "peanut" find "tea", "charger" and "peanuts";
 * files made before it had a stemmer get their index rebuilt once, at open.
 * Vectors live in `note_vectors_v3`, created when the first embedding is
 * stored (its dimension comes from the embedder, with the embedder's name in
 * `meta`): each note's float32 embedding and its binary code (sign bits),
 * which the store scans in memory and re-scores with the floats. Files with
 * the sqlite-vec tables of before have their vectors moved once, at open.
 */
/** The vector table: each note's float32 embedding and its binary code (see vector-index.ts). */
export const NOTE_VECTORS_TABLE = 'note_vectors_v3';
/** Its DDL, run when the first embedding is stored (and by tools that build a notes file directly). */
export const NOTE_VECTORS_DDL = `CREATE TABLE IF NOT EXISTS ${NOTE_VECTORS_TABLE} (id INTEGER PRIMARY KEY, code BLOB NOT NULL, embedding BLOB NOT NULL)`;

/** The full-text tokenizer; a file whose index was built with another is re-indexed at open. */
export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

export const NOTES_SCHEMA: StoreSchema = {
  kind: 'notes',
  version: 1,
  tables: ['meta', 'note_labels', 'notes', 'notes_fts', 'scopes'],
  setting: '[notes] database_path',
  what: 'Mira notes database',
  ddl: `
CREATE TABLE scopes (
  name       TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
  created_at TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE notes (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  scope       TEXT    NOT NULL REFERENCES scopes (name),
  content     TEXT    NOT NULL CHECK (length(content) BETWEEN 1 AND ${NOTE_CAP}),
  private_key TEXT,
  key_digest  TEXT    CHECK ((private_key IS NULL) = (key_digest IS NULL)),
  created_at  TEXT    NOT NULL,
  updated_at  TEXT    NOT NULL
);
CREATE INDEX notes_by_scope ON notes (scope, id);

CREATE TABLE note_labels (
  note_id INTEGER NOT NULL REFERENCES notes (id) ON DELETE CASCADE,
  label    TEXT    NOT NULL CHECK (length(label) BETWEEN 1 AND 40),
  position INTEGER NOT NULL,
  PRIMARY KEY (note_id, label)
) WITHOUT ROWID;
CREATE INDEX note_labels_by_label ON note_labels (label, note_id);

CREATE VIRTUAL TABLE notes_fts USING fts5(content, labels, tokenize = '${FTS_TOKENIZER}');

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

INSERT INTO scopes (name, created_at) VALUES ('default', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), ('global', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
`,
};
