import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ManualClock } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import mindViewPlugin from '@mira/plugin-mind-view';
import notesPlugin, { GLOBAL_SCOPE, NOTES_STORE, type NotesStore } from '@mira/plugin-notes';

const CHROMIUM = '/usr/bin/chromium';

const DAY = 24 * 60 * 60 * 1000;

/** The Mind view's curation tools (#66 item 7): the selection with its delete and relabel, the date filter. */
describe('Mind view: curation of many notes, and by date', function () {
  this.timeout(30_000);
  let rt: TestRuntime;
  let base: string;
  let token: string;
  let notes: NotesStore;
  /** The IDs of the `work` scope's three notes, and of the global note listed read-only over them. */
  let ids: number[];
  let shared: number;

  beforeEach(async () => {
    // One note a day from 1 May: the work scope's three, then the global one on 4 May.
    const clock = new ManualClock(new Date('2026-05-01T08:00:00.000Z'));
    rt = await createTestRuntime({
      clock,
      plugins: [notesPlugin, mindViewPlugin],
      tables: {
        notes: { enabled: true, database_path: 'notes.sqlite3' },
        mind_view: { enabled: true, port: 0 },
      },
    });
    const server = rt.instance(mindViewPlugin).server!;
    ({ token } = server);
    base = `http://127.0.0.1:${server.port}`;
    notes = rt.app.kernel.store(NOTES_STORE);
    notes.ensureScope('work');
    ids = [];
    for (const [text, labels] of [
      ['the spare key is under the mat', 'home'],
      ['Ada takes her tea with lemon', 'person, tea'],
      ['the printer jams on A3', null],
    ] as const) {
      ids.push((await notes.save('work', text, labels, null)).note.id);
      clock.advance(DAY);
    }
    shared = (await notes.save(GLOBAL_SCOPE, 'the wifi password is on the fridge', 'home', null)).note.id;
  });
  afterEach(() => rt.dispose());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    });
  const workNotes = () =>
    notes.recent({ scopes: ['work'], key: null, operator: true }, 10).map((n) => [n.id, n.labels] as const);

  describe('API', () => {
    it('deletes the selected notes in one request, answering their IDs and an export file that puts them back', async () => {
      const response = await post('/api/notes/delete?scope=work', { ids: [ids[0], ids[2]] });
      expect(response.status).to.equal(200);
      const body = (await response.json()) as { deleted: number[]; export: { notes: unknown[] } };
      expect(body.deleted).to.deep.equal([ids[0], ids[2]]);
      expect(workNotes().map(([id]) => id)).to.deep.equal([ids[1]]);
      // The answer holds them as an export file: imported, they are back, with their labels and times.
      expect(body.export).to.deep.include({ format: 'mira-notes', version: 1, scope: 'work' });
      expect(body.export.notes).to.deep.equal([
        {
          content: 'the spare key is under the mat',
          labels: ['home'],
          private_key: null,
          created_at: '2026-05-01T08:00:00.000Z',
          updated_at: '2026-05-01T08:00:00.000Z',
        },
        {
          content: 'the printer jams on A3',
          labels: [],
          private_key: null,
          created_at: '2026-05-03T08:00:00.000Z',
          updated_at: '2026-05-03T08:00:00.000Z',
        },
      ]);
      const restored = await post('/api/notes/import?scope=work', body.export);
      expect(restored.status).to.equal(200);
      expect(workNotes().map(([, labels]) => labels)).to.deep.equal([[], ['person', 'tea'], ['home']]);
    });

    it('relabels the selected notes, answering them as they are now', async () => {
      const response = await post('/api/notes/relabel?scope=work', { ids, add: 'kitchen', remove: 'home, tea' });
      expect(response.status).to.equal(200);
      const body = (await response.json()) as { notes: Array<{ id: number; labels: string[] }> };
      expect(body.notes.map((n) => [n.id, n.labels])).to.deep.equal([
        [ids[0], ['kitchen']],
        [ids[1], ['person', 'kitchen']],
        [ids[2], ['kitchen']],
      ]);
    });

    it('refuses the whole change with 403 when a selected note is in the global overlay, changing nothing', async () => {
      const before = JSON.stringify(workNotes());
      for (const [path, body] of [
        ['/api/notes/delete?scope=work', { ids: [ids[0], shared] }],
        ['/api/notes/relabel?scope=work', { ids: [ids[0], shared], add: 'x', remove: '' }],
      ] as const) {
        const refused = await post(path, body);
        expect(refused.status, path).to.equal(403);
        const { error } = (await refused.json()) as { error: { code: string; message: string } };
        expect(error.code, path).to.equal('MIRA_ERR_NOTES_READ_ONLY_SCOPE');
        expect(error.message, path).to.contain(`N${shared}`);
      }
      expect(JSON.stringify(workNotes())).to.equal(before);
      expect(notes.get(shared, { scopes: [GLOBAL_SCOPE], key: null, operator: true })).not.to.equal(undefined);
    });

    it('refuses the whole change with 404 when a selected note is gone, naming it', async () => {
      const refused = await post('/api/notes/delete?scope=work', { ids: [ids[0], 9999] });
      expect(refused.status).to.equal(404);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
      expect(error.message).to.contain('N9999');
      expect(workNotes()).to.have.length(3);
    });

    it('refuses a malformed selection (400) before touching the store', async () => {
      for (const body of [{}, { ids: ['1'] }, { ids: [0] }, { ids: [1.5] }, { ids: [1], extra: 1 }]) {
        const refused = await post('/api/notes/delete?scope=work', body);
        expect(refused.status, JSON.stringify(body)).to.equal(400);
        expect(((await refused.json()) as { error: { code: string } }).error.code).to.equal(
          'MIRA_ERR_MIND_VIEW_BAD_REQUEST',
        );
      }
      const empty = await post('/api/notes/delete?scope=work', { ids: [] });
      expect(empty.status).to.equal(400);
      expect(((await empty.json()) as { error: { code: string } }).error.code).to.equal('MIRA_ERR_NOTES_BULK_INVALID');
      const noRemove = await post('/api/notes/relabel?scope=work', { ids, add: 'x' });
      expect(noRemove.status).to.equal(400);
      expect(workNotes()).to.have.length(3);
    });

    it('is guarded as every write is: no token, or a request from another origin, changes nothing', async () => {
      const anonymous = await fetch(`${base}/api/notes/delete?scope=work`, {
        method: 'POST',
        body: JSON.stringify({ ids }),
        headers: { 'content-type': 'application/json' },
      });
      expect(anonymous.status).to.equal(401);
      const foreign = await post('/api/notes/delete?scope=work', { ids }, { origin: 'http://127.0.0.1:1' });
      expect(foreign.status).to.equal(403);
      expect(((await foreign.json()) as { error: { code: string } }).error.code).to.equal(
        'MIRA_ERR_MIND_VIEW_CROSS_ORIGIN',
      );
      expect(workNotes()).to.have.length(3);
    });
  });

  describe('API: every matching note', () => {
    const matching = async (query: string) => {
      const response = await fetch(`${base}/api/notes/ids?${query}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status, query).to.equal(200);
      return response.json() as Promise<{ ids: number[]; more: boolean }>;
    };

    it('answers the IDs the list shows with its filters, in its order, without the read-only global notes', async () => {
      expect(await matching('scope=work')).to.deep.equal({ ids: [ids[2], ids[1], ids[0]], more: false });
      expect(await matching('scope=work&label=home')).to.deep.equal({ ids: [ids[0]], more: false });
      expect(await matching('scope=work&filter=printer')).to.deep.equal({ ids: [ids[2]], more: false });
      expect(await matching('scope=work&sort=oldest&until=2026-05-03T00:00:00.000Z')).to.deep.equal({
        ids: [ids[0], ids[1]],
        more: false,
      });
      expect(await matching(`scope=${GLOBAL_SCOPE}`)).to.deep.equal({ ids: [shared], more: false });
    });

    it('stops at the 1000 one change takes, and says more match', async () => {
      const at = '2026-05-01T08:00:00.000Z';
      await notes.importNotes({
        format: 'mira-notes',
        version: 1,
        scope: 'big',
        exported_at: at,
        notes: Array.from({ length: 1001 }, (_, i) => ({
          content: `note ${i}`,
          labels: [],
          private_key: null,
          created_at: at,
          updated_at: at,
        })),
      });
      const { ids: found, more } = await matching('scope=big');
      expect(found).to.have.length(1000);
      expect(more).to.equal(true);
    });
  });

  describe('API: the date filter', () => {
    const listed = async (query: string) => {
      const response = await fetch(`${base}/api/notes?scope=work${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it('lists the notes added or changed from `since` until before `until`, and counts them', async () => {
      const { status, body } = await listed('&since=2026-05-02T00:00:00.000Z&until=2026-05-04T00:00:00.000Z');
      expect(status).to.equal(200);
      expect((body.notes as Array<{ id: number }>).map((n) => n.id)).to.deep.equal([ids[2], ids[1]]);
      expect((body.counts as { matching: number; total: number }).matching).to.equal(2);
      expect((body.counts as { matching: number; total: number }).total).to.equal(4);
    });

    it('refuses a time that is not one with 400 and what to write', async () => {
      const { status, body } = await listed('&since=last%20week');
      expect(status).to.equal(400);
      const error = body.error as { code: string; message: string };
      expect(error.code).to.equal('MIRA_ERR_NOTES_BROWSE_INVALID');
      expect(error.message).to.contain('"last week" is not a time');
    });
  });

  describe("API: a note's history", () => {
    const history = async (id: number, scope = 'work') => {
      const response = await fetch(`${base}/api/notes/${id}/history?scope=${scope}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    it('answers the texts an edit and a relabel replaced, newest first, with their times', async () => {
      const edit = await fetch(`${base}/api/notes/${ids[0]}?scope=work`, {
        method: 'PATCH',
        body: JSON.stringify({ content: 'the spare key is under the flower pot' }),
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      });
      expect(edit.status).to.equal(200);
      await post('/api/notes/relabel?scope=work', { ids: [ids[0]], add: 'door', remove: '' });
      const { status, body } = await history(ids[0]!);
      expect(status).to.equal(200);
      expect(body).to.deep.equal({
        id: ids[0],
        versions: [
          {
            content: 'the spare key is under the flower pot',
            labels: ['home'],
            written_at: '2026-05-04T08:00:00.000Z',
            replaced_at: '2026-05-04T08:00:00.000Z',
            cause: 'relabel',
            from_note: null,
          },
          {
            content: 'the spare key is under the mat',
            labels: ['home'],
            written_at: '2026-05-01T08:00:00.000Z',
            replaced_at: '2026-05-04T08:00:00.000Z',
            cause: 'edit',
            from_note: null,
          },
        ],
      });
    });

    it("answers a global note's history on another scope's page (reading is not writing), and 404 for a note not in view", async () => {
      expect((await history(shared)).body).to.deep.equal({ id: shared, versions: [] });
      const other = await history(ids[0]!, 'kitchen');
      expect(other.status).to.equal(404);
      expect((other.body.error as { code: string }).code).to.equal('MIRA_ERR_NOTES_NOT_FOUND');
    });
  });

  describe('in headless Chromium', function () {
    let browser: Browser;
    let page: Page;
    before(async function () {
      if (!existsSync(CHROMIUM)) {
        process.stdout.write(`      (skipped: ${CHROMIUM} is not installed)\n`);
        this.skip();
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
      });
    });
    after(async () => browser?.close());
    beforeEach(async () => {
      // The days the date filter picks are the browser's; the notes' times are UTC.
      page = await (await browser.newContext({ timezoneId: 'UTC' })).newPage();
      await page.goto(`${base}/?scope=work#token=${token}`);
      await page.waitForSelector(`.card[data-id="${ids[0]}"]`);
    });
    afterEach(async () => page?.context().close());

    const settled = () => page.waitForFunction(() => !document.body.dataset.loading);
    const cardIds = async () => {
      await settled();
      return page.$$eval('#cards .card', (nodes) => nodes.map((n) => Number((n as HTMLElement).dataset.id)));
    };

    it('offers a tick on each card one can change, none on the read-only global note', async () => {
      for (const id of ids) expect(await page.$(`.card[data-id="${id}"] .select`), `N${id}`).not.to.equal(null);
      expect(await page.$(`.card[data-id="${shared}"] .select`)).to.equal(null);
      expect(await page.textContent('#selected-count')).to.equal('No note selected');
      expect(await page.isDisabled('#delete-selected')).to.equal(true);
    });

    it('ticks notes with the keyboard and deletes them after one confirmation naming the count', async () => {
      await page.focus(`.card[data-id="${ids[0]}"] .select`);
      await page.keyboard.press('Space');
      await page.focus(`.card[data-id="${ids[2]}"] .select`);
      await page.keyboard.press('Space');
      expect(await page.textContent('#selected-count')).to.equal('2 notes selected');
      // Dismissed, nothing is deleted; accepted, both are. (The key press ends once the dialog is answered.)
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.focus('#delete-selected');
      await page.keyboard.press('Enter');
      expect(asked).to.deep.equal(['Delete 2 notes? This cannot be undone.']);
      expect(await cardIds()).to.include.members([ids[0], ids[2]]);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('#status')?.textContent === '2 notes deleted');
      // Newest first: the global note was saved last.
      expect(await cardIds()).to.deep.equal([shared, ids[1]]);
      expect(await page.textContent('#deleted-export a')).to.equal(
        'Download the 2 notes deleted (Import puts them back)',
      );
      expect(await page.getAttribute('#deleted-export a', 'download')).to.equal('mira-notes-work-deleted.json');
      expect(await page.textContent('#selected-count')).to.equal('No note selected');
    });

    it('ticks every note the filter matches, on every page, the read-only global note apart', async () => {
      await page.fill('#filter', 'printer');
      await settled();
      await page.click('#select-matching');
      await page.waitForFunction(() => document.querySelector('#selected-count')?.textContent === '1 note selected');
      expect(await page.isChecked(`.card[data-id="${ids[2]}"] .select`)).to.equal(true);
      await page.fill('#filter', '');
      await settled();
      await page.click('#select-matching');
      await page.waitForFunction(() => document.querySelector('#selected-count')?.textContent === '3 notes selected');
      await page.click('#clear-selection');
      expect(await page.textContent('#selected-count')).to.equal('No note selected');
    });

    it('selects the whole page and relabels it, the labels typed in the bar', async () => {
      await page.click('#select-page');
      expect(await page.textContent('#selected-count')).to.equal('3 notes selected');
      await page.fill('#relabel-add', 'kitchen');
      await page.fill('#relabel-remove', 'home');
      await page.press('#relabel-remove', 'Enter');
      await page.waitForFunction(() => document.querySelector('#status')?.textContent === '3 notes relabelled');
      expect(workNotes().map(([, labels]) => labels)).to.deep.equal([
        ['kitchen'],
        ['person', 'tea', 'kitchen'],
        ['kitchen'],
      ]);
      expect(await page.$$eval('.card[data-id] .select:checked', (n) => n.length)).to.equal(0);
    });

    it('says why nothing changed when a ticked note was deleted elsewhere meanwhile', async () => {
      await page.click(`.card[data-id="${ids[1]}"] .select`);
      notes.delete(ids[1]!, { scopes: ['work'], key: null, operator: true }, 'work');
      page.once('dialog', (dialog) => void dialog.accept());
      await page.click('#delete-selected');
      await page.waitForFunction(() =>
        document.querySelector('#status')?.textContent?.startsWith('MIRA_ERR_NOTES_NOT_FOUND'),
      );
      expect(await page.textContent('#status')).to.contain(`N${ids[1]}`);
    });

    it('filters by the days a note was added or changed, and says what to do when none was', async () => {
      expect(await page.isVisible('#changed-range')).to.equal(false);
      await page.selectOption('#changed', 'range');
      expect(await page.isVisible('#changed-range')).to.equal(true);
      await page.fill('#changed-from', '2026-05-02');
      await page.fill('#changed-to', '2026-05-03');
      await page.waitForFunction(() => document.querySelectorAll('#cards .card').length === 2);
      expect(await cardIds()).to.deep.equal([ids[2], ids[1]]);
      expect(await page.textContent('#count')).to.equal('2 of 4 notes');
      // The notes are from May; today is not.
      await page.selectOption('#changed', 'today');
      await page.waitForSelector('#cards .empty-state');
      expect(await page.textContent('#cards .empty-state')).to.contain('No note was added or changed in this time');
      expect(await page.isVisible('#changed-range')).to.equal(false);
      await page.selectOption('#changed', '');
      expect(await cardIds()).to.have.length(4);
    });

    it("shows a note's earlier texts on its card with the changed words marked, from the keyboard", async () => {
      await notes.update(
        ids[2]!,
        { scopes: ['work'], key: null, operator: true },
        'work',
        'the printer jams on A4 paper',
        null,
      );
      await page.reload();
      await page.waitForSelector(`.card[data-id="${ids[2]}"]`);
      await page.focus(`.card[data-id="${ids[2]}"] .history-button`);
      await page.keyboard.press('Enter');
      await page.waitForSelector(`.card[data-id="${ids[2]}"] .history li`);
      expect(await page.getAttribute(`.card[data-id="${ids[2]}"] .history-button`, 'aria-expanded')).to.equal('true');
      const item = `.card[data-id="${ids[2]}"] .history li`;
      expect(await page.textContent(`${item} .history-text`)).to.equal('the printer jams on A3 A4 paper');
      expect(await page.$$eval(`${item} del`, (n) => n.map((e) => e.textContent?.trim()))).to.deep.equal(['A3']);
      expect(await page.$$eval(`${item} ins`, (n) => n.map((e) => e.textContent?.trim()))).to.deep.equal([
        'A4',
        'paper',
      ]);
      // A note never changed says so.
      await page.click(`.card[data-id="${ids[1]}"] .history-button`);
      await page.waitForSelector(`.card[data-id="${ids[1]}"] .history`);
      expect(await page.textContent(`.card[data-id="${ids[1]}"] .history`)).to.contain('No earlier text');
      // The button keeps focus: Enter on it hides the history again.
      await page.keyboard.press('Enter');
      expect(await page.$(`.card[data-id="${ids[1]}"] .history`)).to.equal(null);
    });

    it('marks the words that differ between the two notes of a duplicates pair', async () => {
      await notes.save('work', 'the printer jams on A3 paper', null, null);
      await page.reload();
      await page.waitForSelector('.card');
      await page.click('#find-duplicates');
      await page.waitForSelector('.dup-pair');
      const marks = (which: string) =>
        page.$$eval(`.dup-pair .${which} .content mark`, (n) => n.map((e) => e.textContent?.trim()));
      expect([...(await marks('dup-a')), ...(await marks('dup-b'))]).to.deep.equal(['paper']);
    });

    it('has no accessibility violations of any impact with notes ticked, a range of days and a history (axe-core)', async () => {
      await notes.update(ids[2]!, { scopes: ['work'], key: null, operator: true }, 'work', 'the printer jams', null);
      await page.reload();
      await page.waitForSelector(`.card[data-id="${ids[2]}"]`);
      await page.click(`.card[data-id="${ids[0]}"] .select`);
      await page.selectOption('#changed', 'range');
      await page.click(`.card[data-id="${ids[2]}"] .history-button`);
      await page.waitForSelector(`.card[data-id="${ids[2]}"] .history del`);
      const violations = (await new AxeBuilder({ page }).analyze()).violations.map(
        (v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
      );
      expect(violations).to.deep.equal([]);
    });
  });
});
