import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ManualClock, isMiraError, type MiraError } from '@mira/core';
import { hashedBagOfWords } from '@mira/core/testing';
import { NotesStore, type Embedder, type Viewer } from '@mira/plugin-notes';

/** The embedding server as the store sees it: deterministic vectors, or a failure, or another size. */
class ScriptedEmbedder implements Embedder {
  readonly name = 'test:hashed-words';
  readonly destination = 'this test';
  fail = false;
  dimension = 32;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (this.fail) throw new Error('embedding server is down');
    return texts.map((t) => Float32Array.from(hashedBagOfWords(t, this.dimension)));
  }
}

const operator = (scope = 'default'): Viewer => ({ scopes: [scope], key: null, operator: true });
const model = (scope = 'default', key: string | null = null): Viewer => ({ scopes: [scope], key, operator: false });

function thrown(fn: () => unknown): MiraError {
  try {
    fn();
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error('expected a MiraError');
}

describe('NotesStore, called directly', () => {
  let dir: string;
  let path: string;
  let embedder: ScriptedEmbedder;
  let logged: string[];
  let store: NotesStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-notes-store-'));
    path = join(dir, 'notes.sqlite3');
    embedder = new ScriptedEmbedder();
    logged = [];
    store = NotesStore.open(path, {
      embedder,
      clock: new ManualClock('2026-04-01T08:00:00.000Z'),
      log: (m) => logged.push(m),
    });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a scope name that is not one, creating nothing', async () => {
    const error = thrown(() => store.ensureScope('Kitchen Notes'));
    expect(error.message).to.equal(
      'MIRA_ERR_NOTES_SCOPE_INVALID: scope names are lower-case words (a-z, 0-9, - and _), not "Kitchen Notes"',
    );
    let importError: MiraError | undefined;
    try {
      await store.importNotes(
        { format: 'mira-notes', version: 1, scope: 'x', exported_at: '', notes: [] },
        'Bad Scope',
      );
    } catch (e) {
      importError = e as MiraError;
    }
    expect(importError?.message).to.equal(
      'MIRA_ERR_NOTES_SCOPE_INVALID: scope names are lower-case words (a-z, 0-9, - and _), not "Bad Scope"',
    );
    expect(store.scopes()).to.deep.equal(['default', 'global']);
  });

  it('hides a note from a viewer of another scope', async () => {
    const { note } = await store.save('kitchen', 'The kettle is descaled', null, null);
    expect(store.get(note.id, operator('kitchen'))?.content).to.equal('The kettle is descaled');
    expect(store.get(note.id, operator('default'))).to.equal(undefined);
    expect(store.get(note.id, model('kitchen'))?.id).to.equal(note.id);
  });

  it('records which embedder made the vectors, and their size', async () => {
    expect(store.embeddingState()).to.deep.equal({
      stored: undefined,
      dimension: undefined,
      configured: 'test:hashed-words',
      mismatch: false,
    });
    await store.save('default', 'Alice likes green tea', null, null);
    expect(store.embeddingState()).to.deep.equal({
      stored: 'test:hashed-words',
      dimension: 32,
      configured: 'test:hashed-words',
      mismatch: false,
    });
  });

  it('refuses vectors of another size than those stored, and says to re-embed', async () => {
    await store.save('default', 'Alice likes green tea', null, null);
    embedder.dimension = 16;
    let error: MiraError | undefined;
    try {
      await store.save('default', 'Bob likes coffee', null, null);
    } catch (e) {
      error = e as MiraError;
    }
    expect(error?.message).to.equal(
      'MIRA_ERR_NOTES_EMBEDDER_FAILED: the embedder returned 16 dimensions but the stored vectors have 32; run "notes reembed"',
    );
    expect(store.count(operator())).to.equal(1);
  });

  it('keeps working without vectors when the embedder fails, and logs each cause', async () => {
    const { note } = await store.save('default', 'Alice likes green tea', null, null);
    embedder.fail = true;
    await store.update(note.id, operator(), 'default', 'Alice likes jasmine tea', null);
    const found = await store.search(operator(), 'jasmine');
    expect(found.mode).to.equal('full-text');
    expect(found.why).to.equal('the embedder failed (embedding server is down); full-text only');
    expect(found.hits.map((h) => h.note.content)).to.deep.equal(['Alice likes jasmine tea']);
    const imported = await store.importNotes({
      format: 'mira-notes',
      version: 1,
      scope: 'default',
      exported_at: '2026-04-01T08:00:00.000Z',
      notes: [
        {
          content: 'Bob likes coffee',
          labels: [],
          private_key: null,
          created_at: '2026-03-01T08:00:00.000Z',
          updated_at: '2026-03-01T08:00:00.000Z',
        },
      ],
    });
    expect(imported).to.deep.equal({ added: 1, skipped: 0, trimmed: 0 });
    expect(logged.map((l) => l.split(';')[0])).to.deep.equal([
      'notes: the embedder failed while updating a note',
      'notes: the embedder failed while searching',
      'notes: the embedder failed while importing notes',
    ]);
    for (const line of logged) expect(line).to.contain('embedding server is down');
  });

  it('never lets stop-words match alone in full text', async () => {
    const plain = NotesStore.open(join(dir, 'plain.sqlite3'));
    try {
      await plain.save('default', 'this is where your keys are', null, null);
      for (const query of ['is', 'this', 'your', 'where', 'were what when']) {
        expect((await plain.search(operator(), query)).hits, query).to.deep.equal([]);
      }
      expect((await plain.search(operator(), 'keys')).hits).to.have.length(1);
    } finally {
      plain.close();
    }
  });

  it('says what it refuses in combine, duplicates and reembed', async () => {
    const { note } = await store.save('default', 'Alice likes green tea', null, null);
    expect(thrown(() => store.combine(note.id, note.id, operator())).message).to.equal(
      'MIRA_ERR_NOTES_NOT_FOUND: give two different notes to combine',
    );
    await store.save('default', 'Bob likes coffee', null, null);
    expect(thrown(() => store.duplicates(operator(), 1)).message).to.equal(
      'MIRA_ERR_NOTES_TOO_MANY: 2 notes are too many to compare at once (at most 1); narrow the scope',
    );
    const plain = NotesStore.open(join(dir, 'plain-2.sqlite3'));
    try {
      let error: MiraError | undefined;
      try {
        await plain.reembed();
      } catch (e) {
        error = e as MiraError;
      }
      expect(error?.message).to.equal(
        'MIRA_ERR_NOTES_EMBEDDER_FAILED: no embedder is configured; set [notes.embedding] provider first',
      );
    } finally {
      plain.close();
    }
  });

  describe('search', () => {
    let plain: NotesStore;
    beforeEach(() => (plain = NotesStore.open(join(dir, 'search.sqlite3'))));
    afterEach(() => plain.close());
    const contents = async (query: string, label: string | null = null, limit = 10, on = plain) =>
      (await on.search(operator(), query, label, limit)).hits.map((h) => h.note.content);

    it('bounds the query at 512 characters, counted as characters', async () => {
      await plain.save('default', 'Alice likes green tea', null, null);
      expect(await contents(`tea ${'𝒜'.repeat(508)}`)).to.deep.equal(['Alice likes green tea']);
      let error: MiraError | undefined;
      try {
        await plain.search(operator(), 'x'.repeat(513));
      } catch (e) {
        error = e as MiraError;
      }
      expect(error?.message).to.equal(
        'MIRA_ERR_NOTES_QUERY_TOO_LONG: a search query is at most 512 characters; search for a few words',
      );
    });

    it('ranks notes with every word before notes with any, and takes the last word of 3+ letters as a prefix', async () => {
      await plain.save('default', 'green apples in the bowl', null, null);
      await plain.save('default', 'tea time at four', null, null);
      await plain.save('default', 'green tea for Alice', null, null);
      await plain.save('default', 'the charger is in the drawer', null, null);
      await plain.save('default', 'ch is a digraph', null, null);
      expect((await contents('green tea'))[0]).to.equal('green tea for Alice');
      expect(await contents('green tea')).to.have.members([
        'green tea for Alice',
        'green apples in the bowl',
        'tea time at four',
      ]);
      expect(await contents('charg')).to.deep.equal(['the charger is in the drawer']);
      expect(await contents('ch')).to.deep.equal(['ch is a digraph']);
    });

    it('filters by label and honours the limit', async () => {
      for (let i = 0; i < 6; i += 1) await plain.save('default', `tea note ${i}`, i % 2 ? 'Drink' : 'misc', null);
      const drinks = await contents('tea', 'drink');
      expect(drinks).to.have.members(['tea note 1', 'tea note 3', 'tea note 5']);
      expect(await contents('tea', null, 4)).to.have.length(4);
      expect(await contents('tea', 'nothing-like-this')).to.deep.equal([]);
    });

    it('says why a search is full-text only', async () => {
      expect((await plain.search(operator(), 'tea')).why).to.equal(
        'no embedder is configured, so this search is full-text only',
      );
      expect((await store.search(operator(), 'tea')).why).to.equal('no note has a vector yet; full-text only');
      await store.save('default', 'Alice likes green tea', null, null);
      const hybrid = await store.search(operator(), 'green tea');
      expect([hybrid.mode, hybrid.why]).to.deep.equal(['hybrid', undefined]);
      store.close();
      const other: Embedder = { name: 'test:other', destination: 'x', embed: async (t) => embedder.embed(t) };
      store = NotesStore.open(path, { embedder: other });
      expect((await store.search(operator(), 'tea')).why).to.equal(
        'the stored vectors come from test:hashed-words, not test:other; full-text only until "notes reembed"',
      );
    });
  });

  it('moves its revision with writes, including another connection’s', async () => {
    const r0 = store.revision();
    expect(r0).to.match(/^\d+:\d+$/);
    await store.save('default', 'Alice likes green tea', null, null);
    const r1 = store.revision();
    expect(r1).not.to.equal(r0);
    const other = new Database(path);
    other.prepare("INSERT INTO scopes (name, created_at) VALUES ('garden', '2026-04-01T08:00:00.000Z')").run();
    other.close();
    expect(store.revision()).not.to.equal(r1);
  });

  it('is closed after close(), and a second close is harmless', () => {
    store.close();
    expect(() => store.scopes()).to.throw(/not open/);
    store.close();
  });

  it('refuses to serve read-only a file that still needs its one-time upgrade, leaving it unchanged', async () => {
    await store.save('default', 'Alice likes green tea', null, null);
    store.close();
    const db = new Database(path);
    db.exec('DROP TABLE notes_fts');
    db.exec("CREATE VIRTUAL TABLE notes_fts USING fts5(content, labels, tokenize = 'unicode61 remove_diacritics 2')");
    db.close();
    expect(thrown(() => NotesStore.open(path, { readOnly: true })).message).to.equal(
      `MIRA_ERR_STORE_OPEN_FAILED: ${path} was written by an earlier Mira and needs a one-time upgrade; open the profile's console once, then serve it read-only`,
    );
    store = NotesStore.open(path);
    const reader = NotesStore.open(path, { readOnly: true });
    expect(reader.count(operator())).to.equal(1);
    reader.close();
  });
});
