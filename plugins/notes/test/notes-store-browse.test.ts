import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMiraError, type MiraError } from '@mira/core';
import { SqliteNotesStore, type BrowsePage, type BrowseSort, type Viewer } from '@mira/plugin-notes';
import { exportOf, many, operator } from './support.js';

/**
 * Every page of a browse, following each page's cursor: the IDs in order, and the pages' sizes. `notes` in view
 * fill at most ⌈notes / limit⌉ pages (one when there are none): a cursor that fails to advance fails here with
 * the page it repeats, instead of looping for ever (`browse` is synchronous, so mocha's timeout never fires).
 */
function walk(
  store: SqliteNotesStore,
  viewer: Viewer,
  options: Parameters<SqliteNotesStore['browse']>[1],
  limit: number,
  notes: number,
) {
  const most = Math.max(1, Math.ceil(notes / limit));
  const ids: number[] = [];
  const sizes: number[] = [];
  let after: string | null = null;
  let page: BrowsePage;
  do {
    if (sizes.length === most) {
      expect.fail(
        `browse ${JSON.stringify(options)} by ${limit}: a page after the ${most} that ${notes} notes fill ` +
          `(next ${after}, IDs so far ${ids.join(' ')}): the cursor does not advance`,
      );
    }
    page = store.browse(viewer, { ...options, after, limit });
    ids.push(...page.notes.map((n) => n.id));
    sizes.push(page.notes.length);
    after = page.next;
  } while (after !== null);
  return { ids, sizes, last: page };
}

describe('SqliteNotesStore.browse: a page at a time, filtered, sorted and counted in SQL', () => {
  let dir: string;
  let store: SqliteNotesStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-browse-'));
    store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('walks every note once, in order, for every sort, however the pages fall', () => {
    // Creation times, lengths and first labels repeat, so the ties are decided by ID across page ends.
    const file = exportOf(
      'default',
      many(23, (i) => ({
        content: `note ${'x'.repeat(i % 4)} ${i}`,
        labels: i % 3 === 0 ? [] : [['b', 'a', 'c'][i % 3]!, 'z'],
      })),
    );
    for (const [i, note] of file.notes.entries()) {
      note.created_at = note.updated_at = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 5)).toISOString();
    }
    store.importNotes(file);
    const all = store.recent(operator(), 100);
    const byId = new Map(all.map((n) => [n.id, n]));
    const first = (id: number) => byId.get(id)!.labels[0] ?? 'unlabeled';
    const length = (id: number) => [...byId.get(id)!.content].length;
    const created = (id: number) => byId.get(id)!.createdAt;
    const ids = all.map((n) => n.id);
    const expected: Record<BrowseSort, number[]> = {
      newest: [...ids].sort((a, b) => (created(b) < created(a) ? -1 : created(b) > created(a) ? 1 : b - a)),
      oldest: [...ids].sort((a, b) => (created(a) < created(b) ? -1 : created(a) > created(b) ? 1 : a - b)),
      longest: [...ids].sort((a, b) => length(b) - length(a) || b - a),
      shortest: [...ids].sort((a, b) => length(a) - length(b) || b - a),
      label: [...ids].sort((a, b) => (first(a) < first(b) ? -1 : first(a) > first(b) ? 1 : b - a)),
    };
    for (const sort of Object.keys(expected) as BrowseSort[]) {
      for (const limit of [1, 4, 7, 23, 100]) {
        const { ids: walked, sizes } = walk(store, operator(), { sort }, limit, 23);
        expect(walked, `${sort} by ${limit}`).to.deep.equal(expected[sort]);
        expect(sizes.slice(0, -1).every((size) => size === limit)).to.equal(true);
      }
    }
    // The ties in plain sight: notes 1, 6, 11, 16 and 21 were created in the first second, 5, 10, 15 and 20 in
    // the last; oldest reads a tie in ID order, newest the other way.
    const page = (sort: BrowseSort, limit: number) => store.browse(operator(), { sort, limit }).notes.map((n) => n.id);
    expect(page('oldest', 5)).to.deep.equal([1, 6, 11, 16, 21]);
    expect(page('newest', 4)).to.deep.equal([20, 15, 10, 5]);
  });

  it('filters by every word in any order, folding case, accents and compatibility forms, in text, labels and key', () => {
    store.importNotes(
      exportOf('default', [
        { content: 'José takes tea every morning', labels: ['drink'] },
        { content: 'Le café est près de la fenêtre', labels: ['place'] },
        { content: 'The ＴＥＡ caddy is empty' },
        { content: 'The dock code is 4711', labels: ['secret'], key: 'k-9' },
        { content: 'Nothing to see here' },
      ]),
    );
    const contents = (filter: string, label: string | null = null) =>
      store.browse(operator(), { filter, label, sort: 'oldest' }).notes.map((n) => n.content);
    expect(contents('jose')).to.deep.equal(['José takes tea every morning']);
    expect(contents('morning tea')).to.deep.equal(['José takes tea every morning']);
    expect(contents('CAFE fenetre')).to.deep.equal(['Le café est près de la fenêtre']);
    expect(contents('tea')).to.deep.equal(['José takes tea every morning', 'The ＴＥＡ caddy is empty']);
    expect(contents('k-9')).to.deep.equal(['The dock code is 4711']);
    expect(contents('secret')).to.deep.equal(['The dock code is 4711']);
    expect(contents('unlabeled caddy')).to.deep.equal(['The ＴＥＡ caddy is empty']);
    expect(contents('tea', 'drink')).to.deep.equal(['José takes tea every morning']);
    expect(contents('', 'unlabeled')).to.deep.equal(['The ＴＥＡ caddy is empty', 'Nothing to see here']);
    expect(contents('zebra')).to.deep.equal([]);
    // Function and question words are left out, and punctuation around a word: a typed question filters.
    expect(contents('where is the dock code?')).to.deep.equal(['The dock code is 4711']);
    expect(contents("what's José's morning drink")).to.deep.equal(['José takes tea every morning']);
    // No note holds every word: those holding any, most first, then the sort; the page says it is such a list.
    const partial = store.browse(operator(), { filter: 'morning tea zebra', sort: 'oldest' });
    expect(partial.notes.map((n) => n.content)).to.deep.equal([
      'José takes tea every morning',
      'The ＴＥＡ caddy is empty',
    ]);
    expect([partial.partial, partial.counts!.matching]).to.deep.equal([true, 2]);
    // With a label, of the notes with that label; whether any holds every word is asked of those too.
    const labelled = store.browse(operator(), { filter: 'morning tea zebra', label: 'drink' });
    expect([labelled.notes.map((n) => n.content), labelled.partial, labelled.counts!.matching]).to.deep.equal([
      ['José takes tea every morning'],
      true,
      1,
    ]);
    expect(store.browse(operator(), { filter: 'caddy tea', label: 'drink' }).notes.map((n) => n.content)).to.deep.equal(
      ['José takes tea every morning'],
    );
    expect(store.browse(operator(), { filter: 'morning tea' }).partial).to.equal(false);
    expect(store.browse(operator(), { filter: 'tea' }).partial).to.equal(false);
    expect(store.browse(operator(), { filter: 'zebra crossing' }).notes).to.deep.equal([]);
    // The counts: everything in view, and what passes.
    const page = store.browse(operator(), { filter: 'tea' });
    expect([page.counts!.total, page.counts!.matching]).to.deep.equal([5, 2]);
    expect(store.browse(operator(), { label: 'unlabeled' }).counts!.matching).to.equal(2);
    expect(store.browse(operator()).counts!.matching).to.equal(5);
    // A later page can leave the counting to the first.
    expect(store.browse(operator(), { counts: false, filter: 'tea' }).counts).to.equal(null);
  });

  it('counts the ten most common labels of the whole scope, unlabeled included, whatever the page', () => {
    store.importNotes(
      exportOf(
        'default',
        many(40, (i) => ({ content: `note ${i}`, labels: i % 5 === 0 ? [] : [`l${i % 12}`] })),
      ),
    );
    const page = store.browse(operator(), { limit: 1, label: 'l1' });
    expect(page.notes).to.have.length(1);
    const labels = page.counts!.labels;
    expect(labels).to.have.length(10);
    expect(labels[0]).to.deep.equal({ label: 'unlabeled', count: 8 });
    // Then by count, ties by name: l1…l11 hold 2 or 3 notes each.
    expect(labels.slice(1).every((l, i, all) => i === 0 || all[i - 1]!.count >= l.count)).to.equal(true);
    const counted = labels.reduce((sum, l) => sum + l.count, 0);
    expect(counted).to.be.at.most(40);
  });

  it("counts each label's notes and the unlabeled ones among what the viewer sees, and nothing else", () => {
    store.importNotes(
      exportOf('default', [
        { content: 'two labels', labels: ['kitchen', 'daily'] },
        { content: 'one label', labels: ['kitchen'] },
        'no label',
        { content: 'keyed, labelled', labels: ['kitchen'], key: 'k' },
        { content: 'keyed, unlabelled', key: 'k' },
        { content: 'another key', labels: ['daily'], key: 'other' },
      ]),
    );
    store.importNotes(exportOf('elsewhere', [{ content: 'out of view', labels: ['kitchen'] }, 'out of view too']));
    const counts = (viewer: { scopes: string[]; key: string | null; operator: boolean }) => {
      const { total, labels } = store.browse(viewer).counts!;
      return { total, labels: Object.fromEntries(labels.map((l) => [l.label, l.count])) };
    };
    expect(counts({ scopes: ['default'], key: null, operator: false })).to.deep.equal({
      total: 3,
      labels: { kitchen: 2, daily: 1, unlabeled: 1 },
    });
    expect(counts({ scopes: ['default'], key: 'k', operator: false })).to.deep.equal({
      total: 5,
      labels: { kitchen: 3, daily: 1, unlabeled: 2 },
    });
    expect(counts({ scopes: ['default'], key: null, operator: true })).to.deep.equal({
      total: 6,
      labels: { kitchen: 3, daily: 2, unlabeled: 2 },
    });
  });

  it('shows the global notes over a scope, and a model viewer keyed notes only with their key', () => {
    store.importNotes(exportOf('global', ['A shared note']));
    store.importNotes(exportOf('default', ['A local note', { content: 'A keyed note', key: 'k' }]));
    const overlay = { scopes: ['default', 'global'], key: null, operator: true };
    expect(store.browse(overlay, { sort: 'oldest' }).notes.map((n) => n.content)).to.have.members([
      'A shared note',
      'A local note',
      'A keyed note',
    ]);
    const model = { scopes: ['default'], key: null, operator: false };
    expect(store.browse(model).notes.map((n) => n.content)).to.deep.equal(['A local note']);
    expect(store.browse({ ...model, key: 'k' }).counts!.total).to.equal(2);
  });

  it('refuses an unknown sort and a cursor it did not give, with MIRA_ERR_NOTES_BROWSE_INVALID', () => {
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        if (isMiraError(error)) return (error as MiraError).code;
        throw error;
      }
      return 'no error';
    };
    expect(code(() => store.browse(operator(), { sort: 'random' as BrowseSort }))).to.equal(
      'MIRA_ERR_NOTES_BROWSE_INVALID',
    );
    for (const after of [
      'nonsense',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
    ])
      expect(code(() => store.browse(operator(), { after }))).to.equal('MIRA_ERR_NOTES_BROWSE_INVALID');
    expect(code(() => store.browse(operator(), { filter: 'w '.repeat(257) }))).to.equal(
      'MIRA_ERR_NOTES_BROWSE_INVALID',
    );
    // In words a person can act on.
    const message = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    };
    expect(message(() => store.browse(operator(), { sort: 'random' as BrowseSort }))).to.equal(
      'MIRA_ERR_NOTES_BROWSE_INVALID: sort is one of newest, oldest, longest, shortest, label, not "random"',
    );
    expect(message(() => store.browse(operator(), { filter: 'w '.repeat(257) }))).to.equal(
      'MIRA_ERR_NOTES_BROWSE_INVALID: a filter is at most 512 characters; filter by a few words',
    );
    expect(message(() => store.browse({ scopes: [], key: null, operator: true }))).to.equal(
      'MIRA_ERR_NOTES_SCOPE_INVALID: there is no scope ""',
    );
    // Every word counts, however many (up to the bound): none is dropped.
    store.importNotes(
      exportOf('default', [
        'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen',
        'one two',
      ]),
    );
    const words = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen';
    const seventeen = store.browse(operator(), { filter: `${words} seventeen` });
    expect([seventeen.notes.length, seventeen.partial]).to.deep.equal([1, false]);
    // With one word no note holds, the list is of the notes holding some, the one holding sixteen first.
    const eighteen = store.browse(operator(), { filter: `${words} eighteen` });
    expect([eighteen.notes.map((n) => n.content.length), eighteen.partial]).to.deep.equal([[106, 7], true]);
    // Its cursor goes on with that list; a list that cannot be one (no filter, or one word) refuses it.
    const ranked = store.browse(operator(), { filter: `${words} eighteen`, limit: 1 });
    const next = store.browse(operator(), { filter: `${words} eighteen`, after: ranked.next });
    expect([next.notes.map((n) => n.content), next.partial, next.next]).to.deep.equal([['one two'], true, null]);
    for (const filter of ['', 'one']) {
      expect(code(() => store.browse(operator(), { filter, after: ranked.next }))).to.equal(
        'MIRA_ERR_NOTES_BROWSE_INVALID',
      );
    }
  });

  it('bounds a page to 1..500 notes, and a deep page costs no more than the first (keyset, not offset)', () => {
    store.importNotes(
      exportOf(
        'default',
        many(600, (i) => `note ${i}`),
      ),
    );
    expect(store.browse(operator(), { limit: 0 }).notes).to.have.length(1);
    expect(store.browse(operator(), { limit: 10_000 }).notes).to.have.length(500);
    const { ids, last } = walk(store, operator(), { sort: 'newest' }, 100, 600);
    expect(new Set(ids).size).to.equal(600);
    expect(last.next).to.equal(null);
  });
});
