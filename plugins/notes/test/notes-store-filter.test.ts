import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteNotesStore, foldForFilter, type Note, type Viewer } from '@mira/plugin-notes';
import { FILTER_INDEX_VERSION as FILTER_VERSION, filterWords } from '../src/store/filter-index.js';
import { exportOf, holdingWriteLock, many, operator } from './support.js';

/**
 * The browse filter reads the notes its index (trigrams of the folded text, store/filter-index.ts) points
 * at instead of folding every note; these tests hold it to what the filter means: a note passes when every
 * word of the filter (filterWords(): folded — NFKD, marks dropped, lower case — without function and question
 * words) is somewhere in the note's folded text, labels (`unlabeled` for none) or key; when no note holds
 * every word, a note passes when it holds any, and the list goes from the notes holding most of them down.
 * Any note the index failed to point at fails them.
 */

/** Texts that fold in every way the filter folds, in several scripts, with words inside words. */
const TEXTS = [
  'José takes tea every morning',
  'Le café est près de la fenêtre',
  'The ＴＥＡ caddy is empty',
  'ﬁnd the ﬂask in the oﬃce', // ligatures: NFKD makes them fi, fl, ffi
  'ΟΔΟΣ ΣΟΦΟΚΛΕΟΥΣ 12', // Greek capitals, a final sigma once lowered
  'Straße und Grüße aus Köln',
  'İstanbul’da ıslak bir gün',
  '커피를 마셨어요 오늘 아침에', // Hangul: NFKD splits each syllable into its letters
  '東京の天気は晴れ、明日は雨',
  'Feed the cat 🐈‍⬛ at 7 🕖 sharp',
  'Quote "the dock" and \'the shed\'',
  'factory facts: act, fact, exact, artefact',
  'a b c ab bc abc',
  'x',
];
const LABELS = [[], ['fact'], ['event', 'Fête'], ['Preference', 'fact'], ['ΦΩΣ'], ['키']];
const KEYS = [null, null, 'K-9', 'clé-secrète', null, 'ＡＢＣ'];

/** How many of the filter's words a note holds, computed without the store. */
function heldBy(note: Note, filter: string): number {
  const hay = [note.content, ...(note.labels.length > 0 ? note.labels : ['unlabeled']), note.privateKey ?? '']
    .map(foldForFilter)
    .join('\n');
  return filterWords(filter).filter((word) => hay.includes(word)).length;
}

/** What a browse with `filter` must find among `notes`: the filter's meaning, computed without the store. */
function expected(notes: readonly Note[], filter: string): number[] {
  const words = filterWords(filter).length;
  const every = notes.filter((note) => heldBy(note, filter) === words);
  const found = every.length > 0 || words < 2 ? every : notes.filter((note) => heldBy(note, filter) > 0);
  return found.map((note) => note.id).sort((a, b) => a - b);
}

/** Fixed-seed pseudo-random numbers, so a failure repeats. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Filters a person could type at these notes: pieces of 1 to 6 characters of their text, labels and keys
 * (as written, so the store folds them), one to three at a time, and some words no note holds.
 */
function filtersFor(notes: readonly Note[], count: number, seed: number): string[] {
  const random = rng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const pieces = notes.flatMap((n) => [n.content, ...n.labels, n.privateKey ?? 'none']).flatMap((t) => t.split(/\s+/u));
  const piece = () => {
    const chars = [...pick(pieces)];
    const start = Math.floor(random() * chars.length);
    return chars.slice(start, start + 1 + Math.floor(random() * 6)).join('');
  };
  return many(count, () =>
    random() < 0.1
      ? `${piece()} zqxj`
      : many(1 + Math.floor(random() * 3), piece)
          .filter(Boolean)
          .join(' '),
  );
}

describe('SqliteNotesStore.browse: the filter through its index finds exactly what the filter means', () => {
  let dir: string;
  let path: string;
  let store: SqliteNotesStore;
  const all = (s: SqliteNotesStore = store) => s.recent(operator(), 10_000);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-filter-'));
    path = join(dir, 'notes.sqlite3');
    store = SqliteNotesStore.open(path);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Every note and the count a browse with `filter` finds, each page followed to the end; a list of notes
   * holding some of the words goes from those holding most down, and within as many, by the sort (longest).
   */
  function found(filter: string, viewer: Viewer = operator(), s: SqliteNotesStore = store) {
    const notes: Note[] = [];
    let after: string | null = null;
    let matching: number | undefined;
    let partial: boolean | undefined;
    do {
      const page = s.browse(viewer, { filter, after, limit: 7, sort: 'longest' });
      matching ??= page.counts!.matching;
      partial ??= page.partial;
      expect(page.partial, filter).to.equal(partial);
      notes.push(...page.notes);
      after = page.next;
    } while (after !== null);
    const order = (note: Note) => [partial ? -heldBy(note, filter) : 0, -[...note.content].length, -note.id];
    const byOrder = [...notes].sort((a, b) => {
      const [x, y] = [order(a), order(b)];
      return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
    });
    expect(
      notes.map((n) => n.id),
      `the order of ${JSON.stringify(filter)}`,
    ).to.deep.equal(byOrder.map((n) => n.id));
    return { ids: notes.map((n) => n.id).sort((a, b) => a - b), matching };
  }

  /** Checks each filter against its meaning: the same notes, and a count of them. */
  function agree(filters: readonly string[], s: SqliteNotesStore = store): void {
    const notes = all(s);
    for (const filter of filters) {
      const want = expected(notes, filter);
      expect(found(filter, operator(), s), JSON.stringify(filter)).to.deep.equal({ ids: want, matching: want.length });
    }
  }

  async function seed(): Promise<void> {
    await store.importNotes(
      exportOf(
        'default',
        TEXTS.flatMap((content, i) =>
          LABELS.map((labels, j) => ({ content: `${content} ${i}-${j}`, labels, key: KEYS[j] ?? null })),
        ),
      ),
    );
  }

  it('finds every note holding each word, inside other words, across scripts, folded as the spec folds', async () => {
    await seed();
    const notes = all();
    expect(notes).to.have.length(TEXTS.length * LABELS.length);
    const pinned = [
      'act', // in fact, facts, exact, artefact and the label "fact"
      'fact',
      'FACT event',
      'jose',
      'CAFE fenetre',
      'tea',
      'find flask office',
      'ﬁ',
      'οδος',
      'ΣΟΦΟΚΛΕΟΥΣ',
      'φως',
      'strasse',
      'straße',
      'grusse',
      'istanbul',
      '커피',
      '커',
      '키',
      '東京',
      '天気は',
      '🐈',
      '🕖 sharp',
      '"the',
      'dock"',
      'k-9',
      'cle-secrete',
      'abc',
      'ab',
      'b',
      'unlabeled',
      'unlab 3-0',
      'fete',
      'x',
      '12 3-',
      'zqxj',
      'tea zqxj',
    ];
    agree(pinned);
    agree(filtersFor(notes, 300, 7));
  });

  it('reads a filter as the search tool reads a question: no function or question words, clitics or punctuation', () => {
    expect(filterWords('When is Lily swimming?')).to.deep.equal(['lily', 'swimming']);
    expect(filterWords("what can't Biscuit eat")).to.deep.equal(['biscuit', 'eat']);
    expect(filterWords("Where's Tom's charger")).to.deep.equal(['tom', 'charger']);
    expect(filterWords('how often are the fish fed')).to.deep.equal(['fish', 'fed']);
    expect(filterWords('how long is the fish tank')).to.deep.equal(['fish', 'tank']);
    // Inside a word punctuation stays (a key, a code); words come once, folded.
    expect(filterWords('k-9 (dock) Café café')).to.deep.equal(['k-9', 'dock', 'cafe']);
    // A filter of such words alone looks for them as typed.
    expect(filterWords('the')).to.deep.equal(['the']);
    expect(filterWords('"the')).to.deep.equal(['"the']);
  });

  it('ranks a list of notes holding some of the words across a scope and the global overlay, page by page', async () => {
    await seed();
    await store.importNotes(
      exportOf(
        'global',
        TEXTS.map((content, i) => ({ content: `${content} global ${i}`, labels: [], key: null })),
      ),
    );
    const viewer: Viewer = { scopes: ['default', 'global'], key: null, operator: true };
    const notes = [...all(), ...store.recent({ scopes: ['global'], key: null, operator: true }, 10_000)];
    for (const filter of ['tea morning zqxj', 'when is the cat fed at 7?', 'global fact zqxj', 'flask 12 café']) {
      const want = expected(notes, filter);
      expect(found(filter, viewer), filter).to.deep.equal({ ids: want, matching: want.length });
    }
    expect(store.browse(viewer, { filter: 'tea morning zqxj' }).partial).to.equal(true);
  });

  it('counts with the label the notes matching both, and shows a keyed note only to its key', async () => {
    await seed();
    const notes = all();
    for (const filter of ['act', 'fa', 'tea', 'ﬁnd']) {
      const withLabel = expected(notes, filter).filter((id) => notes.find((n) => n.id === id)!.labels.includes('fact'));
      const page = store.browse(operator(), { filter, label: 'fact', limit: 500 });
      expect(page.notes.map((n) => n.id).sort((a, b) => a - b)).to.deep.equal(withLabel);
      expect(page.counts!.matching).to.equal(withLabel.length);
    }
    const model = (key: string | null): Viewer => ({ scopes: ['default'], key, operator: false });
    const unkeyed = notes.filter((n) => n.privateKey === null);
    expect(found('tea', model(null)).ids).to.deep.equal(expected(unkeyed, 'tea'));
    const k9 = notes.filter((n) => n.privateKey === null || n.privateKey === 'K-9');
    expect(found('k-9', model('K-9')).ids).to.deep.equal(expected(k9, 'k-9'));
    expect(found('k-9', model(null)).ids).to.deep.equal([]);
  });

  it('keeps up with every write: save, edit, relabel, combine, delete, import', async () => {
    const one = (await store.save('default', 'Feed the cat at seven', 'chore', null)).note;
    const two = (await store.save('default', 'The cat flap sticks', null, 'Flap-Key')).note;
    agree(['cat', 'chore', 'unlabeled', 'flap-key', 'seven']);
    await store.update(one.id, operator(), undefined, 'Feed the dog at eight', null);
    agree(['cat', 'dog', 'eight', 'seven', 'chore']);
    await store.update(one.id, operator(), undefined, 'Feed the dog at eight', 'errand, pets');
    agree(['chore', 'errand', 'pets', 'unlabeled']);
    const three = (await store.save('default', 'The cat flap sticks in winter', 'house', 'Flap-Key')).note;
    store.combine(two.id, three.id, operator());
    agree(['house', 'winter', 'sticks', 'flap-key', 'unlabeled']);
    store.delete(two.id, operator(), undefined);
    agree(['cat', 'flap', 'house']);
    await store.importNotes(exportOf('default', [{ content: 'Imported: the cat is back', labels: ['news'] }]));
    agree(['cat', 'news', 'imported', 'dog']);
    expect(found('cat').ids).to.have.length(1);
  });

  it('builds its index at a writable open of a file made before it, and a read-only open without it still filters', async () => {
    await seed();
    const filters = ['act', 'fa', '커피', 'ﬁnd', 'k-9', 'unlabeled', ...filtersFor(all(), 60, 11)];
    const want = filters.map((filter) => found(filter));
    store.close();
    const forget = () => {
      const db = new Database(path);
      db.exec("DROP TABLE notes_filter; DELETE FROM meta WHERE key = 'filter_index'");
      db.close();
    };
    forget();
    const readOnly = SqliteNotesStore.open(path, { readOnly: true });
    try {
      expect(filters.map((filter) => found(filter, operator(), readOnly))).to.deep.equal(want);
    } finally {
      readOnly.close();
    }
    store = SqliteNotesStore.open(path);
    expect(filters.map((filter) => found(filter))).to.deep.equal(want);
    agree(filters);
    // An index built otherwise is built again.
    store.close();
    const db = new Database(path);
    db.exec("DELETE FROM notes_filter; UPDATE meta SET value = 'older' WHERE key = 'filter_index'");
    db.close();
    store = SqliteNotesStore.open(path);
    expect(filters.map((filter) => found(filter))).to.deep.equal(want);
  });

  it('is not built again by an open that waited while another process built it', async () => {
    await seed();
    store.close();
    const db = new Database(path);
    db.exec("DROP TABLE notes_filter; DELETE FROM meta WHERE key = 'filter_index'");
    db.close();
    // Another process opening the file at the same time: it holds the write lock, builds the index (here one
    // row stands for it, so that a second build would show) and marks it built, then commits.
    const other = await holdingWriteLock(
      path,
      [
        ["CREATE VIRTUAL TABLE notes_filter USING fts5(text, tokenize = 'trigram case_sensitive 1')"],
        ['INSERT INTO notes_filter (rowid, text) VALUES (?, ?)', 999999, 'built by the other process'],
        ['INSERT INTO meta (key, value) VALUES (?, ?)', 'filter_index', FILTER_VERSION],
      ],
      300,
    );
    store = SqliteNotesStore.open(path);
    await other.ended;
    const check = new Database(path, { readonly: true });
    try {
      expect(check.prepare('SELECT rowid, text FROM notes_filter').all()).to.deep.equal([
        { rowid: 999999, text: 'built by the other process' },
      ]);
    } finally {
      check.close();
    }
  });
});
