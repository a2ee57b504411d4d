import OpenAI from 'openai';
import { MemoryErrorCodes, type EpisodeInfo } from '@mira/core';
import { createTestRuntime, startScriptedModelServer } from '@mira/core/testing';
import memoryPlugin, { SqliteMemoryStore } from '@mira/plugin-memory';
import memoryToolsPlugin, { recallMemoryTool } from '@mira/plugin-memory-tools';
import openaiPlugin from '@mira/plugin-openai';
import { bareReader } from './lib/bare.js';
import { aliasName, entityName, generate } from './lib/generate.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt, rng, timeEach } from './lib/stats.js';

export interface CognitionBenchOptions {
  readonly big: { entities: number; memories: number };
  readonly episodes: number;
  readonly recalls: number;
  readonly log: (m: string) => void;
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
`;
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
  writeResults('cognition', md, { overhead, recall }, svg);
  process.stdout.write(`${md}\n`);
}
