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
  /** The languages the decisions are spoken in, each in turn (default: all of {@link LANGUAGES}). */
  readonly languages?: readonly Language[];
  readonly log: (m: string) => void;
}

/** The languages the decisions are spoken in: English, and French, Korean and Chinese beside it. */
export const LANGUAGES = ['en', 'fr', 'ko', 'zh'] as const;
type Language = (typeof LANGUAGES)[number];

type Case = {
  kind: 'accept' | 'conflict' | 'ungrounded';
  language: Language;
  utterance: string;
  proposal: RememberProposal;
  entity: number;
  /** The memory a conflict's slot holds already (seeded): its value differs from the proposal's. */
  seeded?: { predicate: string; value: string; summary: string };
  /** A name of the entity in the language's own script (seeded as an alias), when the rules need one. */
  alias?: string;
};

const profile: ProfileInfo = { name: 'Mira', description: '', manifestPath: '/bench/profile.toml', dir: '/bench' };

/** A Korean name for entity `i`, unique per entity: 박 and a syllable per digit (Korean reads names in Hangul). */
const hangulName = (i: number) =>
  `박${[...String(i).padStart(6, '0')].map((d) => '가나다라마바사아자차'[Number(d)]).join('')}`;

/**
 * What each language says: a preference the slot already holds another value of (a conflict: seeded), a
 * fact (a write) and a question (ungrounded), about `name`, in the words the rules read in that language.
 */
const PHRASES: Record<
  Language,
  {
    conflict: { predicate: string; seeded: string; value: string; clause: (name: string, value: string) => string };
    utterance: (evidence: string) => string;
    fact: (name: string, i: number) => { predicate: string; value: string; evidence: string; utterance: string };
    question: string;
    name: (entity: number) => { subject: string; alias?: string };
  }
> = {
  en: {
    conflict: { predicate: 'favourite_dock', seeded: 'dock 1', value: 'dock 2', clause: (n, v) => `${n} prefers ${v}` },
    utterance: (evidence) => `Remember that ${evidence}.`,
    fact: (n, i) => ({
      predicate: `charged_at_${i}`,
      value: `station ${i}`,
      evidence: `${n} charged at station ${i}`,
      utterance: `Please remember: ${n} charged at station ${i}.`,
    }),
    question: 'What time is it?',
    name: (entity) => ({ subject: entityName(entity) }),
  },
  fr: {
    conflict: { predicate: 'likes', seeded: 'le thé', value: 'le café', clause: (n, v) => `${n} aime ${v}` },
    utterance: (evidence) => `Retiens que ${evidence}.`,
    fact: (n, i) => ({
      predicate: `fr_recharged_at_${i}`,
      value: `la station ${i}`,
      evidence: `${n} a rechargé à la station ${i}`,
      utterance: `N'oublie pas : ${n} a rechargé à la station ${i}.`,
    }),
    question: 'Quelle heure est-il ?',
    name: (entity) => ({ subject: entityName(entity) }),
  },
  ko: {
    conflict: { predicate: 'likes', seeded: '녹차', value: '커피', clause: (n, v) => `${n}는 ${v}를 좋아해요` },
    utterance: (evidence) => `${evidence}.`,
    fact: (n, i) => ({
      predicate: `ko_charged_at_${i}`,
      value: `${i}번 충전소`,
      evidence: `${n}는 ${i}번 충전소에서 충전했어요`,
      utterance: `기억해: ${n}는 ${i}번 충전소에서 충전했어요.`,
    }),
    question: '지금 몇 시예요?',
    name: (entity) => ({ subject: hangulName(entity), alias: hangulName(entity) }),
  },
  zh: {
    conflict: { predicate: 'likes', seeded: '绿茶', value: '咖啡', clause: (n, v) => `${n}喜欢${v}` },
    utterance: (evidence) => `${evidence}。`,
    fact: (n, i) => ({
      predicate: `zh_charged_at_${i}`,
      value: `${i}号充电站`,
      evidence: `${n}在${i}号充电站充了电`,
      utterance: `记住：${n}在${i}号充电站充了电。`,
    }),
    question: '现在几点？',
    name: (entity) => ({ subject: entityName(entity) }),
  },
};

function cases(entities: number, count: number, language: Language): Case[] {
  const random = rng(3 + LANGUAGES.indexOf(language));
  const say = PHRASES[language];
  return Array.from({ length: count }, (_, i) => {
    const entity = 1 + Math.floor(random() * entities);
    const { subject: name, alias } = say.name(entity);
    const roll = i % 4;
    const preference = (value: string, evidence: string) => ({
      kind: 'preference' as const,
      subject: name,
      predicate: say.conflict.predicate,
      value,
      evidence,
      related_entity: null,
      related_role: null,
    });
    if (roll === 2) {
      // The slot already holds the seeded value: a different value is a conflict.
      const evidence = say.conflict.clause(name, say.conflict.value);
      const summary = say.conflict.clause(name, say.conflict.seeded);
      return {
        kind: 'conflict',
        language,
        entity,
        alias,
        utterance: say.utterance(evidence),
        proposal: preference(say.conflict.value, evidence),
        seeded: { predicate: say.conflict.predicate, value: say.conflict.seeded, summary },
      };
    }
    if (roll === 3) {
      const evidence = say.conflict.clause(name, say.conflict.seeded);
      return {
        kind: 'ungrounded',
        language,
        entity,
        alias,
        utterance: say.question,
        proposal: preference(say.conflict.seeded, evidence),
      };
    }
    const fact = say.fact(name, i);
    return {
      kind: 'accept',
      language,
      entity,
      alias,
      utterance: fact.utterance,
      proposal: {
        kind: 'fact',
        subject: name,
        predicate: fact.predicate,
        value: fact.value,
        evidence: fact.evidence,
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
    "INSERT INTO memories (kind, summary, predicate, value, source_kind, status, created_at) VALUES ('preference', ?, ?, ?, 'console', 'active', '2026-01-01T00:00:00.000Z')",
  );
  const insertLink = db.prepare("INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, 'subject')");
  const insertPayload = db.prepare(
    "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, '2026-01-01T00:00:00.000Z')",
  );
  const insertAlias = db.prepare(
    "INSERT INTO aliases (entity_id, alias, alias_key, created_at) VALUES (?, ?, ?, '2026-01-01T00:00:00.000Z')",
  );
  db.transaction(() => {
    const done = new Set<string>();
    for (const c of all) {
      if (c.alias !== undefined && !done.has(`alias ${c.entity}`)) {
        done.add(`alias ${c.entity}`);
        insertAlias.run(c.entity, c.alias, normalizeKey(c.alias));
      }
      const s = c.seeded;
      if (c.kind !== 'conflict' || !s || done.has(`${c.entity} ${s.predicate} ${s.value}`)) continue;
      done.add(`${c.entity} ${s.predicate} ${s.value}`);
      const id = insertMemory.run(s.summary, s.predicate, s.value).lastInsertRowid;
      insertLink.run(id, c.entity);
      insertPayload.run(id, s.summary, Buffer.byteLength(s.summary));
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

/** The three runs at one size in one language: refusals, writes and the mix, with the decisions they made. */
interface LanguageResult {
  readonly language: Language;
  readonly outcomes: Record<string, number>;
  readonly warmup: Warmup;
  readonly refusals: Latencies;
  readonly writes: Latencies;
  readonly mixed: Latencies;
}

interface SizeResult {
  readonly memories: number;
  readonly languages: LanguageResult[];
}

/**
 * Runs the decisions through admit() and bare, call by call, on copies of one database of `size`: each
 * language's in turn (English first), on the same two databases.
 */
async function measureAt(
  size: { entities: number; memories: number },
  decisions: number,
  languages: readonly Language[],
  log: (m: string) => void,
): Promise<SizeResult> {
  const db = generate(size.entities, size.memories, log);
  const byLanguage = languages.map((language) => cases(db.entities, decisions, language));
  const dir = mkdtempSync(join(tmpdir(), 'mira-bench-admission-'));
  try {
    const storePath = join(dir, 'store.sqlite3');
    const barePath = join(dir, 'bare.sqlite3');
    log(`admission: copying the ${db.memories}-memory database twice…`);
    copyFileSync(db.path, storePath);
    copyFileSync(db.path, barePath);
    seed(storePath, byLanguage.flat());
    seed(barePath, byLanguage.flat());

    const store = SqliteMemoryStore.open(storePath);
    const bare = bareDecider(barePath);
    const results: LanguageResult[] = [];
    for (const all of byLanguage) {
      const language = all[0]!.language;
      const outcomes: Record<string, number> = {};
      const check = (c: Case, wrote: boolean, variant: string) => {
        if (wrote !== (c.kind === 'accept'))
          throw new Error(`${variant} decided a ${c.language} ${c.kind} case the other way: ${c.utterance}`);
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
      const at = `admission: ${db.memories} memories, ${language}:`;
      // Refusals write nothing, so the same decisions run again: untimed until admit()'s p50 settles, then
      // once timed (see warmUp).
      log(`${at} ${refusals.length} conflict refusals, call by call…`);
      const warmup = await warmUp(refusals, variants);
      const refused = await timeInterleaved(refusals, variants);
      log(`${at} ${writes.length} accepted writes (fsync'd), call by call…`);
      const wrote = await timeInterleaved(writes, variants, Math.min(20, Math.floor(writes.length / 4)));
      log(`${at} ${mixed.length} mixed decisions, call by call…`);
      const mix = await timeInterleaved(mixed, variants, Math.min(20, Math.floor(mixed.length / 4)));
      results.push({ language, outcomes, warmup, refusals: refused, writes: wrote, mixed: mix });
    }
    await store.close();
    bare.close();
    return { memories: db.memories, languages: results };
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
  const languages = options.languages ?? LANGUAGES;
  const results: SizeResult[] = [];
  for (const size of options.sizes) results.push(await measureAt(size, options.decisions, languages, options.log));
  const ratio = (m: Latencies) => m['admit()'].p50 / m.bare.p50;
  const row = (
    memories: number,
    r: LanguageResult,
    english: LanguageResult,
    what: string,
    pick: (r: LanguageResult) => Latencies,
  ) => {
    const m = pick(r);
    return {
      memories,
      language: r.language,
      decisions: what,
      'admit() p50 µs': fmt(m['admit()'].p50),
      'bare p50 µs': fmt(m.bare.p50),
      'p50 ratio': fmt(ratio(m), 2),
      'admit() p99 µs': fmt(m['admit()'].p99),
      'bare p99 µs': fmt(m.bare.p99),
      'p99 ratio': fmt(m['admit()'].p99 / m.bare.p99, 2),
      'time ratio': fmt(m['admit()'].totalMs / m.bare.totalMs, 2),
      'admit() p50 / English': fmt(m['admit()'].p50 / pick(english)['admit()'].p50, 2),
    };
  };
  const rows = results.flatMap((s) =>
    s.languages.flatMap((r) => [
      row(
        s.memories,
        r,
        s.languages[0]!,
        `${r.refusals.bare.n} conflict refusals (CPU: nothing written)`,
        (x) => x.refusals,
      ),
      row(s.memories, r, s.languages[0]!, `${r.writes.bare.n} accepted writes (synchronous = FULL)`, (x) => x.writes),
      row(s.memories, r, s.languages[0]!, `${r.mixed.bare.n} mixed: accepted / conflict / ungrounded`, (x) => x.mixed),
    ]),
  );
  const md = `# Admission benchmark

Remember decisions through \`admit()\` (the rules on the operator's words, exact resolution, the slot
decision, the write) on SQLite databases of ${results.map((r) => r.memories).join(', ')} memories, beside
bare statements doing the same store work with the same locks (the baseline): the exact key lookup and the slot read
without a lock; a write takes the write lock, reads the slot again under it and inserts the memory, its link
and its payload. The two run call by call on copies of one database, the order alternating; every size in
the same run. Each language (${languages.join(', ')}) says the same things in its own words — a preference the
slot holds another value of (a conflict), a fact (a write), a question (ungrounded); Korean names the entities
in Hangul (an alias) — one language after the other on the same databases. Decisions at each size: ${results
    .map(
      (s) =>
        `${s.memories}: ${s.languages
          .map(
            (r) =>
              `${r.language} ${Object.entries(r.outcomes)
                .map(([k, v]) => `${v} ${k}`)
                .join(', ')}`,
          )
          .join('; ')}`,
    )
    .join(' — ')}.
Refusals write nothing: at each size and in each language they ran ${WARMUP_PASSES} times untimed (the JIT's and the heap's steady state
comes after a few thousand admissions), then once timed for the table. The p50 of each untimed pass,
admit() / bare µs (at the first size the first pass is the process's first admissions):
${results
  .map(
    (s) =>
      `${s.memories}: ${s.languages
        .map(
          (r) =>
            `${r.language} ${r.warmup['admit()'].map((admit, i) => `${fmt(admit)} / ${fmt(r.warmup.bare[i]!)}`).join(', ')}`,
        )
        .join('; ')}`,
  )
  .join(' — ')}.
Load average (1 / 5 / 15 min): ${loadAverage()}. Target: ratios ≤ 1.5 at every size, in every language.

${markdownTable(rows)}
`;
  const svg = barChartSvg(
    'Admission: time per decision (p50)',
    'µs (lower is better)',
    results.flatMap((s) =>
      s.languages.flatMap((r) =>
        (
          [
            ['conflict refusals', r.refusals],
            ['accepted writes', r.writes],
            ['mixed', r.mixed],
          ] as const
        ).map(([label, m]) => ({
          label: `${label}, ${r.language}, ${s.memories}`,
          bars: [
            { series: 'admit()', value: m['admit()'].p50 },
            { series: 'bare statements', value: m.bare.p50 },
          ],
        })),
      ),
    ),
  );
  writeResults('admission', md, { sizes: results }, svg);
  process.stdout.write(`${md}\n`);
}
