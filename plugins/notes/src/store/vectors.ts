import type { EmbeddingState, Viewer } from '../contract.js';
import type { Embedder } from '../embedder.js';
import { NotesErrors } from '../errors.js';
import { SCAN_SLICE_MS } from '../near-duplicates.js';
import { NOTE_VECTORS_DDL, NOTE_VECTORS_TABLE } from '../schema.js';
import { keyDigest } from '../transfer-format.js';
import { QuantizedIndex, binaryCode, cosine } from '../vector-index.js';
import type { NoteRows } from './rows.js';
import { Statements } from './statements.js';

/**
 * The vector table: each note's embedding (float32) and its binary code, which the in-memory
 * {@link QuantizedIndex} scans; the floats re-score its candidates exactly.
 */
const VECTORS = NOTE_VECTORS_TABLE;
/** Where a reembed writes the new vectors until they replace the old ones in one short transaction. */
const NEXT_VECTORS = `${NOTE_VECTORS_TABLE}_next`;
/** The notes one read of a reembed takes, and the most vectors one of its transactions writes. */
const REEMBED_PAGE = 500;
/** How many binary-code candidates are re-scored (from int8) per nearest note wanted. */
const RESCORE_FACTOR = 2;
/** Int8 similarities closer than this to the floor are re-scored exactly (the int8 error is below 0.005). */
const FLOOR_MARGIN = 0.01;

/** Serves the event loop (timers, I/O, the console) before a reembed's next slice. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const SQL = {
  deleteVector: `DELETE FROM ${VECTORS} WHERE id = ?`,
  insertVector: `INSERT OR REPLACE INTO ${VECTORS} (id, code, embedding) VALUES (?, ?, ?)`,
  vectorsAfter: `SELECT v.id, v.embedding, n.scope, coalesce(n.key_digest, '') AS key_digest FROM ${VECTORS} v JOIN notes n ON n.id = v.id WHERE v.id > ?`,
  embeddingsOf: `SELECT id, embedding FROM ${VECTORS} WHERE id IN (SELECT value FROM json_each(?))`,
  vectorsChanged:
    "INSERT INTO meta (key, value) VALUES ('vector_generation', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1",
  textsAfter: 'SELECT id, content FROM notes WHERE id > ? ORDER BY id LIMIT ?',
  forgetEmbedder: "DELETE FROM meta WHERE key IN ('embedder', 'dimension')",
  dropVectors: `DROP TABLE IF EXISTS ${VECTORS}`,
} as const;

/** A float32 vector from its stored bytes (copied: SQLite's buffers need not be aligned). */
export function toFloats(bytes: Buffer): Float32Array {
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/**
 * The notes' vectors: embedding with the configured embedder, the vector table with its embedder's name and
 * dimension in `meta`, the in-memory index of binary codes kept in step with it across processes, the
 * nearest notes a viewer may see, and re-embedding every note.
 */
export class NoteVectors {
  readonly embedder: Embedder | undefined;
  readonly #rows: NoteRows;
  readonly #q: Statements<keyof typeof SQL>;
  readonly #log: (message: string) => void;
  /** The cosine similarity below which a neighbour is not a match. */
  readonly #minSimilarity: number;
  /** The in-memory index of binary codes, as of a revision and a vector generation. */
  #ann: { index: QuantizedIndex; revision: string; generation: string | undefined } | undefined;

  constructor(rows: NoteRows, embedder: Embedder | undefined, minSimilarity: number, log: (message: string) => void) {
    this.#rows = rows;
    this.embedder = embedder;
    this.#minSimilarity = minSimilarity;
    this.#log = log;
    this.#q = new Statements(rows.db, SQL);
  }

  /** Logs an embedder failure the caller answers without vectors: the cause is never dropped. */
  failed(what: string, error: unknown): void {
    this.#log(
      `notes: the embedder failed while ${what}; continuing without vectors: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  }

  /** The embedder the stored vectors came from, and whether the configured one differs. */
  state(): EmbeddingState {
    const stored = this.#rows.meta('embedder');
    const dimension = this.#rows.meta('dimension');
    const configured = this.embedder?.name;
    return {
      stored,
      dimension: dimension ? Number(dimension) : undefined,
      configured,
      mismatch: Boolean(stored && configured && stored !== configured),
    };
  }

  /** Whether new vectors can be made: an embedder is configured and the stored vectors are its own. */
  usable(): boolean {
    return this.embedder !== undefined && !this.state().mismatch;
  }

  /** `text`'s vector, or undefined when no usable embedder is configured. */
  async embedOne(text: string): Promise<Float32Array | undefined> {
    if (!this.usable()) return undefined;
    const [vector] = await this.embedder!.embed([text]);
    return vector;
  }

  /** Embeds `texts` in batches, reporting how many are done after each. */
  async embedAll(
    texts: readonly string[],
    batch: number,
    onProgress: (done: number, total: number) => void,
  ): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    onProgress(0, texts.length);
    for (let i = 0; i < texts.length; i += batch) {
      vectors.push(...(await this.embedder!.embed(texts.slice(i, i + batch))));
      onProgress(vectors.length, texts.length);
    }
    return vectors;
  }

  /** Makes the vector table if it does not exist. */
  createTable(): void {
    this.#rows.db.exec(NOTE_VECTORS_DDL);
  }

  /** The code and float columns of a vector's row. */
  columns(vector: Float32Array): [Buffer, Buffer] {
    const code = binaryCode(vector);
    return [
      Buffer.from(code.buffer, code.byteOffset, code.byteLength),
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
    ];
  }

  /** Writes note `id`'s vector row as it is (no checks: see {@link store}). */
  insert(id: number, vector: Float32Array): void {
    this.#q.get('insertVector').run(BigInt(id), ...this.columns(vector));
  }

  /**
   * Records that vectors changed other than by appending a new note's (an update, a delete, a
   * re-embedding): every process rebuilds its in-memory index before its next search.
   */
  changed(): void {
    this.#q.get('vectorsChanged').run();
  }

  /**
   * Stores note `id`'s vector (nothing without one or an embedder), recording the embedder and the dimension
   * with the first. Replacing one (an update) is also a {@link changed}, the caller's to record.
   * @throws MiraError MIRA_ERR_NOTES_EMBEDDER_FAILED for a vector of another size than those stored
   */
  store(id: number, vector: Float32Array | undefined): void {
    if (!vector || !this.embedder) return;
    if (!this.#rows.meta('embedder')) {
      this.createTable();
      this.#rows.setMeta('embedder', this.embedder.name);
      this.#rows.setMeta('dimension', String(vector.length));
    }
    if (Number(this.#rows.meta('dimension')) !== vector.length) {
      throw NotesErrors.error('EMBEDDER_FAILED.dimensions', {
        got: vector.length,
        stored: String(this.#rows.meta('dimension')),
      });
    }
    this.insert(id, vector);
  }

  /** Deletes note `id`'s vector, if vectors are kept, without recording a change (see {@link delete}). */
  remove(id: number): void {
    if (this.#rows.meta('embedder')) this.#q.get('deleteVector').run(BigInt(id));
  }

  /** Deletes note `id`'s vector, if vectors are kept, and records the change. */
  delete(id: number): void {
    if (!this.#rows.meta('embedder')) return;
    this.#q.get('deleteVector').run(BigInt(id));
    this.changed();
  }

  /**
   * The in-memory index of binary codes, brought up to date first: notes this or another process
   * appended are added; after any other change to the vectors (see {@link changed}) it is
   * rebuilt. The revision says cheaply whether this or another connection wrote anything.
   */
  index(): QuantizedIndex {
    const revision = this.#rows.revision();
    let ann = this.#ann;
    if (ann?.revision === revision) return ann.index;
    const generation = this.#rows.meta('vector_generation');
    if (!ann || ann.generation !== generation) {
      ann = { index: new QuantizedIndex(Number(this.#rows.meta('dimension'))), revision, generation };
    }
    for (const row of this.#q.get('vectorsAfter').iterate(ann.index.maxId) as Iterable<{
      id: number;
      embedding: Buffer;
      scope: string;
      key_digest: string;
    }>) {
      ann.index.upsert(row.id, toFloats(row.embedding), row.scope, row.key_digest);
    }
    ann.revision = revision;
    this.#ann = ann;
    return ann.index;
  }

  /**
   * The `pool` nearest notes the viewer may see, nearest first, above the similarity floor. Scope and
   * key are checked while the binary codes are scanned, so 250 near notes in another scope, or under a
   * key, cannot hide a visible match; the candidates are re-scored exactly with their float vectors.
   * A label filter (`allowed`, which keeps the IDs that pass it in order; null for none) is checked
   * afterwards, widening the candidates until enough pass or none are left. Without one the scan's
   * visibility is the answer: the index is rebuilt after any change to a note's vector, and a hit is
   * checked again when read.
   */
  nearest(
    vector: Float32Array,
    viewer: Viewer,
    allowed: ((ids: readonly number[]) => number[]) | null,
    pool: number,
  ): number[] {
    const index = this.index();
    const query = binaryCode(vector);
    const scopes = new Set(viewer.scopes);
    // Unkeyed notes are indexed under the key digest '' (see vectorsAfter).
    const keys = viewer.operator ? null : new Set(viewer.key === null ? [''] : ['', keyDigest(viewer.key)]);
    for (let wanted = pool * RESCORE_FACTOR; ; wanted *= 4) {
      const candidates = index.nearest(query, { scopes, keys }, wanted);
      const scored = this.#exactAtFloor(vector, index.similarities(vector, candidates))
        .filter((row) => row.similarity >= this.#minSimilarity)
        .sort((x, y) => y.similarity - x.similarity || x.id - y.id);
      const ids = scored.map((row) => row.id);
      const visible = allowed === null ? ids : allowed(ids);
      // Fewer candidates than asked for: every visible vector was seen. Some below the floor: the
      // candidates reach past the near notes, and wider ones would only be further away.
      if (visible.length >= pool || candidates.length < wanted || scored.length < candidates.length) {
        return visible.slice(0, pool);
      }
    }
  }

  /**
   * `scored` with the candidates whose int8 similarity lies within {@link FLOOR_MARGIN} of the floor
   * re-scored exactly from their stored floats: which side of `min_similarity` a note falls on is
   * decided exactly, as configured (usually none or a few are that close).
   */
  #exactAtFloor(
    vector: Float32Array,
    scored: Array<{ id: number; similarity: number }>,
  ): Array<{ id: number; similarity: number }> {
    const floor = this.#minSimilarity;
    const near = scored.filter((row) => Math.abs(row.similarity - floor) < FLOOR_MARGIN).map((row) => row.id);
    if (near.length === 0) return scored;
    const exact = new Map(
      (this.#q.get('embeddingsOf').all(JSON.stringify(near)) as Array<{ id: number; embedding: Buffer }>).map((row) => [
        row.id,
        cosine(vector, toFloats(row.embedding)),
      ]),
    );
    return scored.map((row) => ({ id: row.id, similarity: exact.get(row.id) ?? row.similarity }));
  }

  /**
   * Re-embeds every note with the configured embedder, replacing the vector table, without holding the event
   * loop for long however many notes there are: the notes are read a page at a time, the new vectors written
   * in slices of short transactions into a table of their own (searches keep the old ones meanwhile), and
   * one short transaction puts them in place of the old ones. A crash before it leaves the old vectors as
   * they were (the next reembed starts its table afresh). As before the slices, a note saved meanwhile has
   * no vector (its save saw another embedder's vectors) and one edited meanwhile its earlier text's, until
   * the next reembed; one deleted meanwhile leaves none.
   */
  async reembed(batch: number, onProgress: (done: number, total: number) => void): Promise<number> {
    if (!this.embedder) throw NotesErrors.error('EMBEDDER_FAILED.notConfigured');
    const embedder = this.embedder;
    const rows: Array<{ id: number; content: string }> = [];
    for (let after = 0; ;) {
      const page = this.#q.get('textsAfter').all(after, REEMBED_PAGE) as Array<{ id: number; content: string }>;
      rows.push(...page);
      if (page.length < REEMBED_PAGE) break;
      after = page[page.length - 1]!.id;
      await yieldToLoop();
    }
    const vectors = await this.embedAll(
      rows.map((r) => r.content),
      batch,
      onProgress,
    );
    const dimension = vectors[0]?.length;
    for (const vector of vectors) {
      if (vector.length !== dimension) {
        throw NotesErrors.error('EMBEDDER_FAILED.dimensions', { got: vector.length, stored: String(dimension) });
      }
    }
    // A table of the next vectors, afresh (one a crashed reembed left is dropped).
    const db = this.#rows.db;
    db.exec(`DROP TABLE IF EXISTS ${NEXT_VECTORS}`);
    db.exec(NOTE_VECTORS_DDL.replace(VECTORS, NEXT_VECTORS));
    const insert = db.prepare(`INSERT INTO ${NEXT_VECTORS} (id, code, embedding) VALUES (?, ?, ?)`);
    for (let i = 0; i < rows.length;) {
      db.transaction(() => {
        const start = performance.now();
        do {
          insert.run(BigInt(rows[i]!.id), ...this.columns(vectors[i]!));
          i += 1;
        } while (i < rows.length && i % REEMBED_PAGE !== 0 && performance.now() - start < SCAN_SLICE_MS);
      }).immediate();
      await yieldToLoop();
    }
    db.transaction(() => {
      // Another process's reembed started its own table meanwhile: this one's vectors are not all there.
      const written = db.prepare(`SELECT count(*) FROM ${NEXT_VECTORS}`).pluck().get() as number;
      if (written !== rows.length) {
        throw NotesErrors.error('BACKEND', {
          reason: 'another reembed ran at the same time; run "notes reembed" again',
        });
      }
      this.#q.get('dropVectors').run();
      this.#q.get('forgetEmbedder').run();
      if (dimension !== undefined) {
        db.exec(`ALTER TABLE ${NEXT_VECTORS} RENAME TO ${VECTORS}`);
        db.prepare(`DELETE FROM ${VECTORS} WHERE id NOT IN (SELECT id FROM notes)`).run();
        this.#rows.setMeta('embedder', embedder.name);
        this.#rows.setMeta('dimension', String(dimension));
      } else db.exec(`DROP TABLE ${NEXT_VECTORS}`);
      this.changed();
    }).immediate();
    return rows.length;
  }
}
