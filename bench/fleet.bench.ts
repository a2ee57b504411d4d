// Fleet memory on PostgreSQL: find, list, recall and admission at 10^4 and 10^6 memories, each beside
// the fewest statements returning the same rows (recall: one prepared statement), sent as bare `pg`
// queries in the same run (target:
// store / bare ≤ 1.5, and the latency at 10^6 at most twice that at 10^4), the query plans, and
// admission throughput with 1, 2, 4 and 8 robots admitting at once.
// Needs the PostgreSQL server .ci/run starts (as in the tests).
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { normalizeKey } from '@mira/core';
import { PostgresMemoryStore } from '@mira/plugin-memory/postgres';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from '../test/helpers/postgres.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, rng, timeInterleaved, type Latency } from './lib/stats.js';

const SPACE = 'bench';

/** Fills a fresh database server-side: `entities` people, `memories` facts, each linked to one person. */
async function fill(db: TestDatabase, entities: number, memories: number, log: (m: string) => void) {
  const init = await PostgresMemoryStore.open({ url: db.url, space: SPACE });
  await init.close();
  const client = await db.client();
  const started = Date.now();
  const at = "'2026-01-01T00:00:00.000Z'";
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO entities (space, id, entity_type, canonical_name, name_key, created_at)
     SELECT $1, g, 'person', 'Person ' || lpad(g::text, 7, '0'), 'person ' || lpad(g::text, 7, '0'), ${at}
     FROM generate_series(1, $2::bigint) g`,
    [SPACE, entities],
  );
  await client.query(
    `INSERT INTO aliases (space, id, entity_id, alias, alias_key, created_at)
     SELECT $1, g, g * 10, 'Nick ' || (g * 10), 'nick ' || (g * 10), ${at} FROM generate_series(1, $2::bigint / 10) g`,
    [SPACE, entities],
  );
  await client.query(
    `INSERT INTO memories (space, id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at)
     SELECT $1, g, 'fact', 'Person ' || (1 + (g * 7919) % $3) || ' was seen at dock ' || (g % 97), 'seen_at',
            'dock ' || (g % 97), 'console', NULL, NULL, 'active', ${at}
     FROM generate_series(1, $2::bigint) g`,
    [SPACE, memories, entities],
  );
  await client.query(
    `INSERT INTO memory_links (space, memory_id, entity_id, role)
     SELECT $1, g, 1 + (g * 7919) % $3, 'subject' FROM generate_series(1, $2::bigint) g`,
    [SPACE, memories, entities],
  );
  await client.query(
    `INSERT INTO payloads (space, id, memory_id, payload_kind, media_type, text_body, byte_size, created_at)
     SELECT $1, g, g, 'inline_text', 'text/plain', 'payload ' || g, 8 + length(g::text), ${at}
     FROM generate_series(1, $2::bigint) g`,
    [SPACE, memories],
  );
  await client.query(
    `UPDATE spaces SET next_entity = $2::bigint + 1, next_alias = $2::bigint / 10 + 1, next_memory = $3::bigint + 1,
            next_payload = $3::bigint + 1 WHERE name = $1`,
    [SPACE, entities, memories],
  );
  await client.query('COMMIT');
  await client.query('ANALYZE');
  log(`fleet: ${memories} memories of ${entities} entities filled in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return client;
}

/**
 * The baseline: the fewest statements that return the same rows, as a PostgreSQL engineer would write them
 * with a bare pg client — one join per lookup (entities with their aliases; the newest memories with their
 * links, names and payload metadata, and the count), no ORM, no hydration into Mira's types.
 */
function bare(client: pg.Client) {
  // Prepared, as the store's own reads are: parsed and planned once per connection.
  const q = (name: string, sql: string, params: unknown[]) => client.query({ name, text: sql, values: params });
  const find = async (name: string) => {
    const key = normalizeKey(name);
    const rows = await q(
      'bare_find',
      `SELECT e.id, e.entity_type, e.canonical_name, e.name_key, e.created_at, a.id AS alias_id, a.alias, a.alias_key,
              a.created_at AS alias_created_at
       FROM entities e LEFT JOIN aliases a ON a.space = e.space AND a.entity_id = e.id
       WHERE e.space = $1 AND e.id IN (SELECT id FROM entities WHERE space = $1 AND name_key = $2
                                      UNION SELECT entity_id FROM aliases WHERE space = $1 AND alias_key = $2)
       ORDER BY e.id, a.id`,
      [SPACE, key],
    );
    return [...new Set(rows.rows.map((r) => Number(r.id)))];
  };
  const list = async (entityId: number) => {
    await q(
      'bare_list',
      `WITH newest AS (
         SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories m ON m.space = l.space AND m.id = l.memory_id
         WHERE l.space = $1 AND l.entity_id = $2 AND m.status = 'active' ORDER BY l.memory_id DESC LIMIT $3)
       SELECT m.id, m.kind, m.summary, m.predicate, m.value, m.source_kind, m.source_label, m.confidence, m.status,
              m.created_at, m.superseded_by, m.superseded_at, l.entity_id, l.role, e.canonical_name,
              p.id AS payload_id, p.payload_kind, p.media_type, p.object_ref, p.sha256, p.byte_size,
              p.created_at AS payload_created_at,
              (SELECT count(DISTINCT k.memory_id) FROM memory_links k JOIN memories a ON a.space = k.space AND a.id = k.memory_id
               WHERE k.space = $1 AND k.entity_id = $2 AND a.status = 'active') AS total
       FROM newest n JOIN memories m ON m.space = $1 AND m.id = n.memory_id
       JOIN memory_links l ON l.space = m.space AND l.memory_id = m.id
       JOIN entities e ON e.space = l.space AND e.id = l.entity_id
       LEFT JOIN payloads p ON p.space = m.space AND p.memory_id = m.id
       ORDER BY m.id, l.entity_id, l.role COLLATE "C", p.id`,
      [SPACE, entityId, 8],
    );
  };
  /**
   * What recall shows, as one prepared statement (parsed and planned once per connection): the entities
   * with the name (each with its aliases, one row per alias) and, for the first five, their newest eight
   * active memories (one row per memory, link and payload, with the memory each superseded and the count).
   */
  const recall = async (name: string) =>
    client.query<{ part: number; of_entity: string; id: string | null }>({
      name: 'bare_recall',
      text: `WITH found AS (SELECT id FROM entities WHERE space = $1 AND name_key = $2
                          UNION SELECT entity_id FROM aliases WHERE space = $1 AND alias_key = $2),
         shown AS (SELECT id FROM found ORDER BY id LIMIT $3),
         newest AS (SELECT s.id AS entity_id, p.memory_id FROM shown s CROSS JOIN LATERAL (
           SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories m ON m.space = l.space AND m.id = l.memory_id
           WHERE l.space = $1 AND l.entity_id = s.id AND m.status = 'active' ORDER BY l.memory_id DESC LIMIT $4) p)
       SELECT 0 AS part, e.id AS of_entity, e.entity_type, e.canonical_name, e.name_key, e.created_at,
              a.id AS alias_id, a.alias, a.alias_key, a.created_at AS alias_created_at,
              NULL::bigint AS total, NULL::bigint AS id, NULL::text AS kind, NULL::text AS summary,
              NULL::text AS predicate, NULL::text AS value, NULL::text AS source_kind, NULL::text AS source_label,
              NULL::float8 AS confidence, NULL::text AS status, NULL::text AS memory_created_at,
              NULL::bigint AS superseded_by, NULL::text AS superseded_at, NULL::bigint AS supersedes,
              NULL::bigint AS entity_id, NULL::text AS role, NULL::text AS entity_name,
              NULL::bigint AS payload_id, NULL::text AS payload_kind, NULL::text AS media_type,
              NULL::text AS object_ref, NULL::text AS sha256, NULL::bigint AS byte_size,
              NULL::text AS payload_created_at
       FROM entities e LEFT JOIN aliases a ON a.space = e.space AND a.entity_id = e.id
       WHERE e.space = $1 AND e.id IN (SELECT id FROM found)
       UNION ALL
       SELECT 1, n.entity_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
              (SELECT count(DISTINCT k.memory_id) FROM memory_links k JOIN memories c ON c.space = k.space AND c.id = k.memory_id
               WHERE k.space = $1 AND k.entity_id = n.entity_id AND c.status = 'active'),
              m.id, m.kind, m.summary, m.predicate, m.value, m.source_kind, m.source_label, m.confidence, m.status,
              m.created_at, m.superseded_by, m.superseded_at,
              (SELECT s.id FROM memories s WHERE s.space = m.space AND s.superseded_by = m.id),
              l.entity_id, l.role, le.canonical_name, p.id, p.payload_kind, p.media_type, p.object_ref, p.sha256,
              p.byte_size, p.created_at
       FROM newest n JOIN memories m ON m.space = $1 AND m.id = n.memory_id
       JOIN memory_links l ON l.space = m.space AND l.memory_id = m.id
       JOIN entities le ON le.space = l.space AND le.id = l.entity_id
       LEFT JOIN payloads p ON p.space = m.space AND p.memory_id = m.id
       ORDER BY part, of_entity, alias_id, id, entity_id, role, payload_id`,
      values: [SPACE, normalizeKey(name), 5, 8],
    });
  /** The committed baseline's shape: recall as a find, then a list per entity (shown for comparison). */
  const twoStatements = async (name: string) => {
    for (const id of await find(name)) await list(id);
  };
  return { find, list, recall, twoStatements };
}

async function plans(client: pg.Client): Promise<string> {
  const explain = async (title: string, sql: string, params: unknown[]) => {
    const rows = await client.query(`EXPLAIN ${sql}`, params);
    return `${title}:\n\n\`\`\`\n${rows.rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\`\n`;
  };
  return [
    await explain(
      'find (exact key, name or alias)',
      `SELECT id FROM entities WHERE space = $1 AND name_key = $2 UNION SELECT entity_id FROM aliases WHERE space = $1 AND alias_key = $2 ORDER BY 1`,
      [SPACE, 'person 0000042'],
    ),
    await explain(
      'newest active memories of an entity',
      `SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories m ON m.space = l.space AND m.id = l.memory_id WHERE l.space = $1 AND l.entity_id = $2 AND m.status = 'active' ORDER BY l.memory_id DESC LIMIT 8`,
      [SPACE, 42],
    ),
    await explain(
      'admission slot',
      `SELECT m.id FROM memory_links l JOIN memories m ON m.space = l.space AND m.id = l.memory_id WHERE l.space = $1 AND l.entity_id = $2 AND l.role = $3 AND m.predicate = $4 AND m.status = 'active' ORDER BY m.id`,
      [SPACE, 42, 'subject', 'seen_at'],
    ),
  ].join('\n');
}

/** The first `n` inputs again in front, to warm up on (as timeEach does): every input is then measured. */
const warm = <T>(inputs: readonly T[], n: number): T[] => [...inputs.slice(0, n), ...inputs];

/** CPU time each of the database's server processes (but the asking one) has used so far, in ns, by PID. */
async function serverCpu(client: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await client.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [database],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // The first field of schedstat: time spent on a CPU, in ns (the server runs on this machine).
      cpu.set(pid, Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // A backend that ended meanwhile, or a server on another machine: nothing to read.
    }
  }
  return cpu;
}

/** What the server's processes of `after` used since `before` (a process new since then, all it used). */
const cpuSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, ns]) => sum + ns - (before.get(pid) ?? 0), 0);

/** Admissions per second, and the CPU they took in this process (the robots' clients) and on the server. */
interface Throughput {
  readonly perSecond: number;
  /** ms of this process's CPU per admission (every robot's client code, typeorm and pg). */
  readonly clientMs: number;
  /** ms of the server processes' CPU per admission. */
  readonly serverMs: number;
  /** Cores busy on average during the run: client and server CPU over the wall time. */
  readonly cores: number;
}

async function measure(entities: number, memories: number, lookups: number, log: (m: string) => void) {
  const db = await createTestDatabase();
  try {
    const client = await fill(db, entities, memories, log);
    const store = await PostgresMemoryStore.open({ url: db.url, space: SPACE });
    const random = rng(5);
    const names = Array.from({ length: lookups }, () => {
      const n = 1 + Math.floor(random() * entities);
      return n % 10 === 0 && random() < 0.5 ? `NICK ${n}` : `Person ${String(n).padStart(7, '0')}`;
    });
    const ids = Array.from({ length: lookups }, () => 1 + Math.floor(random() * entities));
    const b = bare(client);
    // The baseline answers what the store answers: the same entities and the same memories of each.
    for (const n of names.slice(0, 50)) {
      const mine = await store.recall(n, { entities: 5, newest: 8 });
      const { rows } = await b.recall(n);
      const theirs = rows.filter((r) => r.part === 1).map((r) => `${r.of_entity}:${r.id}`);
      const ours = mine.newest.flatMap((x, i) => x.memories.map((m) => `${mine.entities[i]!.id}:${m.id}`));
      const entities = [...new Set(rows.filter((r) => r.part === 0).map((r) => Number(r.of_entity)))];
      if (
        JSON.stringify(entities) !== JSON.stringify(mine.entities.map((e) => e.id)) ||
        JSON.stringify([...new Set(theirs)]) !== JSON.stringify(ours)
      )
        throw new Error(`fleet: the recall baseline answers ${n} differently from the store`);
    }
    // Store and bare alternate call by call (the order swapping), so a loaded machine weighs on both alike.
    const result = {
      find: await timeInterleaved(
        warm(names, 200),
        { store: (n: string) => store.findEntities(n), bare: b.find },
        Math.min(200, names.length),
      ),
      list: await timeInterleaved(
        warm(ids, 200),
        { store: (id: number) => store.listActiveMemories(id, { newest: 8 }), bare: b.list },
        Math.min(200, ids.length),
      ),
      // What recall_memory asks: the name's entities and the newest eight of the first five, in one read.
      recall: await timeInterleaved(
        warm(names, 50),
        {
          store: (n: string) => store.recall(n, { entities: 5, newest: 8 }),
          bare: b.recall,
          twoStatements: b.twoStatements,
        },
        Math.min(50, names.length),
      ),
      plans: memories >= 1_000_000 ? await plans(client) : '',
    };
    await store.close();
    await client.end();
    return result;
  } finally {
    await db.drop();
  }
}

/**
 * Admissions per second with `robots` stores admitting at once into distinct slots, each robot in a memory
 * space of its own (`separate`) or all in one space.
 */
async function admissionThroughput(robots: number, perRobot: number, separate: boolean): Promise<Throughput> {
  const db = await createTestDatabase();
  try {
    const spaces = Array.from({ length: robots }, (_, r) => (separate ? `${SPACE}-${r}` : SPACE));
    for (const space of new Set(spaces)) {
      const seed = await PostgresMemoryStore.open({ url: db.url, space });
      for (let i = 0; i < 50; i += 1) await seed.createEntity({ entityType: 'person', canonicalName: `P${i}` });
      await seed.close();
    }
    const stores = await Promise.all(spaces.map((space) => PostgresMemoryStore.open({ url: db.url, space })));
    const watcher = await db.client();
    const serverBefore = await serverCpu(watcher, db.name);
    const clientBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    await Promise.all(
      stores.map(async (store, r) => {
        for (let i = 0; i < perRobot; i += 1) {
          const entityId = 1 + ((i + r * 13) % 50);
          const predicate = `p_${r}_${i}`;
          const outcome = await store.admitToSlot({ entityId, role: 'subject', predicate }, (existing) =>
            existing.length
              ? { answer: 'duplicate' }
              : {
                  create: {
                    kind: 'fact',
                    summary: `P${entityId} ${predicate}`,
                    predicate,
                    value: 'x',
                    sourceKind: 'console',
                    links: [{ entityId, role: 'subject' }],
                  },
                },
          );
          if (!('created' in outcome)) throw new Error(`robot ${r} admission ${i} was not written`);
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const client = process.cpuUsage(clientBefore);
    const serverNs = cpuSince(serverBefore, await serverCpu(watcher, db.name));
    await watcher.end();
    for (const store of stores) await store.close();
    const admissions = robots * perRobot;
    const clientS = (client.user + client.system) / 1e6;
    return {
      perSecond: admissions / seconds,
      clientMs: (clientS * 1000) / admissions,
      serverMs: serverNs / 1e6 / admissions,
      cores: (clientS + serverNs / 1e9) / seconds,
    };
  } finally {
    await db.drop();
  }
}

export async function fleetBench(options: {
  readonly quick: boolean;
  readonly lookups: number;
  readonly log: (m: string) => void;
  /** Store sizes (a smoke run's tiny ones); by default 10⁴ and 10⁵ (quick) or 10⁶ memories. */
  readonly sizes?: {
    readonly small: { entities: number; memories: number };
    readonly big: { entities: number; memories: number };
  };
  /** Admissions per robot in the throughput rows (default 100). */
  readonly admissions?: number;
}): Promise<void> {
  const unavailable = postgresUnavailable();
  if (unavailable) {
    options.log(`fleet: skipped (${unavailable})`);
    return;
  }
  const small = options.sizes?.small ?? { entities: 1_000, memories: 10_000 };
  const big =
    options.sizes?.big ??
    (options.quick ? { entities: 10_000, memories: 100_000 } : { entities: 100_000, memories: 1_000_000 });
  options.log(`fleet: ${small.memories} memories…`);
  const atSmall = await measure(small.entities, small.memories, options.lookups, options.log);
  options.log(`fleet: ${big.memories} memories…`);
  const atBig = await measure(big.entities, big.memories, options.lookups, options.log);
  const lookupLoad = loadAverage();
  const throughput: Array<{ robots: number; separate: Throughput; shared: Throughput }> = [];
  for (const robots of [1, 2, 4, 8]) {
    options.log(`fleet: ${robots} robots admitting at once…`);
    const perRobot = options.admissions ?? 100;
    throughput.push({
      robots,
      separate: await admissionThroughput(robots, perRobot, true),
      shared: await admissionThroughput(robots, perRobot, false),
    });
  }

  const row = (name: string, baseline: string, s: Latency, b: Latency, smallP50?: number) => ({
    measurement: name,
    baseline,
    'p50 µs': fmt(s.p50),
    'p99 µs': fmt(s.p99),
    'bare pg p50 µs': fmt(b.p50),
    'bare pg p99 µs': fmt(b.p99),
    'ratio p50 (store / bare)': fmt(s.p50 / b.p50, 2),
    'ratio p99 (store / bare)': fmt(s.p99 / b.p99, 2),
    'p50 vs 10⁴': smallP50 === undefined ? '' : fmt(s.p50 / smallP50, 2),
  });
  const oneJoin = 'one prepared join';
  const onePrepared = 'one prepared statement';
  const twoUnprepared = 'find + list per entity, two statements (the old baseline, now prepared)';
  const rows = [
    row(`find @${small.memories}`, oneJoin, atSmall.find.store, atSmall.find.bare),
    row(`find @${big.memories}`, oneJoin, atBig.find.store, atBig.find.bare, atSmall.find.store.p50),
    row(`list newest 8 @${small.memories}`, oneJoin, atSmall.list.store, atSmall.list.bare),
    row(`list newest 8 @${big.memories}`, oneJoin, atBig.list.store, atBig.list.bare, atSmall.list.store.p50),
    row(`recall @${small.memories}`, onePrepared, atSmall.recall.store, atSmall.recall.bare),
    row(`recall @${big.memories}`, onePrepared, atBig.recall.store, atBig.recall.bare, atSmall.recall.store.p50),
    row(`recall @${small.memories}`, twoUnprepared, atSmall.recall.store, atSmall.recall.twoStatements),
    row(`recall @${big.memories}`, twoUnprepared, atBig.recall.store, atBig.recall.twoStatements),
  ];
  const md = `# Fleet memory on PostgreSQL

PostgreSQL ${'15'} on this machine (Debian's package), over TCP on 127.0.0.1. The store (typeorm's data
source, set-based statements, hydration into Mira's types) beside the fewest statements that return the
same rows sent with a bare \`pg\` client in the same run, alternating call by call (the baseline column
names it: find and list one join each; recall, what \`recall_memory\` reads — the name's entities and the
newest eight active memories of the first five — one prepared statement written by hand);
${options.lookups} lookups per row. Targets: store / bare ≤ 1.5 (recall: ≤ 1.5 at p50, ≤ 2 at p99); p50 at
${big.memories} at most 2× the p50 at ${small.memories}. Load average (1 / 5 / 15 min) at the end of the
lookups: ${lookupLoad}.

${markdownTable(rows)}

Admission throughput, robots admitting at once into distinct slots (each admission: the slot read, then
the write as one statement, \`mira_admit\`), each robot in a space of its own or all in one space; the
scaling is against one robot. Target: ≥ 3× from 1 to 8 robots on separate spaces, no collapse on one.
Load average (1 / 5 / 15 min): ${loadAverage()}.

${markdownTable(
  throughput.map((t) => ({
    robots: t.robots,
    'separate spaces: admissions / s': fmt(t.separate.perSecond, 0),
    'scaling ×': fmt(t.separate.perSecond / throughput[0]!.separate.perSecond, 2),
    'CPU ms / admission (client + server)': `${fmt(t.separate.clientMs, 2)} + ${fmt(t.separate.serverMs, 2)}`,
    'cores busy': fmt(t.separate.cores, 2),
    'one space: admissions / s': fmt(t.shared.perSecond, 0),
    'scaling × ': fmt(t.shared.perSecond / throughput[0]!.shared.perSecond, 2),
    'CPU ms / admission (client + server) ': `${fmt(t.shared.clientMs, 2)} + ${fmt(t.shared.serverMs, 2)}`,
    'cores busy ': fmt(t.shared.cores, 2),
  })),
)}

CPU: this process's user and system time (every robot's client: Mira, typeorm, pg) and the server
processes' time on a CPU (\`/proc/<pid>/schedstat\` of the database's backends), per admission; cores
busy is both over the wall time. The robots run in this one process, so the client's share is one
event loop's, at most one core.

Query plans at ${big.memories} memories (every lookup is an index scan):

${atBig.plans}`;
  const svg = barChartSvg('Fleet memory (PostgreSQL), p50', 'µs (lower is better)', [
    ...(['find', 'list', 'recall'] as const).map((op) => ({
      label: `${op} @${big.memories}`,
      bars: [
        { series: 'store', value: atBig[op].store.p50 },
        { series: 'bare pg', value: atBig[op].bare.p50 },
      ],
    })),
  ]);
  writeResults('fleet', md, { atSmall, atBig, throughput }, svg);
  process.stdout.write(`${md}\n`);
}
