import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteNotesStore, QuantizedIndex, binaryCode, cosine, type Embedder, type Viewer } from '@mira/plugin-notes';

// Drinks share one direction, places another: "beverage" is near "tea" without sharing a word.
const CONCEPTS: Record<string, number> = { tea: 0, coffee: 0, beverage: 0, dock: 1, door: 1, charger: 1 };
const embedder: Embedder = {
  name: 'test:concepts',
  destination: 'in-process',
  embed: async (texts) =>
    texts.map((text) => {
      const v = new Float32Array(64).fill(0);
      for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) v[CONCEPTS[w] ?? 8 + (w.length % 50)]! += 1;
      return v;
    }),
};
const viewer: Viewer = { scopes: ['default', 'global'], key: null, operator: false };

describe('note vectors: the binary-code index with exact re-scoring', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mira-vectors-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const found = async (store: SqliteNotesStore, query: string) =>
    (await store.search(viewer, query)).hits.map((h) => h.note.content);

  it('sees what another connection to the same file appends, changes and deletes', async () => {
    const path = join(dir, 'notes.sqlite3');
    const mine = SqliteNotesStore.open(path, { embedder });
    const other = SqliteNotesStore.open(path, { embedder });
    try {
      await mine.save('default', 'Alice drinks green tea', null, null);
      expect(await found(mine, 'beverage')).to.deep.equal(['Alice drinks green tea']); // index built
      const { note } = await other.save('default', 'Bob has coffee at nine', null, null);
      expect(await found(mine, 'beverage')).to.have.members(['Alice drinks green tea', 'Bob has coffee at nine']);
      // The other connection changes Bob's note to a place: by meaning it no longer is a drink.
      await other.update(note.id, viewer, 'default', 'Bob waits by the door', null);
      expect(await found(mine, 'beverage')).to.deep.equal(['Alice drinks green tea']);
      expect(await found(mine, 'dock')).to.deep.equal(['Bob waits by the door']);
      other.delete(note.id, viewer, 'default');
      expect(await found(mine, 'dock')).to.deep.equal([]);
    } finally {
      mine.close();
      other.close();
    }
  });

  it('keeps its own writes in step without another process', async () => {
    const store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'), { embedder });
    try {
      await store.save('default', 'The charger is in the hall', null, null);
      expect(await found(store, 'dock')).to.deep.equal(['The charger is in the hall']);
      const { note } = await store.save('default', 'Coffee beans are in the cupboard', null, null);
      expect(await found(store, 'beverage')).to.deep.equal(['Coffee beans are in the cupboard']);
      store.delete(note.id, viewer, 'default');
      expect(await found(store, 'beverage')).to.deep.equal([]);
    } finally {
      store.close();
    }
  });

  it('filters by scope and key while it scans, and orders by Hamming distance, then ID', () => {
    const index = new QuantizedIndex(64);
    const vector = (bits: number[]) => {
      const v = new Float32Array(64).fill(-1);
      for (const b of bits) v[b] = 1;
      return v;
    };
    const code = (bits: number[]) => binaryCode(vector(bits));
    index.upsert(1, vector([0, 1, 2]), 'default', '');
    index.upsert(2, vector([0, 1]), 'other', '');
    index.upsert(3, vector([0, 1, 2, 3]), 'default', 'k1');
    index.upsert(4, vector([0, 1, 2, 3, 4]), 'global', '');
    index.upsert(5, vector([0, 1, 2]), 'default', '');
    const all = { scopes: new Set(['default', 'global', 'other']), keys: null };
    expect(index.nearest(code([0, 1, 2]), all, 5)).to.deep.equal([1, 5, 2, 3, 4]);
    expect(
      index.nearest(code([0, 1, 2]), { scopes: new Set(['default', 'global']), keys: new Set(['']) }, 5),
    ).to.deep.equal([1, 5, 4]);
    expect(
      index.nearest(code([0, 1, 2]), { scopes: new Set(['default']), keys: new Set(['', 'k1']) }, 2),
    ).to.deep.equal([1, 5]);
    expect(index.size).to.equal(5);
    expect(index.maxId).to.equal(5);
  });

  it('re-scores from int8 within 0.005 of the exact cosine, across growth and replacement, without reading floats', () => {
    const dimension = 384;
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    const vectors = new Map<number, Float32Array>();
    const index = new QuantizedIndex(dimension);
    // More than the first capacity (1024), so the int8 store and the factors are grown and kept.
    for (let id = 1; id <= 1500; id += 1) {
      const v = Float32Array.from({ length: dimension }, () => random() * (id % 3 === 0 ? 5 : 0.2));
      vectors.set(id, v);
      index.upsert(id, v, 'default', '');
    }
    // A replaced vector re-scores as the new one.
    const replaced = Float32Array.from({ length: dimension }, () => random());
    vectors.set(42, replaced);
    index.upsert(42, replaced, 'default', '');
    const query = Float32Array.from({ length: dimension }, () => random() * 3);
    const ids = [1, 42, 3, 1024, 1025, 1500, 999_999];
    const scored = index.similarities(query, ids);
    expect(scored.map((s) => s.id)).to.deep.equal([1, 42, 3, 1024, 1025, 1500]);
    let worst = 0;
    for (const { id, similarity } of scored)
      worst = Math.max(worst, Math.abs(similarity - cosine(query, vectors.get(id)!)));
    expect(worst).to.be.below(0.005);
    expect(worst).to.be.above(0); // int8, not the floats
    // Self-similarity is 1 (up to rounding), the opposite vector −1, a zero vector 0.
    const [self] = index.similarities(replaced, [42]);
    expect(self!.similarity).to.be.closeTo(1, 0.005);
    const [opposite] = index.similarities(
      replaced.map((x) => -x),
      [42],
    );
    expect(opposite!.similarity).to.be.closeTo(-1, 0.005);
    index.upsert(7, new Float32Array(dimension), 'default', '');
    expect(index.similarities(query, [7])).to.deep.equal([{ id: 7, similarity: 0 }]);
    expect(index.similarities(new Float32Array(dimension), [1])).to.deep.equal([{ id: 1, similarity: 0 }]);
    expect(index.size).to.equal(1500);
  });

  it('packs sign bits 32 to a word, dimension i at bit i mod 32 of word i div 32', () => {
    const v = new Float32Array(40).fill(-0.5);
    v[0] = 0.1;
    v[33] = 2;
    v[39] = 0; // zero is not positive
    expect([...binaryCode(v)]).to.deep.equal([1, 2]);
  });
});
