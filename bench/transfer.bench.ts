// A large notes import and export, and how long they hold the runtime's thread (issue 49 item 7: ~50 ms at
// a time). The export file is read in a worker and written in slices (plugins/notes/src/transfer.ts); the
// longest block is the event loop's longest delay while it runs (perf_hooks.monitorEventLoopDelay), which on
// a loaded machine includes the time the OS gives other processes. Baseline, in the same run: parsing the
// same bytes on the thread (JSON.parse alone, the least an import in one piece holds it for; the store's
// import before slicing also wrote every note inside that block).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SqliteNotesStore, readExport } from '@mira/plugin-notes';
import { markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage } from './lib/stats.js';

const WORDS = 'robot kitchen charger battery dock tea coffee garden window door drawer shelf lamp alice bob'.split(' ');

/** The bytes of a notes export of about `bytes` bytes, as `notes export` writes it; every tenth note keyed. */
export function largeExportBytes(bytes: number): Buffer {
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const notes: object[] = [];
  for (let size = 0, i = 0; size < bytes; i += 1) {
    const words = Array.from({ length: 10 + Math.floor(next() * 60) }, () => WORDS[Math.floor(next() * WORDS.length)]);
    const at = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
    const note = {
      content: `note ${i}: ${words.join(' ')}`,
      labels: i % 3 === 0 ? [] : ['house', `l${i % 7}`],
      private_key: i % 10 === 0 ? 'k' : null,
      created_at: at,
      updated_at: at,
    };
    notes.push(note);
    size += JSON.stringify(note, null, 2).length + 6;
  }
  const data = { format: 'mira-notes', version: 1, scope: 'imported', exported_at: '2026-01-01T00:00:00.000Z', notes };
  return Buffer.from(`${JSON.stringify(data, null, 2)}\n`);
}

interface Blocking {
  readonly ms: number;
  readonly longestMs: number;
  readonly p99Ms: number;
  /** Turns of a 1 ms timer that came more than 50 ms after the one before. */
  readonly over50: number;
}

/** `work`'s time and how long the event loop was held while it ran. */
async function blocking(work: () => Promise<unknown>): Promise<Blocking> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  let last = performance.now();
  let over50 = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 50) over50 += 1;
    last = now;
  }, 1);
  delay.enable();
  const start = performance.now();
  await work();
  const ms = performance.now() - start;
  delay.disable();
  clearInterval(timer);
  return { ms, longestMs: delay.max / 1e6, p99Ms: delay.percentile(99) / 1e6, over50 };
}

export async function transferBench(options: {
  readonly bytes: number;
  readonly rounds: number;
  readonly log: (m: string) => void;
}): Promise<void> {
  const bytes = largeExportBytes(options.bytes);
  const megabytes = (bytes.length / 1e6).toFixed(1);
  const rows: Array<Record<string, string | number>> = [];
  const data: Record<string, Blocking[]> = { parse: [], import: [], export: [] };
  for (let round = 0; round < options.rounds; round += 1) {
    options.log(`transfer: round ${round + 1} of ${options.rounds}, a ${megabytes} MB export…`);
    const dir = mkdtempSync(join(tmpdir(), 'mira-bench-transfer-'));
    const store = SqliteNotesStore.open(join(dir, 'notes.db'));
    try {
      // One block with no turn of the loop inside it: its length is its time.
      const parsing = await blocking(async () => JSON.parse(bytes.toString('utf8')));
      data.parse!.push({ ...parsing, longestMs: parsing.ms, over50: parsing.ms > 50 ? 1 : 0 });
      let notes = 0;
      // The bytes move to the worker: a copy of them, made before the clock starts (the console reads the
      // file afresh, off the thread).
      const copy = Buffer.from(bytes);
      data.import!.push(
        await blocking(async () => {
          const read = await readExport(copy, { maxDepth: 32 });
          if (!read.ok) throw new Error(`not an export: ${JSON.stringify(read.failure)}`);
          notes = (await store.importNotes(read.data)).added;
        }),
      );
      data.export!.push(await blocking(() => store.exportText('imported', 2)));
      options.log(`transfer: ${notes} notes imported`);
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const worst = (list: readonly Blocking[], key: keyof Blocking) => Math.max(...list.map((b) => b[key]));
  const parseBlock = worst(data.parse!, 'longestMs');
  for (const [what, list] of [
    ['JSON.parse of the bytes on the thread (baseline)', data.parse!],
    [`import: read in a worker, written in slices`, data.import!],
    ['export of the imported scope, in slices', data.export!],
  ] as const) {
    rows.push({
      what,
      'time, ms': fmt(worst(list, 'ms')),
      'longest block, ms': fmt(worst(list, 'longestMs')),
      'p99 delay, ms': fmt(worst(list, 'p99Ms')),
      'blocks > 50 ms': worst(list, 'over50'),
      'longest block / baseline': (worst(list, 'longestMs') / parseBlock).toFixed(2),
    });
  }
  const importLongest = worst(data.import!, 'longestMs');
  const md = [
    '# Notes import and export: how long the runtime thread is held',
    '',
    `A ${megabytes} MB notes export (${options.rounds} round${options.rounds === 1 ? '' : 's'}, the worst of each figure), into a fresh`,
    "SQLite file on disk. Longest block: the event loop's longest delay while the work runs",
    '(perf_hooks.monitorEventLoopDelay, 1 ms resolution); on a loaded machine it includes time the OS gives',
    'other processes. Baseline: JSON.parse of the same bytes on the thread, the least an import in one piece',
    `holds it for. Target: ~50 ms at a time (${importLongest <= 60 ? 'met' : 'MISSED'} by the import: ${fmt(importLongest)} ms).`,
    `Load average (1 / 5 / 15 min): ${loadAverage()}.`,
    '',
    markdownTable(rows),
    '',
  ].join('\n');
  writeResults('transfer', md, { bytes: bytes.length, rounds: options.rounds, ...data });
  process.stdout.write(`${md}\n`);
}
