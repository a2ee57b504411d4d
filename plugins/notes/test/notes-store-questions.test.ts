import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteNotesStore, type Viewer } from '@mira/plugin-notes';
import { model, operator } from './support.js';

describe('SqliteNotesStore#search() with questions as people ask them', () => {
  let dir: string;
  let store: SqliteNotesStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-notes-questions-'));
    store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const found = async (query: string, viewer: Viewer = operator()) =>
    (await store.search(viewer, query, null, 10)).hits.map((h) => h.note.content);

  it('finds the note by its words alone, whatever question words surround them', async () => {
    await store.save('default', 'The spare light bulbs are in the hallway cupboard', null, null);
    await store.save('default', 'Put the bins out on Sunday night', null, null);
    await store.save('default', 'How to reset the router: hold the button for 10 seconds', null, null);
    // "put" alone would do, were there no note with two of the words.
    expect(await found('where did we put the spare bulbs?')).to.deep.equal([
      'The spare light bulbs are in the hallway cupboard',
    ]);
    expect(await found('where did we put the bins?')).to.deep.equal(['Put the bins out on Sunday night']);
    expect(await found('how do I reset the router')).to.deep.equal([
      'How to reset the router: hold the button for 10 seconds',
    ]);
    expect(await found('where is it, and how do we do that?')).to.deep.equal([]);
  });

  it('lists notes with more of four or more words first, whatever BM25 says', async () => {
    const three = 'The garage shelf holds the teapot, behind the paint tins, brushes, rags and the old radio';
    await store.save('default', three, null, null);
    await store.save('default', 'Kettle and teapot', null, null);
    for (let i = 0; i < 6; i++) {
      await store.save('default', `Garage door note ${i}`, null, null);
      await store.save('default', `Shelf bracket note ${i}`, null, null);
    }
    // The short note with the two rare words ranks first by BM25; the note with three of the four comes first.
    expect(await found('kettle teapot garage shelf')).to.deep.equal([three, 'Kettle and teapot']);
  });

  it('never matches on the "s" of a possessive or contraction, nor the "t" of a negation', async () => {
    await store.save('default', "Tom's inhaler is in the bathroom cabinet", null, null);
    await store.save('default', "There's milk in the fridge, it's Sarah's", null, null);
    await store.save('default', "Don't feed the dog grapes", null, null);
    expect(await found("where's the camping stove?")).to.deep.equal([]);
    expect(await found("what can't I cook?")).to.deep.equal([]);
    expect(await found("where's Tom's inhaler")).to.deep.equal(["Tom's inhaler is in the bathroom cabinet"]);
    expect(await found("what doesn't the dog eat")).to.deep.equal(["Don't feed the dog grapes"]);
  });

  it('lists notes with one word of three only when no note the viewer may see has two', async () => {
    for (let i = 0; i < 8; i++) {
      await store.save('default', `spare set number ${i} for the shelf`, null, null);
      await store.save('default', `bulbs order number ${i} came`, null, null);
    }
    await store.save('default', 'Hallway', null, null);
    // Keyed, in the other full-text index: weighed the same for a viewer who may see it.
    const bulbs = 'The spare bulbs are in the cupboard on the top shelf';
    await store.save('default', bulbs, null, 'k');
    await store.save('other', 'Spare bulbs, two boxes', null, null);
    const question = 'where are the spare bulbs in the hallway?';
    for (const viewer of [operator(), model('default', 'k')])
      expect(await found(question, viewer)).to.deep.equal([bulbs]);
    // Neither the keyed note nor the other scope's decides what this viewer sees: the rarest word comes first.
    const unkeyed = await found(question, model());
    expect(unkeyed).to.have.length(10);
    expect(unkeyed[0]).to.equal('Hallway');
    expect(unkeyed).to.not.include(bulbs);
  });

  it('lists notes with every word of three first, then those with two, and none with one', async () => {
    await store.save('default', 'The car keys hang by the front door; the spare car key is in the desk', null, null);
    await store.save('default', 'Mr Hughes has a spare key to the house', null, null);
    await store.save('default', 'The car is in the garage', null, null);
    expect(await found("where's the spare car key")).to.deep.equal([
      'The car keys hang by the front door; the spare car key is in the desk',
      'Mr Hughes has a spare key to the house',
    ]);
    // Two words: notes with either follow those with both.
    expect(await found('spare key')).to.deep.equal([
      'Mr Hughes has a spare key to the house',
      'The car keys hang by the front door; the spare car key is in the desk',
    ]);
  });

  it('weighs the notes of at most 8 words by how many they hold; a longer list is ranked by BM25 alone', async () => {
    await store.save('default', 'alpha beta', null, null);
    await store.save('default', 'gamma', null, null);
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa', 'sigma'];
    expect(await found(words.slice(0, 8).join(' '))).to.deep.equal(['alpha beta']);
    expect(await found(words.join(' '))).to.have.members(['alpha beta', 'gamma']);
  });

  it('puts a note holding a lone word itself before one holding a longer word it begins', async () => {
    await store.save('default', 'the team meets on Mondays', null, null);
    await store.save('default', 'Alice drinks green tea every morning before work', null, null);
    expect(await found('tea')).to.deep.equal([
      'Alice drinks green tea every morning before work',
      'the team meets on Mondays',
    ]);
  });
});
