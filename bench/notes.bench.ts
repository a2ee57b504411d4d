import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { hashedBagOfWords } from '@mira/core/testing';
import {
  NOTES_SCHEMA,
  NOTE_VECTORS_DDL,
  NOTE_VECTORS_TABLE,
  SqliteNotesStore,
  binaryCode,
  type Embedder,
  type Viewer,
} from '@mira/plugin-notes';
import { terminalProgress } from '@mira/core';
import { MIRA_APPLICATION_IDS } from '@mira/sqlite';
import { CACHE_DIR } from './lib/generate.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, rng, timeEach, timeInterleaved, type InterleavedLatency } from './lib/stats.js';

export interface NotesBenchOptions {
  readonly notes: number;
  readonly queries: number;
  /** The sizes at which full-text search is timed call by call beside bare statements, smallest first. */
  readonly fullTextSizes?: readonly number[];
  readonly log: (m: string) => void;
}

const DIMENSION = 64;
/** sqlite-vec's exact (brute-force) KNN over the same vectors: the baseline, in a table the store does not read. */
const EXACT_TABLE = 'bench_exact_vec0';
// A 20,000-word vocabulary with Zipf-like frequencies, like real text: a few words are everywhere, most are rare.
const SYLLABLES = [
  'ka',
  'to',
  'mi',
  're',
  'su',
  'na',
  'lo',
  'pe',
  'di',
  'ga',
  'vu',
  'ze',
  'ri',
  'mo',
  'ta',
  'ne',
  'bo',
  'li',
  'sa',
  'ku',
];
const WORDS = Array.from({ length: 20_000 }, (_, i) => {
  let n = i;
  let word = '';
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return word.length < 4 ? `${word}xo` : word;
});
const zipf = (random: () => number) =>
  Math.min(WORDS.length - 1, Math.floor(Math.exp(random() * Math.log(WORDS.length))) - 1);

/** An in-process embedder, so the benchmark measures the store, not HTTP. */
const embedder: Embedder = {
  name: 'bench:hashed-64',
  destination: 'in-process',
  embed: async (texts) => texts.map((t) => Float32Array.from(hashedBagOfWords(t, DIMENSION))),
};

function sentence(random: () => number, i: number): string {
  const words = Array.from({ length: 6 + Math.floor(random() * 8) }, () => WORDS[zipf(random)]!);
  return `${words.join(' ')} note${i}`;
}

export function generate(count: number, log: (m: string) => void): string {
  mkdirSync(CACHE_DIR, { recursive: true });
  const path = join(CACHE_DIR, `notes-zipf-v7-${count}.sqlite3`);
  if (existsSync(path)) return path;
  log(`generating ${count} notes with vectors into ${path}…`);
  const tmp = `${path}.building`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  sqliteVec.load(db);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(NOTES_SCHEMA.ddl);
  // The store's table (binary code and floats), and the same vectors in sqlite-vec for the exact baseline.
  db.exec(NOTE_VECTORS_DDL);
  db.exec(`CREATE VIRTUAL TABLE ${EXACT_TABLE} USING vec0(embedding float[${DIMENSION}] distance_metric=cosine)`);
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run(
    'embedder',
    embedder.name,
    'dimension',
    String(DIMENSION),
  );
  const random = rng(9);
  const note = db.prepare(
    "INSERT INTO notes (id, scope, content, created_at, updated_at) VALUES (?, 'default', ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
  );
  const label = db.prepare('INSERT INTO note_labels (note_id, label, position) VALUES (?, ?, 0)');
  const fts = db.prepare('INSERT INTO notes_fts (rowid, content, labels) VALUES (?, ?, ?)');
  const vec = db.prepare(`INSERT INTO ${NOTE_VECTORS_TABLE} (id, code, embedding) VALUES (?, ?, ?)`);
  const exact = db.prepare(`INSERT INTO ${EXACT_TABLE} (rowid, embedding) VALUES (?, ?)`);
  const bar = terminalProgress(process.stderr, 'generating notes', count);
  for (let start = 1; start <= count; start += 10_000) {
    db.transaction(() => {
      for (let id = start; id < Math.min(start + 10_000, count + 1); id += 1) {
        const content = sentence(random, id);
        const tag = ['fact', 'preference', 'event'][id % 3]!;
        note.run(id, content);
        label.run(id, tag);
        fts.run(id, content, tag);
        const vector = Float32Array.from(hashedBagOfWords(content, DIMENSION));
        const code = binaryCode(vector);
        vec.run(id, Buffer.from(code.buffer), Buffer.from(vector.buffer));
        exact.run(BigInt(id), vector);
      }
    })();
    bar.update(Math.min(start + 9_999, count));
  }
  bar.stop();
  db.pragma(`user_version = ${NOTES_SCHEMA.version}`);
  // Marked as Mira's notes file, as the store marks the files it makes (an unmarked one with extra tables is refused).
  db.pragma(`application_id = ${MIRA_APPLICATION_IDS.notes}`);
  db.pragma('journal_mode = WAL');
  db.close();
  // Opened once by the store, which adds what it makes at its first writable open (the filters' index): the
  // timed searches then read the file as a robot's store reads it every day, not while that first write is
  // still in the log and being checkpointed.
  SqliteNotesStore.open(tmp).close();
  renameSync(tmp, path);
  return path;
}

/** Full-text search through the store and as bare statements at one size, call by call, the order alternating. */
async function fullTextInterleaved(
  notes: number,
  queries: readonly string[],
  log: (m: string) => void,
): Promise<{ notes: number; store: InterleavedLatency; bare: InterleavedLatency; sameSql: InterleavedLatency }> {
  const path = generate(notes, log);
  log(`notes: full-text over ${notes} notes, store and bare call by call…`);
  const viewer: Viewer = { scopes: ['default', 'global'], key: null, operator: false };
  const store = SqliteNotesStore.open(path);
  // Each variant on its own connection, as the store is: SQLite's page cache is a connection's, so variants
  // sharing one would read each other's pages warm, and only the store would pay its cold reads.
  const db = new Database(path, { readonly: true });
  const sameDb = new Database(path, { readonly: true });
  const bare = bareFullText(db);
  const sameSql = bareFullText(sameDb, true);
  try {
    const timed = await timeInterleaved(
      queries,
      { store: (q: string) => store.search(viewer, q, null, 10), bare, sameSql },
      Math.min(200, Math.floor(queries.length / 4)),
    );
    return { notes, ...timed };
  } finally {
    store.close();
    db.close();
    sameDb.close();
  }
}

/** The FTS5 query of a two-word query, either word. */
const matchOf = (q: string) =>
  q
    .split(' ')
    .map((w) => `"${w}"`)
    .join(' OR ');

/**
 * The store's ranking in FTS5 terms: notes with every word first (the last word also a prefix, as typed
 * words are), then notes with either, as the store's search asks for them.
 */
const storeMatchesOf = (q: string) => {
  const [first, last] = q.split(' ');
  return [`"${first}" AND "${last}"*`, `"${first}" OR "${last}"*`];
};

/**
 * The store's full-text answer as bare statements: the ranked row IDs, then the 10 best visible notes and
 * labels. With `sameSql`, the row IDs as the store asks for them ({@link storeMatchesOf}: every word, then
 * either when fewer than 50 hold every word), so that what the store adds beyond its statements shows apart
 * from what its ranking costs.
 */
function bareFullText(db: Database.Database, sameSql = false): (q: string) => unknown[] {
  const fts = db
    .prepare('SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT 50')
    .pluck();
  const noteRow = db.prepare(
    "SELECT id, content, created_at FROM notes WHERE id = ? AND scope IN ('default', 'global') AND key_digest IS NULL",
  );
  const labelsOf = db.prepare('SELECT label FROM note_labels WHERE note_id = ? ORDER BY position').pluck();
  const ranked = (q: string): number[] => {
    if (!sameSql) return fts.all(matchOf(q)) as number[];
    const [every, either] = storeMatchesOf(q);
    const all = fts.all(every) as number[];
    if (all.length >= 50) return all;
    const seen = new Set(all);
    return [...all, ...(fts.all(either) as number[]).filter((id) => !seen.has(id))].slice(0, 50);
  };
  return (q) => {
    const found: unknown[] = [];
    for (const id of ranked(q)) {
      if (found.length === 10) break;
      const row = noteRow.get(id);
      if (row) found.push({ row, labels: labelsOf.all(id) });
    }
    return found;
  };
}

/** Runs the notes benchmark and writes bench/results/notes.{md,json,svg}. */
export async function notesBench(options: NotesBenchOptions): Promise<void> {
  const path = generate(options.notes, options.log);
  options.log(`notes: searching ${options.notes} notes…`);
  const random = rng(17);
  // Queries use words of middling frequency (ranks 50..5000), as a person's queries do.
  const pick = () => WORDS[50 + Math.floor(random() * 4950)]!;
  const queries = Array.from({ length: options.queries }, () => `${pick()} ${pick()}`);
  const viewer: Viewer = { scopes: ['default', 'global'], key: null, operator: false };
  const hybridStore = SqliteNotesStore.open(path, { embedder });
  const textStore = SqliteNotesStore.open(path);
  const hybrid = await timeEach(queries, (q) => hybridStore.search(viewer, q, null, 10));
  const fullText = await timeEach(queries, (q) => textStore.search(viewer, q, null, 10));
  hybridStore.close();
  textStore.close();

  const db = new Database(path, { readonly: true });
  sqliteVec.load(db);
  const fts = db
    .prepare('SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY bm25(notes_fts) LIMIT 50')
    .pluck();
  const knn = db.prepare(
    `SELECT rowid, distance FROM ${EXACT_TABLE} WHERE embedding MATCH ? AND k = 200 ORDER BY distance`,
  );
  const like = db.prepare('SELECT id FROM notes WHERE content LIKE ? OR content LIKE ? LIMIT 50').pluck();
  const bareFts = await timeEach(queries, (q) => fts.all(matchOf(q)));
  // The same result the store returns (the 10 best visible notes with their labels), as bare statements.
  const bareFtsNotes = await timeEach(queries, bareFullText(db));
  const bareVec = await timeEach(queries, async (q) => knn.all((await embedder.embed([q]))[0]!));
  const bareBoth = await timeEach(queries, async (q) => {
    fts.all(matchOf(q));
    knn.all((await embedder.embed([q]))[0]!);
  });
  const naive = await timeEach(queries, (q) => like.all(...q.split(' ').map((w) => `%${w}%`)), 20);
  db.close();

  const rows = [
    {
      measurement: 'full-text search (store)',
      'p50 µs': fmt(fullText.p50),
      'p99 µs': fmt(fullText.p99),
      baseline: 'bare FTS5 query + the same 10 notes and labels',
      'ratio p50': fmt(fullText.p50 / bareFtsNotes.p50, 2),
    },
    {
      measurement: 'full-text search (store)',
      'p50 µs': fmt(fullText.p50),
      'p99 µs': fmt(fullText.p99),
      baseline: 'bare FTS5 query (row IDs only)',
      'ratio p50': fmt(fullText.p50 / bareFts.p50, 2),
    },
    {
      measurement: 'bare FTS5 query + the same 10 notes and labels',
      'p50 µs': fmt(bareFtsNotes.p50),
      'p99 µs': fmt(bareFtsNotes.p99),
      baseline: '',
      'ratio p50': '1.00',
    },
    {
      measurement: 'hybrid search (store: FTS5 + binary codes re-scored, fused)',
      'p50 µs': fmt(hybrid.p50),
      'p99 µs': fmt(hybrid.p99),
      baseline: 'bare FTS5 + bare sqlite-vec',
      'ratio p50': fmt(hybrid.p50 / bareBoth.p50, 2),
    },
    {
      measurement: 'bare FTS5 query',
      'p50 µs': fmt(bareFts.p50),
      'p99 µs': fmt(bareFts.p99),
      baseline: '',
      'ratio p50': '1.00',
    },
    {
      measurement: 'bare sqlite-vec exact KNN (k = 200)',
      'p50 µs': fmt(bareVec.p50),
      'p99 µs': fmt(bareVec.p99),
      baseline: '',
      'ratio p50': '1.00',
    },
    {
      measurement: 'naive LIKE scan',
      'p50 µs': fmt(naive.p50),
      'p99 µs': fmt(naive.p99),
      baseline: 'bare FTS5 query',
      'ratio p50': fmt(naive.p50 / bareFts.p50, 2),
    },
  ];
  const perSize = [];
  for (const size of options.fullTextSizes ?? []) perSize.push(await fullTextInterleaved(size, queries, options.log));
  const sizeRows = perSize.map((r) => ({
    notes: r.notes,
    'store p50 µs': fmt(r.store.p50),
    'bare p50 µs': fmt(r.bare.p50),
    'p50 ratio': fmt(r.store.p50 / r.bare.p50, 2),
    'store p99 µs': fmt(r.store.p99),
    'bare p99 µs': fmt(r.bare.p99),
    'p99 ratio': fmt(r.store.p99 / r.bare.p99, 2),
    'same statements p50 µs': fmt(r.sameSql.p50),
    'same statements p99 µs': fmt(r.sameSql.p99),
    'store / same statements p50': fmt(r.store.p50 / r.sameSql.p50, 2),
    'store / same statements p99': fmt(r.store.p99 / r.sameSql.p99, 2),
  }));
  const md = `# Notes search benchmark

${options.notes} notes with ${DIMENSION}-dimension vectors (an in-process embedder, so the store is measured,
not HTTP); ${options.queries} two-word queries; results limited to 10 (the bare queries fetch the same
candidate pools the store fuses: 50 full-text rows, 200 nearest vectors). Target: store / bare ≤ 1.5.
The LIKE row shows what the index buys. Load average (1 / 5 / 15 min): ${loadAverage()}.

${markdownTable(rows)}
${
  sizeRows.length === 0
    ? ''
    : `
## Full-text search by size, call by call

The store's \`search\` without an embedder and the bare statements above (the FTS5 query, then the 10 best
visible notes and their labels) on the same ${options.queries} queries, one after the other with the order
alternating, at each size. Target: p50 ratio ≤ 1.5, p99 ratio ≤ 2. "Same statements" asks FTS5 what the
store asks (notes with every word first, the last word also a prefix, then notes with either word) and
reads the same rows: the store's cost beyond it is its own code; the bare FTS5 query's beyond it is what
the ranking costs.

${markdownTable(sizeRows)}`
}`;
  const svg = barChartSvg(`Notes search over ${options.notes} notes, p50`, 'µs (lower is better)', [
    {
      label: 'full-text',
      bars: [
        { series: 'store', value: fullText.p50 },
        { series: 'bare FTS5 + notes', value: bareFtsNotes.p50 },
        { series: 'bare FTS5 IDs', value: bareFts.p50 },
        { series: 'naive LIKE', value: naive.p50 },
      ],
    },
    {
      label: 'hybrid',
      bars: [
        { series: 'store', value: hybrid.p50 },
        { series: 'bare FTS5 + sqlite-vec', value: bareBoth.p50 },
      ],
    },
  ]);
  writeResults('notes', md, { hybrid, fullText, bareFts, bareFtsNotes, bareVec, bareBoth, naive, perSize }, svg);
  process.stdout.write(`${md}\n`);
}
