import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { EpisodeInfo } from '@mira/core';
import { MemoryErrorCodes } from '@mira/memory-contract';
import { createTestRuntime, groundingOf, startScriptedModelServer, withoutGrounding } from '@mira/core/testing';
import memoryPlugin, { SqliteMemoryStore } from '@mira/plugin-memory';
import memoryToolsPlugin, { recallMemoryTool } from '@mira/plugin-memory-tools';
import openaiPlugin from '@mira/plugin-openai';
import { callFiguresSection } from './cognition-calls.js';
import { bareReader } from './lib/bare.js';
import { aliasName, entityName, generate } from './lib/generate.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt, rng, timeEach } from './lib/stats.js';
import { REPO_ROOT, runMira } from '../test/helpers/run-mira.js';
import { buildLlamaServer, startRealModelServer, testModel } from '../test/model-server/llama-server.js';

export interface CognitionBenchOptions {
  readonly big: { entities: number; memories: number };
  readonly episodes: number;
  readonly recalls: number;
  readonly log: (m: string) => void;
  /** Also the prompt against a real llama-server (builds it on the first run); off in the smoke test. */
  readonly realServer?: boolean;
  /** Turns of the session whose every model call is measured (see cognition-calls.ts). */
  readonly turns: number;
}

async function engineOverhead(episodes: number) {
  const server = await startScriptedModelServer();
  server.push(...Array.from({ length: episodes * 2 + 400 }, () => ({ text: 'ok' })));
  const rt = await createTestRuntime({
    plugins: [memoryPlugin, memoryToolsPlugin, openaiPlugin],
    tables: {
      memory: { enabled: true, database_path: 'data/memory.sqlite3' },
      openai: { model: 'bench', base_url: server.url, max_retries: 0 },
    },
  });
  const inputs = Array.from({ length: episodes }, (_, i) => `Hello number ${i}, how are you?`);
  const engine = await timeEach(inputs, async (line) => {
    rt.app.kernel.workingMemory.clear();
    const result = await rt.run(line);
    if (!result.ok) throw new Error(result.output.join('\n'));
  });
  // The bare baseline: the same request body, sent with the same SDK to the same server.
  const body = server.requests.at(-1)!.body;
  const client = new OpenAI({ apiKey: 'bench', baseURL: server.url, maxRetries: 0 });
  const bare = await timeEach(inputs, () => client.chat.completions.create({ ...(body as any), stream: false }));
  await rt.dispose();
  await server.close();
  return { engine, bare };
}

async function recallLatency(path: string, entities: number, aliasEvery: number, count: number) {
  const random = rng(5);
  const queries = Array.from({ length: count }, (_, i) => {
    const n = 1 + Math.floor(random() * entities);
    return i % 2 === 0 && n % aliasEvery === 0 ? aliasName(n) : entityName(n);
  });
  const store = SqliteMemoryStore.open(path);
  const tool = recallMemoryTool(
    () => store,
    (message) => process.stderr.write(`${message}\n`),
  );
  const episode: EpisodeInfo = { id: 1, origin: 'operator', utterance: 'x', startedAt: new Date() };
  const viaTool = await timeEach(queries, async (query) => {
    const result = await tool.run({ query }, { episode });
    if (!result.display.startsWith('hit')) throw new Error(`${MemoryErrorCodes.BACKEND}: unexpected ${result.display}`);
  });
  const bare = bareReader(path);
  const viaBare = await timeEach(queries, (query) =>
    bare
      .find(query)
      .slice(0, 5)
      .map((e) => bare.list((e.row as { id: number }).id, 8)),
  );
  await store.close();
  bare.close();
  return { tool: viaTool, bare: viaBare };
}

/** Runs the cognition benchmark and writes bench/results/cognition.{md,json,svg}. */
export async function cognitionBench(options: CognitionBenchOptions): Promise<void> {
  const { log } = options;
  log('cognition: engine step overhead against an instantly answering model server…');
  const overhead = await engineOverhead(options.episodes);
  const big = generate(options.big.entities, options.big.memories, log);
  log(`cognition: recall_memory on ${big.memories} memories…`);
  const recall = await recallLatency(big.path, big.entities, big.aliasEvery, options.recalls);
  // The smoke pass (bench/run.ts --smoke, in npm test) proves the benchmark runs; it builds no server.
  const realServer = options.realServer ?? !process.argv.includes('--smoke');
  const real = realServer ? `\n${await realServerLayouts(log)}` : '';
  const calls = await callFiguresSection([8192, 4096], options.turns, log);
  const rows = [
    {
      measurement: 'operator episode step (console → engine → SDK → HTTP → reply)',
      'p50 µs': fmt(overhead.engine.p50),
      'p99 µs': fmt(overhead.engine.p99),
      'ratio p50 vs baseline': fmt(overhead.engine.p50 / overhead.bare.p50, 2),
    },
    {
      measurement: 'baseline: the same request with the bare SDK',
      'p50 µs': fmt(overhead.bare.p50),
      'p99 µs': fmt(overhead.bare.p99),
      'ratio p50 vs baseline': '1.00',
    },
    {
      measurement: `recall_memory execution @${big.memories}`,
      'p50 µs': fmt(recall.tool.p50),
      'p99 µs': fmt(recall.tool.p99),
      'ratio p50 vs baseline': fmt(recall.tool.p50 / recall.bare.p50, 2),
    },
    {
      measurement: 'baseline: the same lookups as bare statements',
      'p50 µs': fmt(recall.bare.p50),
      'p99 µs': fmt(recall.bare.p99),
      'ratio p50 vs baseline': '1.00',
    },
  ];
  const md = `# Cognition benchmark

Engine overhead per episode step, with a local model server that answers at once: the
whole operator turn (console dispatch, grounding rebuild, tool offering, the real openai SDK
over HTTP, reply printing) beside the same request sent with the bare SDK. Engine overhead
per step: **${fmt(overhead.engine.p50 - overhead.bare.p50)} µs** at p50.

\`recall_memory\` execution on ${big.memories} memories (exact lookup, ≤ 5 entities × 8 newest
memories, rendering) beside the same lookups as bare better-sqlite3 statements
(target ratio ≤ 2; p99 ratio ${fmt(recall.tool.p99 / recall.bare.p99, 2)}).

${markdownTable(rows)}

${calls.markdown}${real}`;
  const svg = barChartSvg('Cognition: p50 latency', 'µs (lower is better)', [
    {
      label: 'one model step',
      bars: [
        { series: 'engine', value: overhead.engine.p50 },
        { series: 'bare SDK', value: overhead.bare.p50 },
      ],
    },
    {
      label: `recall_memory @${big.memories}`,
      bars: [
        { series: 'tool', value: recall.tool.p50 },
        { series: 'bare statements', value: recall.bare.p50 },
      ],
    },
  ]);
  writeResults('cognition', md, { overhead, recall, calls: calls.figures }, svg);
  process.stdout.write(`${md}\n`);
}

/** One layout's replay of a session's requests against a fresh llama-server (one slot). */
interface LayoutReplay {
  readonly calls: number;
  readonly firstBytes: number;
  readonly meanBytes: number;
  readonly promptTokens: number;
  readonly cachedTokens: number;
  /** cache_n / (cache_n + prompt_n) over the calls after the first. */
  readonly reuse: number;
  readonly msPerCall: { p50: number; mean: number };
}

/**
 * The layout before the prompt was laid out for caches, from a request of today's: the grounding (fixed
 * sections and the changing tail alike) in the first system message, before the tools.
 */
function previousLayout(body: string): string {
  const request = JSON.parse(body) as { messages: Array<{ role: string; content: string | null }> };
  // Today the current grounding rides on the newest message (older blocks on earlier messages of the episode).
  const current = groundingOf(request.messages.at(-1)!.content ?? '') ?? '';
  const messages = request.messages.map((m) =>
    m.content === null ? m : { ...m, content: withoutGrounding(m.content) },
  );
  messages[0] = { role: 'system', content: `${messages[0]!.content}\n\n${current}` };
  return JSON.stringify({ ...request, messages });
}

async function replay(cache: string, model: string, bodies: readonly string[]): Promise<LayoutReplay> {
  const server = await startRealModelServer(cache, model);
  const times: number[] = [];
  let promptTokens = 0;
  let cachedTokens = 0;
  let laterPrompt = 0;
  let laterCached = 0;
  try {
    for (const [i, body] of bodies.entries()) {
      const started = performance.now();
      const response = await fetch(`${server.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      await response.text();
      times.push(performance.now() - started);
      const call = server.calls.at(-1)!;
      if (call.status !== 200) throw new Error(`llama-server answered ${call.status} (${call.errorType})`);
      promptTokens += call.cacheN! + call.promptN!;
      cachedTokens += call.cacheN!;
      if (i > 0) {
        laterPrompt += call.cacheN! + call.promptN!;
        laterCached += call.cacheN!;
      }
    }
  } finally {
    await server.stop();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const bytes = bodies.map((b) => Buffer.byteLength(b));
  return {
    calls: bodies.length,
    firstBytes: bytes[0]!,
    meanBytes: bytes.reduce((a, b) => a + b, 0) / bytes.length,
    promptTokens,
    cachedTokens,
    reuse: laterCached / laterPrompt,
    msPerCall: { p50: sorted[Math.floor(sorted.length / 2)]!, mean: times.reduce((a, b) => a + b, 0) / times.length },
  };
}

/**
 * The prompt against a real llama-server (tools/llama-server, the test tier's build and model): the
 * requests of one console session with the simulated profile, replayed to a fresh server in today's
 * layout and in the previous one (grounding first, before the tools), one slot each.
 */
export async function realServerLayouts(log: (m: string) => void): Promise<string> {
  log('cognition: building (or reusing) llama-server and the test model…');
  const cache = buildLlamaServer();
  const model = testModel(cache);
  log('cognition: recording a console session against llama-server…');
  const root = mkdtempSync(join(tmpdir(), 'mira-bench-real-'));
  const recorder = await startRealModelServer(cache, model);
  try {
    const profile = join(root, 'profiles', 'mira-sim');
    mkdirSync(profile, { recursive: true });
    const manifest = readFileSync(join(REPO_ROOT, 'profiles', 'mira-sim', 'profile.toml'), 'utf8');
    writeFileSync(join(profile, 'profile.toml'), manifest.replace('[openai]\n', '[openai]\nmax_tokens = 64\n'));
    await runMira(['--profile', profile], `${BENCH_SESSION.join('\n')}\n`, {
      env: { OPENAI_BASE_URL: recorder.url, OPENAI_API_KEY: '' },
    });
  } finally {
    await recorder.stop();
    rmSync(root, { recursive: true, force: true });
  }
  const bodies = recorder.calls.filter((c) => c.status === 200).map((c) => c.body);
  log(`cognition: replaying ${bodies.length} requests in both layouts…`);
  const today = await replay(cache, model, bodies);
  const before = await replay(cache, model, bodies.map(previousLayout));
  const row = (layout: string, r: LayoutReplay) => ({
    layout,
    calls: String(r.calls),
    'first request bytes': String(r.firstBytes),
    'mean request bytes': fmt(r.meanBytes, 0),
    'prompt tokens': String(r.promptTokens),
    'reused from cache': String(r.cachedTokens),
    'reuse after the first call': fmt(r.reuse, 3),
    'ms per call p50': fmt(r.msPerCall.p50, 1),
    'ms per call mean': fmt(r.msPerCall.mean, 1),
  });
  return `## The prompt against a real llama-server

One console session with the simulated profile (${BENCH_SESSION.length} lines), recorded against llama-server
(tools/llama-server: built from the llama.cpp source node-llama-cpp ships; the generated random-weights
model, 2 layers × 64, so the time per call is the server's and the prompt's, not a real model's), then
its ${today.calls} requests replayed to a fresh server (one slot, 8,192-token context) as sent, and in the
previous layout (all grounding in the first system message, before the tools).

${markdownTable([row('today: instructions and tools first, changing grounding on the newest message', today), row('previous: grounding first, then tools', before)])}
`;
}

const BENCH_SESSION = [
  'memory entity add person "Ada"',
  'Hello, who are you?',
  'Ada prefers green tea.',
  'What does Ada like to drink?',
  'Please note that the spare battery is on the top shelf.',
  'What did I ask you to note about the battery?',
  'Drive forward slowly for one second.',
  'What is your battery level?',
  'Tell me everything you remember about Ada.',
  'Thank you, that is all.',
];
