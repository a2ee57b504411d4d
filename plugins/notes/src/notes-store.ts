import * as sqliteVec from 'sqlite-vec';
import { systemClock } from '@mira/core';
import { openDatabase, openDatabaseReadOnly } from '@mira/sqlite';
import type { Embedder } from './embedder.js';
import { NOTES_SCHEMA } from './schema.js';
import { NotesErrors } from './errors.js';
import {
  type BrowseOptions,
  type BrowsePage,
  type DuplicatePair,
  type DuplicatesOptions,
  type EmbeddingState,
  type LabelCount,
  type Note,
  type NoteVersion,
  type NotesStore,
  type Relabel,
  type ScopeCounts,
  type SearchResult,
  type Viewer,
} from './contract.js';
import { keyDigest, type NotesExport, type PreparedExport } from './transfer-format.js';
import { exportNotes, exportText } from './transfer-export.js';
import { importNotes, sweepImports } from './transfer.js';
import { DEFAULT_KEY_GUARD, KeyGuard, type KeyLockout, type KeyOrigin } from './key-guard.js';
import { capNote, checkKey, parseLabels } from './text.js';
import { NoteRows, type NoteRow } from './store/rows.js';
import { Statements } from './store/statements.js';
import { NoteBrowser } from './store/browse.js';
import { NoteBulk } from './store/bulk.js';
import { NoteHistory } from './store/history.js';
import { PLUCKED, SQL } from './store/listings.js';
import { DEFAULT_MIN_SIMILARITY, type SqliteNotesStoreOptions } from './store/open-options.js';
import { NoteDuplicates, combineNotes } from './store/duplicates.js';
import { needsUpgrade, upgrade } from './store/upgrades.js';
import { NoteSearch } from './store/search.js';
import { NoteTransfer } from './store/transfer-target.js';
import { NoteVectors } from './store/vectors.js';
import { labelFilter, visibleParams, visibleTo, writeRefusal } from './store/visibility.js';

export { DEFAULT_MIN_SIMILARITY, type SqliteNotesStoreOptions } from './store/open-options.js';

/**
 * Note memory on its own SQLite file: notes, labels, scopes, an FTS5 index kept in step in the same
 * transaction, and vectors recorded with the embedder's name and dimension. The class composes the parts
 * in store/ (rows, who sees what, vectors, upgrades, search, browse, duplicates, the transfer's side) and
 * keeps the writes that span them (save, update, delete) and the plain listings.
 */
export class SqliteNotesStore implements NotesStore {
  readonly path: string;
  /** The scope the runtime's session reads and writes now (the plugin sets it; `default` otherwise). */
  sessionScope: () => string = () => 'default';
  /** Wrong keys per scope and origin, kept beside the notes file, never in it. */
  readonly keyGuard: KeyGuard;
  readonly #rows: NoteRows;
  readonly #vectors: NoteVectors;
  readonly #q: Statements<keyof typeof SQL>;
  readonly #search: NoteSearch;
  readonly #browser: NoteBrowser;
  readonly #bulk: NoteBulk;
  readonly #history: NoteHistory;
  readonly #duplicates: NoteDuplicates;
  readonly #transfer: NoteTransfer;
  #closed = false;

  private constructor(path: string, rows: NoteRows, vectors: NoteVectors, keyGuard: KeyGuard) {
    this.path = path;
    this.#rows = rows;
    this.#vectors = vectors;
    this.keyGuard = keyGuard;
    this.#q = new Statements(rows.db, SQL, PLUCKED);
    this.#search = new NoteSearch(rows, vectors);
    this.#browser = new NoteBrowser(rows);
    this.#history = new NoteHistory(rows);
    this.#bulk = new NoteBulk(rows, vectors, this.#history);
    this.#duplicates = new NoteDuplicates(rows);
    this.#transfer = new NoteTransfer(rows, vectors);
  }

  /** Opens or creates the notes file; refuses foreign or unversioned files like the entity store. */
  static open(path: string, options: SqliteNotesStoreOptions = {}): SqliteNotesStore {
    const log = options.log ?? ((message: string) => process.stderr.write(`mira: ${message}\n`));
    const db = options.readOnly
      ? openDatabaseReadOnly(path, options.busyTimeoutMs ?? 5000, NOTES_SCHEMA)
      : openDatabase(path, options.busyTimeoutMs ?? 5000, NOTES_SCHEMA, { onCreated: options.onCreated, log });
    sqliteVec.load(db);
    const clock = options.clock ?? systemClock;
    const rows = new NoteRows(db, clock);
    const vectors = new NoteVectors(rows, options.embedder, options.minSimilarity ?? DEFAULT_MIN_SIMILARITY, log);
    const keyGuard = new KeyGuard(path, options.keyGuard ?? DEFAULT_KEY_GUARD, clock, log);
    const store = new SqliteNotesStore(path, rows, vectors, keyGuard);
    if (options.readOnly) {
      // A file from before needs its one-time upgrade, which writes: the console does it at its next start.
      if (needsUpgrade(rows)) {
        db.close();
        throw NotesErrors.error('STORE_OPEN_FAILED.needsUpgrade', { path });
      }
      return store;
    }
    upgrade(rows, vectors);
    sweepImports(store.#transfer.target(), log);
    return store;
  }

  /** The embedder new and edited notes are embedded with, if one is configured. */
  get embedder(): Embedder | undefined {
    return this.#vectors.embedder;
  }

  /** The lockout of `origin`'s keyed calls in `scope` (see {@link KeyGuard}). */
  keyLockout(scope: string, origin: KeyOrigin = 'operator'): KeyLockout | undefined {
    return this.keyGuard.lockout(scope, origin);
  }

  /** Every scope and origin locked now. */
  keyLockouts(): KeyLockout[] {
    return this.keyGuard.lockouts();
  }

  /** Counts a keyed call of `origin` in `scope` that found nothing (see {@link KeyGuard.recordMiss}). */
  recordKeyMiss(scope: string, origin: KeyOrigin = 'operator'): void {
    this.keyGuard.recordMiss(scope, origin);
  }

  /** The operator ends a scope's lockouts, every origin's: its misses are forgotten. Returns how many there were. */
  clearKeyMisses(scope: string): number {
    return this.keyGuard.clear(scope);
  }

  /**
   * Whether any note the viewer's scopes hold carries its key. A key that none carries is a miss, and the
   * call goes on as if no key were given: a wrong key then costs exactly what no key costs.
   */
  keyKnown(viewer: Viewer): boolean {
    return this.#search.keyKnown(viewer);
  }

  /** The embedder the stored vectors came from, and whether the configured one differs. */
  embeddingState(): EmbeddingState {
    return this.#vectors.state();
  }

  /** Creates a scope if it does not exist. */
  ensureScope(name: string): void {
    this.#rows.ensureScope(name);
  }

  scopes(): string[] {
    return this.#q.get('scopes').all() as string[];
  }

  /**
   * Saves a note (trimmed at a word boundary when over the cap), its labels,
   * its FTS row and its vector in one transaction. An embedder failure still
   * saves the note, without a vector, and says so.
   */
  async save(
    scope: string,
    text: string,
    labelText: string | null,
    key: string | null,
    createdAt?: string,
  ): Promise<{ note: Note; cut: string; embeddingError?: string }> {
    if (key !== null) checkKey(key);
    const { content, cut } = capNote(text);
    const labels = parseLabels(labelText);
    let vector: Float32Array | undefined;
    let embeddingError: string | undefined;
    try {
      vector = await this.#vectors.embedOne(content);
    } catch (error) {
      embeddingError = (error as Error).message;
      this.#vectors.failed('saving a note', error);
    }
    const now = this.#rows.now();
    // Writes take the write lock at BEGIN (IMMEDIATE), waiting out another writer's short transaction (an
    // import's slice, another process's save): a deferred one that read first fails at once, SQLITE_BUSY.
    const id = this.#rows.db
      .transaction(() => {
        this.ensureScope(scope);
        const created = createdAt ?? now;
        const noteId = this.#rows.insert(scope, content, key, key === null ? null : keyDigest(key), created, created);
        this.#rows.writeIndexes(noteId, content, labels, key !== null);
        this.#vectors.store(noteId, vector);
        return noteId;
      })
      .immediate();
    return {
      note: this.#rows.read(id),
      cut,
      ...(embeddingError ? { embeddingError } : {}),
    };
  }

  /** A note the viewer may see, or undefined (a hidden note does not exist for the viewer). */
  get(id: number, viewer: Viewer): Note | undefined {
    const row = this.#rows.row(id);
    return row && visibleTo(row, viewer) ? this.#rows.hydrate(row) : undefined;
  }

  #require(id: number, viewer: Viewer, writableScope: string | undefined): NoteRow {
    const row = this.#rows.row(id);
    const refusal = writeRefusal(row, viewer, writableScope);
    if (refusal === 'missing') throw NotesErrors.error('NOT_FOUND.noNote', { id });
    if (refusal === 'shared') throw NotesErrors.error('READ_ONLY_SCOPE.shared', { id, scope: row!.scope });
    return row!;
  }

  /** Replaces a note's text (and labels when given), keeping its creation time. */
  async update(
    id: number,
    viewer: Viewer,
    writableScope: string | undefined,
    text: string,
    labelText: string | null,
  ): Promise<{ note: Note; cut: string }> {
    const existing = this.#require(id, viewer, writableScope);
    const { content, cut } = capNote(text);
    const labels = labelText === null ? this.#rows.hydrate(existing).labels : parseLabels(labelText);
    let vector: Float32Array | undefined;
    try {
      vector = await this.#vectors.embedOne(content);
    } catch (error) {
      vector = undefined;
      this.#vectors.failed('updating a note', error);
    }
    this.#rows.db
      .transaction(() => {
        // What the edit replaces, as it is now (another process may have changed it since it was read); a save
        // that changes nothing leaves no version.
        const before = this.#rows.row(id);
        const same = before?.content === content && this.#rows.labelsOf(id).join(',') === labels.join(',');
        if (before && !same) this.#history.keep(before, 'edit');
        this.#rows.setContent(id, content);
        this.#rows.writeIndexes(id, content, labels, existing.key_digest !== null);
        if (vector) {
          this.#vectors.store(id, vector);
          this.#vectors.changed();
        } else this.#vectors.delete(id);
      })
      .immediate();
    return { note: this.#rows.read(id), cut };
  }

  /** Deletes a note with its labels, FTS row and vector. */
  delete(id: number, viewer: Viewer, writableScope: string | undefined): Note {
    const row = this.#require(id, viewer, writableScope);
    const note = this.#rows.hydrate(row);
    this.#rows.db
      .transaction(() => {
        this.#rows.deleteText(id);
        this.#vectors.delete(id);
        this.#rows.deleteRow(id);
      })
      .immediate();
    return note;
  }

  /** A note's earlier texts and labels, newest first (see store/history.ts). */
  history(id: number, viewer: Viewer): NoteVersion[] {
    if (!this.get(id, viewer)) throw NotesErrors.error('NOT_FOUND.noNote', { id });
    return this.#history.of(id);
  }

  /** Deletes notes, all or none (see store/bulk.ts). */
  deleteMany(ids: readonly number[], viewer: Viewer, writableScope: string | undefined): Note[] {
    return this.#bulk.delete(ids, viewer, writableScope);
  }

  /** Adds and removes labels on notes, all or none (see store/bulk.ts). */
  relabel(ids: readonly number[], change: Relabel, viewer: Viewer, writableScope: string | undefined): Note[] {
    return this.#bulk.relabel(ids, change, viewer, writableScope);
  }

  /** The newest notes the viewer may see, optionally with a label. */
  recent(viewer: Viewer, count: number, label: string | null = null): Note[] {
    const wanted = labelFilter(label);
    const rows = this.#q.get('recent').all(...visibleParams(viewer), wanted, wanted, count) as NoteRow[];
    return rows.map((r) => this.#rows.hydrate(r));
  }

  /** How many notes the viewer may see. */
  count(viewer: Viewer): number {
    return this.#q.get('count').get(...visibleParams(viewer)) as number;
  }

  /** Labels of the notes the viewer may see, most common first. */
  labels(viewer: Viewer): LabelCount[] {
    return this.#q.get('labels').all(...visibleParams(viewer)) as LabelCount[];
  }

  /**
   * One page of the notes the viewer may see, sorted, with a label and a filter, counted and paged in SQL
   * with a keyset cursor (see store/browse.ts).
   * @throws MiraError MIRA_ERR_NOTES_BROWSE_INVALID for an unknown sort or a malformed cursor
   */
  browse(viewer: Viewer, options: BrowseOptions = {}): BrowsePage {
    return this.#browser.browse(viewer, options);
  }

  /**
   * Full text first, then vector similarity, fused by reciprocal rank. With
   * no embedder (or vectors from another one) it is full-text only and says so.
   */
  search(viewer: Viewer, query: string, label: string | null = null, limit = 10): Promise<SearchResult> {
    return this.#search.search(viewer, query, label, limit);
  }

  /**
   * Near-identical pairs among the notes the viewer sees, with `label` among those with that label only
   * (`unlabeled`: those without), any number of them in slices (see store/duplicates.ts).
   * @throws MiraError MIRA_ERR_NOTES_STOPPED once `signal` is aborted (nothing is changed)
   */
  duplicates(viewer: Viewer, options: DuplicatesOptions = {}): Promise<DuplicatePair[]> {
    return this.#duplicates.duplicates(viewer, options);
  }

  /**
   * What a duplicates scan of the viewer's notes can be narrowed to: how many notes there are, and
   * every label with its count, `unlabeled` included, most common first.
   */
  labelCounts(viewer: Viewer): { total: number; labels: LabelCount[] } {
    const { total, labels } = this.#browser.scopeCounts(viewer);
    return { total, labels: [...labels] };
  }

  /** Combines two near-identical notes: `keep` gains `drop`'s labels, `drop` is deleted. */
  combine(keep: number, drop: number, viewer: Viewer, writableScope?: string): Note {
    const kept = this.#require(keep, viewer, writableScope);
    const dropped = this.#require(drop, viewer, writableScope);
    return combineNotes(this.#rows, this.#history, kept, dropped, () => this.delete(drop, viewer, undefined));
  }

  /**
   * Every note of one scope, keys included (the operator's backup), read in slices that each hold the event
   * loop briefly, however large the scope (see transfer-export.ts). As a file's text: {@link exportText}.
   */
  exportScope(scope: string): Promise<NotesExport> {
    return exportNotes(this.#transfer.source(), scope);
  }

  /**
   * {@link exportScope} as JSON text (`indent` 2: as `notes export` writes files), read in slices that each
   * hold the event loop briefly, however large the scope (see transfer-export.ts).
   */
  exportText(scope: string, indent: 0 | 2 = 0): Promise<{ text: string; count: number }> {
    return exportText(this.#transfer.source(), scope, indent);
  }

  /**
   * Imports a validated export, or one {@link readExport} prepared; a note already present (same scope, text,
   * key and creation time) is skipped. All or nothing; a large import is written in slices that each hold the
   * event loop briefly (see transfer.ts).
   */
  importNotes(
    data: NotesExport | PreparedExport,
    scope = data.scope,
    onProgress: (embedded: number, total: number) => void = () => {},
  ): Promise<{ added: number; skipped: number; trimmed: number }> {
    return importNotes(this.#transfer.target(), data, scope, onProgress);
  }

  /**
   * Re-embeds every note with the configured embedder, in slices that each hold the event loop briefly, the
   * old vectors replaced in one short transaction at the end (see store/vectors.ts).
   * @throws MiraError MIRA_ERR_NOTES_EMBEDDER_FAILED without an embedder or for vectors of mixed sizes
   */
  reembed(batch = 64, onProgress: (done: number, total: number) => void = () => {}): Promise<number> {
    return this.#vectors.reembed(batch, onProgress);
  }

  /**
   * A token that changes whenever a note, label or scope changes, through this connection or another
   * process's (`PRAGMA data_version` counts the others' commits, `total_changes()` this one's writes).
   */
  revision(): string {
    return this.#rows.revision();
  }

  /** Notes per scope. */
  countsByScope(): ScopeCounts[] {
    return this.#browser.countsByScope();
  }

  /** Closes the file; closing again does nothing. Misses not yet written are written first. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.keyGuard.flush();
    this.#rows.db.close();
  }
}
