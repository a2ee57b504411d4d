import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteNotesStore, type Viewer } from '@mira/plugin-notes';

const viewer = (key: string | null): Viewer => ({ scopes: ['default', 'global'], key, operator: false });
const contents = (hits: Array<{ note: { content: string } }>) => hits.map((h) => h.note.content);

describe('SqliteNotesStore: keyed notes have a full-text index of their own', () => {
  let dir: string;
  let path: string;
  let store: SqliteNotesStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-keyed-index-'));
    path = join(dir, 'notes.sqlite3');
    store = SqliteNotesStore.open(path);
    for (let i = 0; i < 60; i++)
      await store.save('default', `the lighthouse code ${i} is ${1000 + i}`, null, 'k-right');
    await store.save('default', 'the harbour is quiet', null, null);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps keyed text out of the index that searches without a valid key read', () => {
    const db = new Database(path, { readonly: true });
    try {
      const count = (sql: string) => db.prepare(sql).pluck().get() as number;
      expect(count("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH 'lighthouse'")).to.equal(0);
      expect(count("SELECT count(*) FROM notes_fts_keyed WHERE notes_fts_keyed MATCH 'lighthouse'")).to.equal(60);
      expect(count("SELECT count(*) FROM notes_fts_keyed WHERE notes_fts_keyed MATCH 'harbour'")).to.equal(0);
    } finally {
      db.close();
    }
  });

  it('keeps each note in its own index when it is edited, combined or imported', async () => {
    const where = (word: string) => {
      const db = new Database(path, { readonly: true });
      try {
        const count = (table: string) =>
          db.prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`).pluck().get(word) as number;
        return [count('notes_fts'), count('notes_fts_keyed')];
      } finally {
        db.close();
      }
    };
    const keyedId = (await store.save('default', 'a keyed draft', null, 'k-right')).note.id;
    const plainId = (await store.save('default', 'a plain draft', null, null)).note.id;
    await store.update(keyedId, viewer('k-right'), 'default', 'the keyed anchor', null);
    await store.update(plainId, viewer(null), 'default', 'the plain anchor', null);
    expect([where('keyed'), where('plain')]).to.deep.equal([
      [0, 1],
      [1, 0],
    ]);
    const operator: Viewer = { scopes: ['default'], key: null, operator: true };
    const keyedTwin = (await store.save('default', 'the keyed anchor!', 'twin', 'k-right')).note.id;
    const plainTwin = (await store.save('default', 'the plain anchor!', 'twin', null)).note.id;
    store.combine(keyedId, keyedTwin, operator);
    store.combine(plainId, plainTwin, operator);
    expect([where('keyed'), where('plain'), where('twin')]).to.deep.equal([
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    await store.importNotes({
      format: 'mira-notes',
      version: 1,
      scope: 'default',
      exported_at: '2026-04-01T08:00:00.000Z',
      notes: [
        {
          content: 'an imported secret',
          labels: [],
          private_key: 'k-right',
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
        {
          content: 'an imported notice',
          labels: [],
          private_key: null,
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      ],
    });
    expect([where('secret'), where('notice')]).to.deep.equal([
      [0, 1],
      [1, 0],
    ]);
  });

  it('searches with a wrong key, or none, without reading the keyed index: they work with it gone', async () => {
    const present = await store.search(viewer('k-wrong'), 'lighthouse');
    const absent = await store.search(viewer('k-wrong'), 'zeppelin');
    expect(present).to.deep.equal(absent);
    expect(present.hits).to.deep.equal([]);
    expect(contents((await store.search(viewer('k-right'), 'lighthouse code 7')).hits)[0]).to.equal(
      'the lighthouse code 7 is 1007',
    );
    // Another connection takes the keyed index away: whatever does not read it cannot notice.
    const other = new Database(path);
    other.exec('DROP TABLE notes_fts_keyed');
    other.close();
    expect(await store.search(viewer('k-wrong'), 'lighthouse')).to.deep.equal(absent);
    expect(await store.search(viewer(null), 'lighthouse')).to.deep.equal(absent);
    expect(contents((await store.search(viewer('k-wrong'), 'harbour')).hits)).to.deep.equal(['the harbour is quiet']);
    // The right key and the operator do read it.
    let failed: unknown;
    await store.search(viewer('k-right'), 'lighthouse').catch((error: unknown) => (failed = error));
    expect(String(failed)).to.contain('notes_fts_keyed');
  });

  it('moves keyed text out of the shared index of a file from before, once, at open', async () => {
    store.close();
    const db = new Database(path);
    db.exec("DROP TABLE notes_fts_keyed; UPDATE meta SET value = 'segmented-1' WHERE key = 'text_index'");
    db.exec(
      "INSERT INTO notes_fts (rowid, content, labels) SELECT id, content, '' FROM notes WHERE key_digest IS NOT NULL",
    );
    db.close();
    store = SqliteNotesStore.open(path);
    const check = new Database(path, { readonly: true });
    try {
      expect(check.prepare("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH 'lighthouse'").pluck().get()).to.equal(
        0,
      );
    } finally {
      check.close();
    }
    expect(contents((await store.search(viewer('k-right'), 'lighthouse code 3')).hits)[0]).to.equal(
      'the lighthouse code 3 is 1003',
    );
    const operator: Viewer = { scopes: ['default'], key: null, operator: true };
    expect((await store.search(operator, 'lighthouse')).hits).to.have.length(10);
    expect((await store.search(viewer(null), 'lighthouse')).hits).to.deep.equal([]);
  });
});
