// The checkpoint worker of a large import: copies the WAL's pages into the database file on its own
// connection, off the runtime's thread, while the import writes its slices (see Checkpointer in transfer-slices.ts).
// A passive checkpoint waits for nobody and is waited for by nobody: the import's writes go on meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** What the runtime's thread hands the worker. */
export interface CheckpointWorkerData {
  readonly path: string;
}

/** What the worker sends back: after each checkpoint, or why it cannot make one (it is then stopped). */
export type FromCheckpointWorker =
  { readonly type: 'checkpointed' } | { readonly type: 'failed'; readonly reason: string };

const { path } = workerData as CheckpointWorkerData;
let db: Database.Database | undefined;
try {
  db = new Database(path, { fileMustExist: true });
  // Another connection's checkpoint in progress: skip this round rather than wait.
  db.pragma('busy_timeout = 0');
} catch (error) {
  parentPort!.postMessage({ type: 'failed', reason: (error as Error).message } satisfies FromCheckpointWorker);
}
parentPort!.on('message', (message: 'checkpoint' | 'stop') => {
  if (message === 'stop') {
    db?.close();
    db = undefined;
    parentPort!.close();
    return;
  }
  if (db === undefined) return;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
    parentPort!.postMessage({ type: 'checkpointed' } satisfies FromCheckpointWorker);
  } catch (error) {
    parentPort!.postMessage({ type: 'failed', reason: (error as Error).message } satisfies FromCheckpointWorker);
  }
});
