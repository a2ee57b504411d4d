import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { NotesExport, Viewer } from '@mira/plugin-notes';

/** The operator's view of one scope: every note in it, keys ignored. */
export const operator = (scope = 'default'): Viewer => ({ scopes: [scope], key: null, operator: true });
/** A model call's view of one scope: unkeyed notes, and keyed ones with `key`. */
export const model = (scope = 'default', key: string | null = null): Viewer => ({
  scopes: [scope],
  key,
  operator: false,
});

/** `count` notes made by `make(i)`. */
export const many = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

/**
 * An export file for `importNotes`, which writes it in one transaction (hundreds of single saves would
 * each wait for a sync): a note is its text, or its text with labels and a key; the i-th note was
 * created i seconds into 2026.
 */
export function exportOf(
  scope: string,
  notes: ReadonlyArray<string | { content: string; labels?: string[]; key?: string | null }>,
): NotesExport {
  return {
    format: 'mira-notes',
    version: 1,
    scope,
    exported_at: '2026-04-01T08:00:00.000Z',
    notes: notes.map((note, i) => {
      const { content, labels = [], key = null } = typeof note === 'string' ? { content: note } : note;
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      return { content, labels, private_key: key, created_at: at, updated_at: at };
    }),
  };
}

/**
 * Another process writing the notes file: a worker thread with its own connection takes the write lock
 * (BEGIN IMMEDIATE), runs `writes` (each a statement and its parameters), and commits `holdMs` later.
 * Resolves once the lock is held, with a promise of the worker's end.
 */
export async function holdingWriteLock(
  path: string,
  writes: ReadonlyArray<readonly [string, ...unknown[]]>,
  holdMs: number,
): Promise<{ ended: Promise<unknown> }> {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.path, { timeout: 5000 });
     db.exec('BEGIN IMMEDIATE');
     for (const [sql, ...params] of workerData.writes) db.prepare(sql).run(...params);
     parentPort.postMessage('locked');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
     db.exec('COMMIT');
     db.close();`,
    {
      eval: true,
      workerData: { driver: createRequire(import.meta.url).resolve('better-sqlite3'), path, writes, holdMs },
    },
  );
  const ended = new Promise((resolve) => worker.once('exit', resolve));
  await new Promise((resolve) => worker.once('message', resolve));
  return { ended };
}
