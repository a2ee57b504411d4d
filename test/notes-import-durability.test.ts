import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { importNotes, type ImportTarget } from '../plugins/notes/src/transfer.js';
import type { PreparedNote } from '../plugins/notes/src/transfer-format.js';

// Issue 49 item 7: a large import's slices commit without waiting for the disk and leave the WAL's
// checkpoints to a worker thread, so that a slice holds the runtime's thread for its work only. Whatever
// else runs on the same connection between two slices (a save typed at the console) must still commit as
// the store always does: synchronous = FULL, the connection's own checkpoints. Real SQLite file on disk.

const note = (i: number): PreparedNote => ({
  content: `note ${i}: the charger in the kitchen ${'and the garden door '.repeat(i % 7)}`,
  trimmed: false,
  labels: [],
  privateKey: null,
  keyDigest: null,
  createdAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
  updatedAt: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(),
  indexed: `note ${i}`,
});

describe('notes import: durability of what runs between its slices (issue 49 item 7)', function () {
  this.timeout(120_000);
  let dir: string;
  let path: string;
  let db: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-import-durability-'));
    path = join(dir, 'notes.db');
    SqliteNotesStore.open(path).close();
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The transfer's view of `db`: the notes table and nothing else (no labels, text index or vectors). */
  const target = (): ImportTarget => ({
    db,
    importedAlready: () => false,
    ensureScope: (scope) => db.prepare("INSERT OR IGNORE INTO scopes VALUES (?, 'now')").run(scope),
    embeds: false,
    embed: async (texts) => texts.map(() => undefined),
    insert: (scope, n) =>
      Number(
        db
          .prepare('INSERT INTO notes (scope, content, created_at, updated_at) VALUES (?, ?, ?, ?)')
          .run(scope, n.content, n.createdAt, n.updatedAt).lastInsertRowid,
      ),
    index: () => {},
    forget: (ids) => ids.forEach((id) => db.prepare('DELETE FROM notes WHERE id = ?').run(id)),
    vectorsChanged: () => {},
    now: () => new Date().toISOString(),
  });

  it('keeps synchronous = FULL and the connection’s checkpoints whenever anything else can run', async () => {
    const notes = Array.from({ length: 40_000 }, (_, i) => note(i));
    const seen = new Set<string>();
    let turns = 0;
    // Runs between slices, as a console save would: the connection must be as the store opened it.
    const timer = setInterval(() => {
      turns += 1;
      seen.add(`${db.pragma('synchronous', { simple: true })}/${db.pragma('wal_autocheckpoint', { simple: true })}`);
    }, 1);
    const result = await importNotes(target(), { prepared: true, scope: 'big', notes }, 'big', () => {}).finally(() =>
      clearInterval(timer),
    );
    expect(result).to.deep.equal({ added: notes.length, skipped: 0, trimmed: 0 });
    expect(turns, 'the event loop turned during the import').to.be.above(5);
    // 2 is FULL; 1000 pages is SQLite's (and the store's) automatic checkpoint.
    expect([...seen]).to.deep.equal(['2/1000']);
    expect(db.pragma('synchronous', { simple: true })).to.equal(2);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(1000);
    expect(db.prepare("SELECT count(*) FROM notes WHERE scope = 'big'").pluck().get()).to.equal(notes.length);
  });

  it('checkpoints the WAL during the import, so it does not grow with the import', async () => {
    const notes = Array.from({ length: 40_000 }, (_, i) => note(i));
    const bytes = notes.reduce((sum, n) => sum + n.content.length, 0);
    await importNotes(target(), { prepared: true, scope: 'big', notes }, 'big', () => {});
    // The connection's own checkpoints keep the WAL near 1,000 pages and a slice; the import's, one slice
    // (a slice of moves writes up to ~1,700 pages). Without checkpoints it would hold every page the import
    // wrote (here about 90 MB), and so would it with checkpoints that never wholly catch up with the writes
    // (the WAL then never starts afresh).
    const page = db.pragma('page_size', { simple: true }) as number;
    expect(statSync(`${path}-wal`).size).to.be.below(2 * 1000 * page);
    expect(statSync(path).size).to.be.above(bytes);
  });

  it('restores the connection’s settings when the import fails half-way', async () => {
    const notes = Array.from({ length: 20_000 }, (_, i) => note(i));
    const failing = { ...target() };
    let inserted = 0;
    failing.insert = (scope, n) => {
      inserted += 1;
      if (inserted === 15_000) throw new Error('disk full');
      return target().insert(scope, n, undefined);
    };
    const error = await importNotes(failing, { prepared: true, scope: 'big', notes }, 'big', () => {}).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).to.equal('disk full');
    expect(db.pragma('synchronous', { simple: true })).to.equal(2);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).to.equal(1000);
    expect(db.prepare('SELECT count(*) FROM notes').pluck().get()).to.equal(0);
  });
  it('indexes each note once, in its slice, after a run of notes is written, not note by note', async () => {
    const notes = Array.from({ length: 5_000 }, (_, i) => note(i));
    const events: string[] = [];
    const spy = { ...target() };
    spy.insert = (scope, n, vector) => {
      events.push('write');
      return target().insert(scope, n, vector);
    };
    spy.index = (id) => {
      // Inside the slice's transaction: a crash leaves the staged note with its index rows or neither.
      expect(db.inTransaction, 'indexed inside the transaction').to.equal(true);
      events.push(`index ${id}`);
    };
    await importNotes(spy, { prepared: true, scope: 'big', notes }, 'big', () => {});
    const indexed = events.filter((e) => e.startsWith('index')).map((e) => Number(e.slice(6)));
    const ids = db.prepare("SELECT id FROM notes WHERE scope = 'big' ORDER BY id").pluck().all() as number[];
    expect(indexed).to.deep.equal(ids);
    // Runs of writes, then their indexing: each text index is written out once per run, not once per note.
    const switches = events.filter((e, i) => i > 0 && (e === 'write') !== (events[i - 1] === 'write')).length;
    expect(switches).to.be.below(notes.length / 8);
    expect(events.slice(0, 3)).to.deep.equal(['write', 'write', 'write']);
  });
});
