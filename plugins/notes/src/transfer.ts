import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SqliteDatabase } from '@mira/sqlite';
import { NotesErrors } from './errors.js';
import { SCOPE_NAME_PATTERN } from './text.js';
import type { CheckpointWorkerData, FromCheckpointWorker } from './checkpoint-worker.js';
import { prepareNote, type NotesExport, type PreparedExport, type PreparedNote } from './transfer-format.js';

/**
 * Import and export of a scope's notes ("transfer") without holding the runtime's event loop: the robot's
 * console, its ROS connection and its episodes share that thread, and a 28 MB import used to hold it for
 * 10–15 s.
 *
 * - An export file is decoded, parsed, validated and prepared in a worker thread ({@link readExport}).
 * - A large import ({@link importNotes}) is written in slices of at most {@link SLICE_MS} each, every slice
 *   its own short transaction, with the event loop served between them: other writers (the console, another
 *   process) take the write lock between two slices, and nobody waits for seconds.
 * - All or nothing: the notes are written first under a staging scope (`~import-<pid>-<random>`), which no
 *   viewer can name (a scope name starts with a letter), so browse, search, counts and export never see
 *   them. A short transaction then creates the target scope and records the import as committed; the notes
 *   are moved into it in slices, and a last transaction drops the record and the staging scope. A crash
 *   before the record leaves staged notes only, which the next writable open deletes ({@link sweepImports});
 *   a crash after it is finished by that open. Either way the file ends with none of the import or all of it.
 *   (While the notes are moved, a reader may see part of them: the move of 57,000 notes takes about a second.)
 * - A small import (at most {@link DIRECT_IMPORT_MAX} notes) is one transaction, as before, and runs without
 *   yielding when no embedder is configured.
 */

/** The longest a slice of an import holds the runtime's thread (and the write lock). */
export const SLICE_MS = 20;
/** The most notes an import writes in one transaction, straight into its scope. */
export const DIRECT_IMPORT_MAX = 1000;
/** The staging scopes' prefix: `~` starts no scope name (see SCOPE_NAME_PATTERN). */
const STAGING = '~import-';
/** The meta row that marks a staging scope's import as committed; its value is the target scope. */
const committedKey = (staging: string) => `import:${staging}`;
const SCOPE_NAME = new RegExp(SCOPE_NAME_PATTERN);
/** Rows one statement of a discard takes. */
const ROWS_PER_STATEMENT = 256;
/** Rows one statement of a move takes (a moved row changes four indexes: about 30 µs each). */
const ROWS_PER_MOVE = 32;
/** The least work a slice does, however long the last commit took. */
const MIN_WORK_MS = 2;
/** The most pages of an export one slice reads, whatever the clock says (a slice's work bounded by count too). */
const PAGES_PER_SLICE = 4;

/** What the runtime's thread hands the worker. */
export interface TransferWorkerData {
  readonly bytes: Uint8Array;
  /**
   * How many batches the runtime's thread has taken (one Int32 over shared memory): the worker sends the next
   * batch only when the one before was taken, so the runtime never finds a queue of batches to decode at once.
   */
  readonly taken: Int32Array;
  /** The deepest nesting of arrays and objects allowed (the Mind view's bound on a body), or null for none. */
  readonly maxDepth: number | null;
}

/** Why bytes are not an export. */
export type ReadFailure =
  | { readonly kind: 'notJson'; readonly reason: string }
  | { readonly kind: 'tooDeep'; readonly depth: number }
  | { readonly kind: 'notExport'; readonly invalid: string };

/** What the worker sends: batches of prepared notes, then done; or why nothing is. */
export type FromTransferWorker =
  | { readonly type: 'notes'; readonly notes: PreparedNote[] }
  | { readonly type: 'done'; readonly scope: string; readonly total: number }
  | { readonly type: 'failed'; readonly failure: ReadFailure }
  | { readonly type: 'badNote'; readonly index: number; readonly note: NotesExport['notes'][number] };

/**
 * The worker's entry: the built file, or (running from the TypeScript sources, as the tests do) a bootstrap
 * that registers tsx in the worker first. The robot's safety path starts its worker the same way.
 */
function workerEntry(name: 'transfer-worker' | 'checkpoint-worker'): URL {
  const self = import.meta.url;
  if (!self.endsWith('.ts')) return new URL(`./${name}.js`, self);
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : tsxApiByRequire(self);
  const worker = new URL(`./${name}.ts`, self).href;
  const bootstrap = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(worker)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/** tsx's ESM API found without `import.meta.resolve` (a module tsx loaded as CommonJS does not have it). */
function tsxApiByRequire(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}

/**
 * Reads an export file's bytes in a worker thread: parsed, validated and every note prepared there. The
 * bytes are handed over (their memory moves to the worker). Resolves with the prepared export, or with why
 * the bytes are not one (the caller words it: the console names the file, the Mind view the upload).
 * @throws MiraError the catalogued error of the first bad note (a key, an empty text, a label), checked
 *   again on this thread
 */
export async function readExport(
  bytes: Uint8Array,
  options: { readonly maxDepth: number | null },
): Promise<
  { readonly ok: true; readonly data: PreparedExport } | { readonly ok: false; readonly failure: ReadFailure }
> {
  // Only a buffer of its own is moved: a small Buffer shares its memory with others.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  const taken = new Int32Array(new SharedArrayBuffer(4));
  const data: TransferWorkerData = { bytes: own, taken, maxDepth: options.maxDepth };
  const worker = new Worker(workerEntry('transfer-worker'), {
    workerData: data,
    transferList: [own.buffer as ArrayBuffer],
  });
  const notes: PreparedNote[] = [];
  try {
    const last = await new Promise<FromTransferWorker>((resolve, reject) => {
      worker.on('message', (message: FromTransferWorker) => {
        if (message.type === 'notes') {
          for (const note of message.notes) notes.push(note);
          // Taken once the event loop has turned: the next batch is decoded in a later turn.
          setImmediate(() => {
            Atomics.add(taken, 0, 1);
            Atomics.notify(taken, 0);
          });
        } else resolve(message);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the import's worker exited (${code}) before it answered`)));
    }).catch((error: Error) => {
      throw NotesErrors.error('BACKEND', { reason: error.message }, { cause: error });
    });
    if (last.type === 'failed') return { ok: false, failure: last.failure };
    if (last.type === 'badNote') {
      prepareNote(last.note);
      // The worker refused a note this thread accepts: say so rather than import it.
      throw NotesErrors.error('BACKEND', { reason: `note ${last.index} failed its checks in the import's worker` });
    }
    if (last.type !== 'done' || last.total !== notes.length) {
      throw NotesErrors.error('BACKEND', { reason: "the import's worker sent an incomplete export" });
    }
    return { ok: true, data: { prepared: true, scope: last.scope, notes } };
  } finally {
    await worker.terminate();
  }
}

/** What an import writes through: the store's own statements, kept in notes-store.ts. */
export interface ImportTarget {
  readonly db: SqliteDatabase;
  /** Whether the scope holds this note already (same text, key and creation time). */
  importedAlready(scope: string, note: PreparedNote): boolean;
  /** Creates a (validated) scope if it does not exist. */
  ensureScope(scope: string): void;
  /** The notes' vectors, or undefined for each when there is no usable embedder or it failed (it is logged). */
  embed(
    texts: readonly string[],
    onProgress: (done: number, total: number) => void,
  ): Promise<ReadonlyArray<Float32Array | undefined>>;
  /** Whether {@link embed} is worth calling. */
  readonly embeds: boolean;
  /** Writes a note with its labels, full-text row and vector; returns its ID. */
  insert(scope: string, note: PreparedNote, vector: Float32Array | undefined): number;
  /** Deletes notes by ID with their labels, full-text rows and vectors. */
  forget(ids: readonly number[]): void;
  /** Tells every process that vectors changed other than by appending (a move changes their scope). */
  vectorsChanged(): void;
  now(): string;
}

/** Serves the event loop (timers, I/O, the console) before the next slice. */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `step` over `items` in slices of at most {@link SLICE_MS}, yielding between them. */
async function inSlices<T>(items: readonly T[], step: (item: T, index: number) => void): Promise<void> {
  for (let i = 0; i < items.length;) {
    const start = performance.now();
    do {
      step(items[i]!, i);
      i += 1;
    } while (i < items.length && performance.now() - start < SLICE_MS);
    if (i < items.length) await yieldToLoop();
  }
}

/**
 * Imports an export (validated, or prepared by {@link readExport}); a note already present (same scope,
 * text, key and creation time) is skipped. All or nothing: one bad note and nothing is written, not even
 * the scope.
 */
export async function importNotes(
  target: ImportTarget,
  data: NotesExport | PreparedExport,
  scope: string,
  onProgress: (embedded: number, total: number) => void,
): Promise<{ added: number; skipped: number; trimmed: number }> {
  const direct = data.notes.length <= DIRECT_IMPORT_MAX;
  let notes: readonly PreparedNote[];
  if ('prepared' in data) notes = data.notes;
  else if (direct) notes = data.notes.map(prepareNote);
  else {
    const prepared: PreparedNote[] = [];
    await inSlices(data.notes, (note) => prepared.push(prepareNote(note)));
    notes = prepared;
  }
  if (!SCOPE_NAME.test(scope)) throw NotesErrors.error('SCOPE_INVALID.badName', { name: scope });
  const fresh: PreparedNote[] = [];
  const keep = (note: PreparedNote) => {
    if (!target.importedAlready(scope, note)) fresh.push(note);
  };
  if (direct) notes.forEach(keep);
  else await inSlices(notes, keep);
  const skipped = notes.length - fresh.length;
  const trimmed = fresh.filter((note) => note.trimmed).length;
  // No await without an embedder: a small import is then written before this call returns, as before.
  const vectors =
    target.embeds && fresh.length > 0
      ? await target.embed(
          fresh.map((note) => note.content),
          onProgress,
        )
      : fresh.map(() => undefined);
  if (direct) {
    // The scope is created inside the same transaction: a failed import leaves nothing, not even it.
    target.db
      .transaction(() => {
        target.ensureScope(scope);
        fresh.forEach((note, i) => target.insert(scope, note, vectors[i]));
      })
      .immediate();
  } else {
    await importStaged(target, fresh, vectors, scope);
  }
  return { added: fresh.length, skipped, trimmed };
}

/** Writes the notes under a staging scope in slices, commits, and moves them into `scope` (see the file's head). */
async function importStaged(
  target: ImportTarget,
  notes: readonly PreparedNote[],
  vectors: ReadonlyArray<Float32Array | undefined>,
  scope: string,
): Promise<void> {
  const { db } = target;
  const staging = `${STAGING}${process.pid}-${randomBytes(6).toString('hex')}`;
  db.prepare('INSERT INTO scopes (name, created_at) VALUES (?, ?)').run(staging, target.now());
  const slices = new SliceClock(Checkpointer.start(db));
  try {
    try {
      for (let i = 0; i < notes.length;) {
        slices.run(db, (start) => {
          do {
            target.insert(staging, notes[i]!, vectors[i]);
            i += 1;
          } while (i < notes.length && slices.more(start));
        });
        await slices.pause();
      }
    } catch (error) {
      await discardInSlices(target, staging).catch(() => {
        // Left for the next writable open to sweep (this process will be gone then); the import's own error
        // is the one to report.
      });
      throw error;
    }
    db.transaction(() => {
      target.ensureScope(scope);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(committedKey(staging), scope);
    }).immediate();
    // Committed: from here on the import is finished, by this process or by the next open after a crash.
    while (!slices.run(db, (start) => moveSlice(db, staging, scope, () => slices.more(start)))) await slices.pause();
  } finally {
    slices.checkpointer?.stop();
  }
  db.transaction(() => finish(target, staging, vectors.some(Boolean))).immediate();
}

/**
 * Times an import's slices so that each, its commit included, holds the thread about {@link SLICE_MS}: the
 * work of the next slice gets what the last commit left of it. A slice commits without waiting for the disk
 * (`synchronous = NORMAL`, then the connection's own setting again before anything else runs on it): losing
 * the last slices to a power cut leaves a staged import the next open deletes, or a committed one it
 * finishes. The transactions that decide (the commit record, the last one) wait for the disk as usual.
 *
 * Checkpoints: a connection copies its WAL back into the database at the commit that grows the WAL past
 * 1,000 pages, on the committing thread (30–70 ms inside a slice). During the slices that is off, and a
 * worker thread checkpoints instead after each slice while the import waits (the event loop free): the WAL
 * is then wholly copied and the next slice starts it afresh, so it holds one slice's pages at most.
 */
class SliceClock {
  #commitMs = 0;

  /** @param checkpointer the WAL's checkpoints off this thread, or none (the connection's own, as usual) */
  constructor(readonly checkpointer: Checkpointer | undefined) {}

  /** Whether a slice begun at `start` may do more work. */
  more(start: number): boolean {
    return performance.now() - start < Math.max(MIN_WORK_MS, SLICE_MS - this.#commitMs);
  }

  /** Runs one slice's work in its own transaction and returns what the work returned. */
  run<T>(db: SqliteDatabase, work: (start: number) => T): T {
    const synchronous = db.pragma('synchronous', { simple: true }) as number;
    const autocheckpoint = db.pragma('wal_autocheckpoint', { simple: true }) as number;
    db.pragma('synchronous = NORMAL');
    if (this.checkpointer?.running) db.pragma('wal_autocheckpoint = 0');
    try {
      let done = 0;
      const result = db
        .transaction(() => {
          const value = work(performance.now());
          done = performance.now();
          return value;
        })
        .immediate();
      this.#commitMs = performance.now() - done;
      return result;
    } finally {
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
    }
  }

  /**
   * Serves the event loop before the next slice, while the worker copies the WAL back into the database:
   * the next slice then starts the WAL afresh, so it never holds more than a slice's pages.
   */
  async pause(): Promise<void> {
    await yieldToLoop();
    await this.checkpointer?.checkpoint();
  }
}

/**
 * Checkpoints the WAL from a worker thread of its own (see {@link SliceClock}). If the worker cannot open the
 * file or fails, the connection's own checkpoints come back: the slices then take longer, nothing else
 * changes.
 */
class Checkpointer {
  #worker: Worker;
  #waiting: (() => void) | undefined;
  #failed = false;

  private constructor(path: string) {
    this.#worker = new Worker(workerEntry('checkpoint-worker'), {
      workerData: { path } satisfies CheckpointWorkerData,
    });
    this.#worker.on('message', (message: FromCheckpointWorker) => {
      if (message.type === 'failed') this.#fail();
      else this.#answer();
    });
    this.#worker.on('error', () => this.#fail());
    // Not unref'd: an import waiting for a checkpoint keeps the process alive (stop() ends the worker).
    this.#worker.on('exit', () => this.#fail());
  }

  /** A checkpointer for `db`'s file, or none for a database without one (in memory, or not in WAL mode). */
  static start(db: SqliteDatabase): Checkpointer | undefined {
    const main = (db.pragma('database_list') as Array<{ name: string; file: string }>).find((d) => d.name === 'main');
    const wal = String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
    return main?.file && wal ? new Checkpointer(main.file) : undefined;
  }

  /** Whether the worker checkpoints (so the connection need not). */
  get running(): boolean {
    return !this.#failed;
  }

  /** Runs a checkpoint in the worker; resolves when it is done, or at once if the worker failed. */
  checkpoint(): Promise<void> {
    if (this.#failed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#waiting = resolve;
      this.#worker.postMessage('checkpoint');
    });
  }

  /** Ends the worker once its checkpoint under way (if any) is done; it closes its connection. */
  stop(): void {
    this.#failed = true;
    this.#worker.postMessage('stop');
  }

  #answer(): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.();
  }

  #fail(): void {
    if (!this.#failed) void this.#worker.terminate();
    this.#failed = true;
    this.#answer();
  }
}

/** Moves staged notes into their scope while `more()`; true when none are left. */
function moveSlice(db: SqliteDatabase, staging: string, scope: string, more: () => boolean): boolean {
  const move = db.prepare('UPDATE notes SET scope = ? WHERE id IN (SELECT id FROM notes WHERE scope = ? LIMIT ?)');
  do {
    if (move.run(scope, staging, ROWS_PER_MOVE).changes < ROWS_PER_MOVE) return true;
  } while (more());
  return false;
}

/** The last step of a committed import: the record and the staging scope go. */
function finish(target: Pick<ImportTarget, 'db' | 'vectorsChanged'>, staging: string, vectors: boolean): void {
  target.db.prepare('DELETE FROM meta WHERE key = ?').run(committedKey(staging));
  target.db.prepare('DELETE FROM scopes WHERE name = ?').run(staging);
  // The in-memory vector indexes hold the staging scope for the moved notes: every process rebuilds its own.
  if (vectors) target.vectorsChanged();
}

/** Deletes up to {@link ROWS_PER_STATEMENT} staged notes; true when none are left. */
function discardSlice(target: Pick<ImportTarget, 'db' | 'forget'>, staging: string): boolean {
  const ids = target.db
    .prepare('SELECT id FROM notes WHERE scope = ? LIMIT ?')
    .pluck()
    .all(staging, ROWS_PER_STATEMENT) as number[];
  target.forget(ids);
  if (ids.length < ROWS_PER_STATEMENT) {
    target.db.prepare('DELETE FROM scopes WHERE name = ?').run(staging);
    return true;
  }
  return false;
}

async function discardInSlices(target: ImportTarget, staging: string): Promise<void> {
  for (;;) {
    const start = performance.now();
    const done = target.db
      .transaction(() => {
        let empty = false;
        while (!empty && performance.now() - start < SLICE_MS) empty = discardSlice(target, staging);
        return empty;
      })
      .immediate();
    if (done) return;
    await yieldToLoop();
  }
}

/** Whether process `pid` (on this machine) still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * At a writable open: the staged notes of imports whose process is gone are deleted, or, when the import
 * was committed, moved into their scope. An import of a live process (this one's, another console's) is
 * left to it. Returns how many imports were swept.
 */
export function sweepImports(
  target: Pick<ImportTarget, 'db' | 'forget' | 'vectorsChanged'>,
  log: (message: string) => void,
): number {
  const { db } = target;
  const stagings = db
    .prepare('SELECT name FROM scopes WHERE name >= ? AND name < ?')
    .pluck()
    .all(STAGING, `${STAGING}\uffff`) as string[];
  let swept = 0;
  for (const staging of stagings) {
    const pid = Number(/^~import-(\d+)-/.exec(staging)?.[1]);
    if (Number.isSafeInteger(pid) && alive(pid)) continue;
    const scope = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(committedKey(staging)) as
      string | undefined;
    db.transaction(() => {
      if (scope === undefined) while (!discardSlice(target, staging));
      else {
        while (!moveSlice(db, staging, scope, () => true));
        finish(target, staging, true);
      }
    }).immediate();
    log(
      `notes: an import cut short (${staging}) was ${scope === undefined ? 'rolled back' : `finished into scope "${scope}"`}`,
    );
    swept += 1;
  }
  return swept;
}

/** What an export reads through. */
export interface ExportSource {
  /** Up to `limit` notes of `scope` after ID `after`, in ID order, as the export file holds them. */
  page(scope: string, after: number, limit: number): Array<{ id: number; note: NotesExport['notes'][number] }>;
  now(): string;
}

/**
 * A scope's export as JSON text, with its number of notes, read and written in slices: the same text as
 * `JSON.stringify(export, null, indent)` without holding the event loop for a large scope.
 */
export async function exportText(
  source: ExportSource,
  scope: string,
  indent: 0 | 2,
): Promise<{ text: string; count: number }> {
  const head = { format: 'mira-notes', version: 1, scope, exported_at: source.now() };
  // Each slice's notes joined in that slice: the last step joins a few hundred pieces, not every note.
  const chunks: string[] = [];
  let count = 0;
  const nl = indent === 0 ? '' : '\n';
  const pad = (depth: number) => ' '.repeat(indent * depth);
  let after = 0;
  for (;;) {
    const start = performance.now();
    let pages = 0;
    let rows: ReturnType<ExportSource['page']> = [];
    const parts: string[] = [];
    do {
      rows = source.page(scope, after, ROWS_PER_STATEMENT);
      for (const { id, note } of rows) {
        const text = JSON.stringify(note, null, indent || undefined);
        parts.push(`${nl}${pad(2)}${indent === 0 ? text : text.replaceAll('\n', `\n${pad(2)}`)}`);
        after = id;
      }
    } while (rows.length === ROWS_PER_STATEMENT && ++pages < PAGES_PER_SLICE && performance.now() - start < SLICE_MS);
    if (parts.length > 0) chunks.push(parts.join(','));
    count += parts.length;
    if (rows.length < ROWS_PER_STATEMENT) break;
    await yieldToLoop();
  }
  const headText = JSON.stringify(head, null, indent || undefined);
  const notes = count === 0 ? '[]' : `[${chunks.join(',')}${nl}${pad(1)}]`;
  // The head without its closing brace, then the notes as its last member.
  const text = `${headText.slice(0, -(nl.length + 1))},${nl}${pad(1)}"notes":${indent === 0 ? '' : ' '}${notes}${nl}}`;
  return { text, count };
}

/**
 * A scope's export as an object, read in slices that each hold the event loop briefly: the notes
 * {@link exportText} writes, for a caller that wants them rather than the file's text.
 */
export async function exportNotes(source: ExportSource, scope: string): Promise<NotesExport> {
  const exported = source.now();
  const notes: Array<NotesExport['notes'][number]> = [];
  let after = 0;
  for (;;) {
    const start = performance.now();
    let pages = 0;
    let rows: ReturnType<ExportSource['page']> = [];
    do {
      rows = source.page(scope, after, ROWS_PER_STATEMENT);
      for (const { id, note } of rows) {
        notes.push(note);
        after = id;
      }
    } while (rows.length === ROWS_PER_STATEMENT && ++pages < PAGES_PER_SLICE && performance.now() - start < SLICE_MS);
    if (rows.length < ROWS_PER_STATEMENT) break;
    await yieldToLoop();
  }
  return { format: 'mira-notes', version: 1, scope, exported_at: exported, notes };
}
