import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stringify } from 'smol-toml';
import { definePlugin, type MiraError } from '@mira/core';
import { createTestRuntime } from '@mira/core/testing';
import memoryPlugin, { SqliteMemoryStore } from '@mira/plugin-memory';
import memoryToolsPlugin from '@mira/plugin-memory-tools';
import notesPlugin, { SqliteNotesStore } from '@mira/plugin-notes';
import simPlugin from '@mira/plugin-sim';
import { fromMcpArguments, mcpInputSchema } from '@mira/plugin-mcp-server';
import { MIRA_BIN, runMira } from './helpers/run-mira.js';
import { objectFile } from './conformance/memory-store-contract.js';

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('mira mcp: the memory of a profile for other agents (the SDK client spawns the real CLI)', function () {
  this.timeout(30_000);
  let dir: string;
  let client: Client;
  let stderr = '';
  // The console: it has both stores open, and mira mcp reads beside it.
  let memory: SqliteMemoryStore;
  let notes: SqliteNotesStore;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-mcp-'));
    memory = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
    const ada = await memory.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
    await memory.addAlias(ada.id, 'Ada');
    await memory.createMemory({
      kind: 'preference',
      summary: 'Ada prefers green tea',
      predicate: 'prefers',
      value: 'green tea',
      sourceKind: 'console',
      links: [{ entityId: ada.id, role: 'subject' }],
    });
    notes = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
    await notes.save('default', 'The charger is behind the lab door', 'place', null);
    await notes.save('default', 'The dock code is 4711', 'secret', 'k-9');
    await notes.save('lab', 'The spare battery is in drawer 3', 'place', null);
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: {
          name: 'Mira',
          plugins: ['@mira/plugin-sim', '@mira/plugin-memory', '@mira/plugin-memory-tools', '@mira/plugin-notes'],
        },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
        notes: { enabled: true, database_path: 'notes.sqlite3' },
      }),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MIRA_BIN, 'mcp', '--profile', dir],
      stderr: 'pipe',
    });
    stderr = '';
    transport.stderr?.on('data', (d) => (stderr += d));
    client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(transport);
  });
  afterEach(async () => {
    await client?.close();
    await memory.close();
    notes.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result.content as Array<{ type: string; text: string }>)[0]!.text;

  it('lists only read-only tools: nothing that writes is offered', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.have.members([
      'recall_memory',
      'search_memory',
      'get_recent_memories',
      'search_notes',
      'list_sensors',
      'get_snapshot',
    ]);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).to.equal(true);
    // Described for another agent: no episode budget, which only the robot's model has.
    for (const tool of tools) {
      expect(tool.description, tool.name).not.to.match(/acquisition attempt|this episode|your notes/i);
    }
    expect(tools.find((t) => t.name === 'recall_memory')!.description).to.match(
      /^Look up what the robot's long-term memory holds about one entity/,
    );
    const write = await client
      .callTool({ name: 'remember', arguments: {} })
      .then(() => undefined)
      .catch((e: Error) => e);
    expect(write?.message).to.contain('no tool remember here; this server is read-only');
  });

  it("offers MCP's form: optional parameters optional and non-null, each tool callable with only what it requires", async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_memory')!;
    expect(search.inputSchema.required).to.deep.equal(['query']);
    const props = search.inputSchema.properties as Record<string, { type: unknown }>;
    expect(props.label!.type).to.equal('string');
    expect(props.private_key!.type).to.equal('string');
    for (const tool of tools) {
      const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const args: Record<string, unknown> = {};
      for (const name of tool.inputSchema.required ?? []) {
        const p = properties[name]!;
        expect(JSON.stringify(p.type ?? p.anyOf), `${tool.name}.${name}`).not.to.contain('null');
        args[name] = Array.isArray(p.enum)
          ? p.enum[0]
          : name === 'memory_id'
            ? 'MEM1'
            : p.type === 'string'
              ? name === 'scope'
                ? 'default'
                : 'Ada'
              : typeof p.minimum === 'number'
                ? p.minimum
                : 1;
      }
      const result = await client.callTool({ name: tool.name, arguments: args });
      expect(result.isError ?? false, `${tool.name} ${JSON.stringify(args)}: ${text(result)}`).to.equal(false);
    }
    // Leaving an optional parameter out is the same call as passing null, which stays accepted.
    const bare = text(await client.callTool({ name: 'search_memory', arguments: { query: 'charger' } }));
    const nulls = text(
      await client.callTool({ name: 'search_memory', arguments: { query: 'charger', label: null, private_key: null } }),
    );
    expect(bare).to.equal(nulls);
    expect(bare).to.contain('The charger is behind the lab door');
  });

  it('returns a snapshot as MCP image content, verified, and refuses what it cannot return', async () => {
    // The console keeps a snapshot while mira mcp reads beside it.
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(3000, 5)]);
    const snapshot = await memory.createMemory({
      kind: 'observation',
      summary: 'the lab door this morning',
      links: [{ entityId: 1, role: 'subject' }],
      sourceKind: 'sensor_observation',
      sourceLabel: 'camera_front at 2026-03-01T08:00:00.000Z',
      object: { bytes: png, mediaType: 'image/png' },
    });
    const result = await client.callTool({ name: 'get_snapshot', arguments: { memory_id: snapshot.ref } });
    const [about, image] = result.content as Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
    expect(JSON.parse(about!.text!)).to.deep.include({
      status: 'ok',
      memory_id: snapshot.ref,
      summary: 'the lab door this morning',
      media_type: 'image/png',
      byte_size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
    });
    expect(JSON.parse(about!.text!).of).to.deep.equal([{ entity_id: 'ENT1', name: 'Ada Lovelace', role: 'subject' }]);
    expect(image).to.deep.equal({ type: 'image', mimeType: 'image/png', data: png.toString('base64') });
    const refusal = async (args: Record<string, unknown>) =>
      JSON.parse(text(await client.callTool({ name: 'get_snapshot', arguments: args })));
    expect(await refusal({ memory_id: 'MEM1' })).to.deep.include({ status: 'rejected', reason: 'no_image' });
    expect(await refusal({ memory_id: 'MEM99' })).to.deep.include({ status: 'rejected', reason: 'memory_not_found' });
    // Over the bound: refused, not streamed.
    const large = await memory.createMemory({
      kind: 'observation',
      summary: 'a large frame',
      sourceKind: 'sensor_observation',
      object: { bytes: Buffer.concat([png, Buffer.alloc(1024 * 1024, 1)]), mediaType: 'image/png' },
    });
    expect(await refusal({ memory_id: large.ref })).to.deep.include({ status: 'rejected', reason: 'image_too_large' });
    // A damaged object is never returned.
    const file = objectFile(dir, snapshot.payloads[1]!.sha256!);
    writeFileSync(file, Buffer.concat([png.subarray(0, 10), Buffer.from('?'), png.subarray(11)]));
    const damaged = await refusal({ memory_id: snapshot.ref });
    expect(damaged).to.deep.include({ status: 'rejected', reason: 'image_unreadable' });
    expect(damaged.error).to.contain('MIRA_ERR_MEMORY_OBJECT_CORRUPT');
    const bad = await client
      .callTool({ name: 'get_snapshot', arguments: { memory_id: 'the shelf' } })
      .then(() => undefined)
      .catch((e: Error) => e);
    expect(bad?.message).to.contain('invalid arguments for get_snapshot');
  });

  it('answers recall_memory with exactly the text the tool gives inside Mira', async () => {
    const viaMcp = text(await client.callTool({ name: 'recall_memory', arguments: { query: 'ADA' } }));
    const rt = await createTestRuntime({
      plugins: [memoryPlugin, memoryToolsPlugin],
      tables: { memory: { enabled: true, database_path: join(dir, 'memory.sqlite3') } },
    });
    try {
      const inside = await rt.callTool('recall_memory', { query: 'ADA' });
      expect(viaMcp).to.equal(inside.content);
      expect(viaMcp).to.contain('Ada prefers green tea');
    } finally {
      await rt.dispose();
    }
  });

  it('searches notes with the key rule of the tool, and refuses bad arguments with an MCP error', async () => {
    const found = JSON.parse(
      text(
        await client.callTool({
          name: 'search_memory',
          arguments: { query: 'charger', label: null, private_key: null },
        }),
      ),
    );
    expect(found.notes.map((n: { content: string }) => n.content)).to.deep.equal([
      'The charger is behind the lab door',
    ]);
    const hidden = JSON.parse(
      text(
        await client.callTool({
          name: 'search_memory',
          arguments: { query: 'dock code', label: null, private_key: null },
        }),
      ),
    );
    expect(hidden.status).to.equal('none');
    const bad = await client
      .callTool({ name: 'recall_memory', arguments: { query: 7 } })
      .then(() => undefined)
      .catch((e: Error) => e);
    expect(bad?.message).to.match(/invalid arguments for recall_memory: \/query must be string/);
    expect(stderr).not.to.contain('{"jsonrpc"');
  });

  it('opens the files read-only: they stay byte for byte the same, and the console writes meanwhile', async () => {
    const digest = (name: string) =>
      createHash('sha256')
        .update(readFileSync(join(dir, name)))
        .digest('hex');
    const before = { memory: digest('memory.sqlite3'), notes: digest('notes.sqlite3') };
    await client.callTool({ name: 'recall_memory', arguments: { query: 'Ada' } });
    await client.callTool({
      name: 'search_notes',
      arguments: { query: 'charger', scope: 'default', label: null, private_key: null },
    });
    expect({ memory: digest('memory.sqlite3'), notes: digest('notes.sqlite3') }).to.deep.equal(before);
    // A console (another process, here another connection) writes while the server holds the file open.
    const writer = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'), { busyTimeoutMs: 100 });
    const grace = await writer.createEntity({ entityType: 'person', canonicalName: 'Grace Hopper' });
    await writer.close();
    expect(text(await client.callTool({ name: 'recall_memory', arguments: { query: 'Grace Hopper' } }))).to.contain(
      grace.ref,
    );
  });

  it('searches any scope with search_notes, and lists the sensors (no readings: the robot is not connected)', async () => {
    const lab = JSON.parse(
      text(
        await client.callTool({
          name: 'search_notes',
          arguments: { query: 'battery', scope: 'lab', label: null, private_key: null },
        }),
      ),
    );
    expect(lab.notes.map((n: { content: string }) => n.content)).to.deep.equal(['The spare battery is in drawer 3']);
    const keyed = JSON.parse(
      text(
        await client.callTool({
          name: 'search_notes',
          arguments: { query: 'dock code', scope: 'default', label: null, private_key: 'k-9' },
        }),
      ),
    );
    expect(keyed.notes.map((n: { content: string }) => n.content)).to.deep.equal(['The dock code is 4711']);
    const sensors = JSON.parse(text(await client.callTool({ name: 'list_sensors', arguments: {} })));
    expect(sensors.sensors.map((s: { sensor_id: string }) => s.sensor_id)).to.include('battery');
    expect(sensors.sensors.every((s: { latest: unknown }) => s.latest === null)).to.equal(true);
  });
  it("bounds key guessing over MCP: 200 guesses, locked after 5, and the console's wrong keys count too", async () => {
    const search = async (key: string, scope = 'default') =>
      JSON.parse(
        text(
          await client.callTool({
            name: 'search_notes',
            arguments: { query: 'dock code', scope, label: null, private_key: key },
          }),
        ),
      ) as { status: string; reason?: string };
    const answers: string[] = [];
    for (let i = 0; i < 200; i++) answers.push((await search(String(i).padStart(4, '0'))).status);
    expect(answers.slice(0, 5)).to.deep.equal(Array(5).fill('none'));
    expect(new Set(answers.slice(5))).to.deep.equal(new Set(['rejected']));
    expect(await search('k-9')).to.deep.include({ status: 'rejected', reason: 'budget_exhausted' });
    // mira mcp writes nothing: its misses are its own. MCP clients' misses another process recorded in the file
    // count here (a restart of mira mcp is no fresh budget).
    expect(notes.keyLockout('default')).to.equal(undefined);
    for (let i = 0; i < 5; i++) notes.recordKeyMiss('lab', 'mcp');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await search('whatever', 'lab')).to.deep.include({ status: 'rejected', reason: 'budget_exhausted' });
  });
});

describe('mira mcp with no console running', function () {
  this.timeout(60_000);
  const fact = async (store: SqliteMemoryStore, name: string, summary: string) => {
    const entity = await store.createEntity({ entityType: 'person', canonicalName: name });
    await store.createMemory({
      kind: 'preference',
      summary,
      predicate: 'prefers',
      value: summary.split(' prefers ')[1]!,
      sourceKind: 'console',
      links: [{ entityId: entity.id, role: 'subject' }],
    });
  };
  it('serves the stores from the files as they are, changing nothing on disk, and follows the console once it starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-mcp-alone-'));
    let client: Client | undefined;
    let console: SqliteMemoryStore | undefined;
    try {
      const memory = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
      await fact(memory, 'Ada Lovelace', 'Ada prefers green tea');
      await memory.close();
      const notes = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
      await notes.save('default', 'The charger is behind the lab door', 'place', null);
      notes.close();
      writeFileSync(
        join(dir, 'profile.toml'),
        stringify({
          profile: {
            name: 'Mira',
            plugins: ['@mira/plugin-memory', '@mira/plugin-memory-tools', '@mira/plugin-notes'],
          },
          memory: { enabled: true, database_path: 'memory.sqlite3' },
          notes: { enabled: true, database_path: 'notes.sqlite3' },
        }),
      );
      const listing = () =>
        readdirSync(dir)
          .map((f) => `${f} ${(statSync(join(dir, f)).mode & 0o7777).toString(8)} ${sha256(join(dir, f))}`)
          .sort();
      const before = listing();
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MIRA_BIN, 'mcp', '--profile', dir],
        stderr: 'pipe',
      });
      client = new Client({ name: 'test-agent', version: '1.0.0' });
      await client.connect(transport);
      const recall = async (query: string) =>
        (
          (await client!.callTool({ name: 'recall_memory', arguments: { query } })).content as Array<{
            text: string;
          }>
        )[0]!.text;
      const search = async (query: string) =>
        (
          (await client!.callTool({ name: 'search_memory', arguments: { query } })).content as Array<{
            text: string;
          }>
        )[0]!.text;
      expect(await recall('Ada Lovelace')).to.contain('Ada prefers green tea');
      expect(await search('charger')).to.contain('behind the lab door');
      // Nothing was created, changed or re-moded beside the stores.
      expect(listing()).to.deep.equal(before);
      // The console starts and writes: mira mcp reads what it committed.
      console = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
      await fact(console, 'Grace Hopper', 'Grace prefers black coffee');
      expect(await recall('Grace Hopper')).to.contain('Grace prefers black coffee');
      await fact(console, 'Katherine Johnson', 'Katherine prefers mint tea');
      expect(await recall('Katherine Johnson')).to.contain('Katherine prefers mint tea');
    } finally {
      await client?.close();
      await console?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A store over 2 GiB without writing 2 GiB: the file is extended with a hole after its last page (SQLite
  // reads the size its header records; the file system reads the hole as zeros and stores nothing).
  const storeOver2GiB = async (dir: string) => {
    const path = join(dir, 'memory.sqlite3');
    const memory = SqliteMemoryStore.open(path);
    await fact(memory, 'Ada Lovelace', 'Ada prefers green tea');
    await memory.close();
    truncateSync(path, 2.25 * 2 ** 30);
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-memory', '@mira/plugin-memory-tools'] },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
      }),
    );
    return path;
  };
  const serve = async (dir: string, env: Record<string, string> = {}) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MIRA_BIN, 'mcp', '--profile', dir],
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    try {
      await client.connect(transport);
      const result = await client.callTool({ name: 'recall_memory', arguments: { query: 'Ada Lovelace' } });
      const pid = transport.pid!;
      const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      return { text: (result.content as Array<{ text: string }>)[0]!.text, rssKiB, stderr };
    } finally {
      await client.close();
    }
  };

  it('serves a store over 2 GiB in place, with its memory flat and nothing on disk changed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-mcp-alone-'));
    try {
      const path = await storeOver2GiB(dir);
      const before = readdirSync(dir).sort();
      const { size, mtimeMs } = statSync(path);
      const { text, rssKiB } = await serve(dir);
      expect(text).to.contain('Ada prefers green tea');
      // Read in place: a process that read the file into memory would hold more than 2 GiB.
      expect(rssKiB).to.be.below(512 * 1024);
      expect(readdirSync(dir).sort()).to.deep.equal(before);
      expect(statSync(path)).to.include({ size, mtimeMs });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a store as an image where the environment turns SQLite URI names off, and says why a big one cannot be', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-mcp-alone-'));
    try {
      const path = join(dir, 'memory.sqlite3');
      const memory = SqliteMemoryStore.open(path);
      await fact(memory, 'Ada Lovelace', 'Ada prefers green tea');
      await memory.close();
      writeFileSync(
        join(dir, 'profile.toml'),
        stringify({
          profile: { name: 'Mira', plugins: ['@mira/plugin-memory', '@mira/plugin-memory-tools'] },
          memory: { enabled: true, database_path: 'memory.sqlite3' },
        }),
      );
      const before = readdirSync(dir).sort();
      expect((await serve(dir, { SQLITE_USE_URI: '0' })).text).to.contain('Ada prefers green tea');
      expect(readdirSync(dir).sort()).to.deep.equal(before);
      truncateSync(path, 2.25 * 2 ** 30);
      const mcp = await runMira(['mcp', '--profile', dir], '', { timeoutMs: 20_000, env: { SQLITE_USE_URI: '0' } });
      expect(mcp.code).to.equal(1);
      expect(mcp.stderr).to.contain('MIRA_ERR_STORE_OPEN_FAILED').and.to.contain('SQLITE_USE_URI');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a store whose console stopped without applying its log, changing nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-mcp-alone-'));
    try {
      const path = join(dir, 'memory.sqlite3');
      SqliteMemoryStore.open(path).close();
      // The console killed with a commit in its log.
      const run = spawnSync(process.execPath, [
        '-e',
        `const D = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))}); const db = new D(${JSON.stringify(path)}); db.pragma('wal_autocheckpoint = 0'); db.exec('CREATE TABLE probe (x)'); process.kill(process.pid, 'SIGKILL');`,
      ]);
      expect(run.signal).to.equal('SIGKILL');
      rmSync(`${path}-shm`);
      writeFileSync(
        join(dir, 'profile.toml'),
        stringify({
          profile: { name: 'Mira', plugins: ['@mira/plugin-memory'] },
          memory: { enabled: true, database_path: 'memory.sqlite3' },
        }),
      );
      const listing = () =>
        readdirSync(dir)
          .map((f) => `${f} ${sha256(join(dir, f))}`)
          .sort();
      const before = listing();
      const mcp = await runMira(['mcp', '--profile', dir], '', { timeoutMs: 20_000 });
      expect(mcp.code).to.not.equal(0);
      expect(mcp.stdout).to.equal('');
      expect(mcp.stderr).to.contain('MIRA_ERR_STORE_OPEN_FAILED').and.to.contain('start the profile');
      expect(listing()).to.deep.equal(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('tools for other agents', () => {
  it('are never offered to the model, and must be read-only', async () => {
    const rt = await createTestRuntime({
      plugins: [simPlugin, notesPlugin, memoryPlugin, memoryToolsPlugin],
      tables: {
        sim: { tick_ms: 0 },
        notes: { enabled: true, database_path: 'notes.sqlite3' },
        memory: { enabled: true, database_path: 'memory.sqlite3' },
      },
    });
    try {
      expect(rt.app.kernel.tools.get('search_notes')).to.equal(undefined);
      expect(rt.app.kernel.tools.get('list_sensors')).to.equal(undefined);
      // The robot's model never receives an image.
      expect(rt.app.kernel.tools.get('get_snapshot')).to.equal(undefined);
      expect(rt.app.kernel.agentTools.values().map((t) => t.tool.name)).to.have.members([
        'search_notes',
        'list_sensors',
        'get_snapshot',
      ]);
    } finally {
      await rt.dispose();
    }
    const writer = definePlugin({
      name: 'writer',
      version: '1.0.0',
      setup(kernel) {
        kernel.tools.registerForAgents({
          name: 'write_something',
          description: 'writes',
          kind: 'effect',
          origins: ['operator'],
          parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
          run: async () => ({ content: '{}', display: 'x' }),
        });
      },
    });
    let error: MiraError | undefined;
    try {
      await createTestRuntime({ plugins: [writer] });
    } catch (e) {
      error = e as MiraError;
    }
    expect(error?.message).to.contain('a tool for other agents must be an acquisition (read-only) tool');
  });
});

describe('mira mcp on a profile whose memory does not exist yet', () => {
  /** A profile with memory whose database file is not there yet. */
  const writeNewMemoryProfile = (dir: string) =>
    writeFileSync(
      join(dir, 'profile.toml'),
      stringify({
        profile: { name: 'Mira', plugins: ['@mira/plugin-memory', '@mira/plugin-memory-tools'] },
        memory: { enabled: true, database_path: 'data/memory.sqlite3' },
      }),
    );

  it('fails with the reason on stderr, exit status 1, and creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-mcp-new-'));
    try {
      writeNewMemoryProfile(dir);
      const run = await runMira(['mcp', '--profile', dir], '', { timeoutMs: 20_000 });
      expect(run.code).to.equal(1);
      expect(run.stdout).to.equal('');
      expect(run.stderr).to.match(/holds no Mira memory database yet; open the profile's console once/);
      expect(readdirSync(dir)).to.deep.equal(['profile.toml']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('answers the handshake while it boots; a request for tools gets the boot error, then it exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-mcp-early-'));
    try {
      writeNewMemoryProfile(dir);
      const child = spawn(process.execPath, [MIRA_BIN, 'mcp', '--profile', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const request = (id: number, method: string, params: object) =>
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      request(1, 'initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'test', version: '1' },
      });
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      request(2, 'tools/list', {});
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      const replies = stdout
        .trim()
        .split('\n')
        .map(
          (line) => JSON.parse(line) as { id: number; result?: { serverInfo?: unknown }; error?: { message: string } },
        );
      expect(replies.map((r) => r.id)).to.deep.equal([1, 2]);
      expect(replies[0]!.result?.serverInfo).to.deep.include({ name: 'mira' });
      expect(replies[1]!.error?.message).to.match(/holds no Mira memory database yet; open the profile's console once/);
      expect(code).to.equal(1);
      expect(stderr).to.match(/^mira: .*holds no Mira memory database yet/m);
      expect(readdirSync(dir)).to.deep.equal(['profile.toml']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("MCP's form of a strict tool schema", () => {
  it('makes every nullable property optional and non-null, whichever way it says null, and fills them back', () => {
    const strict = {
      type: 'object',
      properties: {
        query: { type: 'string' },
        label: { type: ['string', 'null'] },
        limit: { type: ['integer', 'number', 'null'] },
        scope: { anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }], description: 'a scope' },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }, { type: 'null' }] },
      },
      required: ['query', 'label', 'limit', 'scope', 'either'],
      additionalProperties: false,
    };
    expect(mcpInputSchema(strict)).to.deep.equal({
      type: 'object',
      properties: {
        query: { type: 'string' },
        label: { type: 'string' },
        limit: { type: ['integer', 'number'] },
        scope: { type: 'string', minLength: 1, description: 'a scope' },
        either: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
      required: ['query'],
      additionalProperties: false,
    });
    expect(fromMcpArguments(strict, { query: 'x', limit: 3 })).to.deep.equal({
      query: 'x',
      limit: 3,
      label: null,
      scope: null,
      either: null,
    });
    // A required property stays required and is never filled in.
    expect(fromMcpArguments(strict, {})).not.to.have.property('query');
  });
});
