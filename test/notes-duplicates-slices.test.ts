import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { isMiraError } from '@mira/core';
import { SqliteNotesStore, type NotesExport, type Viewer } from '@mira/plugin-notes';
import {
  SCAN_SLICE_STEPS,
  nearDuplicatePairs,
  nearDuplicatePairsInSlices,
  nearDuplicateSimilarity,
} from '../plugins/notes/src/near-duplicates.js';

// Issue 49 item 7 and issue 51 item 2: a duplicates scan of any size never holds the runtime's thread for
// long, finds what the rules find, and stops when asked. Real SQLite files.

const NOTES = 20_000;
const operator = (scope: string): Viewer => ({ scopes: [scope], key: null, operator: true });

/** Deterministic filler: four made-up words, so no two fillers are about the same thing. */
function fillers(count: number, seed: number): string[] {
  let state = seed;
  const next = (below: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % below;
  };
  const word = () =>
    Array.from({ length: 7 }, (_, i) => (i % 2 ? 'aeiou'[next(5)] : 'bcdfghjklmnpqrstvwxz'[next(20)])).join('');
  return Array.from({ length: count }, () => `${word()} ${word()} ${word()} ${word()}`);
}

/** Near-duplicates (the same content words: punctuation, case, order, contractions) and near misses. */
const PLANTED = [
  [
    'Water the basil on the kitchen sill',
    'water the basil on the kitchen sill!',
    'On the kitchen sill, water the basil',
  ],
  ["Don't vacuum the hall before 9", 'Do not vacuum the hall before 9.', "don't vacuum the hall before 8"],
  [
    'Alice takes her coffee without sugar',
    'alice takes her coffee, without sugar',
    'Grace takes her coffee without sugar',
  ],
  [
    'The spare fuse is in the garage drawer',
    'The spare fuse is in the kitchen drawer',
    'the spare fuse is in the garage drawer',
  ],
  ['Bob likes green tea', "Bob doesn't like green tea", 'BOB LIKES GREEN TEA'],
  ['The dock code is 4711', 'the dock code is 4711.', 'The dock code is 4712'],
].flat();

function exportOf(scope: string, texts: readonly string[]): NotesExport {
  const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
  return {
    format: 'mira-notes',
    version: 1,
    scope,
    exported_at: '2026-01-01T00:00:00.000Z',
    notes: texts.map((content, i) => ({
      content,
      labels: [],
      private_key: null,
      created_at: at(i),
      updated_at: at(i),
    })),
  };
}

/**
 * The event loop's turns while `work` runs, counted by a chain of setImmediate callbacks (one per turn,
 * whatever the clock), and the longest time between two of them.
 */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number; longestGapMs: number }> {
  let turns = 0;
  let last = performance.now();
  let longestGapMs = 0;
  let running = true;
  const turn = () => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    turns += 1;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const result = await work();
    longestGapMs = Math.max(longestGapMs, performance.now() - last);
    return { result, turns, longestGapMs };
  } finally {
    running = false;
  }
}

describe('SqliteNotesStore#duplicates() over a large scope', function () {
  this.timeout(300_000);
  let dir: string;
  let store: SqliteNotesStore;
  // The planted notes' positions among the fillers (spread over the scope, past the old 5,000 bound).
  const texts = fillers(NOTES, 99);
  const plantedAt = PLANTED.map((_, k) => 300 + k * 330);
  PLANTED.forEach((text, k) => (texts[plantedAt[k]!] = text));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-dup-slices-'));
    store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
    await store.importNotes(exportOf('big', texts));
    await store.importNotes(exportOf('mid', texts.slice(0, 6_000)));
  });
  after(() => {
    store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`serves the event loop throughout a scan of ${NOTES.toLocaleString('en')} notes`, async () => {
    const { result, turns, longestGapMs } = await turnsDuring(() => store.duplicates(operator('big')));
    // The facts of every note alone are at least NOTES / SCAN_SLICE_STEPS slices, each ended by a turn.
    expect(turns).to.be.at.least(Math.floor(NOTES / SCAN_SLICE_STEPS));
    // Slices are 20 ms; the bound is generous for a machine whose cores are both busy.
    expect(longestGapMs).to.be.below(1_000);
    expect(result.length).to.be.greaterThan(0);
  });

  it('finds over 6,000 notes exactly the pairs a check of every planted pair finds', async () => {
    const found = (await store.duplicates(operator('mid'))).map(({ a, b, similarity }) => [
      a.content,
      b.content,
      similarity,
    ]);
    const planted = PLANTED;
    expect(Math.max(...plantedAt)).to.be.within(5_000, 6_000);
    const brute: Array<[string, string, number]> = [];
    for (let x = 0; x < planted.length; x += 1) {
      for (let y = x + 1; y < planted.length; y += 1) {
        const similarity = nearDuplicateSimilarity(planted[x]!, planted[y]!);
        if (similarity !== undefined) brute.push([planted[x]!, planted[y]!, similarity]);
      }
    }
    expect(brute.length).to.be.greaterThan(5);
    expect(found).to.deep.equal(brute);
  });

  it('stops when its signal is aborted: no more progress, the store usable at once', async () => {
    const controller = new AbortController();
    let reports = 0;
    let atAbort = -1;
    const scan = store.duplicates(operator('big'), {
      signal: controller.signal,
      onProgress: (done, total) => {
        reports += 1;
        if (atAbort < 0 && done > total / 4) {
          controller.abort();
          atAbort = reports;
        }
      },
    });
    const stopped: unknown = await scan.catch((error: unknown) => error);
    expect(isMiraError(stopped) && stopped.code).to.equal('MIRA_ERR_NOTES_STOPPED');
    expect(reports).to.equal(atAbort);
    // Nothing is held: a write and a read go through at once.
    const { note } = await store.save('big', 'The kettle is in the pantry', null, null);
    expect(store.get(note.id, operator('big'))?.content).to.equal('The kettle is in the pantry');
    // Turns go by and the stopped scan reports nothing more.
    for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(reports).to.equal(atAbort);
    store.delete(note.id, operator('big'), 'big');
  });

  it('gives in slices the pairs it gives at once', async () => {
    const sample = texts
      .slice(0, 3_000)
      .concat(
        Array.from({ length: 200 }, (_, i) =>
          i % 2 ? 'The robot charges at the dock' : 'the robot charges at the dock!',
        ),
      );
    expect(await nearDuplicatePairsInSlices(sample)).to.deep.equal(nearDuplicatePairs(sample));
  });
});
