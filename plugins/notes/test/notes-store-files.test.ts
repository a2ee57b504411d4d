import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { hashedBagOfWords } from '@mira/core/testing';
import { SqliteNotesStore, type Embedder, type Viewer } from '@mira/plugin-notes';
import { model, operator } from './support.js';

const embedder: Embedder = {
  name: 'test:hashed-words',
  destination: 'this test',
  embed: async (texts) => texts.map((t) => Float32Array.from(hashedBagOfWords(t, 32))),
};

/** What a writable open adds to a notes file beyond its schema, and what it finishes or rolls back. */
describe('SqliteNotesStore files (store/upgrades.ts, the imports a crash cut short)', () => {
  let dir: string;
  let path: string;
  let store: SqliteNotesStore;
  const logged: string[] = [];
  const reopen = () => {
    store.close();
    store = SqliteNotesStore.open(path, { embedder, log: (m) => logged.push(m) });
  };
  /** Runs `sql` on the file through a connection of its own (another process, or a crash's leftovers). */
  const outside = <T>(use: (db: Database.Database) => T): T => {
    const db = new Database(path);
    try {
      return use(db);
    } finally {
      db.close();
    }
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-notes-files-'));
    path = join(dir, 'notes.sqlite3');
    logged.length = 0;
    store = SqliteNotesStore.open(path, { embedder, log: (m) => logged.push(m) });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes the indexes of key checks and of the Mind view’s orders at every writable open', () => {
    const indexes = () =>
      outside((db) =>
        db
          .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'notes_by_%' ORDER BY name")
          .pluck()
          .all(),
      );
    const made = ['notes_by_key_digest', 'notes_by_scope', 'notes_by_scope_created', 'notes_by_scope_length'];
    expect(indexes()).to.deep.equal(made);
    store.close();
    outside((db) =>
      db.exec('DROP INDEX notes_by_key_digest; DROP INDEX notes_by_scope_created; DROP INDEX notes_by_scope_length'),
    );
    store = SqliteNotesStore.open(path, { embedder });
    expect(indexes()).to.deep.equal(made);
    // The mark of today's full-text index, which every file written since carries: another mark is re-indexed.
    expect(outside((db) => db.prepare("SELECT value FROM meta WHERE key = 'text_index'").pluck().get())).to.equal(
      'segmented-keyed-emoji-3',
    );
  });

  it('rebuilds at open the keyed notes’ index of a file that lost it', async () => {
    const { note } = await store.save('default', 'the lighthouse code is 4711', null, 'k-9');
    await store.save('default', 'the harbour is quiet', null, null);
    store.close();
    outside((db) => db.exec('DROP TABLE notes_fts_keyed'));
    store = SqliteNotesStore.open(path, { embedder });
    const found = await store.search(model('default', 'k-9'), 'lighthouse');
    expect(found.hits.map((h) => h.note.id)).to.deep.equal([note.id]);
    expect((await store.search(model(), 'lighthouse')).hits).to.deep.equal([]);
  });

  it('rolls back an import a crash left staged in a file that never had vectors', async () => {
    store.close();
    const plainPath = join(dir, 'plain.sqlite3');
    store = SqliteNotesStore.open(plainPath, { log: (m) => logged.push(m) });
    const { note } = await store.save('default', 'a staged note', 'moving', null);
    store.close();
    const db = new Database(plainPath);
    try {
      db.prepare('INSERT INTO scopes (name, created_at) VALUES (?, ?)').run(
        '~import-999999999-cc',
        '2026-01-01T00:00:00Z',
      );
      db.prepare('UPDATE notes SET scope = ? WHERE id = ?').run('~import-999999999-cc', note.id);
    } finally {
      db.close();
    }
    store = SqliteNotesStore.open(plainPath, { log: (m) => logged.push(m) });
    expect(store.count({ scopes: ['default', '~import-999999999-cc'], key: null, operator: true })).to.equal(0);
    expect(store.labels(operator())).to.deep.equal([]);
    expect(logged).to.deep.equal(['notes: an import cut short (~import-999999999-cc) was rolled back']);
  });

  it('rolls back an import a crash left staged, notes, labels, text and vectors, and finishes a committed one', async () => {
    const viewer: Viewer = { scopes: ['default', 'imported'], key: null, operator: true };
    const staged: number[] = [];
    for (const text of ['a staged note about tea', 'another staged note about tea', 'a committed note about chai'])
      staged.push((await store.save('default', text, 'moving', null)).note.id);
    const kept = (await store.save('default', 'a note that stays', null, null)).note.id;
    store.close();
    // An import by a process that is gone (its pid cannot be running): one staged only, one committed.
    const [rolledBack, committed] = ['~import-999999999-aa', '~import-999999999-bb'];
    outside((db) => {
      const at = '2026-01-01T00:00:00.000Z';
      db.prepare('INSERT INTO scopes (name, created_at) VALUES (?, ?), (?, ?), (?, ?)').run(
        rolledBack,
        at,
        committed,
        at,
        'imported',
        at,
      );
      db.prepare('UPDATE notes SET scope = ? WHERE id IN (?, ?)').run(rolledBack, staged[0], staged[1]);
      db.prepare('UPDATE notes SET scope = ? WHERE id = ?').run(committed, staged[2]);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run(`import:${committed}`, 'imported');
    });
    reopen();
    const left = (sql: string) => outside((db) => db.prepare(sql).pluck().get(staged[0], staged[1]) as number);
    expect(left('SELECT count(*) FROM notes WHERE id IN (?, ?)')).to.equal(0);
    expect(left('SELECT count(*) FROM note_labels WHERE note_id IN (?, ?)')).to.equal(0);
    expect(left('SELECT count(*) FROM notes_fts WHERE rowid IN (?, ?)')).to.equal(0);
    expect(left('SELECT count(*) FROM note_vectors_v3 WHERE id IN (?, ?)')).to.equal(0);
    expect(store.scopes()).to.deep.equal(['default', 'global', 'imported']);
    expect(store.recent(viewer, 10).map((n) => [n.id, n.scope])).to.deep.equal([
      [kept, 'default'],
      [staged[2], 'imported'],
    ]);
    expect((await store.search(operator('imported'), 'chai')).hits.map((h) => h.note.id)).to.deep.equal([staged[2]]);
    expect(logged.map((m) => m.replace(/~import-[^)]+/, '~import'))).to.deep.equal([
      'notes: an import cut short (~import) was rolled back',
      'notes: an import cut short (~import) was finished into scope "imported"',
    ]);
  });
});
