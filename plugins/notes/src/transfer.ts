import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SqliteDatabase } from '@mira/sqlite';
import { NotesErrors } from './errors.js';
import { SCOPE_NAME_PATTERN } from './text.js';
import { prepareNote, type NotesExport, type PreparedExport, type PreparedNote } from './transfer-format.js';
import { Checkpointer, SLICE_MS, SliceClock, inSlices, yieldToLoop } from './transfer-slices.js';

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
 *
 * This file holds the import and its staging; beside it: transfer-read.ts (the export file read in a worker),
 * transfer-export.ts (export in slices), transfer-slices.ts (the slices' clock, checkpoints off the thread,
 * the workers' entries), transfer-format.ts (the file's format), and store/transfer-target.ts (the store's
 * side: what an import writes and an export reads through).
 */

// The package's index takes these from here, as it did before the transfer was split by concern.
export { SLICE_MS } from './transfer-slices.js';
export { readExport, type ReadFailure } from './transfer-read.js';

/** The most notes an import writes in one transaction, straight into its scope. */
export const DIRECT_IMPORT_MAX = 1000;
/** The staging scopes' prefix: `~` starts no scope name (see SCOPE_NAME_PATTERN). */
const STAGING = '~import-';
/** The meta row that marks a staging scope's import as committed; its value is the target scope. */
const committedKey = (staging: string) => `import:${staging}`;
const SCOPE_NAME = new RegExp(SCOPE_NAME_PATTERN);
/** Rows one statement of a discard takes. */
const ROWS_PER_STATEMENT = 256;
/**
 * Notes written before their full-text rows (see {@link ImportTarget.index}): one write-out of the text
 * indexes per run instead of per note, and a slice's clock looked at after each run (a run of 32 notes
 * takes ~1.5 ms).
 */
const INDEX_RUN = 32;
/** Rows one statement of a move takes (a moved row changes four indexes and its scope's counts: about 30 µs each). */
const ROWS_PER_MOVE = 32;

/** What an import writes through: the store's own statements (store/transfer-target.ts). */
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
  /** Writes a note with its labels and vector; returns its ID. Its text is indexed by {@link index}. */
  insert(scope: string, note: PreparedNote, vector: Float32Array | undefined): number;
  /**
   * Writes a note's full-text and filter index rows. Called for a run of notes after every one of them is
   * written ({@link INDEX_RUN}): SQLite asks the full-text indexes (FTS5) to write out what they hold in
   * memory at the start of each statement that may have to be undone alone, which every write of a note or
   * a label is (the Mind view's counts are kept by triggers, see store/scope-counts.ts). Interleaved, each
   * note's text became a segment of its own: an import of 20,000 notes took about twice as long.
   */
  index(id: number, note: PreparedNote): void;
  /** Deletes notes by ID with their labels, full-text rows and vectors. */
  forget(ids: readonly number[]): void;
  /** Tells every process that vectors changed other than by appending (a move changes their scope). */
  vectorsChanged(): void;
  now(): string;
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
        writeRun(target, scope, fresh, vectors, 0);
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
            const run = notes.slice(i, i + INDEX_RUN);
            writeRun(target, staging, run, vectors, i);
            i += run.length;
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
 * Writes `run` into `scope`, every note with its labels and vector (`vectors` from index `from`), then their
 * index rows (see {@link ImportTarget.index}).
 */
function writeRun(
  target: ImportTarget,
  scope: string,
  run: readonly PreparedNote[],
  vectors: ReadonlyArray<Float32Array | undefined>,
  from: number,
): void {
  const ids = run.map((note, k) => target.insert(scope, note, vectors[from + k]));
  run.forEach((note, k) => target.index(ids[k]!, note));
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
