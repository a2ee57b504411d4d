import { MEMORY_STORE, MemoryErrors } from '@mira/memory-contract';
import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { MemoryStore } from '@mira/memory-contract';
import { MiraError } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import memoryPlugin from '@mira/plugin-memory';
import mindViewPlugin, {
  MindViewErrors,
  SECURITY_HEADERS,
  startMindViewServer,
  statusOf,
} from '@mira/plugin-mind-view';
import notesPlugin, { NOTES_STORE } from '@mira/plugin-notes';
import { cameraFrame } from '@mira/plugin-sim';
import { REPO_ROOT } from './helpers/run-mira.js';
import { objectFile } from './conformance/memory-store-contract.js';

const CHROMIUM = '/usr/bin/chromium';

/** Two proposals as the tools store them: a new entity, and a new value for MEM1. */
async function proposeTwo(store: MemoryStore): Promise<MemoryStore> {
  await store.createProposal({
    kind: 'entity',
    entityType: 'person',
    name: 'Carol',
    evidence: 'Carol is our new nurse',
    utterance: 'Meet Carol. Carol is our new nurse.',
  });
  await store.createProposal({
    kind: 'supersede',
    memoryId: 1,
    value: 'the first algorithm',
    evidence: 'Ada wrote the first algorithm',
    utterance: 'Actually, Ada wrote the first algorithm.',
  });
  return store;
}

/** Waits until the page has what it last asked the server for (it marks the body while a page loads). */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.body.dataset.loading);
}

describe('Mind view', function () {
  this.timeout(30_000);
  let rt: TestRuntime;
  let base: string;
  let token: string;
  let port: number;

  beforeEach(async () => {
    rt = await createTestRuntime({
      plugins: [memoryPlugin, notesPlugin, mindViewPlugin],
      tables: {
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        notes: { enabled: true, database_path: 'notes.sqlite3' },
        mind_view: { enabled: true, port: 0 },
      },
    });
    ({ token, port } = rt.instance(mindViewPlugin).server!);
    base = `http://127.0.0.1:${port}`;
    const notes = rt.app.kernel.store(NOTES_STORE);
    await notes.save('default', 'Alice prefers green tea in the morning', 'preference,tea', null);
    await notes.save('default', 'alice prefers green tea, in the morning!', 'tea', null);
    await notes.save('default', 'The dock code is 4711', 'secret', 'k-9');
    await notes.save(
      'default',
      '<script>window.pwned = true</script><img src=x onerror="window.pwned=true">',
      'xss',
      null,
    );
    const store = rt.app.kernel.store(MEMORY_STORE);
    const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
    await store.addAlias(ada.id, 'Ada');
    await store.createMemory({
      kind: 'fact',
      summary: 'Ada wrote the first program',
      predicate: 'wrote',
      value: 'the first program',
      sourceKind: 'console',
      confidence: 0.9,
      links: [{ entityId: ada.id, role: 'subject' }],
    });
  });
  afterEach(() => rt.dispose());

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });

  describe('API', () => {
    it('prints its address with the token in the fragment, which browsers never send', () => {
      expect(rt.logs).to.include(`Mind view: http://127.0.0.1:${port}/#token=${token}`);
    });

    it('answers 401 with no data unless the token comes in the Authorization header', async () => {
      for (const path of ['/api/notes', '/api/scopes', '/api/entities?name=Ada', '/api/notes/export']) {
        const response = await fetch(`${base}${path}`);
        expect(response.status, path).to.equal(401);
        expect((await response.json()).error.code).to.equal('MIRA_ERR_MIND_VIEW_TOKEN');
      }
      const wrong: RequestInit[] = [
        { headers: { authorization: 'Bearer nope' } },
        { headers: { authorization: `Bearer ${token}x` } },
        // Neither a cookie nor a query parameter is a credential: browsers attach those on their own.
        { headers: { cookie: `mira_token=${token}` } },
      ];
      for (const init of wrong) expect((await fetch(`${base}/api/notes`, init)).status).to.equal(401);
      expect((await fetch(`${base}/api/notes?token=${token}`)).status).to.equal(401);
      // The page itself holds no data and sets no cookie.
      for (const path of ['/', '/app.js', '/app.css']) {
        const response = await fetch(`${base}${path}`);
        expect(response.status, path).to.equal(200);
        expect(response.headers.get('set-cookie'), path).to.equal(null);
        expect(await response.text()).not.to.contain('Alice');
      }
      expect((await call('/api/notes')).status).to.equal(200);
    });

    it("serves every one of the page's modules as JavaScript under the same policy, and no other file of assets/", async () => {
      const assets = join(REPO_ROOT, 'plugins', 'mind-view', 'assets');
      const modules = readdirSync(assets).filter((file) => file.endsWith('.js'));
      expect(modules).to.include.members(['app.js', 'api.js', 'state.js']);
      for (const file of modules) {
        const response = await fetch(`${base}/${file}`);
        expect(response.status, file).to.equal(200);
        expect(response.headers.get('content-type'), file).to.equal('text/javascript; charset=utf-8');
        expect(response.headers.get('content-security-policy'), file).to.equal(
          SECURITY_HEADERS['content-security-policy'],
        );
        expect(await response.text(), file).to.equal(readFileSync(join(assets, file), 'utf8'));
      }
      // The type checker's files are not the page's: they are answered as any unknown path is, without the token.
      for (const file of readdirSync(assets).filter((f) => !/\.(js|css|html)$/.test(f))) {
        expect((await fetch(`${base}/${file}`)).status, file).to.equal(401);
      }
    });

    it('refuses an API request that a page of another origin made, even with the token', async () => {
      const foreign: Array<Record<string, string>> = [
        { origin: 'http://127.0.0.1:1' },
        { origin: `http://localhost:${port}` },
        { origin: 'null' },
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of foreign) {
        for (const method of ['GET', 'POST']) {
          const body =
            method === 'POST' ? JSON.stringify({ entity_type: 'person', canonical_name: 'Mallory' }) : undefined;
          const response = await call(method === 'POST' ? '/api/entities' : '/api/notes', { method, body, headers });
          expect(response.status, JSON.stringify(headers)).to.equal(403);
          expect((await response.json()).error.code).to.equal('MIRA_ERR_MIND_VIEW_CROSS_ORIGIN');
        }
      }
      expect(
        (await call('/api/notes', { headers: { origin: base, 'sec-fetch-site': 'same-origin' } })).status,
      ).to.equal(200);
      expect((await (await call('/api/entities?name=Mallory')).json()).entities).to.deep.equal([]);
    });

    it('says which key to change when its port is in use, naming the port, host and profile file', async () => {
      let caught: unknown;
      try {
        await createTestRuntime({
          plugins: [mindViewPlugin],
          tables: { mind_view: { enabled: true, port } },
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).to.be.instanceOf(MiraError);
      const error = caught as MiraError;
      expect(error.code).to.equal(MindViewErrors.codes.PORT_IN_USE);
      expect(error.detail).to.match(
        new RegExp(
          `^plugin @mira/plugin-mind-view failed in start: port ${port} on 127\\.0\\.0\\.1 is in use; set \\[mind_view\\] port in /\\S+/profile\\.toml to a free port \\(or 0 for any\\), or stop what listens there$`,
        ),
      );
      expect(error.fix).to.equal(MindViewErrors.entry(MindViewErrors.codes.PORT_IN_USE)!.fix);
      // Node's own error rides in the cause chain (the plugin's error, then EADDRINUSE).
      expect(((error.cause as Error).cause as NodeJS.ErrnoException).code).to.equal('EADDRINUSE');
    });

    it('serves on IPv6 loopback with a URL that is a URL and accepts its Host header', async () => {
      const rt6 = await createTestRuntime({
        plugins: [memoryPlugin, mindViewPlugin],
        tables: {
          memory: { enabled: true, database_path: 'memory.sqlite3' },
          mind_view: { enabled: true, host: '::1', port: 0 },
        },
      });
      try {
        const server = rt6.instance(mindViewPlugin).server!;
        expect(rt6.logs).to.include(`Mind view: http://[::1]:${server.port}/#token=${server.token}`);
        const url = new URL(server.url);
        expect(url.host).to.equal(`[::1]:${server.port}`);
        const response = await fetch(`http://[::1]:${server.port}/api/entities?name=Ada`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        expect(response.status).to.equal(200);
        expect(await response.json()).to.deep.equal({ entities: [] });
      } finally {
        await rt6.dispose();
      }
    });

    it('validates every body by schema without coercion, and stores nothing from a wrong one', async () => {
      const bad: Array<[string, string, unknown]> = [
        ['POST', '/api/memories', { kind: 'fact', summary: 'x', confidence: '' }],
        ['POST', '/api/memories', { kind: 'fact', summary: 'x', confidence: true }],
        ['POST', '/api/memories', { kind: 'fact', summary: 'x', confidence: [0.5] }],
        ['POST', '/api/memories', { kind: 'fact', summary: 'x', links: 'ENT1:subject' }],
        ['POST', '/api/memories', { kind: 'fact', summary: 'x', links: [{ entity: 1, role: 'subject' }] }],
        ['POST', '/api/memories', { kind: 'fact', summary: 'x', links: [{ entity: 'ENT1' }] }],
        ['POST', '/api/memories', { kind: 'fact', summary: 'x', colour: 'red' }],
        ['POST', '/api/memories', { kind: 7, summary: 'x' }],
        ['POST', '/api/memories', { summary: 'x' }],
        ['POST', '/api/entities', { entity_type: 'person', canonical_name: 42 }],
        ['POST', '/api/entities', { entity_type: ['person'], canonical_name: 'Eve' }],
        ['POST', '/api/entities/ENT1/aliases', { alias: null }],
        ['POST', '/api/entities/ENT1/aliases', { alias: 'Countess', extra: 1 }],
        ['POST', '/api/notes/combine', { keep: '1', drop: 2 }],
        ['POST', '/api/notes/combine', { keep: 1.5, drop: 2 }],
        ['PATCH', '/api/notes/1', { content: 42 }],
        ['PATCH', '/api/notes/1', { content: 'x', labels: [1, 2] }],
        ['PATCH', '/api/notes/1', { labels: 'a' }],
      ];
      const before = JSON.stringify([
        await (await call('/api/entities/ENT1/memories')).json(),
        await (await call('/api/notes')).json(),
        await (await call('/api/entities?name=Eve')).json(),
      ]);
      for (const [method, path, body] of bad) {
        const response = await call(path, { method, body: JSON.stringify(body) });
        expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).to.equal(400);
        expect((await response.json()).error.code).to.equal('MIRA_ERR_MIND_VIEW_BAD_REQUEST');
      }
      const after = JSON.stringify([
        await (await call('/api/entities/ENT1/memories')).json(),
        await (await call('/api/notes')).json(),
        await (await call('/api/entities?name=Eve')).json(),
      ]);
      expect(after).to.equal(before);
      expect((await call('/api/memories/MEM2')).status).to.equal(404);
    });

    it('answers an unexpected failure with 500, a generic message and an error ID; the details go to the log', async () => {
      const logged: string[] = [];
      const server = await startMindViewServer(
        {
          notes: () => {
            throw new TypeError('secret internals at /srv/db');
          },
          memory: () => undefined,
          now: () => new Date(),
          log: (message) => logged.push(message),
        },
        { host: '127.0.0.1', port: 0 },
      );
      try {
        const response = await fetch(`http://127.0.0.1:${server.port}/api/scopes`, {
          headers: { authorization: `Bearer ${server.token}` },
        });
        expect(response.status).to.equal(500);
        const { error } = await response.json();
        expect(error.code).to.equal('MIRA_ERR_INTERNAL');
        expect(error.message).not.to.contain('secret');
        expect(error.id).to.match(/^[0-9a-f]{12}$/);
        expect(error.message).to.equal(
          `the Mind view failed (error ${error.id}); the details are in the runtime's log`,
        );
        expect(error.fix).to.equal(
          "report it with the runtime's log lines for that error id; reload the page to go on",
        );
        expect(logged.join('\n')).to.contain(error.id).and.to.contain('secret internals at /srv/db');
        expect(statusOf('MIRA_ERR_MEMORY_NOT_FOUND')).to.equal(404);
        expect(statusOf('MIRA_ERR_MIND_VIEW_TOO_LARGE')).to.equal(413);
        expect(statusOf('MIRA_ERR_TOKEN_INVALID')).to.equal(400);
      } finally {
        await server.close();
      }
    });

    it('refuses a foreign Host header (DNS rebinding) and sends a strict CSP', async () => {
      const { request } = await import('node:http');
      const status = await new Promise<number>((resolve) => {
        request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/notes',
            headers: { host: `evil.example:${port}`, authorization: `Bearer ${token}` },
          },
          (res) => resolve(res.statusCode!),
        ).end();
      });
      expect(status).to.equal(403);
      const page = await fetch(`${base}/`);
      expect(page.headers.get('content-security-policy')).to.equal(SECURITY_HEADERS['content-security-policy']);
      expect(await page.text()).not.to.match(/https?:\/\//); // no CDN, no external fonts
    });

    it('lists, edits and deletes notes through the same validation as the console', async () => {
      const { notes } = await (await call('/api/notes')).json();
      expect(notes.map((n: { id: number }) => n.id)).to.deep.equal([4, 3, 2, 1]);
      expect(notes[1]).to.deep.include({ private_key: 'k-9', labels: ['secret'] });
      const edited = await (
        await call('/api/notes/1', { method: 'PATCH', body: JSON.stringify({ content: 'Alice prefers oolong' }) })
      ).json();
      expect(edited.note.content).to.equal('Alice prefers oolong');
      const empty = await call('/api/notes/1', { method: 'PATCH', body: JSON.stringify({ content: '   ' }) });
      expect(empty.status).to.equal(400);
      expect((await empty.json()).error.code).to.equal('MIRA_ERR_NOTES_EMPTY');
      expect((await call('/api/notes/2', { method: 'DELETE' })).status).to.equal(200);
      expect((await call('/api/notes/2', { method: 'DELETE' })).status).to.equal(404);
      expect((await call('/api/notes/1', { method: 'PATCH', body: '{not json' })).status).to.equal(400);
    });

    it('lists scopes with their counts, creates one with console validation, and overlays global read-only', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.save('global', 'The wifi password is on the fridge', 'home', null);
      const scopes = await (await call('/api/scopes')).json();
      expect(scopes.global).to.equal('global');
      expect(scopes.counts).to.deep.include({ scope: 'default', notes: 4, keyed: 1 });
      expect(scopes.counts).to.deep.include({ scope: 'global', notes: 1, keyed: 0 });
      const created = await call('/api/scopes', { method: 'POST', body: JSON.stringify({ name: 'kitchen' }) });
      expect(await created.json()).to.deep.equal({ scope: 'kitchen' });
      expect(notes.scopes()).to.include('kitchen');
      for (const [body, code] of [
        [{ name: 'Not A Scope!' }, 'MIRA_ERR_NOTES_SCOPE_INVALID'],
        [{ name: 7 }, 'MIRA_ERR_MIND_VIEW_BAD_REQUEST'],
        [{ name: 'ok', extra: 1 }, 'MIRA_ERR_MIND_VIEW_BAD_REQUEST'],
      ] as const) {
        const refused = await call('/api/scopes', { method: 'POST', body: JSON.stringify(body) });
        expect(refused.status, JSON.stringify(body)).to.equal(400);
        expect((await refused.json()).error.code).to.equal(code);
      }
      expect(notes.scopes()).to.deep.equal(['default', 'global', 'kitchen']);
      const listed = await (await call('/api/notes?scope=kitchen')).json();
      expect(listed.notes).to.deep.equal([
        { ...listed.notes[0], content: 'The wifi password is on the fridge', scope: 'global', read_only: true },
      ]);
      const own = await (await call('/api/notes?scope=global')).json();
      expect(own.notes[0].read_only).to.equal(false);
    });

    it('shows a scope locked by wrong keys and lets the operator end the lockout', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      expect((await (await call('/api/scopes')).json()).lockouts).to.deep.equal([]);
      for (let i = 0; i < 5; i++) notes.recordKeyMiss('default');
      const { lockouts } = await (await call('/api/scopes')).json();
      expect(lockouts).to.deep.equal([
        {
          scope: 'default',
          origin: 'operator',
          misses: 5,
          until: new Date(rt.clock.now().getTime() + 15 * 60_000).toISOString(),
        },
      ]);
      const unknown = await call('/api/scopes/nowhere/unlock', { method: 'POST' });
      expect(unknown.status).to.equal(400);
      expect((await unknown.json()).error.code).to.equal('MIRA_ERR_NOTES_SCOPE_INVALID');
      const done = await call('/api/scopes/default/unlock', { method: 'POST' });
      expect(await done.json()).to.deep.equal({ scope: 'default', forgotten: 5 });
      expect(notes.keyLockout('default')).to.equal(undefined);
    });

    it('refuses to edit, delete or combine a global note listed read-only in another scope, as the page does', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      const shared = await notes.save('global', 'The wifi password is on the fridge', 'home', null);
      const id = shared.note.id;
      const before = JSON.stringify(await notes.exportScope('global'));
      for (const [what, request] of [
        [
          'an edit',
          call(`/api/notes/${id}?scope=kitchen`, { method: 'PATCH', body: JSON.stringify({ content: 'x' }) }),
        ],
        ['a delete', call(`/api/notes/${id}?scope=kitchen`, { method: 'DELETE' })],
        [
          'a combine',
          call('/api/notes/combine?scope=default', { method: 'POST', body: JSON.stringify({ keep: 1, drop: id }) }),
        ],
      ] as const) {
        const refused = await request;
        expect(refused.status, what).to.equal(403);
        expect((await refused.json()).error.code, what).to.equal('MIRA_ERR_NOTES_READ_ONLY_SCOPE');
      }
      expect(JSON.stringify(await notes.exportScope('global'))).to.equal(before);
      // On the global scope's own page it is the operator's to change.
      const edited = await call(`/api/notes/${id}?scope=global`, {
        method: 'PATCH',
        body: JSON.stringify({ content: 'The wifi password is in the drawer' }),
      });
      expect(edited.status).to.equal(200);
    });

    it('refuses a deeply nested body before parsing it', async () => {
      const deep = `{"content":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      const refused = await call('/api/notes/1', { method: 'PATCH', body: deep });
      expect(refused.status).to.equal(400);
      const body = await refused.json();
      expect(body.error.code).to.equal('MIRA_ERR_MIND_VIEW_BAD_JSON');
      expect(body.error.message).to.contain('nested 100001 levels deep, more than the 32 allowed');
      // Brackets inside strings are text, not nesting.
      const text = await call('/api/notes/1', {
        method: 'PATCH',
        body: JSON.stringify({ content: '[[[['.repeat(20) }),
      });
      expect(text.status).to.equal(200);
    });

    it("searches with the store's own search, bounded like the model's", async () => {
      const found = await (await call('/api/notes/search?q=teas')).json();
      expect(found.mode).to.equal('full-text');
      expect(found.why).to.include('no embedder');
      expect(found.hits.map((h: { id: number }) => h.id)).to.have.members([1, 2]);
      expect(found.hits[0]).to.include.keys('content', 'labels', 'read_only');
      // Exactly what the model's search finds: the keyed note is not, without its key.
      const keyed = await (await call('/api/notes/search?q=dock%20code')).json();
      expect(keyed.hits).to.deep.equal([]);
      // At most as many hits as the model's search_memory gets (10).
      const notes = rt.app.kernel.store(NOTES_STORE);
      for (let i = 0; i < 15; i++) await notes.save('default', `Spare bulb number ${i} in the drawer`, null, null);
      const many = await (await call('/api/notes/search?q=bulb')).json();
      expect(many.hits).to.have.length(10);
      const empty = await call('/api/notes/search?q=%20');
      expect(empty.status).to.equal(400);
      const long = await call(`/api/notes/search?q=${'a'.repeat(513)}`);
      expect(long.status).to.equal(400);
      expect((await long.json()).error.code).to.equal('MIRA_ERR_NOTES_QUERY_TOO_LONG');
    });

    it('browses entities by page and type, refusing bad paging', async () => {
      const store = rt.app.kernel.store(MEMORY_STORE);
      for (const name of ['Dock A', 'Dock B', 'Dock C'])
        await store.createEntity({ entityType: 'place', canonicalName: name });
      const all = await (await call('/api/entities')).json();
      expect(all.total).to.equal(4);
      expect(all.entities.map((e: { id: string }) => e.id)).to.deep.equal(['ENT1', 'ENT2', 'ENT3', 'ENT4']);
      const page = await (await call('/api/entities?type=place&offset=1&limit=1')).json();
      expect(page).to.deep.include({ total: 3, offset: 1, limit: 1 });
      expect(page.entities.map((e: { canonical_name: string }) => e.canonical_name)).to.deep.equal(['Dock B']);
      for (const bad of ['limit=0', 'limit=201', 'offset=-1', 'limit=2.5', 'offset=x']) {
        const refused = await call(`/api/entities?${bad}`);
        expect(refused.status, bad).to.equal(400);
        expect((await refused.json()).error.code).to.equal('MIRA_ERR_MIND_VIEW_BAD_REQUEST');
      }
    });

    it('streams a change event when the console or the model writes a note or a memory', async () => {
      expect((await fetch(`${base}/api/events`)).status).to.equal(401);
      const controller = new AbortController();
      const response = await call('/api/events', { signal: controller.signal });
      expect(response.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let received = '';
      const until = async (what: string) => {
        const deadline = Date.now() + 5000;
        while (!received.includes(what)) {
          if (Date.now() > deadline) throw new Error(`no ${what} in ${JSON.stringify(received)}`);
          const { value, done } = await reader.read();
          if (done) throw new Error('the stream ended');
          received += value;
        }
      };
      try {
        await until(': connected');
        await new Promise((r) => setTimeout(r, 400));
        await rt.app.kernel.store(NOTES_STORE).save('default', 'A note from the console', null, null);
        await until('event: change\ndata: {"notes":true,"memory":false}');
        received = '';
        const store = rt.app.kernel.store(MEMORY_STORE);
        await store.createEntity({ entityType: 'person', canonicalName: 'Grace Hopper' });
        await until('event: change\ndata: {"notes":false,"memory":true}');
      } finally {
        controller.abort();
      }
    });

    it('finds duplicates, combines, exports and imports (refusing a bad file whole)', async () => {
      const { pairs } = await (await call('/api/notes/duplicates')).json();
      expect(pairs.map((p: { a: { id: number }; b: { id: number } }) => [p.a.id, p.b.id])).to.deep.equal([[1, 2]]);
      const combined = await (
        await call('/api/notes/combine', { method: 'POST', body: JSON.stringify({ keep: 1, drop: 2 }) })
      ).json();
      expect(combined.note.labels).to.deep.equal(['preference', 'tea']);
      const exported = await (await call('/api/notes/export')).json();
      expect(exported.notes).to.have.length(3);
      const bad = await call('/api/notes/import?scope=copy', {
        method: 'POST',
        body: JSON.stringify({ ...exported, notes: [{ content: 'x' }] }),
      });
      expect(bad.status).to.equal(400);
      // A file that is not JSON at all says to import an export as it was written.
      const notJson = await call('/api/notes/import?scope=copy', { method: 'POST', body: 'notes: tea, coffee' });
      expect(notJson.status).to.equal(400);
      expect((await notJson.json()).error).to.deep.equal({
        code: 'MIRA_ERR_MIND_VIEW_BAD_JSON',
        message: 'the request body must be a JSON object',
        fix: 'import a file written by notes export (or Export in the Mind view), unchanged',
      });
      expect((await (await call('/api/notes?scope=copy')).json()).notes).to.deep.equal([]);
      expect(
        await (await call('/api/notes/import?scope=copy', { method: 'POST', body: JSON.stringify(exported) })).json(),
      ).to.deep.equal({ added: 3, skipped: 0, trimmed: 0 });
      expect(
        await (await call('/api/notes/import?scope=copy', { method: 'POST', body: JSON.stringify(exported) })).json(),
      ).to.deep.equal({ added: 0, skipped: 3, trimmed: 0 });
    });

    it('looks entities up exactly, lists memories newest first, and adds with console validation', async () => {
      expect(
        (await (await call('/api/entities?name=ada')).json()).entities.map((e: { id: string }) => e.id),
      ).to.deep.equal(['ENT1']);
      expect((await (await call('/api/entities?name=Ad')).json()).entities).to.deep.equal([]);
      const { memories } = await (await call('/api/entities/ENT1/memories')).json();
      expect(memories[0]).to.deep.include({
        id: 'MEM1',
        kind: 'fact',
        summary: 'Ada wrote the first program',
        predicate: 'wrote',
        source_kind: 'console',
        confidence: 0.9,
      });
      expect(memories[0].payloads).to.deep.equal([{ media_type: 'text/plain', byte_size: 27, kind: 'inline_text' }]);
      const created = await (
        await call('/api/entities', {
          method: 'POST',
          body: JSON.stringify({ entity_type: 'robot', canonical_name: 'Mira' }),
        })
      ).json();
      expect(created.entity.id).to.equal('ENT2');
      const badType = await call('/api/entities', {
        method: 'POST',
        body: JSON.stringify({ entity_type: 'a robot', canonical_name: 'X' }),
      });
      expect((await badType.json()).error.code).to.equal('MIRA_ERR_TOKEN_INVALID');
      expect(
        (await call('/api/entities/ENT2/aliases', { method: 'POST', body: JSON.stringify({ alias: 'MIRA' }) })).status,
      ).to.equal(400);
      const memory = await (
        await call('/api/memories', {
          method: 'POST',
          body: JSON.stringify({
            kind: 'fact',
            summary: 'Mira likes Ada',
            links: [
              { entity: 'ENT2', role: 'subject' },
              { entity: 'ENT1', role: 'object' },
            ],
          }),
        })
      ).json();
      expect(memory.memory.id).to.equal('MEM2');
      const badConfidence = await call('/api/memories', {
        method: 'POST',
        body: JSON.stringify({ kind: 'fact', summary: 'x', confidence: 2 }),
      });
      expect((await badConfidence.json()).error.code).to.equal('MIRA_ERR_MEMORY_CONFIDENCE_RANGE');
      const forged = await call('/api/memories', {
        method: 'POST',
        body: JSON.stringify({ kind: 'fact', summary: 'Mira likes Ada', source_kind: 'operator_statement', links: [] }),
      });
      expect(forged.status).to.equal(400);
      expect((await forged.json()).error.code).to.equal('MIRA_ERR_MEMORY_SOURCE_KIND_RESERVED');
      expect((await call('/api/memories/MEM9')).status).to.equal(404);
      expect((await call('/api/nothing')).status).to.equal(404);
    });
  });

  /** A snapshot memory of Ada (ENT1): the simulator's rendered camera frame, a real PNG. */
  const keepSnapshot = () =>
    rt.app.kernel.store(MEMORY_STORE).createMemory({
      kind: 'observation',
      summary: 'Ada at the lab door',
      links: [{ entityId: 1, role: 'subject' }],
      sourceKind: 'sensor_observation',
      sourceLabel: 'camera_front at 2026-03-01T08:00:00.000Z, (1, 2, 90°) in map',
      object: { bytes: cameraFrame(1, 2, Math.PI / 2, 5), mediaType: 'image/png' },
    });

  describe('snapshots', () => {
    it('serves a snapshot image only with the token, verified, as an image that can only be shown', async () => {
      const memory = await keepSnapshot();
      expect((await fetch(`${base}/api/memories/${memory.ref}/image`)).status).to.equal(401);
      const response = await call(`/api/memories/${memory.ref}/image`);
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('image/png');
      expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(response.headers.get('cache-control')).to.equal('no-store');
      expect(Buffer.from(await response.arrayBuffer()).equals(cameraFrame(1, 2, Math.PI / 2, 5))).to.equal(true);
      const listed = await (await call('/api/entities/ENT1/memories')).json();
      expect(listed.memories.map((m: { id: string; image: boolean }) => [m.id, m.image])).to.deep.equal([
        ['MEM2', true],
        ['MEM1', false],
      ]);
      const none = await call('/api/memories/MEM1/image');
      expect(none.status).to.equal(404);
      expect((await none.json()).error.code).to.equal('MIRA_ERR_MEMORY_SNAPSHOT_UNAVAILABLE');
      // Bytes that changed on disk are refused, never served.
      const sha = memory.payloads[1]!.sha256!;
      const file = objectFile(rt.dir, sha);
      writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('tail')]));
      const damaged = await call(`/api/memories/${memory.ref}/image`);
      expect(damaged.status).to.equal(500);
      expect((await damaged.json()).error.code).to.equal('MIRA_ERR_MEMORY_OBJECT_CORRUPT');
    });
  });

  describe('Pending proposals', () => {
    const propose = () => proposeTwo(rt.app.kernel.store(MEMORY_STORE));

    it('lists them with the utterance, accepts and rejects them as the console does', async () => {
      const store = await propose();
      const listed = (await (await call('/api/proposals')).json()) as { proposals: Array<Record<string, unknown>> };
      expect(listed.proposals.map((p) => [p.id, p.kind, p.status, p.utterance])).to.deep.equal([
        ['P1', 'entity', 'pending', 'Meet Carol. Carol is our new nurse.'],
        ['P2', 'supersede', 'pending', 'Actually, Ada wrote the first algorithm.'],
      ]);
      expect(listed.proposals[1]!.replaces).to.deep.include({ id: 'MEM1', value: 'the first program' });

      const accepted = await call('/api/proposals/P2/accept', { method: 'POST', body: '{}' });
      expect(accepted.status).to.equal(200);
      const body = (await accepted.json()) as Record<string, Record<string, unknown>>;
      expect(body.proposal).to.deep.include({ id: 'P2', status: 'accepted', result: 'MEM2' });
      expect(body.memory).to.deep.include({ id: 'MEM2', value: 'the first algorithm', supersedes: 'MEM1' });
      expect(body.superseded).to.deep.include({ id: 'MEM1', status: 'superseded', superseded_by: 'MEM2' });

      const rejected = await call('/api/proposals/P1/reject', { method: 'POST', body: '{"reason":"a visitor"}' });
      expect(((await rejected.json()) as Record<string, Record<string, unknown>>).proposal).to.deep.include({
        status: 'rejected',
        reason: 'a visitor',
      });
      const again = await call('/api/proposals/P1/accept', { method: 'POST', body: '{}' });
      expect(again.status).to.equal(409);
      expect(((await again.json()) as { error: { code: string } }).error.code).to.equal(
        'MIRA_ERR_MEMORY_PROPOSAL_DECIDED',
      );
      expect(await store.findEntities('Carol')).to.deep.equal([]);
      expect(((await (await call('/api/proposals')).json()) as { proposals: unknown[] }).proposals).to.deep.equal([]);
    });

    it('marks a proposal stale once its name is taken, saying why', async () => {
      const store = await propose();
      await store.createEntity({ entityType: 'person', canonicalName: 'Carol' });
      const { proposals } = (await (await call('/api/proposals')).json()) as {
        proposals: Array<Record<string, unknown>>;
      };
      expect(proposals.map((p) => [p.id, p.stale])).to.deep.equal([
        ['P1', 'ENT2 has this name now'],
        ['P2', null],
      ]);
    });

    it('routes by method and path: IDs in any case, anything else a 404 naming the route', async () => {
      const memories = await call('/api/entities/ent1/memories');
      expect(memories.status).to.equal(200);
      expect(((await memories.json()) as { entity: { id: string } }).entity.id).to.equal('ENT1');
      expect((await call('/api/memories/mem1')).status).to.equal(200);
      for (const [method, path] of [
        ['GET', '/api/nope'],
        ['DELETE', '/api/entities'],
        ['PATCH', '/api/notes/abc'],
        ['GET', '/api/notes/1'],
        ['POST', '/api/entities/ENT1/memories'],
        ['GET', '/api/entities/PERSON1/memories'],
        ['POST', '/api/proposals/P1/maybe'],
        ['GET', '/api/scopes/'],
      ] as const) {
        const response = await call(path, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
        expect(response.status, `${method} ${path}`).to.equal(404);
        expect(await response.json(), `${method} ${path}`).to.deep.equal({
          error: {
            code: 'MIRA_ERR_MIND_VIEW_NOT_FOUND',
            message: `no route ${method} ${path}`,
            fix: 'see docs/operator.md ("Mind view") for the routes',
          },
        });
      }
    });

    it('refuses a bad body or ID and changes nothing', async () => {
      const store = await propose();
      for (const [path, body, status, code] of [
        ['/api/proposals/P1/reject', '{"reason":7}', 400, 'MIRA_ERR_MIND_VIEW_BAD_REQUEST'],
        ['/api/proposals/P1/accept', '{"force":true}', 400, 'MIRA_ERR_MIND_VIEW_BAD_REQUEST'],
        ['/api/proposals/P9/accept', '{}', 404, 'MIRA_ERR_MEMORY_PROPOSAL_NOT_FOUND'],
      ] as const) {
        const response = await call(path, { method: 'POST', body });
        expect(response.status, path).to.equal(status);
        const { error } = (await response.json()) as { error: { code: string; fix?: string } };
        expect(error.code).to.equal(code);
        // What to do comes from the catalogue that defines the code, whichever package that is.
        const entry = MindViewErrors.entry(code) ?? MemoryErrors.entry(code);
        expect(entry, code).not.to.equal(undefined);
        expect(error.fix, path).to.equal(entry!.fix);
      }
      expect((await store.listProposals()).map((p) => p.status)).to.deep.equal(['pending', 'pending']);
    });
  });

  describe('in headless Chromium', function () {
    let browser: Browser;
    let page: Page;
    before(async function () {
      if (!existsSync(CHROMIUM)) {
        process.stdout.write(
          `      (skipped: ${CHROMIUM} is not installed; .ci/run installs Debian's chromium package)\n`,
        );
        this.skip();
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
    });
    after(async () => browser?.close());
    beforeEach(async () => {
      // One browser profile, as a person has: the Mind view and any other page share it.
      page = await (await browser.newContext()).newPage();
      await page.goto(`${base}/#token=${token}`);
      await page.waitForSelector('.card');
    });
    afterEach(async () => page?.context().close());

    /** The cards' texts once the page has what it asked the server for (a filter, sort or label change). */
    const cards = async () => {
      await settle(page);
      return page.$$eval('.card .content', (nodes) => nodes.map((n) => n.textContent));
    };

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

    it('shows no pager for a list of one page', async () => {
      expect(await cards()).to.have.length(4);
      expect(await page.isVisible('#pager')).to.equal(false);
      expect(await page.$eval('#pager', (el) => getComputedStyle(el).display)).to.equal('none');
    });

    it('edits and deletes a card', async () => {
      await page.click('.card[data-id="3"] .edit');
      await page.fill('.card[data-id="3"] textarea', 'The dock code changed');
      await page.click('.card[data-id="3"] .save');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.card .content')].some((n) => n.textContent === 'The dock code changed'),
      );
      // Delete asks first: dismissing keeps the note, accepting deletes it.
      page.once('dialog', (dialog) => void dialog.dismiss());
      await page.click('.card[data-id="4"] .delete');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await page.$$('.card')).to.have.length(4);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.click('.card[data-id="4"] .delete');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 3);
    });

    it('edits text and labels in one form per card, with Cancel and Esc', async () => {
      await page.click('.card[data-id="3"] .edit');
      await page.click('.card[data-id="3"] .edit'); // a second click does not add a second form
      expect(await page.$$('.card[data-id="3"] .save')).to.have.length(1);
      await page.fill('.card[data-id="3"] textarea', 'not kept');
      await page.press('.card[data-id="3"] textarea', 'Escape');
      expect(await page.$$('.card[data-id="3"] textarea')).to.have.length(0);
      expect(await page.textContent('.card[data-id="3"] .content')).to.equal('The dock code is 4711');
      await page.click('.card[data-id="3"] .edit');
      await page.click('.card[data-id="3"] .cancel');
      expect(await page.$$('.card[data-id="3"] .save')).to.have.length(0);
      await page.click('.card[data-id="3"] .edit');
      await page.fill('.card[data-id="3"] .labels-editor', 'secret, dock');
      await page.click('.card[data-id="3"] .save');
      await page.waitForFunction(() =>
        document.querySelector('.card[data-id="3"] .meta')?.textContent?.includes('dock'),
      );
      const notes = rt.app.kernel.store(NOTES_STORE);
      expect(notes.get(3, { scopes: ['default'], key: null, operator: true })!.labels).to.deep.equal([
        'secret',
        'dock',
      ]);
      // An over-long edit is trimmed at a word boundary, and the page shows what was cut.
      await page.click('.card[data-id="3"] .edit');
      await page.fill('.card[data-id="3"] textarea', `${'word '.repeat(102)}tail end`);
      await page.click('.card[data-id="3"] .save');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.includes('cut:'));
      expect(await page.textContent('#status')).to.match(/^N3 saved; trimmed to 512 characters, cut: ".*tail end"$/);
    });

    it('edits with the keyboard alone: Tab goes Text, Labels, Save, Cancel, then Delete last; Enter saves', async () => {
      await page.focus('.card[data-id="3"] .edit');
      await page.keyboard.press('Enter');
      await page.waitForSelector('.card[data-id="3"] textarea');
      const focused = () =>
        page.evaluate(() => {
          const at = document.activeElement as HTMLElement;
          return at.className || at.tagName.toLowerCase();
        });
      expect(await focused()).to.equal('editor');
      const order: string[] = [];
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        order.push(await focused());
      }
      expect(order).to.deep.equal(['labels-editor', 'save', 'cancel', 'edit', 'delete']);
      // Back to the labels: Enter there saves the form.
      await page.focus('.card[data-id="3"] .labels-editor');
      await page.keyboard.press('End');
      await page.keyboard.type(', dock');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'N3 saved');
      const notes = rt.app.kernel.store(NOTES_STORE);
      expect(notes.get(3, { scopes: ['default'], key: null, operator: true })!.labels).to.deep.equal([
        'secret',
        'dock',
      ]);
      // Ctrl+Enter in the text saves too (Enter there is a new line).
      await page.click('.card[data-id="3"] .edit');
      await page.fill('.card[data-id="3"] textarea', 'The dock code is 4712');
      await page.press('.card[data-id="3"] textarea', 'Control+Enter');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.card .content')].some((n) => n.textContent === 'The dock code is 4712'),
      );
    });

    it('filters by every word in any order, folding case, accents and full-width forms; asks for no favicon', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.save('default', 'Le café est près de la fenêtre', 'place', null);
      const requests: string[] = [];
      page.on('request', (r) => requests.push(new URL(r.url()).pathname));
      await page.reload();
      await page.waitForSelector('.card');
      for (const filter of ['CAFE fenetre', 'fenêtre café', 'ｃａｆｅ', 'place cafe']) {
        await page.fill('#filter', filter);
        expect(await cards(), filter).to.deep.equal(['Le café est près de la fenêtre']);
      }
      // No note holds both words: the notes holding one, and the page says so.
      await page.fill('#filter', 'cafe tea');
      expect((await cards())[0]).to.equal('Le café est près de la fenêtre');
      expect(await cards()).to.have.length(3);
      expect(await page.textContent('.partial-filter span')).to.equal(
        'No note holds every word of "cafe tea": these hold some of them, most first. ',
      );
      expect(requests).not.to.include('/favicon.ico');
      // The new-scope pattern compiles (Chromium reports an invalid one and drops it).
      expect(await page.$eval('#new-scope', (e) => (e as HTMLInputElement).validity.patternMismatch)).to.equal(false);
      await page.fill('#new-scope', 'Bad Name');
      expect(await page.$eval('#new-scope', (e) => (e as HTMLInputElement).validity.patternMismatch)).to.equal(true);
    });

    it('filters by a typed question, lists the notes holding most of it, and offers the search in one keystroke', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.save('default', 'Lily has swimming lessons on Tuesdays at five', 'routine', null);
      await notes.save('default', 'Lily walks to school on Fridays', 'routine', null);
      await notes.save('default', 'The charging dock is in the hall', 'place', null);
      await page.reload();
      await page.waitForSelector('.card');
      // The question words are left out: "lily swimming" is in one note.
      await page.fill('#filter', 'when is lily swimming?');
      expect(await cards()).to.deep.equal(['Lily has swimming lessons on Tuesdays at five']);
      expect(await page.$$('.partial-filter, .empty-filter')).to.have.length(0);
      // No note holds every word: those holding most of them first, and the page says so.
      await page.fill('#filter', 'does lily swim on Fridays at five');
      expect(await cards()).to.deep.equal([
        'Lily has swimming lessons on Tuesdays at five',
        'Lily walks to school on Fridays',
      ]);
      expect(await page.textContent('#count')).to.match(/^2 of \d+ notes/);
      expect(await page.$$('.partial-filter .search-instead')).to.have.length(1);
      // None holds any word ("charger" is not in "charging"): the search, which reads word forms, is one key away.
      await page.fill('#filter', 'where is your charger');
      await page.waitForSelector('.empty-filter');
      expect(await page.textContent('.empty-filter span')).to.equal(
        'No note holds any word of "where is your charger". ',
      );
      expect(await page.textContent('#count')).to.match(/^0 of \d+ notes/);
      await page.press('#filter', 'Enter');
      await page.waitForSelector('#search-results:not([hidden]) .card');
      expect(await page.$$eval('#search-results .card .content', (n) => n.map((e) => e.textContent))).to.include(
        'The charging dock is in the hall',
      );
      expect(await page.inputValue('#search')).to.equal('where is your charger');
    });

    it('tells labels apart by colour: twelve hues 30° apart, person and place among them apart', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      const labels = ['person', 'place', 'routine', 'secret', 'kitchen', 'work'];
      notes.ensureScope('colours');
      for (const label of labels) await notes.save('colours', `A note about ${label}`, label, null);
      await page.reload();
      await page.selectOption('#scope', 'colours');
      await page.waitForSelector('.chip[data-label="work"]');
      const hueOf = await page.$$eval('.chip', (chips) =>
        Object.fromEntries(
          chips.map((c) => [
            (c as HTMLElement).dataset.label,
            Number(/hsl\((\d+)/.exec((c as HTMLElement).style.getPropertyValue('--chip'))?.[1]),
          ]),
        ),
      );
      // Every hue one of the twelve (a continuous wheel put person at 128° and place at 116°: one green).
      for (const label of labels) expect(hueOf[label]! % 30, label).to.equal(0);
      const apart = Math.abs(hueOf.person! - hueOf.place!);
      expect(Math.min(apart, 360 - apart)).to.be.at.least(30);
    });

    it('bounds the status line', async () => {
      await page.evaluate(() => {
        const input = document.getElementById('new-scope') as HTMLInputElement;
        input.removeAttribute('pattern');
        input.value = `bad name ${'x'.repeat(2000)}`;
      });
      await page.click('#new-scope-form button');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.includes('SCOPE_INVALID'));
      const shown = await page.textContent('#status');
      expect([...shown!].length).to.be.at.most(300);
      expect(shown!.endsWith('…')).to.equal(true);
    });

    it("keeps focus where the person is: Esc from the editor's buttons, after a chip toggle, and Import by Tab", async () => {
      const focused = () =>
        page.evaluate(() => {
          const e = document.activeElement as HTMLElement | null;
          return e ? `${e.tagName.toLowerCase()}.${e.className}${e.dataset.label ? `[${e.dataset.label}]` : ''}` : '';
        });
      await page.click('.card[data-id="3"] .edit');
      await page.focus('.card[data-id="3"] .save');
      await page.keyboard.press('Escape');
      expect(await page.$$('.card[data-id="3"] textarea')).to.have.length(0);
      expect(await focused()).to.equal('button.edit');
      await page.click('.card[data-id="3"] .edit');
      await page.focus('.card[data-id="3"] .cancel');
      await page.keyboard.press('Escape');
      expect(await page.$$('.card[data-id="3"] .save')).to.have.length(0);
      await page.focus('.chip[data-label="secret"]');
      await page.keyboard.press('Enter');
      await settle(page);
      expect(await page.textContent('#count')).to.equal('1 of 4 notes');
      // Focus returns to the chip once the page it asked for is drawn.
      await page.waitForFunction(() => document.activeElement?.classList.contains('chip'));
      expect(await focused()).to.equal('button.chip on[secret]');
      await page.keyboard.press('Enter');
      await settle(page);
      expect(await page.textContent('#count')).to.equal('4 of 4 notes');
      // The import control is a real input Tab reaches, not a hidden one.
      await page.focus('#export');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).to.equal('import');
    });

    it('colours labels from distinct hues with text contrast of at least 5:1, chips included', async () => {
      // A plain script: the test compiler's helpers do not exist in the page.
      const measured = (await page.evaluate(`(() => {
        const rgb = (css) => (css.match(/\\d+(\\.\\d+)?/g) || []).slice(0, 3).map(Number);
        const lum = (c) => {
          const [r, g, b] = c.map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const contrast = (a, b) => {
          const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
          return (hi + 0.05) / (lo + 0.05);
        };
        const badges = [...document.querySelectorAll('.card .label')].map((el) => {
          const style = getComputedStyle(el);
          const ratio = contrast(rgb(style.color), rgb(style.backgroundColor));
          return { label: el.textContent, background: style.backgroundColor, ratio };
        });
        const chips = [...document.querySelectorAll('.chip')].map((el) => {
          const style = getComputedStyle(el);
          const ratio = contrast(rgb(style.color), rgb(style.backgroundColor));
          return { label: el.dataset.label, color: style.color, ratio };
        });
        return { badges, chips };
      })()`)) as {
        badges: Array<{ label: string; background: string; ratio: number }>;
        chips: Array<{ label: string; color: string; ratio: number }>;
      };
      expect(measured.badges.length).to.be.greaterThan(3);
      for (const b of [...measured.badges, ...measured.chips]) expect(b.ratio, JSON.stringify(b)).to.be.at.least(5);
      const colourOf = new Map(measured.badges.map((b) => [b.label, b.background]));
      const labels = [...colourOf.keys()];
      // Every label its own hue, and chips in their label's colour.
      expect(new Set(colourOf.values()).size, JSON.stringify([...colourOf])).to.equal(labels.length);
      for (const chip of measured.chips) expect(chip.color).to.equal(colourOf.get(chip.label!));
    });

    it('always shows the count of what is on screen', async () => {
      const count = async () => {
        await settle(page);
        return page.textContent('#count');
      };
      expect(await count()).to.equal('4 of 4 notes');
      await page.click('.chip[data-label="secret"]');
      expect(await count()).to.equal('1 of 4 notes');
      await page.fill('#filter', 'tea');
      expect(await count()).to.equal('0 of 4 notes');
      await page.click('.chip[data-label="secret"]');
      expect(await count()).to.equal('2 of 4 notes');
    });

    it('walks duplicates with combine, asking which text to keep and confirming', async () => {
      await page.click('#find-duplicates');
      await page.waitForSelector('.combine');
      await page.click('.combine');
      // Nothing is combined until confirmed; Cancel closes the question.
      await page.waitForSelector('.dup-confirm:not([hidden])');
      await page.click('.cancel-combine');
      expect(await page.isVisible('.dup-confirm')).to.equal(false);
      expect(await page.$$eval('.card', (cards) => cards.length)).to.equal(4);
      await page.click('.combine');
      await page.check('.dup-choice input[value="2"]');
      await page.click('.confirm-combine');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 3);
      // N2 stays with its own text and the labels of both; N1 is removed.
      const notes = rt.app.kernel.store(NOTES_STORE);
      const left = notes.recent({ scopes: ['default'], key: null, operator: true }, 10);
      const kept = left.find((n) => n.id === 2)!;
      expect(kept.content).to.equal('alice prefers green tea, in the morning!');
      expect([...kept.labels].sort()).to.deep.equal(['preference', 'tea']);
      expect(left.some((n) => n.id === 1)).to.equal(false);
      // The page says which note stayed.
      expect(await page.textContent('#status')).to.equal('N2 kept, with the labels of both; N1 removed');
      // The list is fetched afresh: the pair is gone, and nothing else pairs.
      await page.waitForFunction(() => document.querySelector('#duplicates p')?.textContent === 'No more pairs.');
    });

    it('walks duplicates in a scope other than default, combining and deleting there', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.save('lab', 'The charger is behind the lab door', 'place', null);
      await notes.save('lab', 'the charger is behind the lab door!', 'place', null);
      await notes.save('lab', 'The spare battery is in drawer 3', 'place', null);
      await notes.save('lab', 'the spare battery is in drawer 3.', 'place', null);
      await page.reload();
      await page.waitForSelector('.card');
      await page.selectOption('#scope', 'lab');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 4);
      await page.click('#find-duplicates');
      await page.waitForSelector('.combine');
      await page.click('.combine');
      await page.click('.confirm-combine');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 3);
      await page.waitForSelector('.delete-dup');
      // "Delete N…" asks first, as the card's ✕ does: dismissed, nothing is deleted and the pair stays.
      const pairShown = await page.$$eval('#duplicates .dup-note', (n) => n.map((e) => e.getAttribute('data-id')));
      // A pair's notes are not drawn as the global overlay's read-only cards (dashed).
      expect(
        await page.$$eval('#duplicates .dup-note', (n) => n.map((e) => getComputedStyle(e).borderStyle)),
      ).to.not.include('dashed');
      expect(await page.$$('#duplicates .dup-note.read-only')).to.have.length(0);
      const asked: string[] = [];
      page.once('dialog', (dialog) => {
        asked.push(dialog.message());
        void dialog.dismiss();
      });
      await page.click('.delete-dup');
      expect(asked).to.deep.equal([`Delete N${pairShown[1]}? This cannot be undone.`]);
      expect(notes.recent({ scopes: ['lab'], key: null, operator: true }, 10)).to.have.length(3);
      expect(await page.$$eval('#duplicates .dup-note', (n) => n.map((e) => e.getAttribute('data-id')))).to.deep.equal(
        pairShown,
      );
      expect(await page.$$('.card')).to.have.length(3);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.click('.delete-dup');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 2);
      expect(notes.get(Number(pairShown[1]), { scopes: ['lab'], key: null, operator: true })).to.equal(undefined);
      const left = notes.recent({ scopes: ['lab'], key: null, operator: true }, 10).map((n) => n.content);
      expect(left).to.have.length(2);
      expect(notes.recent({ scopes: ['default'], key: null, operator: true }, 10)).to.have.length(4);
    });

    it('passes over a pair whose note is gone, closes on a scope change, and offers Skip all and Close', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      // Three near-identical notes: three pairs, two of them with the note a combine removes.
      await notes.save('lab', 'The charger is behind the lab door', 'place', null);
      await notes.save('lab', 'the charger is behind the lab door!', 'place', null);
      await notes.save('lab', 'The charger is behind the lab door.', 'place', null);
      await page.reload();
      await page.waitForSelector('.card');
      await page.selectOption('#scope', 'lab');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 3);
      // While the store scans, the panel says so (the answer is held back to see it).
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/notes/duplicates*', async (route) => {
        await held;
        await route.continue();
      });
      await page.click('#find-duplicates');
      await page.waitForSelector('#duplicates progress');
      expect(await page.textContent('.dup-scanning')).to.equal('Looking for near-duplicates in lab…');
      release();
      await page.waitForSelector('.combine');
      await page.unroute('**/api/notes/duplicates*');
      const pairs = Number(/of (\d+)/.exec((await page.textContent('#duplicates p'))!)![1]);
      expect(pairs).to.equal(3);
      await page.click('.combine');
      await page.click('.confirm-combine');
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 2);
      // A fresh list: of three pairs, the one left has both its notes.
      await page.waitForFunction(() =>
        /^Pair 1 of 1 left/.test(document.querySelector('#duplicates p')?.textContent ?? ''),
      );
      // The next pair shown has both its notes still there.
      const shownIds = await page.$$eval('#duplicates .dup-note', (n) =>
        n.map((e) => Number(e.getAttribute('data-id'))),
      );
      const left = notes.recent({ scopes: ['lab'], key: null, operator: true }, 10).map((n) => n.id);
      expect(shownIds).to.have.length(2);
      for (const id of shownIds) expect(left).to.include(id);
      await page.click('.skip-all');
      expect(await page.textContent('#duplicates p')).to.equal('No more pairs.');
      await page.click('.close-dup');
      expect(await page.isVisible('#duplicates')).to.equal(false);
      await page.click('#find-duplicates');
      await page.waitForSelector('#duplicates:not([hidden])');
      await page.selectOption('#scope', 'default');
      expect(await page.isVisible('#duplicates')).to.equal(false);
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

    it("imports an export over the 2 MB request bound, up to the console's 50 MB, and says what to do past it", async () => {
      const at = '2026-01-01T00:00:00.000Z';
      const big = {
        format: 'mira-notes',
        version: 1,
        scope: 'default',
        exported_at: at,
        notes: Array.from({ length: 6000 }, (_, i) => ({
          content: `Imported note ${i}: ${'a long line of text about the robot and its dock '.repeat(10)}`.slice(
            0,
            500,
          ),
          labels: ['bulk'],
          private_key: null,
          created_at: at,
          updated_at: at,
        })),
      };
      const buffer = Buffer.from(JSON.stringify(big));
      expect(buffer.length).to.be.above(2_000_000);
      // Progress while it goes: the bar and the status line move (each change recorded as it happens).
      await page.evaluate(() => {
        const seen: string[] = ((window as unknown as { importSeen: string[] }).importSeen = []);
        new MutationObserver(() => seen.push(document.getElementById('status')!.textContent!)).observe(
          document.getElementById('status')!,
          { childList: true, characterData: true, subtree: true },
        );
      });
      await page.setInputFiles('#import', { name: 'big.json', mimeType: 'application/json', buffer });
      await page.waitForFunction(
        () => document.getElementById('status')!.textContent!.startsWith('imported'),
        undefined,
        {
          timeout: 20_000,
        },
      );
      expect(await page.textContent('#status')).to.equal('imported 6000 notes, 0 already present');
      const seen = await page.evaluate(() => (window as unknown as { importSeen: string[] }).importSeen);
      const mb = (buffer.length / 1024 / 1024).toFixed(1);
      expect(seen[0]).to.equal(`importing big.json (${mb} MB): sending…`);
      expect(seen).to.include(`importing big.json (${mb} MB): sent; writing the notes…`);
      expect(await page.isVisible('#import-progress')).to.equal(false);
      // The new notes are what the page shows and counts (the scope's count too).
      await settle(page);
      expect(await page.textContent('#count')).to.match(/^6004 of 6004 notes/);
      mkdirSync(join(REPO_ROOT, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(REPO_ROOT, 'test-output', 'mind-view-import.png') });
      const { writeFileSync } = await import('node:fs');
      const huge = join(rt.dir, 'huge.json');
      writeFileSync(huge, Buffer.alloc(50 * 1024 * 1024 + 1, 32));
      await page.setInputFiles('#import', huge);
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('huge.json'));
      expect(await page.textContent('#status')).to.equal(
        'huge.json is 50.0 MB, more than the 50 MB an import reads (notes import on the console too); split the export by scope or in parts. Nothing was imported',
      );
    });

    it('shows no data without the token, and says where to find it', async () => {
      const other = await browser.newPage();
      await other.goto(`${base}/`);
      await other.waitForFunction(() => document.getElementById('status')!.textContent !== '');
      expect(await other.textContent('#status')).to.contain('open the address the console printed');
      expect(await other.content()).not.to.contain('Alice');
      await other.close();
    });

    it('takes the token out of the address bar and keeps working after a reload', async () => {
      // The address keeps the scope and sort, never the token.
      expect(page.url()).to.equal(`${base}/?scope=default&sort=newest`);
      expect(page.url()).not.to.contain(token);
      await page.reload();
      await page.waitForSelector('.card');
      expect(await cards()).to.have.length(4);
    });

    it('gives a page on another local port nothing to read or change, and never the token', async () => {
      const { createServer } = await import('node:http');
      const seen: Array<{ url: string; headers: string }> = [];
      const results: string[] = [];
      // The hostile page tries every way a browser lets a page reach another local port.
      const hostile = `<!doctype html><body><iframe name="sink"></iframe><script>
        const base = ${JSON.stringify(base)};
        const report = (what) => fetch('/report', { method: 'POST', body: what });
        (async () => {
          try { const r = await fetch(base + '/api/notes', { credentials: 'include' }); report('read ' + r.status + ' ' + (await r.text())); }
          catch (e) { report('read blocked'); }
          try { const r = await fetch(base + '/api/notes', { credentials: 'include', headers: { authorization: 'Bearer ' + (sessionStorage.getItem('mira_token') || 'guess') } }); report('read with header ' + r.status); }
          catch (e) { report('read with header blocked'); }
          await fetch(base + '/api/entities', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ entity_type: 'person', canonical_name: 'Mallory' }) }).catch(() => {});
          await fetch(base + '/api/notes/combine', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ keep: 1, drop: 2 }) }).catch(() => {});
          await fetch(base + '/api/notes/3', { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{}' }).catch(() => {});
          const form = document.createElement('form');
          form.method = 'POST'; form.enctype = 'text/plain'; form.target = 'sink'; form.action = base + '/api/entities';
          const input = document.createElement('input');
          input.name = '{"entity_type":"person","canonical_name":"Eve","x":"'; input.value = '"}';
          form.append(input); document.body.append(form); form.submit();
          await new Promise((resolve) => { const img = new Image(); img.onload = img.onerror = resolve; img.src = base + '/api/notes'; });
          await new Promise((resolve) => setTimeout(resolve, 500));
          report('done');
        })();
      </script></body>`;
      const evil = createServer((req, res) => {
        seen.push({ url: req.url ?? '', headers: JSON.stringify(req.headers) });
        if (req.url === '/report') {
          let text = '';
          req.on('data', (chunk) => (text += chunk));
          req.on('end', () => {
            results.push(text);
            res.end();
          });
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(hostile);
      });
      await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
      const evilPort = (evil.address() as { port: number }).port;
      try {
        // The operator has the Mind view open in the same browser profile.
        expect(await cards()).to.have.length(4);
        const attacker = await page.context().newPage();
        await attacker.goto(`http://127.0.0.1:${evilPort}/`);
        await attacker.waitForFunction(() => true);
        const deadline = Date.now() + 10_000;
        while (!results.includes('done') && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
        await attacker.close();
      } finally {
        evil.closeAllConnections();
        await new Promise<void>((resolve) => evil.close(() => resolve()));
      }
      expect(results).to.include('done');
      expect(results).to.include('read blocked');
      expect(results).to.include('read with header blocked');
      expect(results.join('\n')).not.to.contain('Alice');
      const store = rt.app.kernel.store(MEMORY_STORE);
      expect(await store.findEntities('Mallory')).to.deep.equal([]);
      expect(await store.findEntities('Eve')).to.deep.equal([]);
      const notes = rt.app.kernel.store(NOTES_STORE);
      expect(notes.recent({ scopes: ['default'], key: null, operator: true }, 100).map((n) => n.id)).to.deep.equal([
        4, 3, 2, 1,
      ]);
      expect(seen.length).to.be.greaterThan(0);
      for (const request of seen) expect(request.headers, request.url).not.to.contain(token);
    });

    const shot = async (name: string) => {
      mkdirSync(join(REPO_ROOT, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(REPO_ROOT, 'test-output', `mind-view-${name}.png`), fullPage: true });
    };

    it("searches with the store's search beside the instant filter", async () => {
      await page.fill('#search', 'teas');
      await page.click('#store-search button');
      await page.waitForSelector('#search-results .card');
      expect(await page.textContent('#search-results .search-mode')).to.match(/^2 found · full text/);
      expect(
        await page.$$eval('#search-results .card .content', (nodes) => nodes.map((n) => n.textContent)),
      ).to.have.members(['Alice prefers green tea in the morning', 'alice prefers green tea, in the morning!']);
      await shot('search');
      await page.click('.close-search');
      expect(await page.isHidden('#search-results')).to.equal(true);
    });

    it('creates a scope from the page, shows counts per scope, and the global notes read-only', async () => {
      await rt.app.kernel.store(NOTES_STORE).save('global', 'The wifi password is on the fridge', 'home', null);
      await page.reload();
      await page.waitForSelector('.card.read-only');
      // Its own notes and the global ones its list shows over them, as the list's count has them.
      expect(await page.textContent('#scope option[value="default"]')).to.equal('default (4 + 1 global)');
      expect(await page.textContent('#count')).to.match(/^5 of 5 notes/);
      // A global note is shown in every scope, without edit or delete there.
      expect(await page.$$('.card.read-only .edit')).to.have.length(0);
      await page.fill('#new-scope', 'kitchen');
      await page.click('#new-scope-form button');
      await page.waitForFunction(() => (document.getElementById('scope') as HTMLSelectElement).value === 'kitchen');
      // The new scope's notes replace the old ones once loaded: only the global overlay is there.
      await page.waitForFunction(() => document.querySelectorAll('.card').length === 1);
      expect(await cards()).to.deep.equal(['The wifi password is on the fridge']);
      expect(await page.textContent('#scope option[value="kitchen"]')).to.equal('kitchen (0 + 1 global)');
      await shot('scopes');
      await page.fill('#new-scope', 'Bad Name');
      await page.evaluate(() => (document.getElementById('new-scope') as HTMLInputElement).removeAttribute('pattern'));
      await page.click('#new-scope-form button');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.includes('SCOPE_INVALID'));
    });

    it("opens on the session's scope and keeps the chosen scope and sort in the address: reload and back", async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      notes.ensureScope('lab');
      await notes.save('lab', 'The spare battery is in drawer 3', 'place', null);
      expect((await rt.run('notes scope lab')).ok).to.equal(true);
      await page.goto(`${base}/#token=${token}`);
      await page.waitForFunction(() => (document.getElementById('scope') as HTMLSelectElement).value === 'lab');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.card .content')].some(
          (n) => n.textContent === 'The spare battery is in drawer 3',
        ),
      );
      expect(new URL(page.url()).search).to.equal('?scope=lab&sort=newest');
      await page.selectOption('#scope', 'default');
      await page.waitForFunction(() => document.querySelectorAll('.card').length >= 4);
      await page.selectOption('#sort', 'oldest');
      expect(new URL(page.url()).search).to.equal('?scope=default&sort=oldest');
      await page.reload();
      await page.waitForSelector('.card');
      expect(await page.$eval('#scope', (e) => (e as HTMLSelectElement).value)).to.equal('default');
      expect(await page.$eval('#sort', (e) => (e as HTMLSelectElement).value)).to.equal('oldest');
      // Back twice: the sort, then the scope, as they were chosen.
      await page.goBack();
      await page.goBack();
      await page.waitForFunction(() => (document.getElementById('scope') as HTMLSelectElement).value === 'lab');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.card .content')].some(
          (n) => n.textContent === 'The spare battery is in drawer 3',
        ),
      );
    });

    it('gives a label the same colour in every scope, whatever the counts', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      notes.ensureScope('lab');
      // In lab, "tea" is the rarest of many labels; in default it is the most common.
      for (const label of ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'])
        for (let i = 0; i < 3; i++) await notes.save('lab', `${label} note ${i}`, label, null);
      await notes.save('lab', 'Lab tea is in the cupboard', 'tea', null);
      await page.reload();
      await page.waitForSelector('.card');
      const colourOf = (label: string) =>
        page.$$eval(
          '.card .label',
          (badges, wanted) => badges.find((b) => b.textContent === wanted)?.getAttribute('style') ?? null,
          label,
        );
      const inDefault = await colourOf('tea');
      expect(inDefault).to.match(/background/);
      await page.selectOption('#scope', 'lab');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.card .content')].some((n) => n.textContent === 'Lab tea is in the cupboard'),
      );
      expect(await colourOf('tea')).to.equal(inDefault);
    });

    it('shows a note the console writes without a reload', async () => {
      await page.waitForFunction(() => document.body.dataset.live === 'on');
      await rt.app.kernel.store(NOTES_STORE).save('default', 'Written on the console just now', 'live', null);
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('.card .content')].some(
            (n) => n.textContent === 'Written on the console just now',
          ),
        undefined,
        { timeout: 5000 },
      );
      expect(await page.textContent('#count')).to.equal('5 of 5 notes');
    });

    it('keeps an open edit form when a note is written elsewhere, and shows the new note once it closes', async () => {
      await page.waitForFunction(() => document.body.dataset.live === 'on');
      await page.click('.card[data-id="3"] .edit');
      await page.fill('.card[data-id="3"] textarea', 'half-typed words');
      await rt.app.kernel.store(NOTES_STORE).save('default', 'Written on the console meanwhile', null, null);
      // Several change polls pass: the form and what was typed stay.
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(await page.inputValue('.card[data-id="3"] textarea')).to.equal('half-typed words');
      await page.click('.card[data-id="3"] .cancel');
      await page.waitForFunction(() =>
        [...document.querySelectorAll('.card .content')].some(
          (n) => n.textContent === 'Written on the console meanwhile',
        ),
      );
    });

    it('browses entities by page and type, and shows one with its memories', async () => {
      const store = rt.app.kernel.store(MEMORY_STORE);
      for (let i = 1; i <= 30; i += 1) await store.createEntity({ entityType: 'place', canonicalName: `Shelf ${i}` });
      await page.click('#tab-entities');
      await page.click('#entity-browse button');
      await page.waitForFunction(() => document.querySelectorAll('.entity-row').length === 25);
      expect(await page.textContent('#entity-status')).to.equal('entities 1–25 of 31');
      await page.click('#entity-next');
      await page.waitForFunction(() => document.querySelectorAll('.entity-row').length === 6);
      await page.fill('#entity-type', 'person');
      await page.click('#entity-browse button');
      await page.waitForFunction(() => document.querySelectorAll('.entity-row').length === 1);
      await page.click('.entity-row[data-id="ENT1"]');
      await page.waitForSelector('.entity .summary');
      expect(await page.textContent('.entity .summary')).to.equal('Ada wrote the first program');
      await shot('entities');
    });

    it('draws the latest page of entities asked for, with its status, whichever order the pages arrive in', async () => {
      // The page's first load draws the list (one entity, ENT1, a person) before anything is held.
      await page.waitForSelector('.entity-row[data-id="ENT1"]', { state: 'attached' });
      await page.click('#tab-entities');
      // Each page of the list is answered at once and delivered when the test says (the page's first load, a
      // busy machine and a live refresh deliver pages late).
      const held: Array<() => Promise<void>> = [];
      const entityPages = (url: URL) => url.pathname === '/api/entities';
      await page.route(entityPages, async (route) => {
        const response = await route.fetch();
        held.push(() => route.fulfill({ response }));
      });
      const ask = async (type: string) => {
        const count = held.length + 1;
        await page.fill('#entity-type', type);
        await page.click('#entity-browse button');
        for (let i = 0; held.length < count && i < 250; i += 1) await new Promise((r) => setTimeout(r, 20));
        expect(held).to.have.length(count);
      };
      const status = (text: string) =>
        page.waitForFunction((t) => document.getElementById('entity-status')!.textContent === t, text, {
          timeout: 5000,
        });
      const all = 'entities 1–1 of 1';
      const places = 'no entities of type place';
      // The earlier page arrives first, then the later one: the later one is drawn and says so.
      await ask('');
      await ask('place');
      await held[0]!();
      await status(all);
      await held[1]!();
      await status(places);
      expect(await page.$('.entity-row[data-id="ENT1"]')).to.equal(null);
      // The later page first, then the earlier one, which is dropped: the list and its status stay the later.
      await ask('place');
      await ask('');
      await held[3]!();
      await status(all);
      await page.waitForSelector('.entity-row[data-id="ENT1"]');
      await held[2]!();
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
      expect(await page.textContent('#entity-status')).to.equal(all);
      expect(await page.$('.entity-row[data-id="ENT1"]')).to.not.equal(null);
      await page.unroute(entityPages);
    });

    it('scans a scope of 20,000 notes with progress, and Stop stops the scan on the server', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      const at = (i: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString();
      const note = (content: string, i: number) => ({
        content,
        labels: [],
        private_key: null,
        created_at: at(i),
        updated_at: at(i),
      });
      await notes.importNotes({
        format: 'mira-notes',
        version: 1,
        scope: 'big',
        exported_at: '2026-01-01T00:00:00.000Z',
        notes: [
          ...Array.from({ length: 19_998 }, (_, i) => note(`Bin ${i} holds part ${i * 7919}`, i)),
          note('Water the basil on the kitchen sill', 30_000),
          note('water the basil on the kitchen sill!', 30_001),
        ],
      });
      const waitFor = async (done: () => boolean) => {
        for (const start = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
          if (Date.now() - start > 30_000) throw new Error('the condition did not come true within 30 s');
        }
      };
      // What the server's scans did: a spy on this store's method (the seam the Mind view reads through).
      const scans: Array<{ reports: number; outcome?: string }> = [];
      const original = notes.duplicates.bind(notes);
      notes.duplicates = (viewer, options = {}) => {
        const scan: { reports: number; outcome?: string } = { reports: 0 };
        scans.push(scan);
        return original(viewer, {
          ...options,
          onProgress: (done, total) => {
            scan.reports += 1;
            options.onProgress?.(done, total);
          },
        }).then(
          (pairs) => ((scan.outcome = 'finished'), pairs),
          (error: { code: string }) => {
            scan.outcome = error.code;
            throw error;
          },
        );
      };
      try {
        await page.reload();
        await page.waitForSelector('.card');
        await page.selectOption('#scope', 'big');
        await page.waitForFunction(() => document.getElementById('count')!.textContent!.startsWith('20000 of 20000'));
        await page.click('#find-duplicates');
        // Progress the page shows as the server reports it.
        await page.waitForFunction(
          () => Number(document.querySelector<HTMLProgressElement>('#duplicates progress')?.value) > 0,
        );
        expect(await page.textContent('.dup-scanning')).to.match(/^Looking for near-duplicates in big… \d+ %$/);
        await page.click('.stop-dup');
        await page.waitForSelector('.dup-stopped');
        expect(await page.textContent('.dup-stopped')).to.equal('Stopped. Nothing was changed.');
        expect(await page.$$('#duplicates progress')).to.have.length(0);
        // The server's scan stopped with the request, and reports nothing more.
        await waitFor(() => scans[0]?.outcome === 'MIRA_ERR_NOTES_STOPPED');
        const reports = scans[0]!.reports;
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(scans[0]!.reports).to.equal(reports);
        // Asked again, the scan runs to its end over every note.
        await page.click('.dup-again');
        await page.waitForSelector('.combine', { timeout: 120_000 });
        expect(scans.map((scan) => scan.outcome)).to.deep.equal(['MIRA_ERR_NOTES_STOPPED', 'finished']);
        expect(await page.textContent('#duplicates p')).to.equal('Pair 1 of 1 left (similarity 1)');
        expect(await page.$$eval('#duplicates .dup-note .content', (n) => n.map((e) => e.textContent))).to.deep.equal([
          'Water the basil on the kitchen sill',
          'water the basil on the kitchen sill!',
        ]);
        // Closing the panel during a scan stops it too.
        await page.click('.close-dup');
        await page.click('#find-duplicates');
        await page.waitForFunction(
          () => Number(document.querySelector<HTMLProgressElement>('#duplicates progress')?.value) > 0,
        );
        await page.click('.close-dup');
        await waitFor(() => scans[2]?.outcome === 'MIRA_ERR_NOTES_STOPPED');
      } finally {
        delete (notes as { duplicates?: unknown }).duplicates;
      }
    });

    it('shows an error the scan sends after its progress with what to do, and one that never got an answer', async () => {
      await page.route('**/api/notes/duplicates*', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/x-ndjson; charset=utf-8',
          body:
            `${JSON.stringify({ progress: { done: 5, total: 10 } })}\n` +
            `${JSON.stringify({ error: { code: 'MIRA_ERR_NOTES_DISABLED', message: 'notes are disabled in this profile', fix: 'set [notes] enabled = true and database_path in profile.toml' } })}\n`,
        }),
      );
      await page.click('#find-duplicates');
      await page.waitForSelector('.dup-error');
      expect(await page.$$('#duplicates progress')).to.have.length(0);
      expect(await page.textContent('.dup-error')).to.equal(
        'MIRA_ERR_NOTES_DISABLED: notes are disabled in this profile — what to do: set [notes] enabled = true and database_path in profile.toml',
      );
      await page.unroute('**/api/notes/duplicates*');
      await page.route('**/api/notes/duplicates*', (route) => route.abort('connectionrefused'));
      await page.click('.dup-again');
      await page.waitForFunction(() =>
        /^The scan got no answer/.test(document.querySelector('.dup-error')?.textContent ?? ''),
      );
      expect(await page.textContent('.dup-error')).to.match(
        /^The scan got no answer \(.+\)\. Check that Mira is still running, then try again\.$/,
      );
      expect(await page.$$('#duplicates progress')).to.have.length(0);
      await page.unroute('**/api/notes/duplicates*');
      // Try again works once the server answers.
      await page.click('.dup-again');
      await page.waitForSelector('.combine');
    });

    it('shows any error the scan answers with what to do, and ends the progress bar', async () => {
      await page.route('**/api/notes/duplicates*', (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({
            // As the server answers an unexpected failure (see the API test of it above).
            error: {
              code: 'MIRA_ERR_INTERNAL',
              message: "the Mind view failed (error 0a1b2c3d4e5f); the details are in the runtime's log",
              id: '0a1b2c3d4e5f',
            },
          }),
        }),
      );
      await page.click('#find-duplicates');
      await page.waitForSelector('.dup-error');
      expect(await page.$$('#duplicates progress')).to.have.length(0);
      expect(await page.textContent('.dup-error')).to.equal(
        "MIRA_ERR_INTERNAL: the Mind view failed (error 0a1b2c3d4e5f); the details are in the runtime's log",
      );
      expect(await page.isVisible('.close-dup')).to.equal(true);
    });

    it('shows each pair of duplicates whole and says which note Combine keeps', async () => {
      await page.click('#find-duplicates');
      await page.waitForSelector('.combine');
      await page.click('.combine');
      await page.waitForSelector('.dup-confirm:not([hidden])');
      expect(await page.textContent('.dup-confirm p')).to.equal(
        'Which text stays? The other note is removed; the one kept gets the labels of both.',
      );
      expect(await page.$$eval('.dup-choice', (choices) => choices.map((c) => c.textContent!.trim()))).to.deep.equal([
        'Keep the text of N1',
        'Keep the text of N2',
      ]);
      expect(await page.isChecked('.dup-choice input[value="1"]')).to.equal(true);
      expect(await page.textContent('.dup-a .meta'))
        .to.include('preference')
        .and.to.include('tea');
      await shot('duplicates');
    });

    it('keeps 5,000 notes responsive: a page of cards at a time; render, filter and sort times reported', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.importNotes({
        format: 'mira-notes',
        version: 1,
        scope: 'big',
        exported_at: '2026-01-01T00:00:00.000Z',
        notes: Array.from({ length: 5000 }, (_, i) => ({
          content: `Shelf ${i} holds ${['bolts', 'screws', 'nuts', 'washers'][i % 4]} of size ${i % 13}`,
          labels: [['hardware', 'inventory', 'workshop'][i % 3]!],
          private_key: null,
          created_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
          updated_at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
        })),
      });
      await page.reload();
      await page.waitForSelector('.card');
      const loaded = Date.now();
      await page.selectOption('#scope', 'big');
      await page.waitForFunction(() => document.getElementById('count')!.textContent!.startsWith('5000 of 5000'));
      const loadMs = Date.now() - loaded;
      const renderMs = Number(await page.evaluate(() => document.body.dataset.renderMs));
      expect(await page.$$('.card')).to.have.length(100);
      expect(await page.textContent('#count')).to.equal('5000 of 5000 notes · showing 1–100');
      // What a change costs: the server's answer (sort, filter, count and page in SQL) and the drawing.
      const timed = async (act: () => Promise<void>) => {
        await act();
        await settle(page);
        return page.evaluate(() => Number(document.body.dataset.loadMs) + Number(document.body.dataset.renderMs));
      };
      const filterMs = await timed(async () => {
        await page.fill('#filter', 'washers');
      });
      expect(await page.textContent('#count')).to.equal('1250 of 5000 notes · showing 1–100');
      const sortMs = await timed(async () => {
        await page.selectOption('#sort', 'longest');
      });
      const firstOfLongest = await page.$$eval('.card', (c) => c.map((e) => e.getAttribute('data-id')));
      await page.click('#next-page');
      await settle(page);
      expect(await page.textContent('#count')).to.equal('1250 of 5000 notes · showing 101–200');
      expect(await page.textContent('#page-of')).to.equal('page 2 of 13');
      const second = await page.$$eval('.card', (c) => c.map((e) => e.getAttribute('data-id')));
      expect(second.filter((id) => firstOfLongest.includes(id))).to.deep.equal([]);
      // Every page to the last, one cursor after another, then back to the first: the page holds only
      // one page of notes at a time, and the last says so.
      for (let p = 3; p <= 13; p += 1) {
        await page.click('#next-page');
        await settle(page);
        expect(await page.textContent('#page-of')).to.equal(`page ${p} of 13`);
      }
      expect(await page.textContent('#count')).to.equal('1250 of 5000 notes · showing 1201–1250');
      expect(await page.isDisabled('#next-page')).to.equal(true);
      expect(await page.$$('.card')).to.have.length(50);
      for (let p = 12; p >= 1; p -= 1) {
        await page.click('#prev-page');
        await settle(page);
      }
      expect(await page.$$eval('.card', (c) => c.map((e) => e.getAttribute('data-id')))).to.deep.equal(firstOfLongest);
      await page.click('#next-page');
      await settle(page);
      await shot('5000-notes');
      process.stdout.write(
        `      5,000 notes: load and first render ${loadMs} ms; render ${renderMs} ms, filter ${filterMs} ms, sort ${sortMs} ms\n`,
      );
      // A frame budget, not a benchmark: anything near a second would freeze the page.
      expect(Math.max(renderMs, filterMs, sortMs)).to.be.below(1000);
    });

    it('has no accessibility violations of any impact on any tab (axe-core)', async () => {
      await proposeTwo(rt.app.kernel.store(MEMORY_STORE));
      await page.click('#find-duplicates');
      await page.waitForSelector('.combine');
      await page.click('.combine');
      await page.waitForSelector('.dup-confirm:not([hidden])');
      const violations = async () =>
        (await new AxeBuilder({ page }).analyze()).violations.map(
          (v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
        );
      expect(await violations()).to.deep.equal([]);
      await page.click('#tab-entities');
      await page.waitForSelector('.entity-row');
      await page.click('.entity-row');
      await page.waitForSelector('.entity h2');
      expect(await violations()).to.deep.equal([]);
      // The Pending tab's proposals are headings one level under the page's, none skipped.
      await page.click('#tab-pending');
      await page.waitForSelector('.proposal[data-id="P2"]');
      expect(await violations()).to.deep.equal([]);
      // Keyboard: Tab reaches the controls in order, and Enter on a focused tab switches to it.
      await page.focus('#tab-memories');
      await page.keyboard.press('Enter');
      expect(await page.isVisible('#memories')).to.equal(true);
    });

    it('says what to do when a list is empty: a scope without notes, a search without hits, no entity of a type', async () => {
      const violations = async () =>
        (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id} (${v.impact}): ${v.help}`);
      // A scope without a note: where notes come from, where the cards would be, and no pager.
      rt.app.kernel.store(NOTES_STORE).ensureScope('garage');
      await page.goto(`${base}/?scope=garage#token=${token}`);
      await page.waitForSelector('#cards .empty-state');
      expect(await page.$$eval('#cards .empty-state p', (n) => n.map((e) => e.textContent))).to.deep.equal([
        'No notes in garage yet.',
        'Ask Mira to remember something in conversation, save one on the console (notes save "…"), or import a ' +
          'file exported from another scope or robot with Import above.',
      ]);
      expect(await page.isVisible('#pager')).to.equal(false);
      expect(await violations()).to.deep.equal([]);
      // A filter is no empty scope: the filter's own line says what it found.
      await page.fill('#filter', 'zebra');
      await page.waitForSelector('.empty-filter');
      expect(await page.$$('#cards .empty-state')).to.have.length(0);
      // A search that finds nothing says what to try.
      await page.goto(`${base}/#token=${token}`);
      await page.waitForSelector('.card');
      expect(await page.$$('#cards .empty-state')).to.have.length(0);
      await page.fill('#search', 'zebra crossing');
      await page.press('#search', 'Enter');
      await page.waitForSelector('#search-results .empty-state');
      expect(await page.textContent('#search-results .empty-state')).to.match(
        /^No note answers this\. Try other words/,
      );
      expect(await violations()).to.deep.equal([]);
      // The Entities tab lists entities before anything is typed, with no pager for one page.
      await page.click('#tab-entities');
      await page.waitForSelector('.entity-row[data-id="ENT1"]');
      expect(await page.textContent('#entity-status')).to.equal('entities 1–1 of 1');
      expect(await page.isVisible('#entity-pager')).to.equal(false);
      // None of a type: what types are, and how to see every entity.
      await page.fill('#entity-type', 'vehicle');
      await page.click('#entity-browse button');
      await page.waitForSelector('#entity-list .empty-state');
      expect(await page.textContent('#entity-list .empty-state')).to.equal(
        'No entity has the type "vehicle" (types are exact: person, place, …). Clear the type and Browse to list ' +
          'every entity.',
      );
      expect(await violations()).to.deep.equal([]);
      await page.fill('#entity-name', 'Zed');
      await page.click('#entity-find');
      await page.waitForFunction(() => document.getElementById('entity-status')!.textContent!.startsWith('no entity'));
      expect(await page.textContent('#entity-status')).to.equal(
        'no entity is named "Zed" (exact name or alias); the list below has every entity',
      );
    });

    it('keeps labels and the key clear of the ✎/✕ buttons at the narrowest width (320 px), with no axe violations', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      await notes.save(
        'default',
        'The spare keys for the garden shed hang on the hook behind the pantry door',
        'household,garden,keys,maintenance,important,shed,pantry,reminder',
        'family-only-key-2026',
      );
      await page.setViewportSize({ width: 320, height: 900 });
      await page.reload();
      await page.waitForSelector('.card');
      const overlaps = await page.$$eval('#cards .card', (cards) => {
        const found: string[] = [];
        for (const card of cards) {
          const buttons = [...card.querySelectorAll('.actions button')].map((b) => b.getBoundingClientRect());
          for (const part of card.querySelectorAll('.meta > *, .content')) {
            const a = part.getBoundingClientRect();
            for (const b of buttons)
              if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                found.push(`N${card.getAttribute('data-id')}: ${part.textContent}`);
          }
        }
        return found;
      });
      expect(overlaps).to.deep.equal([]);
      // Every card is within the width: nothing scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.equal(320);
      await shot('narrow-320');
      const violations = (await new AxeBuilder({ page }).analyze()).violations.map((v) => `${v.id} (${v.impact})`);
      expect(violations).to.deep.equal([]);
    });

    it('shows a lockout of keyed calls on the selected scope, and ends it with one button', async () => {
      const notes = rt.app.kernel.store(NOTES_STORE);
      expect(await page.isVisible('#lockout')).to.equal(false);
      for (let i = 0; i < 5; i++) notes.recordKeyMiss('default');
      await page.reload();
      await page.waitForSelector('#lockout:not([hidden])');
      expect(await page.textContent('#lockout span')).to.match(
        /^Keyed calls from keys the operator typed in scope default are refused until \d{4}-\d\d-\d\dT[\d:.]+Z after 5 wrong keys\. $/,
      );
      await page.click('text=Unlock default');
      await page.waitForSelector('#lockout', { state: 'hidden' });
      expect(await page.textContent('#status')).to.equal('scope default unlocked (5 wrong keys forgotten)');
      expect(notes.keyLockout('default')).to.equal(undefined);
    });

    it('decides proposals in the Pending tab, showing what was said', async () => {
      await page.waitForFunction(() => document.body.dataset.live === 'on');
      const store = await proposeTwo(rt.app.kernel.store(MEMORY_STORE));
      // The count arrives with the live update, without a reload.
      await page.waitForFunction(() => document.getElementById('pending-count')!.textContent === '(2)');
      await page.click('#tab-pending');
      await page.waitForSelector('.proposal[data-id="P2"]');
      expect(await page.$$eval('.proposal h2', (n) => n.map((x) => x.textContent))).to.deep.equal([
        'P1: new person "Carol"',
        'P2: MEM1 wrote "the first program" → "the first algorithm"',
      ]);
      expect(await page.textContent('.proposal[data-id="P1"] q')).to.equal('Meet Carol. Carol is our new nurse.');
      const serious = (await new AxeBuilder({ page }).analyze()).violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(serious.map((v) => v.id)).to.deep.equal([]);

      await page.click('text=Accept P2');
      await page.waitForFunction(() => document.getElementById('pending-status')!.textContent!.includes('accepted'));
      expect(await page.textContent('#pending-status')).to.equal('P2 accepted (MEM2 created)');
      await page.fill('.proposal[data-id="P1"] input', 'only visiting');
      // A proposal arriving while the reason is typed reloads the list; what was typed and the focus stay.
      await store.createProposal({
        kind: 'entity',
        entityType: 'person',
        name: 'Dora',
        evidence: 'Dora is our cook',
        utterance: 'Dora is our cook.',
      });
      await page.waitForSelector('.proposal[data-id="P3"]');
      expect(await page.inputValue('.proposal[data-id="P1"] input')).to.equal('only visiting');
      expect(await page.evaluate(() => document.activeElement?.closest('.proposal')?.getAttribute('data-id'))).to.equal(
        'P1',
      );
      await page.keyboard.type('!');
      expect(await page.inputValue('.proposal[data-id="P1"] input')).to.equal('only visiting!');
      await page.fill('.proposal[data-id="P1"] input', 'only visiting');
      await page.click('text=Reject P1');
      await page.waitForFunction(() => document.getElementById('pending-status')!.textContent!.includes('rejected'));
      await page.click('text=Reject P3');
      await page.waitForFunction(() => document.getElementById('pending-status')!.textContent!.startsWith('P3'));
      expect(await page.textContent('#pending-list')).to.equal('No proposals await a decision.');
      expect((await store.getMemory(1))!.status).to.equal('superseded');
      expect((await store.getProposal(1))!.reason).to.equal('only visiting');
      expect(await store.findEntities('Carol')).to.deep.equal([]);
    });

    it('shows an entity with its memories in the Entities tab', async () => {
      await page.click('#tab-entities');
      await page.fill('#entity-name', 'ADA');
      await page.click('#entity-find');
      await page.waitForSelector('.entity');
      expect(await page.textContent('.entity h2')).to.equal('ENT1 person Ada Lovelace');
      expect(await page.textContent('.entity .summary')).to.equal('Ada wrote the first program');
    });

    it('adds a place with its pose from the Entities tab, and refuses a bad pose creating nothing', async () => {
      await page.click('#tab-entities');
      await page.click('text=Add an entity, alias or memory');
      await page.fill('#add-place input[name="name"]', 'Kitchen');
      await page.fill('#add-place input[name="pose"]', '3.2,-1.0,90');
      await page.click('#add-place button');
      await page.waitForFunction(() => document.getElementById('entity-status')!.textContent!.includes('place added'));
      // The write's live update redraws the list with the place, and leaves the action's result on show.
      await page.waitForFunction(() => document.getElementById('entity-list')!.textContent!.includes('Kitchen'));
      expect(await page.textContent('#entity-status')).to.equal('ENT2 place added at (3.2, -1, 90°) in map (MEM2)');
      const store = rt.app.kernel.store(MEMORY_STORE);
      const memory = (await store.getMemory(2))!;
      expect(memory).to.deep.include({ predicate: 'pose', value: 'x=3.2 y=-1 yaw=90 frame=map' });
      expect(memory.source.kind).to.equal('console');
      await page.fill('#add-place input[name="name"]', 'Attic');
      await page.fill('#add-place input[name="pose"]', '1,2,720');
      await page.click('#add-place button');
      await page.waitForFunction(() => document.getElementById('entity-status')!.textContent!.includes('MIRA_ERR'));
      expect(await page.textContent('#entity-status')).to.contain('MIRA_ERR_MEMORY_POSE_INVALID');
      expect(await store.findEntities('Attic')).to.deep.equal([]);
    });

    it("shows an entity's snapshots as thumbnails that open full size, with when and where", async () => {
      await keepSnapshot();
      await page.click('#tab-entities');
      await page.fill('#entity-name', 'Ada');
      await page.click('#entity-find');
      await page.waitForSelector('.memory[data-id="MEM2"] .thumb-button img');
      // Loaded with the token into an object URL: the image's address is of this page, not the API's.
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.memory[data-id="MEM2"] img');
        return img !== null && img.complete && img.naturalWidth > 0;
      });
      const thumb = await page.$eval('.memory[data-id="MEM2"] img', (img) => ({
        src: (img as HTMLImageElement).src,
        width: (img as HTMLImageElement).naturalWidth,
        alt: (img as HTMLImageElement).alt,
      }));
      expect(thumb.src).to.match(/^blob:http:\/\/127\.0\.0\.1:\d+\//);
      expect(thumb.width).to.equal(96);
      expect(thumb.alt).to.equal('snapshot MEM2: Ada at the lab door');
      expect(await page.textContent('.memory[data-id="MEM2"] .meta')).to.contain('(1, 2, 90°) in map');
      expect(await page.$('.memory[data-id="MEM1"] .thumb-button')).to.equal(null);
      await page.click('.memory[data-id="MEM2"] .thumb-button');
      await page.waitForSelector('#snapshot-dialog[open]');
      expect(await page.textContent('#snapshot-title')).to.equal('MEM2: Ada at the lab door');
      expect(await page.textContent('#snapshot-about')).to.contain('camera_front at 2026-03-01T08:00:00.000Z');
      const full = await page.$eval('#snapshot-full', (img) => (img as HTMLImageElement).getBoundingClientRect().width);
      expect(full).to.be.greaterThan(thumb.width * 2);
      mkdirSync(join(REPO_ROOT, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(REPO_ROOT, 'test-output', 'mind-view-snapshot.png') });
      const serious = (await new AxeBuilder({ page }).analyze()).violations.filter(
        (v) => v.impact === 'serious' || v.impact === 'critical',
      );
      expect(serious.map((v) => v.id)).to.deep.equal([]);
      await page.keyboard.press('Escape');
      await page.waitForSelector('#snapshot-dialog', { state: 'hidden' });
      expect(await page.$eval('#snapshot-dialog', (d) => (d as HTMLDialogElement).open)).to.equal(false);
    });
  });
});
