import type { PreparedNote } from '../transfer-format.js';
import type { ExportSource } from '../transfer-export.js';
import type { ImportTarget } from '../transfer.js';
import type { NoteRow, NoteRows } from './rows.js';
import { Statements } from './statements.js';
import type { NoteVectors } from './vectors.js';

/**
 * What the transfer (transfer.ts: import in slices and its staging scopes; transfer-export.ts: export) reads
 * and writes through: the notes store's rows and vectors, as its {@link ExportSource} and {@link ImportTarget}.
 */

const SQL = {
  notesOfScopeAfter: 'SELECT * FROM notes WHERE scope = ? AND id > ? ORDER BY id LIMIT ?',
  importedAlready:
    "SELECT 1 FROM notes WHERE scope = ? AND content = ? AND created_at = ? AND coalesce(private_key, '') = ?",
} as const;

/** The notes an import embeds per request to the embedder. */
const IMPORT_BATCH = 64;

/** The store's side of export and import (the transfer-*.ts files do the slicing, staging and format). */
export class NoteTransfer {
  readonly #rows: NoteRows;
  readonly #vectors: NoteVectors;
  readonly #q: Statements<keyof typeof SQL>;

  constructor(rows: NoteRows, vectors: NoteVectors) {
    this.#rows = rows;
    this.#vectors = vectors;
    this.#q = new Statements(rows.db, SQL, ['importedAlready']);
  }

  /** What an export reads through: a page of a scope's notes after an ID, as the export file holds them. */
  source(): ExportSource {
    const rows = this.#rows;
    return {
      page: (scope, after, limit) =>
        (this.#q.get('notesOfScopeAfter').all(scope, after, limit) as NoteRow[]).map((row) => ({
          id: row.id,
          note: {
            content: row.content,
            labels: rows.labelsOf(row.id),
            private_key: row.private_key,
            created_at: row.created_at,
            updated_at: row.updated_at,
          },
        })),
      now: () => rows.now(),
    };
  }

  /** What an import writes through: notes with their labels, full-text rows and vectors, or none of them. */
  target(): ImportTarget {
    const [rows, vectors] = [this.#rows, this.#vectors];
    return {
      db: rows.db,
      importedAlready: (scope, note) =>
        this.#q.get('importedAlready').get(scope, note.content, note.createdAt, note.privateKey ?? '') !== undefined,
      ensureScope: (scope) => rows.ensureScope(scope),
      embeds: vectors.usable(),
      embed: async (texts, onProgress) => {
        try {
          return await vectors.embedAll(texts, IMPORT_BATCH, onProgress);
        } catch (error) {
          vectors.failed('importing notes', error);
          return texts.map(() => undefined);
        }
      },
      insert: (scope, note, vector) => this.#insert(scope, note, vector),
      index: (id, note) => {
        rows.addText(id, note.indexed, note.labels, note.keyDigest !== null);
        rows.indexFilterText(id, note.content, note.labels, note.privateKey);
      },
      forget: (ids) => {
        for (const id of ids) {
          rows.deleteText(id);
          vectors.remove(id);
          rows.deleteRow(id);
        }
      },
      vectorsChanged: () => vectors.changed(),
      now: () => rows.now(),
    };
  }

  /** Writes a prepared note with its labels and vector (its index rows are the target's `index`); returns its ID. */
  #insert(scope: string, note: PreparedNote, vector: Float32Array | undefined): number {
    const rows = this.#rows;
    const id = rows.insert(scope, note.content, note.privateKey, note.keyDigest, note.createdAt, note.updatedAt);
    rows.addLabels(id, note.labels);
    this.#vectors.store(id, vector);
    return id;
  }
}
