import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { In } from 'typeorm';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { bareReader } from './lib/bare.js';
import { aliasName, entityName, generate, type Generated } from './lib/generate.js';
import { barChartSvg, markdownTable, writeResults, type Row } from './lib/report.js';
import { fmt, loadAverage, rng, summarize, timeEach, timeInterleaved, type Latency } from './lib/stats.js';
import { EntitySchemaRow, LinkSchemaRow, MemorySchemaRow, openTypeorm } from './lib/typeorm-schema.js';

/** Sizes: the specification's database, and the small one latency is compared with. */
export interface StoreBenchOptions {
  readonly big: { entities: number; memories: number };
  readonly small: { entities: number; memories: number };
  readonly lookups: number;
  readonly creates: number;
  readonly log: (m: string) => void;
}

function names(g: Generated, count: number, seed: number): string[] {
  const random = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const n = 1 + Math.floor(random() * g.entities);
    // Half by alias where the entity has one, the rest by canonical name in varied case.
    if (i % 2 === 0 && n % g.aliasEvery === 0) return aliasName(n).toUpperCase();
    return i % 3 === 0 ? entityName(n).toLowerCase() : entityName(n);
  });
}

const entityIds = (g: Generated, count: number, seed: number) => {
  const random = rng(seed);
  return Array.from({ length: count }, () => 1 + Math.floor(random() * g.entities));
};

async function measureReads(g: Generated, lookups: number) {
  const queries = names(g, lookups, 7);
  const ids = entityIds(g, lookups, 11);
  const store = SqliteMemoryStore.open(g.path);
  const bare = bareReader(g.path);
  const ds = await openTypeorm(g.path);
  const entityRepo = ds.getRepository(EntitySchemaRow);
  const memoryRepo = ds.getRepository(MemorySchemaRow);
  const linkRepo = ds.getRepository(LinkSchemaRow);
  const { normalizeKey } = await import('@mira/core');
  // The store and the bare statements run call by call, in alternating order, after a warm-up: a burst
  // of machine noise falls on both alike instead of deciding one side's p99. typeorm (for the record)
  // runs on its own: its calls take milliseconds and would wash the caches between the others.
  const WARMUP = Math.min(200, lookups);
  const warmed = <T>(inputs: readonly T[]) => [...inputs.slice(0, WARMUP), ...inputs];
  const find = await timeInterleaved(
    warmed(queries),
    { store: (q: string) => store.findEntities(q), bare: (q: string) => bare.find(q) },
    WARMUP,
  );
  const list = await timeInterleaved(
    warmed(ids),
    { store: (id: number) => store.listActiveMemories(id), bare: (id: number) => bare.list(id) },
    WARMUP,
  );
  const result = {
    find: {
      ...find,
      typeorm: await timeEach(queries, (q) => {
        const key = normalizeKey(q);
        return entityRepo.find({
          where: [{ nameKey: key }, { aliases: { aliasKey: key } }],
          relations: { aliases: true },
          order: { id: 'ASC' },
        });
      }),
    },
    list: {
      ...list,
      typeorm: await timeEach(ids, async (id) => {
        const linked = await linkRepo.find({ where: { entityId: id }, select: { memoryId: true } });
        const memoryIds = [...new Set(linked.map((l) => l.memoryId))];
        return memoryRepo.find({
          where: { id: In(memoryIds), status: 'active' },
          relations: { links: { entity: true }, payloads: true },
          order: { id: 'ASC' },
        });
      }),
    },
  };
  await store.close();
  bare.close();
  await ds.destroy();
  return result;
}

async function measureCreates(g: Generated, count: number) {
  const dir = mkdtempSync(join(tmpdir(), 'mira-bench-create-'));
  try {
    const storePath = join(dir, 'store.sqlite3');
    const barePath = join(dir, 'bare.sqlite3');
    copyFileSync(g.path, storePath);
    copyFileSync(g.path, barePath);
    const store = SqliteMemoryStore.open(storePath);
    const inputs = entityIds(g, count, 13);
    const storeStart = process.hrtime.bigint();
    for (const id of inputs) {
      await store.createMemory({
        kind: 'fact',
        summary: `${entityName(id)} charged at dock 3`,
        sourceKind: 'console',
        predicate: 'charged_at',
        value: 'dock 3',
        links: [{ entityId: id, role: 'subject' }],
      });
    }
    const storeSeconds = Number(process.hrtime.bigint() - storeStart) / 1e9;
    await store.close();

    const db = new Database(barePath);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const insertMemory = db.prepare(
      "INSERT INTO memories (kind, summary, predicate, value, source_kind, status, created_at) VALUES ('fact', ?, 'charged_at', 'dock 3', 'console', 'active', ?)",
    );
    const insertLink = db.prepare("INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, 'subject')");
    const insertPayload = db.prepare(
      "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
    );
    const create = db.transaction((id: number) => {
      const summary = `${entityName(id)} charged at dock 3`;
      const now = new Date().toISOString();
      const memoryId = insertMemory.run(summary, now).lastInsertRowid;
      insertLink.run(memoryId, id);
      insertPayload.run(memoryId, summary, Buffer.byteLength(summary), now);
    });
    const bareStart = process.hrtime.bigint();
    for (const id of inputs) create.immediate(id);
    const bareSeconds = Number(process.hrtime.bigint() - bareStart) / 1e9;
    db.close();
    return { store: count / storeSeconds, bare: count / bareSeconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function bytesPerMemory(g: Generated): number {
  const db = new Database(g.path);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return statSync(g.path).size / g.memories;
}

const row = (what: string, l: Latency, baseline?: Latency): Row => ({
  measurement: what,
  'p50 µs': fmt(l.p50),
  'p99 µs': fmt(l.p99),
  'ratio p50 vs bare': baseline ? fmt(l.p50 / baseline.p50, 2) : '1.00',
  'ratio p99 vs bare': baseline ? fmt(l.p99 / baseline.p99, 2) : '1.00',
});

/** Runs the store benchmark and writes bench/results/store.{md,json,svg}. */
export async function storeBench(options: StoreBenchOptions): Promise<void> {
  const { log } = options;
  const big = generate(options.big.entities, options.big.memories, log);
  const small = generate(options.small.entities, options.small.memories, log);
  log(`store: exact lookups on ${big.memories} memories…`);
  const atBig = await measureReads(big, options.lookups);
  log(`store: exact lookups on ${small.memories} memories…`);
  const atSmall = await measureReads(small, options.lookups);
  log(`store: durable creates (synchronous = FULL)…`);
  const creates = await measureCreates(small, options.creates);
  const perMemory = bytesPerMemory(big);

  const rows: Row[] = [
    row(`find (store) @${big.memories}`, atBig.find.store, atBig.find.bare),
    row(`find (bare) @${big.memories}`, atBig.find.bare),
    row(`find (typeorm) @${big.memories}`, atBig.find.typeorm, atBig.find.bare),
    row(`memory list (store) @${big.memories}`, atBig.list.store, atBig.list.bare),
    row(`memory list (bare) @${big.memories}`, atBig.list.bare),
    row(`memory list (typeorm) @${big.memories}`, atBig.list.typeorm, atBig.list.bare),
  ];
  const scaling: Row[] = [
    {
      measurement: 'find (store) p50',
      [`@${small.memories} µs`]: fmt(atSmall.find.store.p50),
      [`@${big.memories} µs`]: fmt(atBig.find.store.p50),
      ratio: fmt(atBig.find.store.p50 / atSmall.find.store.p50, 2),
      target: '≤ 2',
    },
    {
      measurement: 'memory list (store) p50',
      [`@${small.memories} µs`]: fmt(atSmall.list.store.p50),
      [`@${big.memories} µs`]: fmt(atBig.list.store.p50),
      ratio: fmt(atBig.list.store.p50 / atSmall.list.store.p50, 2),
      target: '≤ 2',
    },
  ];
  const writes: Row[] = [
    {
      measurement: 'durable creates/s (store)',
      value: fmt(creates.store, 0),
      'ratio vs bare': fmt(creates.store / creates.bare, 2),
    },
    { measurement: 'durable creates/s (bare ceiling)', value: fmt(creates.bare, 0), 'ratio vs bare': '1.00' },
    { measurement: `bytes per memory on disk @${big.memories}`, value: fmt(perMemory, 0), 'ratio vs bare': '' },
  ];
  const md = `# Persistent memory store benchmark

Generated database: ${big.entities} entities, ${big.memories} memories (each with a subject link,
30% with a second link, one inline payload); comparison database: ${small.entities} entities,
${small.memories} memories. ${options.lookups} lookups per measurement after a warm-up, one process,
same file for every variant, store and bare interleaved call by call (typeorm timed on its own). Targets:
store/bare ≤ 1.5 for lookups (p99 ≤ 2); latency at ${big.memories} within 2× of latency at ${small.memories}.
Load average (1 / 5 / 15 min): ${loadAverage()}.

## Lookups (latency per call)

${markdownTable(rows)}

## Scaling

${markdownTable(scaling)}

## Writes and size

${markdownTable(writes)}

Run with \`npm run bench\` (first run generates and caches the databases under bench/cache/).
`;
  const svg = barChartSvg(`Exact lookups, p50 latency @ ${big.memories} memories`, 'µs (lower is better)', [
    {
      label: 'find by name or alias',
      bars: [
        { series: 'store', value: atBig.find.store.p50 },
        { series: 'bare statements', value: atBig.find.bare.p50 },
        { series: 'typeorm', value: atBig.find.typeorm.p50 },
      ],
    },
    {
      label: 'memory list ENT<n>',
      bars: [
        { series: 'store', value: atBig.list.store.p50 },
        { series: 'bare statements', value: atBig.list.bare.p50 },
        { series: 'typeorm', value: atBig.list.typeorm.p50 },
      ],
    },
    {
      label: `find (store) @${small.memories} vs @${big.memories}`,
      bars: [
        { series: `@${small.memories}`, value: atSmall.find.store.p50 },
        { series: `@${big.memories}`, value: atBig.find.store.p50 },
      ],
    },
  ]);
  writeResults(
    'store',
    md,
    {
      big: atBig,
      small: atSmall,
      creates,
      bytesPerMemory: perMemory,
      sizes: { big: options.big, small: options.small },
    },
    svg,
  );
  process.stdout.write(`${md}\n`);
}

export { summarize };
