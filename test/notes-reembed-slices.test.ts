import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { hashedBagOfWords } from '@mira/core/testing';
import { SqliteNotesStore, type Embedder, type NotesExport, type Viewer } from '@mira/plugin-notes';

// Issue 49 item 7: `notes reembed` never holds the runtime's thread for long, however many notes, and the
// vectors are replaced all at once. Real SQLite files.

const NOTES = 20_000;
const operator: Viewer = { scopes: ['big'], key: null, operator: true };
const VECTORS = 'note_vectors_v3';

/** The loop's turn when an embedder last answered. */
let answeredAt = 0;

/** Deterministic vectors of a given size, under a name; `during` runs before the first batch is answered. */
function embedder(name: string, dimension: number, during: () => void = () => {}): Embedder {
  let first = true;
  return {
    name,
    destination: 'this test',
    embed: async (texts) => {
      if (first) during();
      first = false;
      await new Promise((resolve) => setImmediate(resolve));
      answeredAt = loop.turns;
      return texts.map((t) => Float32Array.from(hashedBagOfWords(t, dimension)));
    },
  };
}

function exportOf(count: number): NotesExport {
  const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
  return {
    format: 'mira-notes',
    version: 1,
    scope: 'big',
    exported_at: at,
    notes: Array.from({ length: count }, (_, i) => ({
      content: `note ${i}: the ${['kettle', 'charger', 'lamp', 'drawer'][i % 4]} is in room ${i % 97}`,
      labels: [],
      private_key: null,
      created_at: at,
      updated_at: at,
    })),
  };
}

/** The event loop's turns while `work` runs (a chain of setImmediate callbacks, one a turn) and the longest gap. */
const loop = { turns: 0 };
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number; longestGapMs: number }> {
  loop.turns = 0;
  let last = performance.now();
  let longestGapMs = 0;
  let running = true;
  const turn = () => {
    const now = performance.now();
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
    loop.turns += 1;
    if (running) setImmediate(turn);
  };
  setImmediate(turn);
  try {
    const result = await work();
    longestGapMs = Math.max(longestGapMs, performance.now() - last);
    return { result, turns: loop.turns, longestGapMs };
  } finally {
    running = false;
  }
}

describe('SqliteNotesStore#reembed() over many notes', function () {
  this.timeout(300_000);
  let dir: string;
  let path: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-reembed-slices-'));
    path = join(dir, 'notes.sqlite3');
    const store = SqliteNotesStore.open(path, { embedder: embedder('test:first', 32) });
    await store.importNotes(exportOf(NOTES));
    store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const rows = (sql: string) => {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare(sql).pluck().get() as number;
    } finally {
      db.close();
    }
  };

  it(`replaces the vectors of ${NOTES.toLocaleString('en')} notes in slices, the event loop served throughout`, async () => {
    // A table a crashed reembed left behind: started afresh.
    const db = new Database(path);
    db.exec(`CREATE TABLE ${VECTORS}_next (id INTEGER PRIMARY KEY, code BLOB NOT NULL, embedding BLOB NOT NULL)`);
    db.prepare(`INSERT INTO ${VECTORS}_next VALUES (1, x'00', x'00')`).run();
    db.close();
    let deleted = 0;
    const store: SqliteNotesStore = SqliteNotesStore.open(path, {
      // A note deleted while the notes are embedded leaves no vector.
      embedder: embedder('test:second', 16, () => (deleted = store.delete(5, operator, 'big').id)),
    });
    try {
      expect(store.embeddingState().mismatch).to.equal(true);
      const { result, turns, longestGapMs } = await turnsDuring(() => store.reembed());
      expect(result).to.equal(NOTES);
      // At least a turn per page of notes read and per batch of 64 embedded, then a turn per 500 vectors
      // written (no transaction writes more): the writing alone is 40 slices.
      expect(turns).to.be.at.least(NOTES / 500 + NOTES / 64);
      expect(turns - answeredAt).to.be.at.least(NOTES / 500);
      expect(longestGapMs).to.be.below(1_000);
      expect(deleted).to.equal(5);
      expect(store.embeddingState()).to.deep.equal({
        stored: 'test:second',
        dimension: 16,
        configured: 'test:second',
        mismatch: false,
      });
      expect((await store.search(operator, 'kettle room 4', null, 5)).mode).to.equal('hybrid');
    } finally {
      store.close();
    }
    expect(rows(`SELECT count(*) FROM ${VECTORS}`)).to.equal(NOTES - 1);
    expect(rows(`SELECT count(*) FROM ${VECTORS} WHERE id = 5`)).to.equal(0);
    expect(rows(`SELECT count(*) FROM sqlite_schema WHERE name = '${VECTORS}_next'`)).to.equal(0);
    expect(rows(`SELECT length(embedding) FROM ${VECTORS} LIMIT 1`)).to.equal(16 * 4);
  });
});
