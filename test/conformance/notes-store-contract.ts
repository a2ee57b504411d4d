import { expect } from 'chai';
import { ManualClock, isMiraError } from '@mira/core';
import {
  BROWSE_SORTS,
  DEFAULT_KEY_GUARD,
  GLOBAL_SCOPE,
  MAX_BROWSE_PAGE,
  NOTE_CAP,
  type BrowsePage,
  type BrowseSort,
  type Embedder,
  type Note,
  type NotesExport,
  type NotesStore,
  type Viewer,
} from '@mira/plugin-notes';

/** What a notes store factory gives the contract suite. */
export interface NotesStoreUnderTest {
  readonly store: NotesStore;
  /** Closes the store and opens a new instance on the same data, with the same options (a restart). */
  reopen(): Promise<NotesStore>;
  /** Closes the store and releases everything (the data may be deleted). */
  dispose(): Promise<void>;
}

/** How the suite wants a store made: its clock, and an embedder for the cases about vectors. */
export interface NotesStoreOptions {
  readonly clock: ManualClock;
  readonly embedder?: Embedder;
}

/** Makes a fresh store (the scopes `default` and `global`, no notes) with the default key guard limits. */
export type NotesStoreFactory = (options: NotesStoreOptions) => Promise<NotesStoreUnderTest>;

/** The code of the error `fn` throws; fails the test when it throws none or something else. */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isMiraError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a MiraError');
}

/** The code of the error a promise rejects with; fails the test when it resolves. */
export async function rejectionCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isMiraError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a rejection');
}

/**
 * An embedder that places a text by the topics its words belong to, as a real one places synonyms near each
 * other: texts that share no word but a topic are near, texts of other topics far (cosine about 0.01).
 */
export class TopicEmbedder implements Embedder {
  readonly name = 'test:topics';
  readonly destination = 'this test';
  fail = false;
  constructor(private readonly topics: ReadonlyArray<readonly string[]>) {}
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.fail) throw new Error('the embedding server is down');
    return texts.map((text) => {
      const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
      const vector = new Float32Array(this.topics.length + 1);
      this.topics.forEach((topic, i) => (vector[i] = words.filter((w) => topic.includes(w)).length));
      vector[this.topics.length] = 0.1;
      const norm = Math.hypot(...vector);
      return vector.map((v) => v / norm);
    });
  }
}

const AT = '2026-04-01T08:00:00.000Z';
const operator = (...scopes: string[]): Viewer => ({
  scopes: scopes.length ? scopes : ['default'],
  key: null,
  operator: true,
});
const model = (key: string | null = null, ...scopes: string[]): Viewer => ({
  scopes: scopes.length ? scopes : ['default'],
  key,
  operator: false,
});
const contents = (notes: readonly Note[]) => notes.map((n) => n.content);

/**
 * The notes store contract (the promises of spec/notes-memory.txt the tools, commands and Mind view rely
 * on): every implementation runs these cases, each on a fresh store.
 *
 * @example
 * describeNotesStoreContract('SqliteNotesStore on a real file', async ({ clock, embedder }) => { … });
 */
export function describeNotesStoreContract(name: string, factory: NotesStoreFactory): void {
  describe(`NotesStore contract: ${name}`, () => {
    let clock: ManualClock;
    let sut: NotesStoreUnderTest;
    let store: NotesStore;
    const make = async (embedder?: Embedder) => {
      await sut.dispose();
      sut = await factory({ clock, ...(embedder ? { embedder } : {}) });
      store = sut.store;
    };
    /** Saves a note as the operator's console does, `minutes` after the start, and returns it. */
    const note = async (
      content: string,
      options: { scope?: string; labels?: string; key?: string; minutes?: number } = {},
    ) =>
      (
        await store.save(
          options.scope ?? 'default',
          content,
          options.labels ?? null,
          options.key ?? null,
          options.minutes === undefined ? undefined : new Date(Date.parse(AT) + options.minutes * 60_000).toISOString(),
        )
      ).note;

    beforeEach(async () => {
      clock = new ManualClock(AT);
      sut = await factory({ clock });
      store = sut.store;
    });
    afterEach(() => sut.dispose());

    describe('scopes', () => {
      it('starts with the scopes default and global, creates a scope once, and lists them by name', () => {
        expect(store.scopes()).to.deep.equal(['default', GLOBAL_SCOPE]);
        store.ensureScope('work');
        store.ensureScope('attic');
        store.ensureScope('work');
        expect(store.scopes()).to.deep.equal(['attic', 'default', 'global', 'work']);
      });

      it('refuses a malformed scope name, creating nothing', async () => {
        for (const bad of ['Work', '1st', '', 'a'.repeat(65), 'two words', '~import-1']) {
          expect(
            codeOf(() => store.ensureScope(bad)),
            bad,
          ).to.equal('MIRA_ERR_NOTES_SCOPE_INVALID');
        }
        expect(await rejectionCode(store.save('Bad Scope', 'text', null, null))).to.equal(
          'MIRA_ERR_NOTES_SCOPE_INVALID',
        );
        store.ensureScope('a'.repeat(64));
        expect(store.scopes()).to.deep.equal(['a'.repeat(64), 'default', 'global']);
      });

      it('shows a viewer the notes of its scopes only: a session on "work" with the global overlay', async () => {
        await note('Work note', { scope: 'work' });
        await note('Shared note', { scope: 'global' });
        await note('Home note', { scope: 'home' });
        expect(contents(store.recent(model(null, 'work', 'global'), 10))).to.have.members(['Work note', 'Shared note']);
        expect(contents(store.recent(model(null, 'home'), 10))).to.deep.equal(['Home note']);
        expect(store.count(model(null, 'work', 'global'))).to.equal(2);
        const hits = (await store.search(model(null, 'work', 'global'), 'note')).hits.map((h) => h.note.content);
        expect(hits).to.have.members(['Work note', 'Shared note']);
      });

      it('counts notes and keyed notes per scope, by name', async () => {
        await note('One', { scope: 'work' });
        await note('Two', { scope: 'work', key: 'k' });
        await note('Three', { scope: 'global' });
        expect(store.countsByScope()).to.deep.equal([
          { scope: 'default', notes: 0, keyed: 0 },
          { scope: 'global', notes: 1, keyed: 0 },
          { scope: 'work', notes: 2, keyed: 1 },
        ]);
      });
    });

    describe('#save()', () => {
      it('returns the note as stored: trimmed text, parsed labels, its key, stamped by the clock', async () => {
        const { note: saved, cut } = await store.save(
          'default',
          '  Tea at four  ',
          'Preference, FACT ,preference',
          'k',
        );
        expect(cut).to.equal('');
        expect(saved).to.deep.equal({
          id: saved.id,
          scope: 'default',
          content: 'Tea at four',
          labels: ['preference', 'fact'],
          privateKey: 'k',
          createdAt: AT,
          updatedAt: AT,
        });
        expect(store.get(saved.id, operator())).to.deep.equal(saved);
        const older = await note('An old event', { minutes: -60 * 24 });
        expect([older.createdAt, older.updatedAt]).to.deep.equal([
          '2026-03-31T08:00:00.000Z',
          '2026-03-31T08:00:00.000Z',
        ]);
      });

      it('keeps a note to the cap, cutting at the last word boundary, and says what was cut', async () => {
        const { note: saved, cut } = await store.save('default', `${'a'.repeat(500)} ${'b'.repeat(20)}`, null, null);
        expect([saved.content, cut]).to.deep.equal(['a'.repeat(500), 'b'.repeat(20)]);
        const exact = await store.save('default', 'c'.repeat(NOTE_CAP), null, null);
        expect([exact.note.content.length, exact.cut]).to.deep.equal([NOTE_CAP, '']);
      });

      it('refuses empty text, a malformed key and too many labels, saving nothing', async () => {
        expect(await rejectionCode(store.save('default', '   ', null, null))).to.equal('MIRA_ERR_NOTES_EMPTY');
        expect(await rejectionCode(store.save('default', 'text', null, 'a\tkey'))).to.equal(
          'MIRA_ERR_NOTES_KEY_INVALID',
        );
        expect(await rejectionCode(store.save('default', 'text', null, ''))).to.equal('MIRA_ERR_NOTES_KEY_INVALID');
        expect(await rejectionCode(store.save('default', 'text', 'a,b,c,d,e,f,g,h,i', null))).to.equal(
          'MIRA_ERR_NOTES_LABEL_INVALID',
        );
        expect(store.count(operator())).to.equal(0);
      });

      it('numbers notes in the order they are saved', async () => {
        const a = await note('First');
        const b = await note('Second');
        expect(b.id).to.be.greaterThan(a.id);
      });
    });

    describe('private keys', () => {
      let keyed: Note;
      let plain: Note;
      beforeEach(async () => {
        keyed = await note('The code of the safe is 4711', { key: 'k1', labels: 'secret' });
        plain = await note('The code of the gate is 1234', { labels: 'home' });
      });

      it('hides a keyed note from a model call without its key, and shows it with the key', async () => {
        for (const viewer of [model(), model('wrong')]) {
          expect(store.get(keyed.id, viewer)).to.equal(undefined);
          expect(contents(store.recent(viewer, 10))).to.deep.equal([plain.content]);
          expect(store.count(viewer)).to.equal(1);
          expect(store.labels(viewer)).to.deep.equal([{ label: 'home', count: 1 }]);
          expect((await store.search(viewer, 'code')).hits.map((h) => h.note.id)).to.deep.equal([plain.id]);
        }
        expect(store.get(keyed.id, model('k1'))?.content).to.equal(keyed.content);
        expect(store.count(model('k1'))).to.equal(2);
        const withKey = (await store.search(model('k1'), 'code')).hits.map((h) => h.note.id);
        expect(withKey).to.have.members([keyed.id, plain.id]);
      });

      it('shows the operator every note with its plaintext key', async () => {
        expect(store.get(keyed.id, operator())?.privateKey).to.equal('k1');
        expect(store.recent(operator(), 10).map((n) => [n.id, n.privateKey])).to.deep.equal([
          [plain.id, null],
          [keyed.id, 'k1'],
        ]);
      });

      it('answers a hidden note as one that does not exist: the same code, nothing changed', async () => {
        const never = keyed.id + plain.id + 100;
        expect(codeOf(() => store.delete(never, model(), 'default'))).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
        expect(codeOf(() => store.delete(keyed.id, model('wrong'), 'default'))).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
        expect(await rejectionCode(store.update(keyed.id, model(), 'default', 'overwritten', null))).to.equal(
          'MIRA_ERR_NOTES_NOT_FOUND',
        );
        expect(store.get(keyed.id, operator())).to.deep.equal(keyed);
        expect(store.delete(keyed.id, model('k1'), 'default').id).to.equal(keyed.id);
        expect(store.get(keyed.id, operator())).to.equal(undefined);
      });

      it('knows a key only when a note in the viewer’s scopes carries it', async () => {
        await note('Elsewhere', { scope: 'work', key: 'k2' });
        expect(store.keyKnown(model('k1'))).to.equal(true);
        expect(store.keyKnown(model('k2'))).to.equal(false);
        expect(store.keyKnown(model('k2', 'work'))).to.equal(true);
        expect(store.keyKnown(model('nope'))).to.equal(false);
        expect(store.keyKnown(model(null))).to.equal(false);
      });

      it('lets a call with the key change its note in any scope it sees when no scope is named writable', async () => {
        const shared = await note('Shared secret', { scope: 'global', key: 'k3' });
        const viewer = model('k3', 'work', 'global');
        const changed = await store.update(shared.id, viewer, undefined, 'Shared secret, changed', null);
        expect(changed.note.content).to.equal('Shared secret, changed');
        expect(store.delete(shared.id, viewer, undefined).id).to.equal(shared.id);
      });

      it('answers a keyed note of the shared scope as missing to a model call writing in its own scope', async () => {
        const shared = await note('Shared secret', { scope: 'global', key: 'k3' });
        const viewer = model('k3', 'work', 'global');
        expect(store.get(shared.id, viewer)?.id).to.equal(shared.id);
        expect(codeOf(() => store.delete(shared.id, viewer, 'work'))).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
        expect(codeOf(() => store.delete(shared.id, operator('work', 'global'), 'work'))).to.equal(
          'MIRA_ERR_NOTES_READ_ONLY_SCOPE',
        );
      });
    });

    describe('the key guard', () => {
      const limit = DEFAULT_KEY_GUARD.misses;

      it('locks an origin out of a scope after its wrong keys reach the limit, until the window passes', () => {
        for (let i = 0; i < limit - 1; i++) store.recordKeyMiss('default', 'autonomous');
        expect(store.keyLockout('default', 'autonomous')).to.equal(undefined);
        store.recordKeyMiss('default', 'autonomous');
        const until = new Date(Date.parse(AT) + DEFAULT_KEY_GUARD.windowMs);
        expect(store.keyLockout('default', 'autonomous')).to.deep.equal({
          scope: 'default',
          origin: 'autonomous',
          misses: limit,
          until,
        });
        // Another origin's misses never lock the operator's episodes, nor another scope.
        expect(store.keyLockout('default', 'operator')).to.equal(undefined);
        expect(store.keyLockout('default', 'mcp')).to.equal(undefined);
        expect(store.keyLockout('work', 'autonomous')).to.equal(undefined);
        expect(store.keyLockouts()).to.deep.equal([{ scope: 'default', origin: 'autonomous', misses: limit, until }]);
        clock.advance(DEFAULT_KEY_GUARD.windowMs);
        expect(store.keyLockout('default', 'autonomous')).to.equal(undefined);
        expect(store.keyLockouts()).to.deep.equal([]);
      });

      it('locks only the origin that missed, the operator’s typed keys included, and the operator ends it, counting the misses', () => {
        for (let i = 0; i < limit; i++) store.recordKeyMiss('default');
        store.recordKeyMiss('default', 'mcp');
        const lockout = {
          scope: 'default',
          origin: 'operator',
          misses: limit,
          until: new Date(Date.parse(AT) + DEFAULT_KEY_GUARD.windowMs),
        };
        expect(store.keyLockout('default', 'operator')).to.deep.equal(lockout);
        // No origin's misses lock another: not MCP clients, not the model's own keys.
        expect(store.keyLockout('default', 'mcp')).to.equal(undefined);
        expect(store.keyLockout('default', 'model')).to.equal(undefined);
        expect(store.keyLockouts()).to.deep.equal([lockout]);
        for (let i = 0; i < limit; i++) store.recordKeyMiss('default', 'model');
        expect(store.keyLockout('default', 'model')?.misses).to.equal(limit);
        expect(store.keyLockout('default', 'operator')?.misses).to.equal(limit);
        expect(store.clearKeyMisses('default')).to.equal(2 * limit + 1);
        expect(store.keyLockout('default', 'operator')).to.equal(undefined);
        expect(store.keyLockout('default', 'model')).to.equal(undefined);
        expect(store.clearKeyMisses('default')).to.equal(0);
      });

      it('keeps the misses across a restart', async () => {
        for (let i = 0; i < limit; i++) store.recordKeyMiss('default', 'mcp');
        store = await sut.reopen();
        expect(store.keyLockout('default', 'mcp')?.misses).to.equal(limit);
      });
    });

    describe('labels', () => {
      beforeEach(async () => {
        await note('Green tea', { labels: 'drink, preference' });
        await note('Black coffee', { labels: 'drink' });
        await note('Walk at six', { labels: 'routine' });
        await note('Nothing special');
        await note('Hidden', { labels: 'drink, zz', key: 'k' });
      });

      it('counts the labels a viewer sees, most common first, ties by label', () => {
        expect(store.labels(model())).to.deep.equal([
          { label: 'drink', count: 2 },
          { label: 'preference', count: 1 },
          { label: 'routine', count: 1 },
        ]);
        expect(store.labels(operator())[0]).to.deep.equal({ label: 'drink', count: 3 });
      });

      it('lists what a duplicates scan can be narrowed to, unlabeled included', () => {
        expect(store.labelCounts(model())).to.deep.equal({
          total: 4,
          labels: [
            { label: 'drink', count: 2 },
            { label: 'preference', count: 1 },
            { label: 'routine', count: 1 },
            { label: 'unlabeled', count: 1 },
          ],
        });
      });

      it('lists the newest notes with a label, a label compared as it is saved (case folded)', () => {
        expect(contents(store.recent(model(), 10, 'DRINK'))).to.deep.equal(['Black coffee', 'Green tea']);
        expect(contents(store.recent(model(), 10, 'drink, routine'))).to.deep.equal(['Black coffee', 'Green tea']);
        expect(contents(store.recent(model(), 10, ' '))).to.have.length(4);
      });
    });

    describe('#recent()', () => {
      it('lists by creation time, newest first, a tie by the newer ID, at most `count`', async () => {
        const a = await note('a', { minutes: 5 });
        const b = await note('b', { minutes: 5 });
        const c = await note('c', { minutes: -5 });
        const d = await note('d', { minutes: 10 });
        expect(store.recent(operator(), 10).map((n) => n.id)).to.deep.equal([d.id, b.id, a.id, c.id]);
        expect(store.recent(operator(), 2).map((n) => n.id)).to.deep.equal([d.id, b.id]);
      });
    });

    describe('#update()', () => {
      it('replaces the text, keeps the labels unless given and the creation time, and re-indexes', async () => {
        const saved = await note('The charger is in the hall', { labels: 'place' });
        clock.advance(60_000);
        const { note: updated, cut } = await store.update(
          saved.id,
          model(),
          'default',
          'The charger is in the attic',
          null,
        );
        expect(cut).to.equal('');
        expect(updated).to.deep.equal({
          ...saved,
          content: 'The charger is in the attic',
          updatedAt: '2026-04-01T08:01:00.000Z',
        });
        const relabelled = await store.update(saved.id, operator(), undefined, 'The charger is in the attic', 'Moved');
        expect(relabelled.note.labels).to.deep.equal(['moved']);
        expect((await store.search(operator(), 'hall')).hits).to.deep.equal([]);
        expect((await store.search(operator(), 'attic')).hits.map((h) => h.note.id)).to.deep.equal([saved.id]);
        expect(store.labels(operator())).to.deep.equal([{ label: 'moved', count: 1 }]);
      });

      it('refuses to change a shared note from a scope’s session, and lets the console change it', async () => {
        const shared = await note('Wifi password on the fridge', { scope: 'global' });
        const session = operator('work', 'global');
        expect(await rejectionCode(store.update(shared.id, session, 'work', 'changed', null))).to.equal(
          'MIRA_ERR_NOTES_READ_ONLY_SCOPE',
        );
        expect(codeOf(() => store.delete(shared.id, session, 'work'))).to.equal('MIRA_ERR_NOTES_READ_ONLY_SCOPE');
        expect(store.get(shared.id, session)?.content).to.equal('Wifi password on the fridge');
        expect((await store.update(shared.id, session, undefined, 'changed', null)).note.content).to.equal('changed');
      });
    });

    describe('#delete()', () => {
      it('returns the note as it was and leaves nothing of it to find', async () => {
        const saved = await note('Spare key under the flowerpot', { labels: 'place' });
        expect(store.delete(saved.id, operator(), 'default')).to.deep.equal(saved);
        expect(store.get(saved.id, operator())).to.equal(undefined);
        expect((await store.search(operator(), 'flowerpot')).hits).to.deep.equal([]);
        expect(store.labels(operator())).to.deep.equal([]);
        expect(codeOf(() => store.delete(saved.id, operator(), 'default'))).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
      });
    });

    describe('#browse()', () => {
      /** Every page, following each cursor; fails instead of looping when a cursor does not advance. */
      const walk = (viewer: Viewer, options: { sort?: BrowseSort; label?: string; filter?: string }, limit: number) => {
        const pages: BrowsePage[] = [];
        let after: string | null = null;
        do {
          if (pages.length > 50) expect.fail(`the cursor does not advance: ${after}`);
          const page = store.browse(viewer, { ...options, after, limit, counts: pages.length === 0 });
          pages.push(page);
          after = page.next;
        } while (after !== null);
        return { ids: pages.flatMap((p) => p.notes.map((n) => n.id)), sizes: pages.map((p) => p.notes.length) };
      };

      it('orders by each sort, ties by the newer ID (oldest: the older), and pages through every note once', async () => {
        // Creation times, lengths and first labels tie in pairs.
        const a = await note('aa', { minutes: 1, labels: 'b' });
        const b = await note('bbbb', { minutes: 1, labels: 'a' });
        const c = await note('cc', { minutes: 2 });
        const d = await note('dddd', { minutes: 0, labels: 'b, a' });
        const e = await note('eeeeee', { minutes: 2, labels: 'a' });
        const expected: Record<BrowseSort, Note[]> = {
          newest: [e, c, b, a, d],
          oldest: [d, a, b, c, e],
          longest: [e, d, b, c, a],
          shortest: [c, a, d, b, e],
          label: [e, b, d, a, c],
        };
        expect(Object.keys(expected)).to.have.members([...BROWSE_SORTS]);
        for (const sort of BROWSE_SORTS) {
          const want = expected[sort].map((n) => n.id);
          expect(
            store.browse(operator(), { sort }).notes.map((n) => n.id),
            sort,
          ).to.deep.equal(want);
          for (const limit of [1, 2, 3]) {
            const { ids, sizes } = walk(operator(), { sort }, limit);
            expect(ids, `${sort} by ${limit}`).to.deep.equal(want);
            expect(sizes.length, `${sort} by ${limit}`).to.equal(Math.ceil(5 / limit));
          }
        }
        expect(store.browse(operator()).notes.map((n) => n.id)).to.deep.equal(expected.newest.map((n) => n.id));
      });

      it('continues after the last note of the page before, whatever was saved or deleted meanwhile', async () => {
        const saved: Note[] = [];
        for (let i = 0; i < 6; i++) saved.push(await note(`note ${i}`, { minutes: i }));
        const first = store.browse(operator(), { sort: 'oldest', limit: 3 });
        expect(first.notes.map((n) => n.id)).to.deep.equal(saved.slice(0, 3).map((n) => n.id));
        store.delete(saved[1]!.id, operator(), undefined);
        store.delete(saved[3]!.id, operator(), undefined);
        await note('an early one', { minutes: -1 });
        const second = store.browse(operator(), { sort: 'oldest', limit: 3, after: first.next });
        expect(second.notes.map((n) => n.id)).to.deep.equal([saved[4]!.id, saved[5]!.id]);
        expect(second.next).to.equal(null);
      });

      it('counts every note in view, those that match, and the ten most common labels', async () => {
        for (let i = 0; i < 12; i++) await note(`labelled ${i}`, { labels: `l${String(i % 11).padStart(2, '0')}` });
        await note('plain one');
        await note('plain two');
        await note('keyed', { key: 'k', labels: 'l05' });
        const page = store.browse(model(), { filter: 'plain', limit: 1 });
        expect(page.notes).to.have.length(1);
        expect(page.counts).to.deep.equal({
          total: 14,
          matching: 2,
          labels: [
            { label: 'l00', count: 2 },
            { label: 'unlabeled', count: 2 },
            ...['l01', 'l02', 'l03', 'l04', 'l05', 'l06', 'l07', 'l08'].map((label) => ({ label, count: 1 })),
          ],
        });
        expect(store.browse(operator(), { label: 'l05' }).counts?.matching).to.equal(2);
        expect(store.browse(model(), { counts: false }).counts).to.equal(null);
      });

      it('places unlabeled among labels of its count by name, and counts what each key sees', async () => {
        for (const labels of ['zz', 'zz', 'aa', 'aa']) await note(`labelled ${labels}`, { labels });
        await note('plain one');
        await note('plain two');
        await note('first secret', { key: 'k1', labels: 'zz' });
        await note('second secret', { key: 'k2' });
        await note('third secret', { key: 'k2' });
        const labels = [
          { label: 'aa', count: 2 },
          { label: 'unlabeled', count: 2 },
          { label: 'zz', count: 2 },
        ];
        expect(store.browse(model()).counts).to.deep.equal({ total: 6, matching: 6, labels });
        expect(store.labelCounts(model())).to.deep.equal({ total: 6, labels });
        // Each key's notes are counted for its own viewer only, however the viewers follow each other.
        expect(store.browse(model('k1')).counts?.total).to.equal(7);
        expect(store.browse(model('k2')).counts?.total).to.equal(8);
        expect(store.browse(model('k1')).counts?.labels[0]).to.deep.equal({ label: 'zz', count: 3 });
        expect(store.browse(model('k2')).counts?.labels[0]).to.deep.equal({ label: 'unlabeled', count: 4 });
        expect(store.labelCounts(model('k2')).labels[0]).to.deep.equal({ label: 'unlabeled', count: 4 });
      });

      it('lists no unlabeled count when every note has a label', async () => {
        await note('one', { labels: 'a' });
        await note('two', { labels: 'b' });
        expect(store.labelCounts(operator())).to.deep.equal({
          total: 2,
          labels: [
            { label: 'a', count: 1 },
            { label: 'b', count: 1 },
          ],
        });
        expect(store.browse(operator()).counts?.labels).to.deep.equal(store.labelCounts(operator()).labels);
      });

      it('filters by a label (unlabeled: the notes without) and by every word (else most), folded, in text, labels or key', async () => {
        const jose = await note('José takes tea every morning', { labels: 'Drink' });
        const cafe = await note('Le café est près de la fenêtre', { labels: 'place' });
        const caddy = await note('The ＴＥＡ caddy is empty');
        const dock = await note('The dock code is 4711', { labels: 'secret', key: 'K-9' });
        const ids = (options: { label?: string | null; filter?: string }) =>
          store.browse(operator(), { ...options, sort: 'oldest' }).notes.map((n) => n.id);
        expect(ids({ filter: 'MORNING jose' })).to.deep.equal([jose.id]);
        expect(ids({ filter: 'cafe FENETRE' })).to.deep.equal([cafe.id]);
        expect(ids({ filter: 'tea' })).to.deep.equal([jose.id, caddy.id]);
        expect(ids({ filter: 'k-9' })).to.deep.equal([dock.id]);
        expect(ids({ filter: 'secret' })).to.deep.equal([dock.id]);
        expect(ids({ filter: 'tea drink' })).to.deep.equal([jose.id]);
        // No note holds every word: those holding any, most first, then the sort, and the page says so.
        expect(ids({ filter: 'tea zebra' })).to.deep.equal([jose.id, caddy.id]);
        expect(ids({ filter: 'zebra morning tea' })).to.deep.equal([jose.id, caddy.id]);
        expect(ids({ filter: 'zebra crossing' })).to.deep.equal([]);
        expect(store.browse(operator(), { filter: 'tea zebra' }).partial).to.equal(true);
        expect(store.browse(operator(), { filter: 'tea drink' }).partial).to.equal(false);
        // Question words and punctuation are left out: a typed question filters.
        expect(ids({ filter: 'where is the dock code?' })).to.deep.equal([dock.id]);
        expect(ids({ label: 'drink' })).to.deep.equal([jose.id]);
        expect(ids({ label: 'unlabeled' })).to.deep.equal([caddy.id]);
        expect(ids({ label: 'unlabeled', filter: 'caddy' })).to.deep.equal([caddy.id]);
        expect(ids({ label: null })).to.have.length(4);
        expect(store.browse(model(), { filter: 'dock' }).notes).to.deep.equal([]);
      });

      it('holds 1 to 500 notes a page, however many are asked for', async () => {
        await store.importNotes(exportFile('default', 501));
        expect(store.browse(operator(), { limit: 0 }).notes).to.have.length(1);
        expect(store.browse(operator(), { limit: -3 }).notes).to.have.length(1);
        expect(store.browse(operator(), { limit: 10_000 }).notes).to.have.length(MAX_BROWSE_PAGE);
        expect(store.browse(operator()).notes).to.have.length(100);
        expect(walk(operator(), {}, MAX_BROWSE_PAGE).sizes).to.deep.equal([500, 1]);
      });

      it('refuses an unknown sort, a cursor it did not give, an over-long filter and no scope', async () => {
        const refused = (viewer: Viewer, options: object) => codeOf(() => store.browse(viewer, options));
        expect(refused(operator(), { sort: 'random' })).to.equal('MIRA_ERR_NOTES_BROWSE_INVALID');
        await note('a note to page through');
        const cursors = [
          '[1]',
          '["a",1.5]',
          '["a",1,2]',
          '[null,1]',
          '[["a"],1]',
          '"ab"',
          '{"0":"a","1":1,"length":2}',
        ];
        for (const after of ['nonsense', ...cursors.map((json) => Buffer.from(json).toString('base64url'))])
          expect(refused(operator(), { after }), after).to.equal('MIRA_ERR_NOTES_BROWSE_INVALID');
        expect(refused(operator(), { filter: 'w '.repeat(257) })).to.equal('MIRA_ERR_NOTES_BROWSE_INVALID');
        expect(refused({ scopes: [], key: null, operator: true }, {})).to.equal('MIRA_ERR_NOTES_SCOPE_INVALID');
      });
    });

    describe('#search()', () => {
      it('finds notes by their words, those with every word first, the last word also as a prefix', async () => {
        const both = await note('The phone charger is in the kitchen drawer');
        const one = await note('The kitchen light is broken');
        await note('Buy oat milk');
        const hits = (await store.search(operator(), 'kitchen charg')).hits.map((h) => h.note.id);
        expect(hits).to.deep.equal([both.id, one.id]);
        expect((await store.search(operator(), 'zebra')).hits).to.deep.equal([]);
      });

      it('narrows by label and stops at the limit, full text only without an embedder, saying so', async () => {
        for (let i = 0; i < 4; i++) await note(`Tea note ${i}`, { labels: i % 2 ? 'odd' : 'even' });
        const result = await store.search(operator(), 'tea', 'ODD');
        expect(result.hits.map((h) => h.note.content)).to.have.members(['Tea note 1', 'Tea note 3']);
        expect([result.mode, result.why]).to.deep.equal([
          'full-text',
          'no embedder is configured, so this search is full-text only',
        ]);
        expect((await store.search(operator(), 'tea', null, 3)).hits).to.have.length(3);
        expect((await store.search(operator(), 'tea')).hits).to.have.length(4);
      });

      it('refuses a query over 512 characters, counted as characters', async () => {
        expect((await store.search(operator(), '🍵'.repeat(512))).hits).to.deep.equal([]);
        expect(await rejectionCode(store.search(operator(), '🍵'.repeat(513)))).to.equal(
          'MIRA_ERR_NOTES_QUERY_TOO_LONG',
        );
      });

      it('with an embedder, also finds notes near in meaning that share no word, within sight only', async () => {
        const embedder = new TopicEmbedder([
          ['tea', 'chai', 'infusion'],
          ['car', 'vehicle', 'automobile'],
        ]);
        await make(embedder);
        const chai = await note('The chai is in the blue tin');
        await note('The car is in the garage');
        await note('A secret infusion', { key: 'k' });
        await note('Chai in the office', { scope: 'work' });
        const result = await store.search(model(), 'tea');
        expect([result.mode, result.why]).to.deep.equal(['hybrid', undefined]);
        expect(result.hits.map((h) => h.note.id)).to.deep.equal([chai.id]);
        expect((await store.search(model('k'), 'tea')).hits.map((h) => h.note.content)).to.have.members([
          'The chai is in the blue tin',
          'A secret infusion',
        ]);
        expect(store.embeddingState()).to.deep.equal({
          stored: 'test:topics',
          dimension: 3,
          configured: 'test:topics',
          mismatch: false,
        });
      });

      it('saves a note when the embedder fails, says why, and still finds it by its words', async () => {
        const embedder = new TopicEmbedder([['tea']]);
        await make(embedder);
        embedder.fail = true;
        const saved = await store.save('default', 'Tea at four', null, null);
        expect(saved.embeddingError).to.equal('the embedding server is down');
        const found = await store.search(operator(), 'tea');
        expect(found.hits.map((h) => h.note.id)).to.deep.equal([saved.note.id]);
        expect(found.mode).to.equal('full-text');
        embedder.fail = false;
        expect((await store.save('default', 'Tea at five', null, null)).embeddingError).to.equal(undefined);
      });
    });

    describe('#duplicates() and #combine()', () => {
      const spare = 'The spare key is under the blue flowerpot by the front door';
      const again = 'the spare key is under the blue flowerpot by the front door!';

      it('pairs near-identical notes the viewer sees, narrowed by label, reporting progress', async () => {
        const a = await note(spare, { labels: 'place' });
        const b = await note(again, { labels: 'place' });
        await note('Buy oat milk on Friday', { labels: 'place' });
        await note(spare, { key: 'k' });
        const progress: Array<[number, number]> = [];
        const pairs = await store.duplicates(model(), { onProgress: (done, total) => progress.push([done, total]) });
        expect(pairs.map((p) => [p.a.id, p.b.id])).to.deep.equal([[a.id, b.id]]);
        expect(pairs[0]!.similarity).to.be.within(0.7, 1);
        const total = progress[0]![1];
        expect(progress[0]).to.deep.equal([0, total]);
        expect(progress.at(-1)).to.deep.equal([total, total]);
        expect(progress.every(([done], i) => i === 0 || done >= progress[i - 1]![0])).to.equal(true);
        expect(await store.duplicates(model(), { label: 'place' })).to.have.length(1);
        expect(await store.duplicates(model(), { label: 'unlabeled' })).to.deep.equal([]);
        expect(await store.duplicates(operator(), { label: 'unlabeled' })).to.deep.equal([]);
        expect(await store.duplicates(operator())).to.have.length(3);
      });

      it('leaves out a pair whose note is deleted while the scan runs', async () => {
        await note(spare);
        const gone = await note(again);
        const c = await note('Buy oat milk on Friday');
        const d = await note('buy oat milk on friday!');
        let deleted = false;
        const pairs = await store.duplicates(operator(), {
          onProgress: (done) => {
            if (done > 0 && !deleted) deleted = store.delete(gone.id, operator(), undefined).id === gone.id;
          },
        });
        expect(deleted).to.equal(true);
        expect(pairs.map((p) => [p.a.id, p.b.id])).to.deep.equal([[c.id, d.id]]);
      });

      it('stops when asked, with MIRA_ERR_NOTES_STOPPED', async () => {
        await note(spare);
        await note(again);
        const stop = new AbortController();
        stop.abort();
        expect(await rejectionCode(store.duplicates(operator(), { signal: stop.signal }))).to.equal(
          'MIRA_ERR_NOTES_STOPPED',
        );
      });

      it('combines two notes: the kept one gains the other’s labels, the other is deleted', async () => {
        const keep = await note(spare, { labels: 'place, home' });
        const drop = await note(again, { labels: 'home, door' });
        const kept = store.combine(keep.id, drop.id, operator(), 'default');
        expect(kept).to.deep.equal({ ...keep, labels: ['place', 'home', 'door'] });
        expect(store.get(drop.id, operator())).to.equal(undefined);
        expect((await store.search(operator(), 'door')).hits.map((h) => h.note.id)).to.deep.equal([keep.id]);
      });

      it('refuses to combine a note with itself, across scopes or across keys, changing nothing', async () => {
        const keep = await note(spare);
        const shared = await note(again, { scope: 'global' });
        const keyed = await note(again, { key: 'k' });
        const both = operator('default', 'global');
        expect(codeOf(() => store.combine(keep.id, keep.id, both))).to.equal('MIRA_ERR_NOTES_COMBINE_INVALID');
        expect(codeOf(() => store.combine(keep.id, shared.id, both))).to.equal('MIRA_ERR_NOTES_COMBINE_SCOPES');
        expect(codeOf(() => store.combine(keep.id, keyed.id, both))).to.equal('MIRA_ERR_NOTES_KEY_MISMATCH');
        expect(codeOf(() => store.combine(keep.id, shared.id, both, 'default'))).to.equal(
          'MIRA_ERR_NOTES_READ_ONLY_SCOPE',
        );
        expect(codeOf(() => store.combine(keep.id, keyed.id, model(), 'default'))).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
        expect(store.count(both)).to.equal(3);
      });
    });

    describe('export and import', () => {
      it('exports a scope whole, keys included, and imports it into another scope as it was', async () => {
        await note('Tea at four', { scope: 'home', labels: 'routine, drink', minutes: -10 });
        await note('The safe code is 4711', { scope: 'home', key: 'k' });
        await note('Not this one', { scope: 'work' });
        const exported = await store.exportScope('home');
        expect(exported).to.deep.equal({
          format: 'mira-notes',
          version: 1,
          scope: 'home',
          exported_at: AT,
          notes: [
            {
              content: 'Tea at four',
              labels: ['routine', 'drink'],
              private_key: null,
              created_at: '2026-04-01T07:50:00.000Z',
              updated_at: '2026-04-01T07:50:00.000Z',
            },
            { content: 'The safe code is 4711', labels: [], private_key: 'k', created_at: AT, updated_at: AT },
          ],
        });
        expect(await store.importNotes(exported, 'attic')).to.deep.equal({ added: 2, skipped: 0, trimmed: 0 });
        expect((await store.exportScope('attic')).notes).to.deep.equal(exported.notes);
        expect(store.get(store.recent(operator('attic'), 1)[0]!.id, model(null, 'attic'))).to.equal(undefined);
        expect(contents((await store.search(model('k', 'attic'), 'safe')).hits.map((h) => h.note))).to.deep.equal([
          'The safe code is 4711',
        ]);
        expect(await store.importNotes(exported, 'attic')).to.deep.equal({ added: 0, skipped: 2, trimmed: 0 });
        expect(await store.importNotes(exported)).to.deep.equal({ added: 0, skipped: 2, trimmed: 0 });
      });

      it('writes the export file’s text as JSON.stringify would, with its count', async () => {
        await note('One', { scope: 'home', labels: 'a' });
        await note('Two "quoted"', { scope: 'home', key: 'k' });
        const exported = await store.exportScope('home');
        expect(await store.exportText('home', 2)).to.deep.equal({ text: JSON.stringify(exported, null, 2), count: 2 });
        expect(await store.exportText('home')).to.deep.equal({ text: JSON.stringify(exported), count: 2 });
        expect((await store.exportText('attic')).count).to.equal(0);
      });

      it('imports all or nothing: one bad note and nothing is written, not even the scope', async () => {
        const file = exportFile('fresh', 3);
        file.notes[2]!.private_key = 'bad\tkey';
        expect(await rejectionCode(store.importNotes(file))).to.equal('MIRA_ERR_NOTES_KEY_INVALID');
        expect(store.scopes()).to.deep.equal(['default', 'global']);
        expect(await rejectionCode(store.importNotes(exportFile('fresh', 1), 'Not A Scope'))).to.equal(
          'MIRA_ERR_NOTES_SCOPE_INVALID',
        );
        expect(store.scopes()).to.deep.equal(['default', 'global']);
      });

      it('trims an over-long imported note as a save does, and counts it', async () => {
        const file = exportFile('fresh', 2);
        file.notes[0]!.content = `${'a'.repeat(510)} bbb`;
        expect(await store.importNotes(file)).to.deep.equal({ added: 2, skipped: 0, trimmed: 1 });
        expect(store.recent(operator('fresh'), 10).map((n) => n.content)).to.include('a'.repeat(510));
      });
    });

    describe('lifetime', () => {
      it('moves its revision with every write, and only then', async () => {
        const start = store.revision();
        expect(store.revision()).to.equal(start);
        const saved = await note('One');
        const saving = store.revision();
        expect(saving).to.not.equal(start);
        await store.update(saved.id, operator(), undefined, 'Two', null);
        const updating = store.revision();
        expect(updating).to.not.equal(saving);
        store.delete(saved.id, operator(), undefined);
        expect(store.revision()).to.not.equal(updating);
        const deleting = store.revision();
        store.recent(operator(), 10);
        store.browse(operator());
        await store.search(operator(), 'two');
        await store.exportScope('default');
        expect(store.revision()).to.equal(deleting);
      });

      it('keeps every note, label, key and scope across a restart', async () => {
        const saved = await note('Tea at four', { scope: 'home', labels: 'routine', key: 'k' });
        store = await sut.reopen();
        expect(store.scopes()).to.deep.equal(['default', 'global', 'home']);
        expect(store.get(saved.id, operator('home'))).to.deep.equal(saved);
        expect((await store.search(model('k', 'home'), 'tea')).hits.map((h) => h.note.id)).to.deep.equal([saved.id]);
      });

      it('closes once; closing again does nothing', () => {
        store.close();
        expect(() => store.close()).to.not.throw();
      });
    });
  });
}

/** An export of `count` notes in `scope`, the i-th created i seconds into 2026. */
function exportFile(scope: string, count: number): NotesExport {
  return {
    format: 'mira-notes',
    version: 1,
    scope,
    exported_at: AT,
    notes: Array.from({ length: count }, (_, i) => {
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      return { content: `Imported note ${i}`, labels: [], private_key: null, created_at: at, updated_at: at };
    }),
  };
}
