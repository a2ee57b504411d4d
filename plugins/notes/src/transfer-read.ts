import { Worker } from 'node:worker_threads';
import { NotesErrors } from './errors.js';
import { prepareNote, type NotesExport, type PreparedExport, type PreparedNote } from './transfer-format.js';
import { notesWorker } from './transfer-slices.js';

/**
 * An export file read off the runtime's thread: decoded, parsed, validated and every note prepared in a
 * worker thread (transfer-worker.ts), which hands the notes over in batches the runtime takes one turn of
 * its event loop at a time.
 */

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
  const worker = new Worker(notesWorker('transfer-worker'), {
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
