import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock, isMiraError } from '@mira/core';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { operator } from './support.js';

const DAY = 24 * 60 * 60 * 1000;

describe('SqliteNotesStore.browse: notes added or changed within a time', () => {
  let dir: string;
  let store: SqliteNotesStore;
  let clock: ManualClock;
  /** Saved on 1, 2 and 3 May; the first edited on 4 May. */
  let ids: number[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-dates-'));
    clock = new ManualClock(new Date('2026-05-01T08:00:00.000Z'));
    store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'), { clock });
    ids = [];
    for (const text of ['tea with lemon', 'the printer jams', 'tea in the blue tin']) {
      ids.push((await store.save('default', text, 'home', null)).note.id);
      clock.advance(DAY);
    }
    await store.update(ids[0]!, operator(), 'default', 'tea with honey', null);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const shown = (options: Parameters<SqliteNotesStore['browse']>[1]) => {
    const page = store.browse(operator(), options);
    return { ids: page.notes.map((n) => n.id), matching: page.counts?.matching, total: page.counts?.total };
  };

  it('keeps the notes whose last change is at or after `since` and before `until`, counted as the page is', () => {
    expect(shown({ since: '2026-05-02T08:00:00.000Z' })).to.deep.equal({
      ids: [ids[2], ids[1], ids[0]],
      matching: 3,
      total: 3,
    });
    expect(shown({ since: '2026-05-02T08:00:00.001Z' })).to.deep.equal({
      ids: [ids[2], ids[0]],
      matching: 2,
      total: 3,
    });
    expect(shown({ until: '2026-05-03T08:00:00.000Z' })).to.deep.equal({ ids: [ids[1]], matching: 1, total: 3 });
    expect(shown({ since: '2026-05-03T00:00:00.000Z', until: '2026-05-04T00:00:00.000Z' })).to.deep.equal({
      ids: [ids[2]],
      matching: 1,
      total: 3,
    });
    // An edited note counts from its edit: the 1 May note was changed on 4 May.
    expect(shown({ since: '2026-05-04T00:00:00.000Z' })).to.deep.equal({ ids: [ids[0]], matching: 1, total: 3 });
    expect(shown({ since: null, until: null })).to.deep.equal({ ids: [ids[2], ids[1], ids[0]], matching: 3, total: 3 });
  });

  it('combines with the filter and the label, ranked lists included, and pages on', () => {
    expect(shown({ since: '2026-05-03T00:00:00.000Z', filter: 'tea' }).ids).to.deep.equal([ids[2], ids[0]]);
    expect(shown({ since: '2026-05-03T00:00:00.000Z', filter: 'tea printer' }).ids).to.deep.equal([ids[2], ids[0]]);
    expect(shown({ until: '2026-05-03T00:00:00.000Z', label: 'home', filter: 'tea' }).ids).to.deep.equal([]);
    const first = store.browse(operator(), { since: '2026-05-02T00:00:00.000Z', limit: 1 });
    const second = store.browse(operator(), { since: '2026-05-02T00:00:00.000Z', limit: 1, after: first.next });
    expect([...first.notes, ...second.notes].map((n) => n.id)).to.deep.equal([ids[2], ids[1]]);
  });

  it('refuses a time that is not an ISO time in UTC, naming it', () => {
    for (const bad of ['yesterday', '2026-05-01', '2026-05-01T08:00:00+02:00', '2026-13-01T00:00:00.000Z']) {
      try {
        store.browse(operator(), { since: bad });
        expect.fail(bad);
      } catch (error) {
        if (!isMiraError(error)) throw error;
        expect(error.code, bad).to.equal('MIRA_ERR_NOTES_BROWSE_INVALID');
        expect(error.message, bad).to.contain(`"${bad}" is not a time`);
      }
    }
  });
});
