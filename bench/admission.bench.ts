import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { normalizeKey, type ProfileInfo } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit, type RememberProposal } from '@mira/plugin-memory-tools';
import { entityName, generate } from './lib/generate.js';
import { barChartSvg, markdownTable, writeResults } from './lib/report.js';
import { fmt, rng } from './lib/stats.js';

export interface AdmissionBenchOptions {
  readonly big: { entities: number; memories: number };
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

/** The same decisions as bare statements: key lookup, slot check, and the one write transaction. */
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
  const slot = db.prepare(
    "SELECT m.id, m.value FROM memory_links l JOIN memories m ON m.id = l.memory_id WHERE l.entity_id = ? AND l.role = 'subject' AND m.predicate = ? AND m.status = 'active' ORDER BY m.id",
  );
  const insertMemory = db.prepare(
    "INSERT INTO memories (kind, summary, predicate, value, source_kind, status, created_at) VALUES (?, ?, ?, ?, 'operator_statement', 'active', ?)",
  );
  const insertLink = db.prepare("INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, 'subject')");
  const insertPayload = db.prepare(
    "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
  );
  const write = db.transaction((p: RememberProposal, entity: number) => {
    const now = new Date().toISOString();
    const id = insertMemory.run(p.kind, p.evidence, p.predicate, p.value, now).lastInsertRowid;
    insertLink.run(id, entity);
    insertPayload.run(id, p.evidence, Buffer.byteLength(p.evidence), now);
  });
  return {
    decide(c: Case): boolean {
      if (!c.utterance.includes(c.proposal.evidence)) return false;
      const key = normalizeKey(c.proposal.subject);
      const [entity] = ids.all(key, key) as number[];
      const existing = slot.all(entity, c.proposal.predicate) as Array<{ value: string }>;
      if (existing.some((m) => m.value !== c.proposal.value)) return false;
      write.immediate(c.proposal, entity!);
      return true;
    },
    close: () => db.close(),
  };
}

/** Runs the admission benchmark and writes bench/results/admission.{md,json,svg}. */
export async function admissionBench(options: AdmissionBenchOptions): Promise<void> {
  const { log } = options;
  const big = generate(options.big.entities, options.big.memories, log);
  const all = cases(big.entities, options.decisions);
  const dir = mkdtempSync(join(tmpdir(), 'mira-bench-admission-'));
  try {
    const storePath = join(dir, 'store.sqlite3');
    const barePath = join(dir, 'bare.sqlite3');
    log(`admission: copying the ${big.memories}-memory database twice…`);
    copyFileSync(big.path, storePath);
    copyFileSync(big.path, barePath);
    seed(storePath, all);
    seed(barePath, all);

    const store = SqliteMemoryStore.open(storePath);
    const outcomes: Record<string, number> = {};
    log(`admission: ${all.length} decisions through admit()…`);
    const storeStart = process.hrtime.bigint();
    for (const c of all) {
      const result = await admit(store, profile, c.utterance, c.proposal);
      const key = result.status === 'applied' ? result.outcome : result.reason;
      outcomes[key] = (outcomes[key] ?? 0) + 1;
    }
    const storeSeconds = Number(process.hrtime.bigint() - storeStart) / 1e9;
    await store.close();

    const bare = bareDecider(barePath);
    let bareWrites = 0;
    log(`admission: the same decisions as bare statements…`);
    const bareStart = process.hrtime.bigint();
    for (const c of all) if (bare.decide(c)) bareWrites += 1;
    const bareSeconds = Number(process.hrtime.bigint() - bareStart) / 1e9;
    bare.close();
    if (bareWrites !== (outcomes.created ?? 0))
      throw new Error(`bare wrote ${bareWrites}, admit created ${outcomes.created}`);

    const perSecond = { store: all.length / storeSeconds, bare: all.length / bareSeconds };
    const ratio = storeSeconds / bareSeconds;
    const rows = [
      { measurement: 'admit() decisions/s', value: fmt(perSecond.store, 0), 'time ratio vs bare': fmt(ratio, 2) },
      { measurement: 'bare statements decisions/s', value: fmt(perSecond.bare, 0), 'time ratio vs bare': '1.00' },
    ];
    const md = `# Admission benchmark

${all.length} remember decisions on a ${big.memories}-memory database (synchronous = FULL):
${Object.entries(outcomes)
  .map(([k, v]) => `${v} ${k}`)
  .join(', ')}. Beside the bare cost of the same work
(exact key lookup, slot check, and the one insert transaction for accepted writes).
Target: time ratio ≤ 1.5.

${markdownTable(rows)}
`;
    const svg = barChartSvg('Admission: time per decision', 'µs (lower is better)', [
      {
        label: 'mixed accepted / conflict / ungrounded',
        bars: [
          { series: 'admit()', value: 1e6 / perSecond.store },
          { series: 'bare statements', value: 1e6 / perSecond.bare },
        ],
      },
    ]);
    writeResults('admission', md, { outcomes, perSecond, ratio }, svg);
    process.stdout.write(`${md}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
