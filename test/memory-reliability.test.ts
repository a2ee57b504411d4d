import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { killAfter, startWriter } from './helpers/memory-writer.js';

function audit(path: string) {
  const db = new Database(path, { readonly: true });
  const integrity = db.pragma('integrity_check', { simple: true });
  const memories = db.prepare('SELECT id FROM memories ORDER BY id').pluck().all() as number[];
  const partial = db
    .prepare(
      `SELECT m.id FROM memories m WHERE (SELECT count(*) FROM memory_links l WHERE l.memory_id = m.id) <> 2
         OR (SELECT count(*) FROM payloads p WHERE p.memory_id = m.id AND p.payload_kind = 'inline_text' AND p.media_type = 'text/plain') <> 1`,
    )
    .pluck()
    .all();
  db.close();
  return { integrity, memories, partial };
}

describe('SqliteMemoryStore reliability (real processes)', function () {
  this.timeout(60_000);
  let dir: string;
  let path: string;
  let a: number;
  let b: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-reliability-'));
    path = join(dir, 'memory.sqlite3');
    const store = SqliteMemoryStore.open(path);
    a = (await store.createEntity({ entityType: 'robot', canonicalName: 'Mira' })).id;
    b = (await store.createEntity({ entityType: 'place', canonicalName: 'Lab' })).id;
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (let round = 1; round <= 3; round += 1) {
    it(`keeps every acknowledged memory whole after SIGKILL at a random moment (round ${round})`, async () => {
      const writer = startWriter(path, `crash${round}`, 'forever', a, b);
      expect(await killAfter(writer, 5 + Math.floor(Math.random() * 150))).to.equal('SIGKILL');
      const result = audit(path);
      expect(result.integrity).to.equal('ok');
      expect(result.partial, 'memories without exactly two links and one payload').to.deep.equal([]);
      expect(result.memories).to.include.members(writer.acked);
      // At most the one write in flight at the kill may have committed unacknowledged.
      expect(result.memories.length - writer.acked.length).to.be.within(0, 1);
      const reopened = SqliteMemoryStore.open(path);
      const last = await reopened.getMemory(writer.acked.at(-1)!);
      expect(last?.links.map((l) => l.role)).to.deep.equal(['subject', 'object']);
      await reopened.close();
    });
  }

  it('loses nothing when two processes write to the same file at once', async () => {
    const perWriter = 150;
    const one = startWriter(path, 'one', perWriter, a, b);
    const two = startWriter(path, 'two', perWriter, a, b);
    const [r1, r2] = await Promise.all([one.exited, two.exited]);
    expect(r1.code, one.stderr()).to.equal(0);
    expect(r2.code, two.stderr()).to.equal(0);
    expect(one.acked).to.have.length(perWriter);
    expect(two.acked).to.have.length(perWriter);
    const result = audit(path);
    expect(result.integrity).to.equal('ok');
    expect(result.partial).to.deep.equal([]);
    expect(result.memories).to.have.members([...one.acked, ...two.acked]);
    const db = new Database(path, { readonly: true });
    const labels = db
      .prepare('SELECT source_label, count(*) AS n FROM memories GROUP BY source_label ORDER BY source_label')
      .all();
    db.close();
    expect(labels).to.deep.equal([
      { source_label: 'one', n: perWriter },
      { source_label: 'two', n: perWriter },
    ]);
  });
});

const ADMITTER = fileURLToPath(new URL('./fixtures/admit-writer.js', import.meta.url));

/** A process that admits one proposal per line it is given and answers each with its result. */
function startAdmitter(path: string) {
  const child = spawn(process.execPath, [ADMITTER, path], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr.on('data', (d) => (stderr += d));
  const next = async (count: number) => {
    const deadline = Date.now() + 20_000;
    while (lines.length < count) {
      if (Date.now() > deadline) throw new Error(`no answer from the admitting process; stderr: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return lines[count - 1]!;
  };
  return { child, next };
}

describe('remember admission across processes (real processes, one file)', function () {
  this.timeout(60_000);
  let dir: string;
  let path: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-admit-'));
    path = join(dir, 'memory.sqlite3');
    const store = SqliteMemoryStore.open(path);
    await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
    await store.close();
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  for (const [what, values, expected] of [
    ['conflicting values', ['tea', 'coffee'], ['conflict', 'created']],
    ['the same value', ['tea', 'tea'], ['created', 'duplicate']],
  ] as const) {
    it(`decides ${what} for one slot at the same instant one after the other, 20 rounds`, async () => {
      const first = startAdmitter(path);
      const second = startAdmitter(path);
      await Promise.all([first.next(1), second.next(1)]); // both opened the store ("ready")
      for (let round = 1; round <= 20; round += 1) {
        // Both lines leave in the same tick: the two processes decide on one slot at once.
        first.child.stdin.write(`drinks_${round} ${values[0]}\n`);
        second.child.stdin.write(`drinks_${round} ${values[1]}\n`);
        const results = (await Promise.all([first.next(round + 1), second.next(round + 1)])).map(
          (line) => JSON.parse(line) as { status: string; outcome?: string; reason?: string },
        );
        const outcomes = results.map((r) => r.outcome ?? r.reason).sort();
        expect(outcomes, `round ${round}`).to.deep.equal([...expected]);
      }
      first.child.stdin.end();
      second.child.stdin.end();
      const db = new Database(path, { readonly: true });
      const perSlot = db
        .prepare("SELECT predicate, count(*) AS n FROM memories WHERE kind = 'fact' GROUP BY predicate HAVING n <> 1")
        .all();
      db.close();
      expect(perSlot).to.deep.equal([]);
    });
  }
});
