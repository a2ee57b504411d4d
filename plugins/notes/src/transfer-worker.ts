// The import's worker thread: the export's bytes are decoded, parsed, validated and every note prepared
// here, so none of it holds the runtime's event loop (JSON.parse of 28 MB alone takes about half a second).
// The prepared notes go back in batches of a few hundred kilobytes, each sent when the runtime's thread
// has taken the one before, so that thread never decodes a long message or a queue of them at once. See
// readExport in transfer-read.ts for the protocol.
import { parentPort, workerData } from 'node:worker_threads';
import {
  jsonNesting,
  prepareNote,
  validateNotesExport,
  type NotesExport,
  type PreparedNote,
} from './transfer-format.js';
import type { FromTransferWorker, TransferWorkerData } from './transfer-read.js';

/** Characters of note text per message back (decoding one takes the runtime's thread a few ms). */
const BATCH_CHARS = 200_000;

/** Waits (this thread only) until the runtime's thread has taken `count` batches. */
function untilTaken(taken: Int32Array, count: number): void {
  // A short timeout so that a terminate() from the runtime's thread takes effect soon.
  for (let seen: number; (seen = Atomics.load(taken, 0)) < count;) Atomics.wait(taken, 0, seen, 100);
}

function run({ bytes, taken, maxDepth }: TransferWorkerData): FromTransferWorker {
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
  let sent = 0;
  const send = () => {
    // One batch waits in the runtime's queue at most.
    untilTaken(taken, sent);
    parentPort!.postMessage({ type: 'notes', notes: batch } satisfies FromTransferWorker);
    sent += 1;
    batch = [];
    chars = 0;
  };
  for (const note of prepared) {
    batch.push(note);
    chars += note.content.length + note.indexed.length;
    if (chars >= BATCH_CHARS) send();
  }
  if (batch.length > 0) send();
  untilTaken(taken, sent);
  return { type: 'done', scope, total: prepared.length };
}

parentPort!.postMessage(run(workerData as TransferWorkerData));
