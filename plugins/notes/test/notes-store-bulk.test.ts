import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, isMiraError, type MiraError } from '@mira/core';
import { GLOBAL_SCOPE, MAX_BULK, SqliteNotesStore, type Viewer } from '@mira/plugin-notes';
import { model, operator } from './support.js';

/** The operator on a scope's page: its notes with the global ones over them, the global ones read-only. */
const page = (scope: string): Viewer => ({ scopes: [scope, GLOBAL_SCOPE], key: null, operator: true });

/** The error `fn` throws, which must be a MiraError. */
function refusal(fn: () => unknown): MiraError {
  try {
    fn();
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  return expect.fail('expected a refusal');
}

describe('SqliteNotesStore#deleteMany() and #relabel(): many notes in one transaction, or none', () => {
  let dir: string;
  let store: SqliteNotesStore;
  let clock: ManualClock;
  let ids: number[];
  let shared: number;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-bulk-'));
    clock = new ManualClock(new Date('2026-05-01T08:00:00.000Z'));
    store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'), { clock });
    store.ensureScope('work');
    ids = [];
    for (const [text, labels] of [
      ['the spare key is under the mat', 'home'],
      ['Ada takes her tea with lemon', 'person, tea'],
      ['the printer jams on A3', null],
    ] as const)
      ids.push((await store.save('work', text, labels, null)).note.id);
    shared = (await store.save(GLOBAL_SCOPE, 'the wifi password is on the fridge', 'home', null)).note.id;
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const contents = () => store.recent(operator('work'), 10).map((n) => n.content);

  it('deletes every selected note, with its labels and full-text row, and returns them as they were', async () => {
    const deleted = store.deleteMany([ids[0]!, ids[1]!], page('work'), 'work');
    expect(deleted.map((n) => [n.id, n.labels])).to.deep.equal([
      [ids[0], ['home']],
      [ids[1], ['person', 'tea']],
    ]);
    expect(contents()).to.deep.equal(['the printer jams on A3']);
    expect(store.labels(operator('work'))).to.deep.equal([]);
    expect((await store.search(operator('work'), 'tea')).hits).to.deep.equal([]);
    expect(store.browse(page('work')).counts?.total).to.equal(2);
  });

  it('refuses the whole delete when one selected note is in the global overlay, naming it, and deletes none', () => {
    const error = refusal(() => store.deleteMany([ids[0]!, shared, ids[2]!], page('work'), 'work'));
    expect(error.code).to.equal('MIRA_ERR_NOTES_READ_ONLY_SCOPE');
    expect(error.message).to.contain(`notes N${shared} are in the shared "global" scope`);
    expect(error.message).to.contain('nothing was changed');
    expect(contents()).to.have.length(3);
    expect(store.get(shared, page('work'))).not.to.equal(undefined);
  });

  it('refuses the whole delete when a selected note is gone, naming every missing one before a read-only one', () => {
    store.delete(ids[1]!, operator('work'), 'work');
    const error = refusal(() => store.deleteMany([ids[0]!, ids[1]!, shared, 9999], page('work'), 'work'));
    expect(error.code).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
    expect(error.message).to.contain(`there is no note N${ids[1]}, N9999 in the scopes in view`);
    expect(contents()).to.have.length(2);
  });

  it('treats a keyed note of another scope as missing for a keyless caller, as a single delete does', async () => {
    const keyed = (await store.save(GLOBAL_SCOPE, 'the safe code is 1234', null, 'k')).note.id;
    const viewer = { ...model('work', 'k'), scopes: ['work', GLOBAL_SCOPE] };
    expect(refusal(() => store.deleteMany([keyed], viewer, 'work')).code).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
  });

  it('deletes the global notes from the global scope itself', () => {
    expect(store.deleteMany([shared], page(GLOBAL_SCOPE), GLOBAL_SCOPE).map((n) => n.id)).to.deep.equal([shared]);
  });

  it('refuses an empty selection and one of more than MAX_BULK notes', () => {
    expect(refusal(() => store.deleteMany([], page('work'), 'work')).code).to.equal('MIRA_ERR_NOTES_BULK_INVALID');
    const tooMany = Array.from({ length: MAX_BULK + 1 }, (_, i) => i + 1);
    const error = refusal(() => store.deleteMany(tooMany, page('work'), 'work'));
    expect(error.code).to.equal('MIRA_ERR_NOTES_BULK_INVALID');
    expect(error.message).to.contain(`at most ${MAX_BULK} notes`);
    // A note selected twice counts once.
    expect(store.deleteMany([ids[0]!, ids[0]!], page('work'), 'work')).to.have.length(1);
  });

  it('adds and removes labels on every selected note, each keeping its own labels in order', () => {
    const notes = store.relabel(ids, { add: 'Kitchen, tea', remove: 'home' }, page('work'), 'work');
    expect(notes.map((n) => n.labels)).to.deep.equal([
      ['kitchen', 'tea'],
      ['person', 'tea', 'kitchen'],
      ['kitchen', 'tea'],
    ]);
    expect(store.browse(page('work'), { label: 'kitchen' }).counts?.matching).to.equal(3);
    expect(
      store
        .browse(page('work'), { filter: 'kitchen' })
        .notes.map((n) => n.id)
        .sort(),
    ).to.deep.equal([...ids].sort());
  });

  it('stamps each relabelled note as changed now, its text and creation time kept', () => {
    const before = store.get(ids[2]!, page('work'))!;
    clock.advance(60_000);
    const [after] = store.relabel([ids[2]!], { add: 'office', remove: '' }, page('work'), 'work');
    expect(after!.content).to.equal(before.content);
    expect(after!.createdAt).to.equal(before.createdAt);
    expect(after!.updatedAt).to.equal('2026-05-01T08:01:00.000Z');
  });

  it('refuses a relabel as a whole for a read-only note, or one that would carry more than 8 labels', () => {
    expect(
      refusal(() => store.relabel([ids[0]!, shared], { add: 'x', remove: '' }, page('work'), 'work')).code,
    ).to.equal('MIRA_ERR_NOTES_READ_ONLY_SCOPE');
    const error = refusal(() =>
      store.relabel([ids[0]!, ids[1]!], { add: 'a, b, c, d, e, f, g', remove: '' }, page('work'), 'work'),
    );
    expect(error.code).to.equal('MIRA_ERR_NOTES_LABEL_INVALID');
    // The first note would have taken 8; the second, 9: neither changed.
    expect(store.get(ids[0]!, page('work'))!.labels).to.deep.equal(['home']);
    expect(store.get(ids[1]!, page('work'))!.labels).to.deep.equal(['person', 'tea']);
  });
});
