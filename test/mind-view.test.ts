import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { MemoryStore } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import { createMindViewPlugin, SECURITY_HEADERS } from '@mira/plugin-mind-view';
import notesPlugin, { type NotesStore } from '@mira/plugin-notes';
import { REPO_ROOT } from './helpers/run-mira.js';

const CHROMIUM = '/usr/bin/chromium';

describe('Mind view', function () {
  this.timeout(30_000);
  let rt: TestRuntime;
  let base: string;
  let token: string;
  let port: number;

  beforeEach(async () => {
    const mind = createMindViewPlugin();
    rt = await createTestRuntime({
      plugins: [memoryPlugin, notesPlugin, mind],
      tables: {
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        notes: { enabled: true, database_path: 'notes.sqlite3' },
        mind_view: { enabled: true, port: 0 },
      },
    });
    ({ token, port } = mind.handle.server!);
    base = `http://127.0.0.1:${port}`;
    const notes = rt.app.kernel.store<NotesStore>('notes');
    await notes.save('default', 'Alice prefers green tea in the morning', 'preference,tea', null);
    await notes.save('default', 'alice prefers green tea, in the morning!', 'tea', null);
    await notes.save('default', 'The dock code is 4711', 'secret', 'k-9');
    await notes.save('default', '<script>window.pwned = true</script><img src=x onerror="window.pwned=true">', 'xss', null);
    const store = rt.app.kernel.store<MemoryStore>('memory');
    const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
    await store.addAlias(ada.id, 'Ada');
    await store.createMemory({ kind: 'fact', summary: 'Ada wrote the first program', predicate: 'wrote', value: 'the first program', sourceKind: 'console', confidence: 0.9, links: [{ entityId: ada.id, role: 'subject' }] });
  });
  afterEach(() => rt.dispose());

  const call = (path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });

  describe('API', () => {
    it('prints its address with the token on the console', () => {
      expect(rt.logs).to.include(`Mind view: http://127.0.0.1:${port}/?token=${token}`);
    });

    it('answers 401 with no data without the token, or with a wrong one', async () => {
      for (const path of ['/', '/api/notes', '/app.js']) {
        const response = await fetch(`${base}${path}`);
        expect(response.status, path).to.equal(401);
        expect(await response.text()).not.to.contain('Alice');
      }
      expect((await fetch(`${base}/api/notes`, { headers: { authorization: 'Bearer nope' } })).status).to.equal(401);
      expect((await fetch(`${base}/?token=${token}`)).status).to.equal(200);
    });

    it('refuses a foreign Host header (DNS rebinding) and sends a strict CSP', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve) => {
        request({ host: '127.0.0.1', port, path: `/api/notes?token=${token}`, headers: { host: `evil.example:${port}` } }, (res) => resolve(res.statusCode!)).end();
      });
      expect(status).to.equal(403);
      const page = await fetch(`${base}/?token=${token}`);
      expect(page.headers.get('content-security-policy')).to.equal(SECURITY_HEADERS['content-security-policy']);
      expect(await page.text()).not.to.match(/https?:\/\//); // no CDN, no external fonts
    });

    it('lists, edits and deletes notes through the same validation as the console', async () => {
      const { notes } = await (await call('/api/notes')).json();
      expect(notes.map((n: { id: number }) => n.id)).to.deep.equal([4, 3, 2, 1]);
      expect(notes[1]).to.deep.include({ private_key: 'k-9', labels: ['secret'] });
      const edited = await (await call('/api/notes/1', { method: 'PATCH', body: JSON.stringify({ content: 'Alice prefers oolong' }) })).json();
      expect(edited.note.content).to.equal('Alice prefers oolong');
      const empty = await call('/api/notes/1', { method: 'PATCH', body: JSON.stringify({ content: '   ' }) });
      expect(empty.status).to.equal(400);
      expect((await empty.json()).error.code).to.equal('MIRA_ERR_NOTES_EMPTY');
      expect((await call('/api/notes/2', { method: 'DELETE' })).status).to.equal(200);
      expect((await call('/api/notes/2', { method: 'DELETE' })).status).to.equal(404);
      expect((await call('/api/notes/1', { method: 'PATCH', body: '{not json' })).status).to.equal(400);
    });

    it('finds duplicates, combines, exports and imports (refusing a bad file whole)', async () => {
      const { pairs } = await (await call('/api/notes/duplicates')).json();
      expect(pairs.map((p: { a: { id: number }; b: { id: number } }) => [p.a.id, p.b.id])).to.deep.equal([[1, 2]]);
      const combined = await (await call('/api/notes/combine', { method: 'POST', body: JSON.stringify({ keep: 1, drop: 2 }) })).json();
      expect(combined.note.labels).to.deep.equal(['preference', 'tea']);
      const exported = await (await call('/api/notes/export')).json();
      expect(exported.notes).to.have.length(3);
      const bad = await call('/api/notes/import?scope=copy', { method: 'POST', body: JSON.stringify({ ...exported, notes: [{ content: 'x' }] }) });
      expect(bad.status).to.equal(400);
      expect((await (await call('/api/notes?scope=copy')).json()).notes).to.deep.equal([]);
      expect(await (await call('/api/notes/import?scope=copy', { method: 'POST', body: JSON.stringify(exported) })).json()).to.deep.equal({ added: 3, skipped: 0 });
      expect(await (await call('/api/notes/import?scope=copy', { method: 'POST', body: JSON.stringify(exported) })).json()).to.deep.equal({ added: 0, skipped: 3 });
    });

    it('looks entities up exactly, lists memories newest first, and adds with console validation', async () => {
      expect((await (await call('/api/entities?name=ada')).json()).entities.map((e: { id: string }) => e.id)).to.deep.equal(['ENT1']);
      expect((await (await call('/api/entities?name=Ad')).json()).entities).to.deep.equal([]);
      const { memories } = await (await call('/api/entities/ENT1/memories')).json();
      expect(memories[0]).to.deep.include({ id: 'MEM1', kind: 'fact', summary: 'Ada wrote the first program', predicate: 'wrote', source_kind: 'console', confidence: 0.9 });
      expect(memories[0].payloads).to.deep.equal([{ media_type: 'text/plain', byte_size: 27, kind: 'inline_text' }]);
      const created = await (await call('/api/entities', { method: 'POST', body: JSON.stringify({ entity_type: 'robot', canonical_name: 'Mira' }) })).json();
      expect(created.entity.id).to.equal('ENT2');
      const badType = await call('/api/entities', { method: 'POST', body: JSON.stringify({ entity_type: 'a robot', canonical_name: 'X' }) });
      expect((await badType.json()).error.code).to.equal('MIRA_ERR_TOKEN_INVALID');
      expect((await call('/api/entities/ENT2/aliases', { method: 'POST', body: JSON.stringify({ alias: 'MIRA' }) })).status).to.equal(400);
      const memory = await (await call('/api/memories', { method: 'POST', body: JSON.stringify({ kind: 'fact', summary: 'Mira likes Ada', links: [{ entity: 'ENT2', role: 'subject' }, { entity: 'ENT1', role: 'object' }] }) })).json();
      expect(memory.memory.id).to.equal('MEM2');
      const badConfidence = await call('/api/memories', { method: 'POST', body: JSON.stringify({ kind: 'fact', summary: 'x', confidence: 2 }) });
      expect((await badConfidence.json()).error.code).to.equal('MIRA_ERR_MEMORY_CONFIDENCE_RANGE');
      expect((await call('/api/memories/MEM9')).status).to.equal(404);
      expect((await call('/api/nothing')).status).to.equal(404);
    });
  });

  describe('in headless Chromium', function () {
    let browser: Browser;
    let page: Page;
    before(async function () {
      if (!existsSync(CHROMIUM)) {
        process.stdout.write(`      (skipped: ${CHROMIUM} is not installed; .ci/run installs Debian's chromium package)\n`);
        this.skip();
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    });
    after(async () => browser?.close());
    beforeEach(async () => {
      page = await browser.newPage();
      await page.goto(`${base}/?token=${token}`);
      await page.waitForSelector('.card');
    });
    afterEach(async () => page?.close());

    const cards = () => page.$$eval('.card .content', (nodes) => nodes.map((n) => n.textContent));

    it('renders memory text as text (no script runs) and filters instantly', async () => {
      expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).to.equal(undefined);
      expect(await cards()).to.include('<script>window.pwned = true</script><img src=x onerror="window.pwned=true">');
      await page.fill('#filter', 'k-9');
      expect(await cards()).to.deep.equal(['The dock code is 4711']);
      await page.fill('#filter', 'tea');
      expect(await cards()).to.have.length(2);
      mkdirSync(join(REPO_ROOT, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(REPO_ROOT, 'test-output', 'mind-view.png'), fullPage: true });
      expect(existsSync(join(REPO_ROOT, 'test-output', 'mind-view.png'))).to.equal(true);
    });

    it('sorts, and filters by label chip (click again to clear)', async () => {
      await page.selectOption('#sort', 'shortest');
      expect((await cards())[0]).to.equal('The dock code is 4711');
      await page.selectOption('#sort', 'oldest');
      expect((await cards())[0]).to.equal('Alice prefers green tea in the morning');
      await page.click('.chip[data-label="secret"]');
      expect(await cards()).to.deep.equal(['The dock code is 4711']);
      await page.click('.chip[data-label="secret"]');
      expect(await cards()).to.have.length(4);
    });

    it('edits and deletes a card', async () => {
      await page.click('.card[data-id="3"] .edit');
      await page.fill('.card[data-id="3"] textarea', 'The dock code changed');
      await page.click('.card[data-id="3"] .save');
      await page.waitForFunction(() => [...document.querySelectorAll('.card .content')].some((n) => n.textContent === 'The dock code changed'));
      await page.click('.card[data-id="4"] .delete');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 3);
    });

    it('walks duplicates with combine', async () => {
      await page.click('#find-duplicates');
      await page.waitForSelector('.combine');
      await page.click('.combine');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 3);
    });

    it('exports a scope as JSON and imports it back (nothing duplicated)', async () => {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
      const file = join(rt.dir, 'export.json');
      await download.saveAs(file);
      const { readFileSync } = await import('node:fs');
      expect(JSON.parse(readFileSync(file, 'utf8')).notes).to.have.length(4);
      await page.setInputFiles('#import', file);
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('imported'));
      expect(await page.textContent('#status')).to.equal('imported 0 notes, 4 already present');
    });

    it('shows nothing but 401 without the token', async () => {
      const other = await browser.newPage();
      const response = await other.goto(`${base}/`);
      expect(response!.status()).to.equal(401);
      expect(await other.content()).not.to.contain('Alice');
      await other.close();
    });

    it('shows an entity with its memories in the Entities tab', async () => {
      await page.click('#tab-entities');
      await page.fill('#entity-name', 'ADA');
      await page.click('#entity-find');
      await page.waitForSelector('.entity');
      expect(await page.textContent('.entity h3')).to.equal('ENT1 person Ada Lovelace');
      expect(await page.textContent('.entity .summary')).to.equal('Ada wrote the first program');
    });
  });
});
