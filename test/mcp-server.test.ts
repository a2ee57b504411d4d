import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stringify } from 'smol-toml';
import { createTestRuntime } from '@mira/core/testing';
import memoryPlugin, { SqliteMemoryStore } from '@mira/plugin-memory';
import memoryToolsPlugin from '@mira/plugin-memory-tools';
import { NotesStore } from '@mira/plugin-notes';
import { MIRA_BIN } from './helpers/run-mira.js';

describe('mira mcp: the memory of a profile for other agents (the SDK client spawns the real CLI)', function () {
  this.timeout(30_000);
  let dir: string;
  let client: Client;
  let stderr = '';

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-mcp-'));
    const memory = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
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
    await memory.close();
    const notes = NotesStore.open(join(dir, 'notes.sqlite3'));
    await notes.save('default', 'The charger is behind the lab door', 'place', null);
    await notes.save('default', 'The dock code is 4711', 'secret', 'k-9');
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
    rmSync(dir, { recursive: true, force: true });
  });

  const text = (result: Awaited<ReturnType<Client['callTool']>>) =>
    (result.content as Array<{ type: string; text: string }>)[0]!.text;

  it('lists only read-only tools: nothing that writes is offered', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.have.members(['recall_memory', 'search_memory', 'get_recent_memories']);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).to.equal(true);
    const write = await client
      .callTool({ name: 'remember', arguments: {} })
      .then(() => undefined)
      .catch((e: Error) => e);
    expect(write?.message).to.contain('no tool remember here; this server is read-only');
  });

  it('answers recall_memory with exactly the text the tool gives inside Mira', async () => {
    const viaMcp = text(await client.callTool({ name: 'recall_memory', arguments: { query: 'ADA' } }));
    const rt = await createTestRuntime({
      plugins: [memoryPlugin, memoryToolsPlugin],
      tables: { memory: { enabled: true, database_path: join(dir, 'memory.sqlite3') } },
    });
    try {
      const inside = await rt.app.kernel.tools
        .get('recall_memory')!
        .tool.run({ query: 'ADA' }, { episode: { id: 1, origin: 'operator', startedAt: new Date() } });
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
});
