import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteNotesStore, type Viewer } from '@mira/plugin-notes';
import { HOUSEHOLD_NOTES } from './fixtures/search-questions.js';
import { scoreHousehold } from './fixtures/search-questions-score.js';

// The Mind view's instant filter (the store's browse, as the page asks it for a scope's first page) beside
// the search the tools use, on the held-out household questions people type (test/fixtures/search-questions.ts,
// written without reading either). The filter lists the notes holding every typed word, question words left
// out, and when none does, those holding most of them first; before issue 66 it wanted every typed word,
// "when" and "is" included, and found 0.009 of what the questions look for in its first five.
describe('the Mind view filter beside search_memory on typed household questions (recall@5)', function () {
  this.timeout(30_000);
  let dir: string;
  let store: SqliteNotesStore;
  const indexOf = new Map<number, number>();
  const viewer: Viewer = { scopes: ['default', 'global'], key: null, operator: true };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-filter-questions-'));
    store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
    for (const [i, note] of HOUSEHOLD_NOTES.entries()) {
      const { note: saved } = await store.save('default', note.content, note.label, null);
      indexOf.set(saved.id, i);
    }
  });
  after(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds with the filter nearly what search finds: recall@5 0.93 against 0.95, as precise', async () => {
    const filter = await scoreHousehold(async (q) =>
      store.browse(viewer, { filter: q, limit: 10 }).notes.map((n) => indexOf.get(n.id)!),
    );
    const search = await scoreHousehold(async (q) =>
      (await store.search(viewer, q, null, 10)).hits.map((h) => indexOf.get(h.note.id)!),
    );
    const figures = (s: typeof filter) => ({
      recallAt5: Number(s.overall.recallAt5.toFixed(3)),
      precisionAt5: Number(s.overall.precisionAt5.toFixed(3)),
      mrr: Number(s.overall.mrr.toFixed(3)),
    });
    console.log(`      filter ${JSON.stringify(figures(filter))}\n      search ${JSON.stringify(figures(search))}`);
    console.log(`      the filter missed: ${filter.misses.map((m) => m.question).join('; ')}`);
    // Pinned as measured (raise them with the filter or the search; a fall fails here).
    expect(figures(filter)).to.deep.equal({ recallAt5: 0.93, precisionAt5: 0.718, mrr: 0.92 });
    expect(figures(search)).to.deep.equal({ recallAt5: 0.953, precisionAt5: 0.707, mrr: 0.925 });
  });
});
