import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { normalizeKey, type ProfileInfo } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit, type RememberProposal } from '@mira/plugin-memory-tools';
import { entityName, generate } from './lib/generate.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt, loadAverage, rng, timeInterleaved, type InterleavedLatency } from './lib/stats.js';

export interface AdmissionBenchOptions {
  /** The databases' sizes, smallest first. */
  readonly sizes: ReadonlyArray<{ entities: number; memories: number }>;
  readonly decisions: number;
  readonly log: (m: string) => void;
}

type Case = {
  kind: 'accept' | 'conflict' | 'ungrounded';
  utterance: string;
  proposal: RememberProposal;
  entity: number;
};

const profile: ProfileInfo = { name: 'Mira', description: '', manifestPath: '/bench/profile.toml', dir: '/bench' };

function cases(entities: number, count: number): Case[] {
  const random = rng(3);
  return Array.from({ length: count }, (_, i) => {
    const entity = 1 + Math.floor(random() * entities);
    const name = entityName(entity);
    const roll = i % 4;
    if (roll === 2) {
      // The slot already holds "dock 1" (seeded): a different value is a conflict.
      const evidence = `${name} prefers dock 2`;
      return {
        kind: 'conflict',
        entity,
        utterance: `Remember that ${evidence}.`,
        proposal: {
          kind: 'preference',
          subject: name,
          predicate: 'favourite_dock',
          value: 'dock 2',
          evidence,
          related_entity: null,
          related_role: null,
        },
      };
    }
    if (roll === 3) {
      const evidence = `${name} prefers dock 9`;
      return {
        kind: 'ungrounded',
        entity,
        utterance: 'What time is it?',
        proposal: {
          kind: 'preference',
          subject: name,
          predicate: 'favourite_dock',
          value: 'dock 9',
          evidence,
          related_entity: null,
          related_role: null,
        },
      };
    }
    const evidence = `${name} charged at station ${i}`;
    return {
      kind: 'accept',
      entity,
      utterance: `Please remember: ${evidence}.`,
      proposal: {
        kind: 'fact',
        subject: name,
        predicate: `charged_at_${i}`,
        value: `station ${i}`,
        evidence,
        related_entity: null,
        related_role: null,
      },
    };
  });
}

function seed(path: string, all: readonly Case[]): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  const insertMemory = db.prepare(
    "INSERT INTO memories (kind, summary, predicate, value, source_kind, status, created_at) VALUES ('preference', ?, 'favourite_dock', 'dock 1', 'console', 'active', '2026-01-01T00:00:00.000Z')",
  );
  const insertLink = db.prepare("INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, 'subject')");
  const insertPayload = db.prepare(
    "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, '2026-01-01T00:00:00.000Z')",
  );
  db.transaction(() => {
    for (const c of new Set(all.filter((x) => x.kind === 'conflict').map((x) => x.entity))) {
      const summary = `${entityName(c)} prefers dock 1`;
      const id = insertMemory.run(summary).lastInsertRowid;
      insertLink.run(id, c);
      insertPayload.run(id, summary, Buffer.byteLength(summary));
    }
  })();
  db.close();
}

/**
 * The same decisions as bare statements, taking the same locks as the store: the exact key lookup and
 * the slot read without a lock; a write then takes the write lock (BEGIN IMMEDIATE), reads the slot again
 * under it, and inserts the memory, its link and its payload.
 */
function bareDecider(path: string) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  const ids = db
    .prepare(
      'SELECT id FROM entities WHERE name_key = ? UNION SELECT entity_id FROM aliases WHERE alias_key = ? ORDER BY 1',
    )
    .pluck();
  // In the link index's order (m.id is l.memory_id), as the store reads a slot: no sort.
  const slot = db.prepare(
    "SELECT m.id, m.value FROM memory_links l JOIN memories m ON m.id = l.memory_id WHERE l.entity_id = ? AND l.role = 'subject' AND m.predicate = ? AND m.status = 'active' ORDER BY l.memory_id",
  );
  const insertMemory = db.prepare(
    "INSERT INTO memories (kind, summary, predicate, value, source_kind, status, created_at) VALUES (?, ?, ?, ?, 'operator_statement', 'active', ?)",
  );
  const insertLink = db.prepare("INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, 'subject')");
  const insertPayload = db.prepare(
    "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
  );
  const conflicts = (p: RememberProposal, entity: number) =>
    (slot.all(entity, p.predicate) as Array<{ value: string }>).some((m) => m.value !== p.value);
  const write = db.transaction((p: RememberProposal, entity: number): boolean => {
    if (conflicts(p, entity)) return false;
    const now = new Date().toISOString();
    const id = insertMemory.run(p.kind, p.evidence, p.predicate, p.value, now).lastInsertRowid;
    insertLink.run(id, entity);
    insertPayload.run(id, p.evidence, Buffer.byteLength(p.evidence), now);
    return true;
  });
  return {
    /** Whether the case's memory was written. */
    decide(c: Case): boolean {
      if (!c.utterance.includes(c.proposal.evidence)) return false;
      const key = normalizeKey(c.proposal.subject);
      const [entity] = ids.all(key, key) as number[];
      if (conflicts(c.proposal, entity!)) return false;
      return write.immediate(c.proposal, entity!);
    },
    close: () => db.close(),
  };
}

type Latencies = Record<'admit()' | 'bare', InterleavedLatency>;

/**
 * Untimed passes of the refusals before the timed one. Measured: at 10⁴ memories admit()'s p50 fell
 * 71 → 43 → 38 → 34 → 32 → 31 → 30 µs over the first seven passes of 1,000 refusals (the JIT tiering the rules'
 * code up, the heap growing to its working size; not always steadily: 52 → 40 → 40 → 34 in another run),
 * bare's 30 → 27 → 25 → 24 → 23 µs, and later passes changed by about 1 %.
 */
const WARMUP_PASSES = 6;

/** The p50 of each untimed pass of the refusals, admit()'s and bare's, in µs. */
interface Warmup {
  readonly 'admit()': number[];
  readonly bare: number[];
}

/**
 * Runs the refusals {@link WARMUP_PASSES} times untimed: the steady state a robot that has been running a
 * while is in. The passes' p50s are reported beside the table (at the first size, the first pass is the
 * process's first admissions).
 */
async function warmUp(refusals: readonly Case[], variants: Record<keyof Latencies, (c: Case) => unknown>) {
  const warmup: Warmup = { 'admit()': [], bare: [] };
  for (let pass = 1; pass <= WARMUP_PASSES; pass += 1) {
    const run = await timeInterleaved(refusals, variants);
    warmup['admit()'].push(run['admit()'].p50);
    warmup.bare.push(run.bare.p50);
  }
  return warmup;
}

/** The three runs at one size: refusals, writes and the mix, with the decisions they made. */
interface SizeResult {
  readonly memories: number;
  readonly outcomes: Record<string, number>;
  readonly warmup: Warmup;
  readonly refusals: Latencies;
  readonly writes: Latencies;
  readonly mixed: Latencies;
}

/** Runs the decisions through admit() and bare, call by call, on copies of one database of `size`. */
async function measureAt(
  size: { entities: number; memories: number },
  decisions: number,
  log: (m: string) => void,
): Promise<SizeResult> {
  const db = generate(size.entities, size.memories, log);
  const all = cases(db.entities, decisions);
  const dir = mkdtempSync(join(tmpdir(), 'mira-bench-admission-'));
  try {
    const storePath = join(dir, 'store.sqlite3');
    const barePath = join(dir, 'bare.sqlite3');
    log(`admission: copying the ${db.memories}-memory database twice…`);
    copyFileSync(db.path, storePath);
    copyFileSync(db.path, barePath);
    seed(storePath, all);
    seed(barePath, all);

    const store = SqliteMemoryStore.open(storePath);
    const bare = bareDecider(barePath);
    const outcomes: Record<string, number> = {};
    const check = (c: Case, wrote: boolean, variant: string) => {
      if (wrote !== (c.kind === 'accept')) throw new Error(`${variant} decided a ${c.kind} case the other way`);
    };
    const variants = {
      'admit()': async (c: Case) => {
        const result = await admit(store, profile, c.utterance, c.proposal);
        const key = result.status === 'applied' ? result.outcome : result.reason;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
        check(c, result.status === 'applied' && result.outcome === 'created', 'admit()');
      },
      bare: (c: Case) => check(c, bare.decide(c), 'bare'),
    };
    const half = Math.floor(all.length / 2);
    const mixed = all.slice(0, half);
    const refusals = all.filter((c) => c.kind === 'conflict');
    const writes = all.slice(half).filter((c) => c.kind === 'accept');
    // Refusals write nothing, so the same decisions run again: untimed until admit()'s p50 settles, then
    // once timed (see warmUp).
    log(`admission: ${db.memories} memories: ${refusals.length} conflict refusals, call by call…`);
    const warmup = await warmUp(refusals, variants);
    const refused = await timeInterleaved(refusals, variants);
    log(`admission: ${db.memories} memories: ${writes.length} accepted writes (fsync'd), call by call…`);
    const wrote = await timeInterleaved(writes, variants, Math.min(20, Math.floor(writes.length / 4)));
    log(`admission: ${db.memories} memories: ${mixed.length} mixed decisions, call by call…`);
    const mix = await timeInterleaved(mixed, variants, Math.min(20, Math.floor(mixed.length / 4)));
    await store.close();
    bare.close();
    return { memories: db.memories, outcomes, warmup, refusals: refused, writes: wrote, mixed: mix };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the admission benchmark at each size, smallest first, and writes bench/results/admission.{md,json,svg}:
 * the store's work grows with the database and the text rules' does not, so a small database is where
 * admit() is slowest beside bare.
 */
export async function admissionBench(options: AdmissionBenchOptions): Promise<void> {
  const results: SizeResult[] = [];
  for (const size of options.sizes) results.push(await measureAt(size, options.decisions, options.log));
  const row = (memories: number, what: string, m: Latencies) => ({
    memories,
    decisions: what,
    'admit() p50 µs': fmt(m['admit()'].p50),
    'bare p50 µs': fmt(m.bare.p50),
    'p50 ratio': fmt(m['admit()'].p50 / m.bare.p50, 2),
    'admit() p99 µs': fmt(m['admit()'].p99),
    'bare p99 µs': fmt(m.bare.p99),
    'p99 ratio': fmt(m['admit()'].p99 / m.bare.p99, 2),
    'time ratio': fmt(m['admit()'].totalMs / m.bare.totalMs, 2),
  });
  const rows = results.flatMap((r) => [
    row(r.memories, `${r.refusals.bare.n} conflict refusals (CPU: nothing written)`, r.refusals),
    row(r.memories, `${r.writes.bare.n} accepted writes (synchronous = FULL)`, r.writes),
    row(r.memories, `${r.mixed.bare.n} mixed: accepted / conflict / ungrounded`, r.mixed),
  ]);
  const md = `# Admission benchmark

Remember decisions through \`admit()\` (the rules on the operator's words, exact resolution, the slot
decision, the write) on SQLite databases of ${results.map((r) => r.memories).join(', ')} memories, beside
bare statements doing the same store work with the same locks: the exact key lookup and the slot read
without a lock; a write takes the write lock, reads the slot again under it and inserts the memory, its link
and its payload. The two run call by call on copies of one database, the order alternating; every size in
the same run. Decisions at each size: ${results
    .map(
      (r) =>
        `${r.memories}: ${Object.entries(r.outcomes)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')}`,
    )
    .join('; ')}.
Refusals write nothing: at each size they ran ${WARMUP_PASSES} times untimed (the JIT's and the heap's steady state
comes after a few thousand admissions), then once timed for the table. The p50 of each untimed pass,
admit() / bare µs (at the first size the first pass is the process's first admissions; the writes and the mix
run after all of them):
${results
  .map(
    (r) =>
      `${r.memories}: ${r.warmup['admit()'].map((admit, i) => `${fmt(admit)} / ${fmt(r.warmup.bare[i]!)}`).join(', ')}`,
  )
  .join('; ')}.
Load average (1 / 5 / 15 min): ${loadAverage()}. Target: ratios ≤ 1.5 at every size.

${markdownTable(rows)}
`;
  const svg = barChartSvg(
    'Admission: time per decision (p50)',
    'µs (lower is better)',
    results.flatMap((r) =>
      (
        [
          ['conflict refusals', r.refusals],
          ['accepted writes', r.writes],
          ['mixed', r.mixed],
        ] as const
      ).map(([label, m]) => ({
        label: `${label}, ${r.memories}`,
        bars: [
          { series: 'admit()', value: m['admit()'].p50 },
          { series: 'bare statements', value: m.bare.p50 },
        ],
      })),
    ),
  );
  writeResults('admission', md, { sizes: results }, svg);
  process.stdout.write(`${md}\n`);
}
