import { FTS_TOKENIZER } from '../schema.js';
import { HISTORY_DDL } from './history.js';
import { FILTER_DDL, FILTER_INDEX_META, FILTER_INDEX_VERSION, FILTER_TABLE } from './filter-index.js';
import { KEYED_FTS, type NoteRows } from './rows.js';
import {
  COUNTS_DDL,
  COUNTS_FILL,
  COUNTS_META,
  COUNTS_OLD_TRIGGERS,
  COUNTS_TABLE,
  COUNTS_TRIGGERS,
  COUNTS_VERSION,
} from './scope-counts.js';
import { toFloats, type NoteVectors } from './vectors.js';

/**
 * What a notes file gets at a writable open beyond its schema (schema.ts, version 1, which stays what it
 * was): indexes and tables made since (the browse filter's index, the notes' history in store/history.ts), a
 * full-text index rebuilt when it was made otherwise, and the vectors of the sqlite-vec tables of before moved
 * into today's table. Each runs once; a file that needs none is not written to. A read-only open refuses a
 * file that still needs one (see {@link needsUpgrade}).
 */

/**
 * The index a key check uses. Made at every writable open: files from before have none. (Files of before
 * also hold a `key_misses` table: the key guard keeps its misses in a file of its own now, see
 * key-guard.ts, and the table is left as it is.)
 */
const KEY_INDEX_DDL =
  'CREATE INDEX IF NOT EXISTS notes_by_key_digest ON notes (key_digest) WHERE key_digest IS NOT NULL';
/**
 * The indexes of the Mind view's orders (newest and oldest; longest and shortest), so a page is read in
 * order and stops after its notes instead of sorting the whole scope. Made at every writable open, as the
 * key index is: files from before get them once, nothing else changes, and a read-only open of a file
 * without them still reads it (sorted as before).
 */
const ORDER_INDEXES_DDL = `CREATE INDEX IF NOT EXISTS notes_by_scope_created ON notes (scope, created_at, id);
CREATE INDEX IF NOT EXISTS notes_by_scope_length ON notes (scope, length(content), id);`;

/** How the full-text index is built; a file whose index was built otherwise is re-indexed once, at open. */
const TEXT_INDEX_VERSION = 'segmented-keyed-emoji-3';

/** The sqlite-vec tables of files from before (without, then with scope and key columns); moved once, at open. */
const OLD_VECTORS = ['note_vectors', 'note_vectors_v2'] as const;

/** Whether the file needs the upgrades {@link upgrade} runs (an old vector table, an old full-text index). */
export function needsUpgrade(rows: NoteRows): boolean {
  return oldVectorTables(rows).length > 0 || !textIndexCurrent(rows);
}

/** Brings a file opened for writing up to date (see the head of this file). */
export function upgrade(rows: NoteRows, vectors: NoteVectors): void {
  upgradeVectors(rows, vectors);
  upgradeTextIndex(rows);
  upgradeFilterIndex(rows);
  upgradeScopeCounts(rows);
  rows.db.exec(KEY_INDEX_DDL);
  rows.db.exec(ORDER_INDEXES_DDL);
  rows.db.exec(HISTORY_DDL);
}

/** The sqlite-vec tables of before this file still has. */
function oldVectorTables(rows: NoteRows): string[] {
  const exists = rows.db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').pluck();
  return OLD_VECTORS.filter((name) => exists.get(name));
}

/** Whether the full-text index was made with today's tokenizer and today's segmentation of spaceless scripts. */
function textIndexCurrent(rows: NoteRows): boolean {
  const { db } = rows;
  const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'notes_fts'").pluck().get() as string;
  const keyed = db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').pluck().get(KEYED_FTS);
  return sql.includes(`'${FTS_TOKENIZER}'`) && keyed !== undefined && rows.meta('text_index') === TEXT_INDEX_VERSION;
}

/**
 * Rebuilds a full-text index made otherwise (files from before stemming, or with keyed notes' text in
 * the same index as the others'), once.
 */
function upgradeTextIndex(rows: NoteRows): void {
  if (textIndexCurrent(rows)) return;
  const { db } = rows;
  db.transaction(() => {
    // Checked again under the write lock: another process opening the file at the same time rebuilt it.
    if (textIndexCurrent(rows)) return;
    db.exec(`DROP TABLE notes_fts; DROP TABLE IF EXISTS ${KEYED_FTS}`);
    for (const table of ['notes_fts', KEYED_FTS]) {
      db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5(content, labels, tokenize = '${FTS_TOKENIZER}')`);
    }
    for (const row of db.prepare('SELECT id, content, key_digest FROM notes').all() as Array<{
      id: number;
      content: string;
      key_digest: string | null;
    }>) {
      rows.indexText(row.id, row.content, rows.labelsOf(row.id), row.key_digest !== null);
    }
    rows.setMeta('text_index', TEXT_INDEX_VERSION);
  }).immediate();
}

/** Whether the file has the browse filter's index, built as today (see filter-index.ts). */
export function filterIndexCurrent(rows: NoteRows): boolean {
  const table = rows.db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').pluck().get(FILTER_TABLE);
  return table !== undefined && rows.meta(FILTER_INDEX_META) === FILTER_INDEX_VERSION;
}

/**
 * Builds the browse filter's index of a file without it (or with one built otherwise), once. Like the order
 * indexes it is optional: a read-only open of a file without it still filters (by folding every note).
 */
function upgradeFilterIndex(rows: NoteRows): void {
  if (filterIndexCurrent(rows)) return;
  const { db } = rows;
  db.transaction(() => {
    // Checked again under the write lock: another process opening the file at the same time built it.
    if (filterIndexCurrent(rows)) return;
    db.exec(`DROP TABLE IF EXISTS ${FILTER_TABLE}`);
    db.exec(FILTER_DDL);
    const notes = db.prepare(`SELECT n.id, n.content, n.private_key,
      (SELECT json_group_array(label) FROM (SELECT label FROM note_labels WHERE note_id = n.id ORDER BY position)) AS labels
      FROM notes n`);
    for (const row of notes.all() as Array<{
      id: number;
      content: string;
      private_key: string | null;
      labels: string;
    }>) {
      rows.indexFilterText(row.id, row.content, JSON.parse(row.labels) as string[], row.private_key);
    }
    rows.setMeta(FILTER_INDEX_META, FILTER_INDEX_VERSION);
  }).immediate();
}

/** Whether the file keeps the Mind view's counts as today: the table, every trigger, its mark (see scope-counts.ts). */
export function scopeCountsCurrent(rows: NoteRows): boolean {
  const objects = rows.db
    .prepare(
      `SELECT count(*) FROM sqlite_schema WHERE name IN (${[COUNTS_TABLE, ...COUNTS_TRIGGERS].map(() => '?').join(', ')})`,
    )
    .pluck()
    .get(COUNTS_TABLE, ...COUNTS_TRIGGERS);
  return objects === COUNTS_TRIGGERS.length + 1 && rows.meta(COUNTS_META) === COUNTS_VERSION;
}

/**
 * Makes the Mind view's counts of a file without them (or with counts kept otherwise), once: the table,
 * its triggers, and the counts of the notes as they are, in one transaction. Optional like the filter's
 * index: a read-only open of a file without them counts by passing over the notes. (A count at zero stays:
 * one row per scope, key and label ever used, and a file that needs no upgrade is not written to.)
 */
function upgradeScopeCounts(rows: NoteRows): void {
  if (scopeCountsCurrent(rows)) return;
  const { db } = rows;
  db.transaction(() => {
    // Checked again under the write lock: another process opening the file at the same time made them.
    if (scopeCountsCurrent(rows)) return;
    for (const name of db.prepare(COUNTS_OLD_TRIGGERS).pluck().all() as string[])
      db.exec(`DROP TRIGGER "${name.replaceAll('"', '""')}"`);
    db.exec(`DROP TABLE IF EXISTS ${COUNTS_TABLE}`);
    db.exec(COUNTS_DDL);
    db.exec(COUNTS_FILL);
    rows.setMeta(COUNTS_META, COUNTS_VERSION);
  }).immediate();
}

/** Moves the vectors of a file from before (sqlite-vec tables) into the table with binary codes (once, at open). */
function upgradeVectors(rows: NoteRows, vectors: NoteVectors): void {
  const old = oldVectorTables(rows);
  if (old.length === 0) return;
  const { db } = rows;
  // Without a recorded embedder there were never vectors to move, and no table to make for them.
  const moving = rows.meta('dimension') !== undefined;
  db.transaction(() => {
    if (moving) {
      vectors.createTable();
      for (const name of old) {
        for (const row of db.prepare(`SELECT rowid AS id, embedding FROM ${name}`).all() as Array<{
          id: number | bigint;
          embedding: Buffer;
        }>) {
          vectors.insert(Number(row.id), toFloats(row.embedding));
        }
      }
    }
    for (const name of old) db.exec(`DROP TABLE ${name}`);
    vectors.changed();
  })();
}
