import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ManualClock, isMiraError } from '@mira/core';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { model, operator } from './support.js';

const MINUTE = 60_000;

describe('SqliteNotesStore#history(): the texts a note had before each change', () => {
  let dir: string;
  let path: string;
  let store: SqliteNotesStore;
  let clock: ManualClock;
  let id: number;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-history-'));
    path = join(dir, 'notes.sqlite3');
    clock = new ManualClock(new Date('2026-05-01T08:00:00.000Z'));
    store = SqliteNotesStore.open(path, { clock });
    id = (await store.save('default', 'the spare key is under the mat', 'home', null)).note.id;
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has none for a note never changed', () => {
    expect(store.history(id, operator())).to.deep.equal([]);
  });

  it('keeps each edit’s previous text and labels, newest first, with when it was written and replaced', async () => {
    clock.advance(MINUTE);
    await store.update(id, operator(), 'default', 'the spare key is under the flower pot', null);
    clock.advance(MINUTE);
    await store.update(id, operator(), 'default', 'the spare key is with Ada', 'home, ada');
    // Saved as it is: no version.
    await store.update(id, operator(), 'default', 'the spare key is with Ada', 'home, ada');
    expect(store.history(id, operator())).to.deep.equal([
      {
        content: 'the spare key is under the flower pot',
        labels: ['home'],
        writtenAt: '2026-05-01T08:01:00.000Z',
        replacedAt: '2026-05-01T08:02:00.000Z',
        cause: 'edit',
        fromNote: null,
      },
      {
        content: 'the spare key is under the mat',
        labels: ['home'],
        writtenAt: '2026-05-01T08:00:00.000Z',
        replacedAt: '2026-05-01T08:01:00.000Z',
        cause: 'edit',
        fromNote: null,
      },
    ]);
  });

  it('keeps the labels a relabel replaced, and nothing for a relabel that changes none', () => {
    clock.advance(MINUTE);
    store.relabel([id], { add: 'door', remove: '' }, operator(), 'default');
    store.relabel([id], { add: 'door', remove: '' }, operator(), 'default');
    expect(store.history(id, operator()).map((v) => [v.cause, v.labels])).to.deep.equal([['relabel', ['home']]]);
  });

  it('keeps both texts of a combine with the note kept: its own before, and the removed note’s', async () => {
    const other = (await store.save('default', 'spare key: under the mat', 'keys', null)).note.id;
    clock.advance(MINUTE);
    store.combine(id, other, operator());
    expect(store.history(id, operator()).map((v) => [v.cause, v.content, v.labels, v.fromNote])).to.deep.equal([
      ['combined', 'spare key: under the mat', ['keys'], other],
      ['combine', 'the spare key is under the mat', ['home'], other],
    ]);
  });

  it('keeps at most 50 versions a note, the oldest going first', async () => {
    for (let i = 1; i <= 52; i += 1) await store.update(id, operator(), 'default', `version ${i}`, null);
    const versions = store.history(id, operator());
    expect(versions).to.have.length(50);
    expect(versions[0]!.content).to.equal('version 51');
    expect(versions.at(-1)!.content).to.equal('version 2');
  });

  it('goes with the note: deleted, its history is gone, and asking for it is a miss', async () => {
    await store.update(id, operator(), 'default', 'changed', null);
    store.delete(id, operator(), 'default');
    const count = new Database(path, { readonly: true });
    expect(count.prepare('SELECT count(*) FROM note_history').pluck().get()).to.equal(0);
    count.close();
    try {
      store.history(id, operator());
      expect.fail('a deleted note has no history to show');
    } catch (error) {
      if (!isMiraError(error)) throw error;
      expect(error.code).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
    }
  });

  it('shows a keyed note’s history only to whoever sees the note', async () => {
    const keyed = (await store.save('default', 'the safe code is 1234', null, 'k')).note.id;
    await store.update(keyed, operator(), 'default', 'the safe code is 9876', null);
    expect(store.history(keyed, model('default', 'k')).map((v) => v.content)).to.deep.equal(['the safe code is 1234']);
    expect(() => store.history(keyed, model('default', null)))
      .to.throw()
      .with.property('code', 'MIRA_ERR_NOTES_NOT_FOUND');
  });

  it('reads no history, and refuses nothing, in a file opened read-only from before the table', async () => {
    await store.update(id, operator(), 'default', 'changed', null);
    store.close();
    const db = new Database(path);
    db.exec('DROP TABLE note_history');
    db.close();
    const reader = SqliteNotesStore.open(path, { readOnly: true });
    expect(reader.history(id, operator())).to.deep.equal([]);
    reader.close();
    // A writable open makes the table again.
    store = SqliteNotesStore.open(path, { clock });
    await store.update(id, operator(), 'default', 'changed again', null);
    expect(store.history(id, operator()).map((v) => v.content)).to.deep.equal(['changed']);
  });
});
