import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStoreWithFixture } from './fixtures/search-quality-store.js';
import { SEARCH_QUERIES, SPACELESS_NOTES, SPACELESS_QUERIES, scoreSearch } from './fixtures/search-quality.js';

describe('note search quality on the labelled fixture (real SQLite files)', function () {
  this.timeout(20_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-search-quality-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has at least 40 queries with expected notes, and nonsense ones', () => {
    expect(SEARCH_QUERIES.filter((q) => q.kind !== 'nonsense').length).to.be.at.least(40);
    expect(SEARCH_QUERIES.filter((q) => q.kind === 'nonsense').length).to.be.at.least(3);
  });

  for (const withEmbedder of [false, true]) {
    it(`${withEmbedder ? 'hybrid' : 'full text'}: recall@5 at least 0.9, and nothing for nonsense`, async () => {
      const store = await openStoreWithFixture(join(dir, 'notes.sqlite3'), withEmbedder);
      try {
        const score = await scoreSearch(store.search);
        expect(score.nonsenseResults, 'results for nonsense queries').to.equal(0);
        expect(score.recallAt5, `missed: ${score.misses.join('; ')}`).to.be.at.least(0.9);
      } finally {
        store.close();
      }
    });
  }

  // Full text: the test embedder hashes a whole run of Chinese as one word, so its vectors say nothing here.
  it('Chinese, Japanese and Thai, full text: any word inside a run of text, nothing for nonsense', async () => {
    expect(SPACELESS_QUERIES.filter((q) => q.kind === 'nonsense').length).to.be.at.least(3);
    const store = await openStoreWithFixture(join(dir, 'notes.sqlite3'), false, SPACELESS_NOTES);
    try {
      const score = await scoreSearch(store.search, SPACELESS_QUERIES);
      expect(score.nonsenseResults, 'results for nonsense queries').to.equal(0);
      expect(score.recallAt5, `missed: ${score.misses.join('; ')}`).to.be.at.least(0.9);
    } finally {
      store.close();
    }
  });
});
