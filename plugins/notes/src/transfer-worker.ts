// The import's worker thread: the export's bytes are decoded, parsed, validated and every note prepared
// here, so none of it holds the runtime's event loop (JSON.parse of 28 MB alone takes about half a second).
// The prepared notes go back in batches of about a megabyte each, so the runtime's thread never takes
// one long message either. See readExport in transfer.ts for the protocol.
import { parentPort, workerData } from 'node:worker_threads';
import {
  jsonNesting,
  prepareNote,
  validateNotesExport,
  type NotesExport,
  type PreparedNote,
} from './transfer-format.js';
import type { FromTransferWorker, TransferWorkerData } from './transfer.js';

/** Characters of note text per message back. */
const BATCH_CHARS = 1_000_000;

function run({ bytes, maxDepth }: TransferWorkerData): FromTransferWorker {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (maxDepth !== null) {
    const depth = jsonNesting(text);
    if (depth > maxDepth) return { type: 'failed', failure: { kind: 'tooDeep', depth } };
  }
  let data: unknown;
  try {
    data = JSON.parse(text || '{}');
  } catch (error) {
    return { type: 'failed', failure: { kind: 'notJson', reason: (error as Error).message } };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { type: 'failed', failure: { kind: 'notJson', reason: 'not an object' } };
  }
  const invalid = validateNotesExport(data);
  if (invalid) return { type: 'failed', failure: { kind: 'notExport', invalid } };
  const { scope, notes } = data as NotesExport;
  // Every note is checked before any is sent: a bad note late in the file and nothing is written.
  const prepared: PreparedNote[] = [];
  for (const [index, note] of notes.entries()) {
    try {
      prepared.push(prepareNote(note));
    } catch {
      // The runtime's thread checks this note again and raises its catalogued error itself.
      return { type: 'badNote', index, note };
    }
  }
  let batch: PreparedNote[] = [];
  let chars = 0;
  for (const note of prepared) {
    batch.push(note);
    chars += note.content.length + note.indexed.length;
    if (chars >= BATCH_CHARS) {
      parentPort!.postMessage({ type: 'notes', notes: batch } satisfies FromTransferWorker);
      batch = [];
      chars = 0;
    }
  }
  if (batch.length > 0) parentPort!.postMessage({ type: 'notes', notes: batch } satisfies FromTransferWorker);
  return { type: 'done', scope, total: prepared.length };
}

parentPort!.postMessage(run(workerData as TransferWorkerData));
