import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { stringify } from 'smol-toml';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { EarlyAnswers, SDK_PROTOCOL_VERSIONS } from '@mira/plugin-mcp-server';
import { MIRA_BIN } from './helpers/run-mira.js';

type Message = Record<string, unknown>;

const line = (message: Message) => `${JSON.stringify(message)}\n`;
const request = (id: number, method: string, params?: Message) =>
  line({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
const INITIALIZED = line({ jsonrpc: '2.0', method: 'notifications/initialized' });
const PING = request(0, 'ping');

interface Session {
  /** Each answer's line as written, by id. */
  readonly answers: Map<unknown, string>;
  readonly code: number | null;
  readonly stderr: string;
}

/**
 * Runs `mira mcp` on `dir`, writes `input` at once, waits for an answer to each of `ids` (or the server's
 * exit), then closes stdin. With `throughSdk` a `ping` goes first: the early answers stop at a message they
 * do not answer, so the SDK's server answers everything, for comparison.
 */
function session(dir: string, input: string, ids: readonly unknown[], throughSdk: boolean): Promise<Session> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MIRA_BIN, 'mcp', '--profile', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    const answers = new Map<unknown, string>();
    let out = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      for (let at = out.indexOf('\n'); at !== -1; at = out.indexOf('\n')) {
        const text = out.slice(0, at);
        out = out.slice(at + 1);
        answers.set((JSON.parse(text) as Message).id, text);
      }
      if (ids.every((id) => answers.has(id))) child.stdin.end();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (throughSdk) answers.delete(0);
      resolve({ answers, code, stderr });
    });
    child.stdin.write(throughSdk ? PING + input : input);
  });
}

/** Handshakes, the first three answered early, the last left to the SDK. */
const handshakes: Array<[string, Message]> = [
  [
    "the SDK client's (the latest version, no capabilities)",
    { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'a', version: '1' } },
  ],
  [
    'an older version, roots and sampling, a title',
    {
      protocolVersion: '2025-06-18',
      capabilities: { roots: { listChanged: true }, sampling: {} },
      clientInfo: { name: 'a', version: '1', title: 'An agent' },
    },
  ],
  [
    'a version the SDK does not know (answered with its latest)',
    { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'a', version: '1' } },
  ],
  [
    'capabilities the early answers leave to the SDK',
    {
      protocolVersion: '2025-03-26',
      capabilities: { elicitation: {}, experimental: { x: {} } },
      clientInfo: { name: 'a', version: '1' },
    },
  ],
];

describe('mira mcp: the first answers, given before the MCP SDK has loaded', function () {
  this.timeout(120_000);
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-mcp-early-'));
    const memory = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
    await memory.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
    await memory.close();
    SqliteNotesStore.open(join(dir, 'notes.sqlite3')).close();
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
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [what, params] of handshakes) {
    it(`answers initialize and tools/list byte for byte as the SDK's server does: ${what}`, async () => {
      const input = request(1, 'initialize', params) + INITIALIZED + request(2, 'tools/list');
      const early = await session(dir, input, [1, 2], false);
      const sdk = await session(dir, input, [1, 2], true);
      expect(early.code, early.stderr).to.equal(0);
      expect(sdk.code, sdk.stderr).to.equal(0);
      expect([...early.answers.keys()]).to.deep.equal([1, 2]);
      expect(early.answers).to.deep.equal(sdk.answers);
      // The same tools as ever: the list the SDK's server gives.
      const tools = (JSON.parse(early.answers.get(2)!) as { result: { tools: Array<{ name: string }> } }).result.tools;
      expect(tools.map((t) => t.name)).to.have.members([
        'recall_memory',
        'search_memory',
        'get_recent_memories',
        'search_notes',
        'list_sensors',
        'get_snapshot',
      ]);
    });
  }

  it('does not answer a tools/list cancelled while the profile boots, as the SDK does not', async () => {
    const input =
      request(1, 'initialize', handshakes[0]![1]) +
      INITIALIZED +
      request(2, 'tools/list') +
      line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'gone' } }) +
      request(3, 'tools/list', {});
    const early = await session(dir, input, [1, 3], false);
    const sdk = await session(dir, input, [1, 3], true);
    expect([...early.answers.keys()]).to.deep.equal([1, 3]);
    expect(early.answers).to.deep.equal(sdk.answers);
  });

  it('leaves the rest to the SDK from the first message it does not answer, and the calls work', async () => {
    const input =
      request(1, 'initialize', handshakes[0]![1]) +
      INITIALIZED +
      request(2, 'tools/call', { name: 'recall_memory', arguments: { query: 'Ada Lovelace' } }) +
      request(3, 'tools/list') +
      request(4, 'resources/list');
    const early = await session(dir, input, [1, 2, 3, 4], false);
    const sdk = await session(dir, input, [1, 2, 3, 4], true);
    expect(early.answers).to.deep.equal(sdk.answers);
    expect(early.answers.get(2)).to.contain('Ada Lovelace');
    expect(JSON.parse(early.answers.get(4)!)).to.deep.equal({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32601, message: 'Method not found' },
    });
  });

  it('answers a tools/call without params, or with bad ones, with one short JSON-RPC error, and serves on', async () => {
    const input =
      request(1, 'initialize', handshakes[0]![1]) +
      INITIALIZED +
      request(2, 'tools/call') +
      request(3, 'tools/call', { name: 7 }) +
      request(4, 'tools/call', { name: 'recall_memory', arguments: 'Ada' }) +
      request(5, 'tools/call', { name: 'recall_memory', arguments: { query: 'Ada Lovelace' } });
    const { answers, code } = await session(dir, input, [1, 2, 3, 4, 5], false);
    expect(code).to.equal(0);
    const refusal = (id: number, wrong: string) => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32602, message: `tools/call needs params {"name", "arguments"}: ${wrong}` },
    });
    expect(JSON.parse(answers.get(2)!)).to.deep.equal(refusal(2, 'params is missing'));
    expect(JSON.parse(answers.get(3)!)).to.deep.equal(refusal(3, 'params.name is not a string'));
    expect(JSON.parse(answers.get(4)!)).to.deep.equal(refusal(4, 'params.arguments is not an object'));
    expect(answers.get(5)).to.contain('Ada Lovelace');
  });

  it('exits 1 with a line on stderr when a message is over 10 MiB', async () => {
    const child = spawn(process.execPath, [MIRA_BIN, 'mcp', '--profile', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The server stops reading: what it did not read fails to be written, as a pipe does.
    child.stdin.on('error', () => undefined);
    child.stdin.write(request(1, 'initialize', handshakes[0]![1]) + INITIALIZED);
    const huge = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"recall_memory","arguments":{"query":"${'x'.repeat(11 * 1024 * 1024)}"}}}\n`;
    child.stdin.write(huge);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(code, stderr).to.equal(1);
    expect(stderr.trim().split('\n')).to.deep.equal([
      'mira mcp: a message from the client was over 10 MiB (ReadBuffer exceeded maximum size of 10485760 bytes); the session is closed',
    ]);
  });

  it('refuses a bad plugin config before it answers tools/list, in the words mira check uses', async () => {
    const failing = mkdtempSync(join(tmpdir(), 'mira-mcp-early-config-'));
    try {
      const manifest = join(failing, 'profile.toml');
      writeFileSync(
        manifest,
        stringify({ profile: { name: 'Mira', plugins: ['@mira/plugin-sim'] }, sim: { battery_percent: 500 } }),
      );
      const input = request(1, 'initialize', handshakes[0]![1]) + INITIALIZED + request(2, 'tools/list');
      const early = await session(failing, input, [1, 2], false);
      const sdk = await session(failing, input, [1, 2], true);
      expect(early.code).to.equal(1);
      expect(early.answers).to.deep.equal(sdk.answers);
      const refusal = `MIRA_ERR_CONFIG_INVALID: ${manifest}: plugin @mira/plugin-sim: [sim] /sim/battery_percent: must be <= 100`;
      expect(JSON.parse(early.answers.get(2)!)).to.deep.equal({
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32603, message: refusal },
      });
      expect(early.stderr.split('\n')[0]).to.equal(`mira: ${refusal}`);
    } finally {
      rmSync(failing, { recursive: true, force: true });
    }
  });

  it("answers a boot's failure as the SDK's server does, then exits 1", async () => {
    const failing = mkdtempSync(join(tmpdir(), 'mira-mcp-early-failing-'));
    try {
      writeFileSync(
        join(failing, 'profile.toml'),
        stringify({
          profile: { name: 'Mira', plugins: ['@mira/plugin-memory', '@mira/plugin-memory-tools'] },
          memory: { enabled: true, database_path: 'data/memory.sqlite3' },
        }),
      );
      const input = request(1, 'initialize', handshakes[0]![1]) + INITIALIZED + request(2, 'tools/list');
      const early = await session(failing, input, [1, 2], false);
      const sdk = await session(failing, input, [1, 2], true);
      expect(early.code).to.equal(1);
      expect(sdk.code).to.equal(1);
      expect(early.answers).to.deep.equal(sdk.answers);
      expect(JSON.parse(early.answers.get(2)!)).to.deep.include({ id: 2 });
      expect(early.answers.get(2)).to.match(/"code":-32603,"message":"MIRA_ERR_[A-Z_]+: .*holds no Mira memory/);
      expect(early.stderr).to.match(/^mira: .*holds no Mira memory database yet/m);
    } finally {
      rmSync(failing, { recursive: true, force: true });
    }
  });
});

describe('EarlyAnswers', () => {
  const setUp = (toolList: Promise<object>) => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let written = '';
    stdout.on('data', (d: Buffer) => (written += d.toString()));
    const early = new EarlyAnswers({ stdin, stdout, version: '9.9.9', toolList });
    return { stdin, early, written: () => written };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const HANDSHAKE = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'a', version: '1' } };

  it('answers the usual handshakes itself and leaves the rest to the SDK', async () => {
    for (const [what, params] of handshakes) {
      const { stdin, early, written } = setUp(new Promise(() => {}));
      stdin.write(request(1, 'initialize', params));
      await tick();
      const answered = what !== handshakes[3]![0];
      expect(early.needsServer, what).to.equal(!answered);
      expect(written().split('\n').filter(Boolean), what).to.have.length(answered ? 1 : 0);
    }
  });

  it("knows the SDK's protocol versions, its latest first", () => {
    expect(SDK_PROTOCOL_VERSIONS).to.deep.equal(SUPPORTED_PROTOCOL_VERSIONS);
    expect(SDK_PROTOCOL_VERSIONS[0]).to.equal(LATEST_PROTOCOL_VERSION);
  });

  it('reads lines as the SDK does (split across chunks, \\r\\n) and answers tools/list once the list is there', async () => {
    let list!: (value: object) => void;
    const { stdin, early, written } = setUp(new Promise((resolve) => (list = resolve)));
    const text = request(7, 'initialize', HANDSHAKE).replace('\n', '\r\n') + request(8, 'tools/list');
    stdin.write(text.slice(0, 10));
    stdin.write(text.slice(10));
    await tick();
    expect(written()).to.equal(
      line({
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'mira', version: '9.9.9' },
        },
        jsonrpc: '2.0',
        id: 7,
      }),
    );
    list({ tools: [] });
    await early.toolListAnswered;
    expect(written().split('\n')[1]).to.equal(JSON.stringify({ result: { tools: [] }, jsonrpc: '2.0', id: 8 }));
    expect(early.needsServer).to.equal(false);
  });

  it('stops at the first message it does not answer and hands it over with all that follows', async () => {
    const { stdin, early, written } = setUp(new Promise(() => {}));
    const rest = request(2, 'tools/list', { cursor: 'x' }) + request(3, 'tools/list');
    stdin.write(INITIALIZED + rest.slice(0, 5));
    await tick();
    expect(early.needsServer).to.equal(false);
    stdin.write(rest.slice(5));
    await early.serverNeeded;
    const handed = early.handOver();
    let got = '';
    handed.on('data', (d: Buffer) => (got += d.toString()));
    stdin.end(request(4, 'ping'));
    await new Promise((resolve) => handed.on('end', resolve));
    expect(got).to.equal(rest + request(4, 'ping'));
    expect(written()).to.equal('');
  });

  it('leaves to the SDK what its schema might judge otherwise: a second handshake, _meta, a fractional id, a stray cancel', async () => {
    const initialize = request(1, 'initialize', HANDSHAKE);
    for (const input of [
      initialize + initialize,
      request(2, 'tools/list', { _meta: { progressToken: 1 } }),
      request(2, 'tools/list', { cursor: 'x' }),
      line({ jsonrpc: '2.0', id: 2.5, method: 'tools/list' }),
      line({ jsonrpc: '2.0', id: 2, method: 'tools/list', extra: true }),
      line({ jsonrpc: '1.0', id: 2, method: 'tools/list' }),
      line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }),
      request(1, 'initialize', { ...HANDSHAKE, clientInfo: { name: 'a' } }),
      request(1, 'initialize', { ...HANDSHAKE, capabilities: { roots: { listChanged: 'yes' } } }),
      request(1, 'initialize', { ...HANDSHAKE, _meta: {} }),
      'not json\n',
      '\n',
    ]) {
      const { stdin, early, written } = setUp(new Promise(() => {}));
      stdin.write(input);
      await tick();
      expect(early.needsServer, input).to.equal(true);
      // Only the first handshake of the first case is answered here.
      expect(written().split('\n').filter(Boolean), input).to.have.length(input === initialize + initialize ? 1 : 0);
    }
  });
});
