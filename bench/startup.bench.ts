// Start-up: how long `mira --version` and `mira --help` take beside a bare `node` process, and how long
// `mira mcp` takes to answer `initialize` beside the official MCP memory server
// (@modelcontextprotocol/server-memory) on the same machine. Each round runs every variant once, the order
// rotating, so machine noise falls on all alike.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, timeInterleaved, type InterleavedLatency } from './lib/stats.js';

export interface StartupBenchOptions {
  /** Timed rounds of every variant. */
  readonly rounds: number;
  readonly log: (m: string) => void;
}

const MIRA = fileURLToPath(new URL('../core/bin/mira.js', import.meta.url));
const OFFICIAL = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
})}\n`;

/** Runs a command to its end. */
function run(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${args.join(' ')} exited ${code}`))));
  });
}

const LIST_TOOLS = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'tools/list',
  params: {},
})}\n`;

/**
 * Starts an MCP server on stdio, sends `initialize` (and, with `listTools`, then `tools/list`), resolves at
 * the answer to the last and stops the server.
 */
function initialize(args: readonly string[], env: NodeJS.ProcessEnv = {}, listTools = false): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (listTools ? out.includes('"id":2') : out.includes('"result"')) {
        clearTimeout(timer);
        child.stdin.end();
        child.kill();
        resolve();
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      if (!out.includes('"result"'))
        reject(new Error(`${args.join(' ')} answered no initialize: ${err.slice(0, 500)}`));
    });
    child.stdin.write(listTools ? INITIALIZE + LIST_TOOLS : INITIALIZE);
  });
}

export async function startupBench(options: StartupBenchOptions): Promise<void> {
  const { log } = options;
  const dir = mkdtempSync(join(tmpdir(), 'mira-bench-startup-'));
  // The simulated robot's profile with its stores in the temporary directory: `mira mcp` serves a profile
  // whose console runs, so one runs headless beside it for the whole benchmark.
  const profile = join(dir, 'profile.toml');
  writeFileSync(
    profile,
    `[profile]
name = "Bench"
plugins = ["@mira/plugin-sim", "@mira/plugin-attention", "@mira/plugin-memory", "@mira/plugin-memory-tools", "@mira/plugin-notes", "@mira/plugin-mind-view", "@mira/plugin-openai"]
[memory]
enabled = true
database_path = "memory.sqlite3"
[notes]
enabled = true
database_path = "notes.sqlite3"
[mind_view]
enabled = false
[openai]
model = "bench"
base_url = "http://127.0.0.1:9/v1"
`,
  );
  const consoleProcess = spawn(process.execPath, [MIRA, 'run', '--profile', profile], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let err = '';
      consoleProcess.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('running headless')) resolve();
      });
      consoleProcess.on('close', (code) => reject(new Error(`mira run exited ${code}: ${err.slice(0, 500)}`)));
    });
    const warmup = 1;
    const rounds = Array.from({ length: options.rounds + warmup }, (_, i) => i);
    log(`startup: ${options.rounds} rounds of node, mira --version, mira --help…`);
    const cli = await timeInterleaved(
      rounds,
      {
        'node -e 0': () => run(['-e', '0']),
        'mira --version': () => run([MIRA, '--version']),
        'mira --help': () => run([MIRA, '--help']),
      },
      warmup,
    );
    log(`startup: ${options.rounds} rounds of mira mcp and the official MCP memory server answering initialize…`);
    const loadBefore = loadAverage();
    const mcp = await timeInterleaved(
      rounds,
      {
        'mira mcp': () => initialize([MIRA, 'mcp', '--profile', profile]),
        'official MCP memory server': () =>
          initialize([OFFICIAL], { MEMORY_FILE_PATH: join(dir, 'official-memory.jsonl') }),
        'mira mcp, tools/list': () => initialize([MIRA, 'mcp', '--profile', profile], {}, true),
        'official, tools/list': () =>
          initialize([OFFICIAL], { MEMORY_FILE_PATH: join(dir, 'official-memory.jsonl') }, true),
      },
      warmup,
    );
    const loadAfter = loadAverage();
    const row = (what: string, m: InterleavedLatency, base: InterleavedLatency, baseName: string) => ({
      command: what,
      'p50 ms': fmt(m.p50 / 1000),
      'p99 ms': fmt(m.p99 / 1000),
      baseline: baseName,
      'baseline p50 ms': fmt(base.p50 / 1000),
      'baseline p99 ms': fmt(base.p99 / 1000),
      'p50 ratio': fmt(m.p50 / base.p50, 2),
      'p99 ratio': fmt(m.p99 / base.p99, 2),
    });
    const rows = [
      row('mira --version', cli['mira --version'], cli['node -e 0'], 'node -e 0'),
      row('mira --help', cli['mira --help'], cli['node -e 0'], 'node -e 0'),
      row(
        'mira mcp → initialize answered',
        mcp['mira mcp'],
        mcp['official MCP memory server'],
        'official MCP memory server',
      ),
      row(
        'mira mcp → tools/list answered',
        mcp['mira mcp, tools/list'],
        mcp['official, tools/list'],
        'official MCP memory server',
      ),
    ];
    const md = `# Start-up benchmark

Wall time from spawning the process to its end (\`--version\`, \`--help\`) or to its answer to MCP
\`initialize\` (\`mira mcp\` on the simulated robot's profile, with its console running headless beside it;
the official \`@modelcontextprotocol/server-memory\` on a JSONL file), ${options.rounds} rounds, the variants
run in turn, the order rotating. Both servers get the same client, a minimal JSON-RPC client on stdio that
sends its requests at once. \`mira --version\` and \`--help\` load none of the runtime; \`mira mcp\` answers
the handshake at once while the profile boots, and its first \`tools/list\` as soon as the profile has
booted, both before the MCP SDK has loaded; the \`tools/list\` row is the time to the first answer that
needs the profile (\`initialize\`, then \`tools/list\`).
Load average (1 / 5 / 15 min): ${loadBefore} before the MCP rounds, ${loadAfter} after (two cores; only
ratios are read). Target: \`mira mcp\` within the official server's time (ratio ≤ 1).

${markdownTable(rows)}
`;
    writeResults('startup', md, { cli, mcp });
    process.stdout.write(`${md}\n`);
  } finally {
    consoleProcess.kill('SIGTERM');
    await new Promise((resolve) => consoleProcess.once('close', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
