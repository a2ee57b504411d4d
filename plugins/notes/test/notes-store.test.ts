import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { ManualClock, isMiraError, type MiraError } from '@mira/core';
import { hashedBagOfWords } from '@mira/core/testing';
import { SqliteNotesStore, type Embedder, type Viewer } from '@mira/plugin-notes';
import { exportOf, holdingWriteLock, model, operator } from './support.js';

/** The embedding server as the store sees it: deterministic vectors, or a failure, or another size. */
class ScriptedEmbedder implements Embedder {
  readonly name = 'test:hashed-words';
  readonly destination = 'this test';
  fail = false;
  dimension = 32;
  calls = 0;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls += 1;
    if (this.fail) throw new Error('embedding server is down');
    return texts.map((t) => Float32Array.from(hashedBagOfWords(t, this.dimension)));
  }
}

function thrown(fn: () => unknown): MiraError {
  try {
    fn();
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error('expected a MiraError');
}

async function rejected(promise: Promise<unknown>): Promise<MiraError> {
  try {
    await promise;
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error('expected a MiraError');
}

const AT = '2026-04-01T08:00:00.000Z';
describe('SqliteNotesStore, called directly', () => {
  let dir: string;
  let path: string;
  let embedder: ScriptedEmbedder;
  let logged: string[];
  let clock: ManualClock;
  let store: SqliteNotesStore;
  /** What the file holds for a note: its row, labels, full-text row and vector (another connection's view). */
  const traces = (id: number) => {
    const db = new Database(path, { readonly: true });
    try {
      const count = (sql: string) => db.prepare(sql).pluck().get(id) as number;
      const vectors = db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'note_vectors_v3'").get()
        ? count('SELECT count(*) FROM note_vectors_v3 WHERE id = ?')
        : 0;
      return {
        notes: count('SELECT count(*) FROM notes WHERE id = ?'),
        labels: count('SELECT count(*) FROM note_labels WHERE note_id = ?'),
        text: count('SELECT count(*) FROM notes_fts WHERE rowid = ?'),
        vectors,
      };
    } finally {
      db.close();
    }
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-notes-store-'));
    path = join(dir, 'notes.sqlite3');
    embedder = new ScriptedEmbedder();
    logged = [];
    clock = new ManualClock(AT);
    store = SqliteNotesStore.open(path, { embedder, clock, log: (m) => logged.push(m) });
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
    const plain = SqliteNotesStore.open(join(dir, 'plain.sqlite3'));
    try {
      await plain.save('default', 'this is where your keys are', null, null);
      for (const query of ['are', 'is', 'this', 'your', 'where', 'how and', 'were what when']) {
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
      'MIRA_ERR_NOTES_COMBINE_INVALID: N1 cannot be combined with itself; give two different notes',
    );
    await store.save('default', 'Bob likes coffee', null, null);
    const stopped: unknown = await store.duplicates(operator(), { signal: AbortSignal.abort() }).catch((e) => e);
    expect(isMiraError(stopped) && stopped.code).to.equal('MIRA_ERR_NOTES_STOPPED');
    expect((stopped as MiraError).message).to.equal(
      'MIRA_ERR_NOTES_STOPPED: the duplicates scan was stopped after 0 of 36 steps; nothing was changed (Find duplicates again, or notes duplicates, to finish it)',
    );
    // Stopped during the scan: how far it got.
    await store.importNotes(
      exportOf(
        'many',
        Array.from({ length: 300 }, (_, i) => `note number ${i} of many`),
      ),
    );
    const midway = new AbortController();
    const late: unknown = await store
      .duplicates(operator('many'), { signal: midway.signal, onProgress: (done) => done > 0 && midway.abort() })
      .catch((e) => e);
    const [, done, total] = /stopped after (\d+) of (\d+) steps/.exec((late as MiraError).message) ?? [];
    expect([Number(done) > 0, Number(done) < Number(total), Number(total)]).to.deep.equal([true, true, 300 * 18]);
    const { note: shared } = await store.save('global', 'Alice likes green tea', null, null);
    expect(
      thrown(() => store.combine(note.id, shared.id, { scopes: ['default', 'global'], key: null, operator: true }))
        .message,
    ).to.equal(
      `MIRA_ERR_NOTES_COMBINE_SCOPES: N${note.id} is in scope "default" and N${shared.id} in "global"; a combine deletes one, and a note of another scope (the shared "global" one above all) is not this one's to fold away; nothing was changed`,
    );
    const plain = SqliteNotesStore.open(join(dir, 'plain-2.sqlite3'));
    expect(plain.sessionScope()).to.equal('default');
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
    let plain: SqliteNotesStore;
    beforeEach(() => (plain = SqliteNotesStore.open(join(dir, 'search.sqlite3'))));
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

    it('finds a word inside Chinese, Japanese and Thai text, English stemming unchanged', async () => {
      await plain.save('default', '充电座在沙发后面', null, null);
      await plain.save('default', '充電器はソファの後ろにある', null, null);
      await plain.save('default', 'ที่ชาร์จอยู่หลังโซฟา', null, null);
      await plain.save('default', 'The chargers are behind the sofa', null, null);
      expect(await contents('沙发')).to.deep.equal(['充电座在沙发后面']);
      expect(await contents('充电座')).to.deep.equal(['充电座在沙发后面']);
      expect(await contents('ソファ')).to.deep.equal(['充電器はソファの後ろにある']);
      expect(await contents('ｿﾌｧ')).to.deep.equal(['充電器はソファの後ろにある']);
      expect(await contents('โซฟา')).to.deep.equal(['ที่ชาร์จอยู่หลังโซฟา']);
      expect(await contents('charger')).to.deep.equal(['The chargers are behind the sofa']);
      // Not a word of its own there: 座 alone is, 沙 is not.
      expect(await contents('沙')).to.deep.equal([]);
    });

    it('re-indexes once, at open, a file whose index did not set Chinese words apart', async () => {
      await plain.save('default', '充电座在沙发后面', null, null);
      plain.close();
      const db = new Database(join(dir, 'search.sqlite3'));
      db.exec("DELETE FROM meta WHERE key = 'text_index'; DELETE FROM notes_fts");
      db.prepare('INSERT INTO notes_fts (rowid, content, labels) VALUES (1, ?, ?)').run('充电座在沙发后面', '');
      db.close();
      plain = SqliteNotesStore.open(join(dir, 'search.sqlite3'));
      expect(await contents('沙发')).to.deep.equal(['充电座在沙发后面']);
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
      store = SqliteNotesStore.open(path, { embedder: other });
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
    // Left open, as the earlier Mira's console would hold it: a read-only open needs a writer beside it.
    try {
      expect(thrown(() => SqliteNotesStore.open(path, { readOnly: true })).message).to.equal(
        `MIRA_ERR_STORE_OPEN_FAILED: ${path} was written by an earlier Mira and needs a one-time upgrade; open the profile's console once, then serve it read-only`,
      );
    } finally {
      db.close();
    }
    store = SqliteNotesStore.open(path);
    const reader = SqliteNotesStore.open(path, { readOnly: true });
    expect(reader.count(operator())).to.equal(1);
    reader.close();
  });

  describe('writes, read back whole', () => {
    const note = (id: number, content: string, labels: string[], extra: Record<string, unknown> = {}) => ({
      id,
      scope: 'default',
      content,
      labels,
      privateKey: null,
      createdAt: AT,
      updatedAt: AT,
      ...extra,
    });

    it('saves trimmed text and parsed labels, saying when the embedder failed and only then', async () => {
      expect(await store.save('default', '  Alice likes green tea  ', 'Drink, tea,drink', null)).to.deep.equal({
        note: note(1, 'Alice likes green tea', ['drink', 'tea']),
        cut: '',
      });
      embedder.fail = true;
      expect(await store.save('default', 'Bob likes coffee', null, 'k1')).to.deep.equal({
        note: note(2, 'Bob likes coffee', [], { privateKey: 'k1' }),
        cut: '',
        embeddingError: 'embedding server is down',
      });
      expect([traces(1).vectors, traces(2).vectors]).to.deep.equal([1, 0]);
    });

    it('logs to standard error when no log is given', async () => {
      const writes: string[] = [];
      const original = process.stderr.write.bind(process.stderr);
      process.stderr.write = ((chunk: string) => (writes.push(String(chunk)), true)) as typeof process.stderr.write;
      const quiet = SqliteNotesStore.open(join(dir, 'stderr.sqlite3'), { embedder });
      try {
        embedder.fail = true;
        await quiet.save('default', 'Alice likes green tea', null, null);
      } finally {
        process.stderr.write = original;
        quiet.close();
      }
      expect(writes).to.have.length(1);
      expect(writes[0]).to.match(
        /^mira: notes: the embedder failed while saving a note; continuing without vectors: Error: embedding server is down\n/,
      );
      expect(writes[0]).to.match(/\n$/);
    });

    it('updates text, keeping labels unless new ones are given, and the creation time', async () => {
      const { note: saved } = await store.save('default', 'Alice likes green tea', 'drink', null);
      clock.advance(60_000);
      const later = '2026-04-01T08:01:00.000Z';
      expect(await store.update(saved.id, operator(), 'default', 'Alice likes jasmine tea', null)).to.deep.equal({
        note: note(saved.id, 'Alice likes jasmine tea', ['drink'], { updatedAt: later }),
        cut: '',
      });
      expect(await store.update(saved.id, model(), 'default', 'Alice likes oolong', 'Tea, Morning')).to.deep.equal({
        note: note(saved.id, 'Alice likes oolong', ['tea', 'morning'], { updatedAt: later }),
        cut: '',
      });
      expect((await store.search(operator(), 'oolong')).hits.map((h) => h.note.labels)).to.deep.equal([
        ['tea', 'morning'],
      ]);
    });

    it('drops the old vector when the embedder fails on update, so the note is not found by its old meaning', async () => {
      const { note: saved } = await store.save('default', 'Alice likes green tea', null, null);
      expect(traces(saved.id).vectors).to.equal(1);
      embedder.fail = true;
      await store.update(saved.id, operator(), 'default', 'The door code changed', null);
      expect(traces(saved.id)).to.deep.equal({ notes: 1, labels: 0, text: 1, vectors: 0 });
      embedder.fail = false;
      await store.update(saved.id, operator(), 'default', 'The door code changed again', null);
      expect(traces(saved.id).vectors).to.equal(1);
    });

    it('deletes a note with everything made from it: labels, full-text row and vector', async () => {
      const { note: saved } = await store.save('default', 'Alice likes green tea', 'drink, tea', null);
      expect(traces(saved.id)).to.deep.equal({ notes: 1, labels: 2, text: 1, vectors: 1 });
      expect(store.delete(saved.id, model(), 'default')).to.deep.equal(
        note(saved.id, 'Alice likes green tea', ['drink', 'tea']),
      );
      expect(traces(saved.id)).to.deep.equal({ notes: 0, labels: 0, text: 0, vectors: 0 });
    });

    it('refuses writes out of reach with stable codes and exact words', async () => {
      const { note: shared } = await store.save('global', 'The robot charges at the dock', null, null);
      const { note: keyed } = await store.save('global', 'The safe code is 1234', null, 'k1');
      const session: Viewer = { scopes: ['default', 'global'], key: 'k1', operator: false };
      expect((await rejected(store.update(99, operator(), 'default', 'x', null))).message).to.equal(
        'MIRA_ERR_NOTES_NOT_FOUND: there is no note 99',
      );
      expect((await rejected(store.update(shared.id, session, 'default', 'x', null))).message).to.equal(
        `MIRA_ERR_NOTES_READ_ONLY_SCOPE: note ${shared.id} is in the shared "global" scope, which is read-only from this scope`,
      );
      // A keyed note out of reach is a miss even with the right key: no oracle for keys.
      expect(thrown(() => store.delete(keyed.id, session, 'default')).message).to.equal(
        `MIRA_ERR_NOTES_NOT_FOUND: there is no note ${keyed.id}`,
      );
      // Within reach, the same session writes its own scope's notes, keyed ones with their key.
      const { note: own } = await store.save('default', 'Alice likes green tea', null, 'k1');
      expect((await store.update(own.id, session, 'default', 'Alice likes black tea', null)).note.content).to.equal(
        'Alice likes black tea',
      );
      expect(store.delete(own.id, session, 'default').id).to.equal(own.id);
      expect(store.get(shared.id, operator('global'))?.content).to.equal('The robot charges at the dock');
    });

    it('lists recent notes with a label, a blank label meaning any, and hides keyed ones without the key', async () => {
      await store.save('default', 'Alice likes green tea', 'drink', null);
      clock.advance(1000);
      await store.save('default', 'The dock is in the hall', 'place', null);
      clock.advance(1000);
      await store.save('default', 'The safe code is 1234', 'place', 'k1');
      const recent = (viewer: Viewer, label: string | null, count = 10) =>
        store.recent(viewer, count, label).map((n) => n.content);
      expect(recent(model(), 'Place')).to.deep.equal(['The dock is in the hall']);
      expect(recent(model('default', 'k1'), 'place')).to.deep.equal([
        'The safe code is 1234',
        'The dock is in the hall',
      ]);
      const all = ['The dock is in the hall', 'Alice likes green tea'];
      expect([recent(model(), null), recent(model(), ''), recent(model(), ' , ')]).to.deep.equal([all, all, all]);
      expect(recent(operator(), null, 2)).to.deep.equal(['The safe code is 1234', 'The dock is in the hall']);
      expect((await store.search(model(), 'tea', ' , ')).hits.map((h) => h.note.content)).to.deep.equal([
        'Alice likes green tea',
      ]);
    });

    it('finds a note by any of its labels', async () => {
      const plain = SqliteNotesStore.open(join(dir, 'labels.sqlite3'));
      try {
        await plain.save('default', 'Spanner and pliers', 'garage, tools', null);
        for (const query of ['garage', 'tools']) {
          expect(
            (await plain.search(operator(), query)).hits.map((h) => h.note.content),
            query,
          ).to.deep.equal(['Spanner and pliers']);
        }
      } finally {
        plain.close();
      }
    });

    it('combines labels up to eight, and refuses notes with different keys in exact words', async () => {
      const a = (await store.save('default', 'Alice likes green tea', 'a1, a2, a3, a4, a5', null)).note;
      const b = (await store.save('default', 'Alice likes green tea.', 'a5, b1, b2, b3, b4', null)).note;
      expect(store.combine(a.id, b.id, operator())).to.deep.equal(
        note(a.id, 'Alice likes green tea', ['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2', 'b3']),
      );
      expect(traces(b.id)).to.deep.equal({ notes: 0, labels: 0, text: 0, vectors: 0 });
      const keyed = (await store.save('default', 'Alice likes green tea!', null, 'k1')).note;
      expect(thrown(() => store.combine(a.id, keyed.id, operator())).message).to.equal(
        `MIRA_ERR_NOTES_KEY_MISMATCH: notes ${a.id} and ${keyed.id} have different keys (or one has none), so they cannot be combined; delete one instead`,
      );
    });

    it('pairs two notes that differ in punctuation', async () => {
      await store.save('default', 'Alice likes green tea', null, null);
      await store.save('default', 'Alice likes green tea.', null, null);
      expect((await store.duplicates(operator())).map((d) => [d.a.id, d.b.id])).to.deep.equal([[1, 2]]);
    });

    it('exports a scope whole: text, labels, keys and times', async () => {
      await store.save('kitchen', 'The kettle is descaled', 'chores, kettle', 'k1');
      await store.save('default', 'Not in the kitchen', null, null);
      expect(await store.exportScope('kitchen')).to.deep.equal({
        format: 'mira-notes',
        version: 1,
        scope: 'kitchen',
        exported_at: AT,
        notes: [
          {
            content: 'The kettle is descaled',
            labels: ['chores', 'kettle'],
            private_key: 'k1',
            created_at: AT,
            updated_at: AT,
          },
        ],
      });
    });
  });

  it('combines with the kept note as another process left it while the combine waited for the write lock', async () => {
    const keep = (await store.save('default', 'The spare key is under the mat', 'keys', null)).note;
    const drop = (await store.save('default', 'The spare key is under the doormat', 'home', null)).note;
    // Another process edits the kept note and holds the write lock: the combine reads the note as it was,
    // then waits for the lock, which is given up when the edit commits.
    const garage = 'The spare key hangs by the garage';
    const other = await holdingWriteLock(
      path,
      [
        ['UPDATE notes SET content = ? WHERE id = ?', garage, keep.id],
        ['DELETE FROM notes_fts WHERE rowid = ?', keep.id],
        ['INSERT INTO notes_fts (rowid, content, labels) VALUES (?, ?, ?)', keep.id, garage, 'keys'],
      ],
      400,
    );
    const kept = store.combine(keep.id, drop.id, operator(), 'default');
    await other.ended;
    expect(kept.content).to.equal('The spare key hangs by the garage');
    expect(kept.labels).to.deep.equal(['keys', 'home']);
    // Both indexes hold the text the note has now, not the text the combine first read.
    const db = new Database(path, { readonly: true });
    try {
      const found = (table: string, word: string) =>
        db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).pluck().all(`"${word}"`);
      expect(found('notes_fts', 'garage')).to.deep.equal([keep.id]);
      expect(found('notes_fts', 'mat')).to.deep.equal([]);
      expect(found('notes_filter', 'garage')).to.deep.equal([keep.id]);
      expect(found('notes_filter', 'under the mat')).to.deep.equal([]);
    } finally {
      db.close();
    }
  });

  describe('import', () => {
    it('checks every note before anything is embedded or written', async () => {
      const before = embedder.calls;
      const badKey = exportOf('pantry', [{ content: 'Flour is on the top shelf' }, { content: 'Sugar', key: 'a\tb' }]);
      expect((await rejected(store.importNotes(badKey))).code).to.equal('MIRA_ERR_NOTES_KEY_INVALID');
      const empty = exportOf('pantry', [{ content: 'Flour is on the top shelf' }, { content: '   ' }]);
      expect((await rejected(store.importNotes(empty))).code).to.equal('MIRA_ERR_NOTES_EMPTY');
      const fine = exportOf('pantry', [{ content: 'Flour is on the top shelf' }]);
      expect((await rejected(store.importNotes(fine, 'Bad Scope'))).code).to.equal('MIRA_ERR_NOTES_SCOPE_INVALID');
      expect([embedder.calls - before, store.scopes(), store.count(operator('pantry'))]).to.deep.equal([
        0,
        ['default', 'global'],
        0,
      ]);
    });

    it('embeds in batches of 64 and reports each; skips notes already present without embedding', async () => {
      const progress: Array<[number, number]> = [];
      const seventy = exportOf(
        'default',
        Array.from({ length: 70 }, (_, i) => ({ content: `note number ${i}` })),
      );
      expect(await store.importNotes(seventy, 'default', (d, t) => progress.push([d, t]))).to.deep.equal({
        added: 70,
        skipped: 0,
        trimmed: 0,
      });
      expect(progress).to.deep.equal([
        [0, 70],
        [64, 70],
        [70, 70],
      ]);
      expect(traces(70).vectors).to.equal(1);
      progress.length = 0;
      const calls = embedder.calls;
      expect(await store.importNotes(seventy, 'default', (d, t) => progress.push([d, t]))).to.deep.equal({
        added: 0,
        skipped: 70,
        trimmed: 0,
      });
      expect([progress, embedder.calls - calls]).to.deep.equal([[], 0]);
      const sixtyFour = exportOf(
        'other',
        Array.from({ length: 64 }, (_, i) => ({ content: `other note ${i}` })),
      );
      await store.importNotes(sixtyFour, 'other', (d, t) => progress.push([d, t]));
      expect([progress, embedder.calls - calls]).to.deep.equal([
        [
          [0, 64],
          [64, 64],
        ],
        1,
      ]);
    });

    it('imports without vectors, asking no embedder, when the stored vectors come from another', async () => {
      await store.save('default', 'Alice likes green tea', null, null);
      store.close();
      let asked = 0;
      const other: Embedder = {
        name: 'test:other',
        destination: 'x',
        embed: async (t) => {
          asked += 1;
          return embedder.embed(t);
        },
      };
      store = SqliteNotesStore.open(path, { embedder: other, log: (m) => logged.push(m) });
      expect(await store.importNotes(exportOf('default', [{ content: 'Bob likes coffee' }]))).to.deep.equal({
        added: 1,
        skipped: 0,
        trimmed: 0,
      });
      expect([asked, traces(2).vectors, logged]).to.deep.equal([0, 0, []]);
      const plain = SqliteNotesStore.open(join(dir, 'plain-import.sqlite3'), { log: (m) => logged.push(m) });
      try {
        await plain.importNotes(exportOf('default', [{ content: 'Bob likes coffee' }]));
        expect([plain.count(operator()), logged]).to.deep.equal([1, []]);
      } finally {
        plain.close();
      }
    });
  });

  describe('files from before', () => {
    const tables = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
      } finally {
        db.close();
      }
    };
    /** Puts the file's vectors back into the sqlite-vec table of an earlier release. */
    const toOldVectors = (file: string, table: 'note_vectors' | 'note_vectors_v2') => {
      const db = new Database(file);
      sqliteVec.load(db);
      const dimension = db.prepare("SELECT value FROM meta WHERE key = 'dimension'").pluck().get() as string;
      db.exec(`CREATE VIRTUAL TABLE ${table} USING vec0(embedding float[${dimension}] distance_metric=cosine)`);
      db.exec(`INSERT INTO ${table} (rowid, embedding) SELECT id, embedding FROM note_vectors_v3`);
      db.exec('DROP TABLE note_vectors_v3');
      db.close();
    };

    it('refuses read-only a file with only old vectors, and moves them once when opened for writing', async () => {
      const { note: saved } = await store.save('default', 'Alice likes green tea', null, null);
      store.close();
      toOldVectors(path, 'note_vectors_v2');
      const console = new Database(path);
      console.prepare('SELECT count(*) FROM notes').get();
      try {
        const refused = thrown(() => SqliteNotesStore.open(path, { readOnly: true })).message;
        expect(refused, refused).to.match(/needs a one-time upgrade/);
      } finally {
        console.close();
      }
      store = SqliteNotesStore.open(path, { embedder, log: (m) => logged.push(m) });
      expect(traces(saved.id).vectors).to.equal(1);
      expect((await store.search(operator(), 'green tea')).mode).to.equal('hybrid');
      const reader = SqliteNotesStore.open(path, { readOnly: true });
      reader.close();
    });

    it('drops an empty old vector table of a file that never had an embedder, making none', () => {
      const file = join(dir, 'never-embedded.sqlite3');
      const fresh = join(dir, 'fresh.sqlite3');
      SqliteNotesStore.open(file).close();
      SqliteNotesStore.open(fresh).close();
      const db = new Database(file);
      sqliteVec.load(db);
      db.exec('CREATE VIRTUAL TABLE note_vectors USING vec0(embedding float[8] distance_metric=cosine)');
      db.close();
      SqliteNotesStore.open(file, { embedder }).close();
      expect(tables(file)).to.deep.equal(tables(fresh));
    });

    it('writes nothing when it opens a file that needs no upgrade', async () => {
      await store.save('default', 'Alice likes green tea', 'drink', null);
      const before = store.revision();
      SqliteNotesStore.open(path, { embedder }).close();
      expect(store.revision()).to.equal(before);
    });
  });
});
