import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteNotesStore, type Embedder, type Viewer } from '@mira/plugin-notes';
import { exportOf, many, operator } from './support.js';

// Search with more notes than its pools hold: 50 full-text candidates (5 × the limit, at least 50), 200
// nearest vectors from 400 binary-code candidates. Below those sizes every note is a candidate and the
// pools' rules cannot be seen; these tests put hundreds of notes in the way.

const DIMENSION = 64;
/** Every dimension positive: the direction every query below points in. */
const QUERY = new Float32Array(DIMENSION).fill(1);
/** A vector whose first `flipped` dimensions are slightly negative: `flipped` bits from the query's code,
 *  cosine sqrt(64 − flipped) / 8 nearly exactly (0.98 for 2, 0.79 for 24, 0.61 for 40). */
const flippedBy = (flipped: number) => QUERY.map((x, i) => (i < flipped ? -0.01 : x));
/**
 * The embedder as a scripted peer: a note's first word says where its vector points, so a test places
 * notes by meaning exactly; any other text (a query) points at {@link QUERY}.
 */
const VECTORS: Record<string, Float32Array> = {
  near: QUERY.map((x, i) => (i < 2 ? -0.1 : x)),
  mid24: flippedBy(24),
  mid40: flippedBy(40),
  exact: QUERY,
  opposite: QUERY.map((x) => -x),
  // One bit from the query's code, but one large negative dimension: cosine −0.12, below any floor.
  decoy: QUERY.map((_, i) => (i === 0 ? -10 : 0.01)),
  // Exactly 0.5 (16 / (8 · 4)) and just below it (15 / (8 · √15) ≈ 0.484).
  half: QUERY.map((_, i) => (i < 16 ? 1 : 0)),
  under: QUERY.map((_, i) => (i < 15 ? 1 : 0)),
};
class PlacedEmbedder implements Embedder {
  readonly name = 'test:placed';
  readonly destination = 'this test';
  calls = 0;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls += 1;
    return texts.map((t) => Float32Array.from(VECTORS[t.split(' ')[0]!] ?? QUERY));
  }
}

describe('SqliteNotesStore search past its pools (hundreds of notes)', function () {
  this.timeout(60_000);
  let dir: string;
  let path: string;
  let embedder: PlacedEmbedder;
  const opened: SqliteNotesStore[] = [];
  const open = (options: { embedder?: Embedder; minSimilarity?: number } = { embedder }) => {
    const store = SqliteNotesStore.open(path, { ...options, log: () => {} });
    opened.push(store);
    return store;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-notes-pools-'));
    path = join(dir, 'notes.sqlite3');
    embedder = new PlacedEmbedder();
  });
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const contents = async (store: SqliteNotesStore, query: string, label: string | null = null, limit = 10) =>
    (await store.search(operator(), query, label, limit)).hits.map((h) => h.note.content);
  const idOf = (store: SqliteNotesStore, content: string) =>
    store.recent(operator(), 1000).find((n) => n.content === content)!.id;

  describe('the binary-code index, kept by two connections to one file', () => {
    it('rebuilds when another connection replaces a vector, and when this one does', async () => {
      const mine = open();
      const other = open();
      await mine.importNotes(exportOf('default', [...many(450, (i) => `near filler ${i}`), 'opposite target']));
      // The index is built with the target far away: 400 candidates, all fillers.
      expect((await contents(mine, 'zenith')).slice(0, 2)).to.deep.equal(['near filler 0', 'near filler 1']);
      const target = idOf(mine, 'opposite target');
      await other.update(target, operator(), 'default', 'exact target', null);
      const hits = (await mine.search(operator(), 'zenith')).hits;
      expect(hits.map((h) => [h.note.content, h.score]).slice(0, 2)).to.deep.equal([
        ['exact target', 1 / 61],
        ['near filler 0', 1 / 62],
      ]);
      // This connection moves it away again, and then back: its own index follows.
      await mine.update(target, operator(), 'default', 'opposite target', null);
      expect(await contents(mine, 'zenith')).not.to.include('opposite target');
      await mine.update(target, operator(), 'default', 'exact target again', null);
      expect((await contents(mine, 'zenith'))[0]).to.equal('exact target again');
    });

    it('drops the codes of notes another connection deleted, which would crowd out the live ones', async () => {
      const mine = open();
      const other = open();
      await mine.importNotes(exportOf('default', [...many(450, (i) => `near filler ${i}`), 'mid24 target']));
      expect(await contents(mine, 'zenith', null, 200)).not.to.include('mid24 target');
      const ids = mine.recent(operator(), 1000).map((n) => n.id);
      for (const id of ids.slice(-300)) other.delete(id, operator(), 'default'); // the 300 oldest fillers
      const after = await contents(mine, 'zenith', null, 200);
      expect(after).to.have.length(151);
      expect(after[150]).to.equal('mid24 target');
    });

    it('appends what another connection adds, and what this one adds', async () => {
      const mine = open();
      const other = open();
      await mine.importNotes(
        exportOf(
          'default',
          many(450, (i) => `near filler ${i}`),
        ),
      );
      expect((await contents(mine, 'zenith'))[0]).to.equal('near filler 0');
      await other.save('default', 'exact from the other', null, null);
      expect((await contents(mine, 'zenith'))[0]).to.equal('exact from the other');
      await mine.save('default', 'exact from this one', null, null); // equally near: by ID
      expect((await contents(mine, 'zenith')).slice(0, 2)).to.deep.equal([
        'exact from the other',
        'exact from this one',
      ]);
    });
  });

  describe('nearest visible notes', () => {
    it('widens the candidates until a label filter lets enough through', async () => {
      const store = open();
      await store.importNotes(
        exportOf(
          'default',
          many(450, (i) => `near filler ${i}`),
        ),
      );
      await store.save('default', 'mid24 in the garage', 'garage', null);
      expect(await contents(store, 'zenith', 'garage')).to.deep.equal(['mid24 in the garage']);
    });

    it('stops widening once candidates fall below the similarity floor, after the first 400', async () => {
      const store = open();
      await store.importNotes(exportOf('default', [...many(150, (i) => `decoy ${i}`), 'mid24 target']));
      const { hits, mode } = await store.search(operator(), 'zenith');
      expect([mode, hits.map((h) => [h.note.content, h.score])]).to.deep.equal(['hybrid', [['mid24 target', 1 / 61]]]);
    });

    it('fuses at most 200 nearest notes: a note further down gains nothing from its vector', async () => {
      const store = open();
      await store.importNotes(
        exportOf('default', [
          'opposite pumpkin pumpkin',
          ...many(300, (i) => `near filler ${i}`),
          'mid40 pumpkin soup is warm tonight, said the cook',
        ]),
      );
      const hits = (await store.search(operator(), 'pumpkin')).hits;
      // Equal scores: the note holding the words first, never a vector neighbour alone by its higher ID.
      expect(hits.slice(0, 2).map((h) => [h.note.content, h.score])).to.deep.equal([
        ['opposite pumpkin pumpkin', 1 / 61],
        ['near filler 0', 1 / 61],
      ]);
      const score = (content: string) => hits.find((h) => h.note.content === content)?.score;
      // Full-text ranks: 1st and 2nd. The soup note is 301st by meaning, past the 200 fused.
      expect([
        score('opposite pumpkin pumpkin'),
        score('mid40 pumpkin soup is warm tonight, said the cook'),
      ]).to.deep.equal([1 / 61, 1 / 62]);
    });

    it('scans only the notes the viewer may see: unkeyed ones, and keyed ones with their key', async () => {
      const store = open();
      await store.importNotes(
        exportOf(
          'default',
          many(450, (i) => ({ content: `near keyed ${i}`, key: 'k1' })),
        ),
      );
      await store.save('default', 'mid24 unkeyed', null, null);
      const session = (key: string | null): Viewer => ({ scopes: ['default'], key, operator: false });
      const found = async (key: string | null) =>
        (await store.search(session(key), 'zenith')).hits.map((h) => h.note.content);
      expect(await found(null)).to.deep.equal(['mid24 unkeyed']);
      expect((await found('k1')).slice(0, 2)).to.deep.equal(['near keyed 0', 'near keyed 1']);
      expect(await found('k2')).to.deep.equal(['mid24 unkeyed']);
    });

    it('fuses full-text ranks down to 5 × the limit: the 61st by full text still counts at limit 20', async () => {
      const store = open();
      await store.importNotes(
        exportOf(
          'default',
          many(60, (i) => `opposite pumpkin pumpkin ${i}`),
        ),
      );
      const { note } = await store.save('default', 'exact note, long, that mentions the pumpkin only once', null, null);
      const score = async (limit: number) =>
        (await store.search(operator(), 'pumpkin', null, limit)).hits.find((h) => h.note.id === note.id)?.score;
      // Nearest by meaning (rank 1); by full text 61st, inside the pool of 100 at limit 20, outside 50 at 10.
      expect([await score(20), await score(10)]).to.deep.equal([1 / 61 + 1 / 121, 1 / 61]);
    });

    it('admits a neighbour exactly at the similarity floor, not one just below', async () => {
      const store = open({ embedder, minSimilarity: 0.5 });
      await store.save('default', 'half the way', null, null);
      await store.save('default', 'under half the way', null, null);
      expect(await contents(store, 'zenith')).to.deep.equal(['half the way']);
    });

    it('orders by similarity, ties by ID, and fuses with full text by reciprocal rank', async () => {
      const store = open();
      const mid = (await store.save('default', 'mid24 kettle kettle', null, null)).note.id;
      const near1 = (await store.save('default', 'near kettle', null, null)).note.id;
      const near2 = (await store.save('default', 'near lamp', null, null)).note.id;
      const exact = (await store.save('default', 'exact lamp', null, null)).note.id;
      const vectorOnly = (await store.search(operator(), 'zenith')).hits;
      expect(vectorOnly.map((h) => [h.note.id, h.score])).to.deep.equal([
        [exact, 1 / 61],
        [near1, 1 / 62],
        [near2, 1 / 63],
        [mid, 1 / 64],
      ]);
      // "kettle" by full text: mid24 (twice the word) first, then near; by meaning as above. Inserted in
      // that order, they come out by fused score: 2/62 > 1/61 + 1/64 > 1/61 > 1/63.
      const fused = (await store.search(operator(), 'kettle')).hits;
      expect(fused.map((h) => [h.note.id, h.score])).to.deep.equal([
        [near1, 1 / 62 + 1 / 62],
        [mid, 1 / 61 + 1 / 64],
        [exact, 1 / 61],
        [near2, 1 / 63],
      ]);
    });
  });

  describe('the full-text pool', () => {
    let plain: SqliteNotesStore;
    beforeEach(() => (plain = open({})));

    it('redoes the ranking with the label filter when unlabelled notes fill the pool', async () => {
      await plain.importNotes(
        exportOf(
          'default',
          many(60, (i) => `apple apple ${i}`),
        ),
      );
      await plain.save('default', 'one apple tree stands by the long garden wall of the old house', 'garden', null);
      expect(await contents(plain, 'apple', 'garden')).to.deep.equal([
        'one apple tree stands by the long garden wall of the old house',
      ]);
    });

    it('redoes the ranking with the visibility filter when hidden notes fill the pool', async () => {
      await plain.importNotes(
        exportOf(
          'other',
          many(60, (i) => `apple apple ${i}`),
        ),
      );
      await plain.save('default', 'one apple tree stands by the long garden wall of the old house', null, null);
      expect(await contents(plain, 'apple')).to.deep.equal([
        'one apple tree stands by the long garden wall of the old house',
      ]);
      const limited = await plain.search(operator(), 'apple', null, 20);
      expect(limited.hits).to.have.length(1);
    });

    it('keeps notes with every word and then any word within one pool, so hidden ones still trigger the redo', async () => {
      // Hidden: 40 long notes with both words, then 50 short ones ranking first among notes with either
      // (the 300 others make both words rare enough to count): 90 candidates, cut to the pool of 50.
      const padding = 'with a great many other words around it to make the note long and its rank low '.repeat(5);
      await plain.importNotes(
        exportOf('other', [
          ...many(40, (i) => `apple pie ${i} ${padding}`),
          ...many(100, (i) => `apple apple apple ${i}`),
          ...many(300, (i) => `banana ${i}`),
        ]),
      );
      await plain.save('default', `pie in the oven ${padding}`.trim(), null, null);
      expect(await contents(plain, 'apple pie')).to.deep.equal([`pie in the oven ${padding}`.trim()]);
    });

    it('scores each note once: a note with every word is not counted again among notes with any', async () => {
      await plain.save('default', 'apple pie', null, null);
      await plain.save('default', 'apple tart', null, null);
      const hits = (await plain.search(operator(), 'apple pie')).hits;
      expect(hits.map((h) => [h.note.content, h.score])).to.deep.equal([
        ['apple pie', 1 / 61],
        ['apple tart', 1 / 62],
      ]);
    });

    it('ranks notes with every word first, wherever the words stand in them', async () => {
      // Short notes with one of the words, many times, outrank it among notes with any word.
      await plain.importNotes(
        exportOf('default', [
          ...many(20, (i) => `apple apple apple ${i}`),
          ...many(20, (i) => `pie pie pie ${i}`),
          ...many(300, (i) => `banana ${i}`),
        ]),
      );
      await plain.save('default', 'the pie here is made of a fresh apple from the garden', null, null);
      const hits = (await plain.search(operator(), 'apple pie')).hits;
      expect([hits[0]!.note.content, hits[0]!.score]).to.deep.equal([
        'the pie here is made of a fresh apple from the garden',
        1 / 61,
      ]);
    });

    it('takes only the last word of three or more letters as a prefix', async () => {
      await plain.save('default', 'the pier at the harbour', null, null);
      await plain.save('default', 'the charger is in the drawer', null, null);
      expect(await contents(plain, 'pie salad')).to.deep.equal([]);
      expect(await contents(plain, 'salad pie')).to.deep.equal(['the pier at the harbour']);
      expect(await contents(plain, 'cha')).to.deep.equal(['the charger is in the drawer']);
    });
  });
});
