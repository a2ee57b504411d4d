import { expect } from 'chai';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isMiraError, type MiraError } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import type { UpgradeDone } from '@mira/sqlite';
import { REPO_ROOT, runMira } from './helpers/run-mira.js';

/** A memory file written by the release before proposals (schema version 1), through its console. */
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'memory-v1.sqlite3');

const shape = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name').all();
  } finally {
    db.close();
  }
};

function openError(path: string, options: { readOnly?: boolean } = {}): MiraError {
  try {
    SqliteMemoryStore.open(path, options).close();
  } catch (error) {
    if (isMiraError(error)) return error;
    throw error;
  }
  throw new Error(`expected ${path} to be refused`);
}

describe('memory schema version 1 → 2: a tested upgrade with a backup first', function () {
  this.timeout(30_000);
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-upgrade-'));
    path = join(dir, 'memory.sqlite3');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the file byte for byte, then upgrades it in place keeping every row and ID', async () => {
    copyFileSync(FIXTURE, path);
    const original = readFileSync(FIXTURE);
    const done: UpgradeDone[] = [];
    const store = SqliteMemoryStore.open(path, { onUpgrade: (d) => done.push(d) });
    try {
      expect(done).to.deep.equal([{ from: 1, to: 2, backupPath: `${path}.v1.bak` }]);
      expect(readFileSync(`${path}.v1.bak`).equals(original)).to.equal(true);
      expect(await store.info()).to.deep.include({
        schemaVersion: 2,
        entities: 2,
        aliases: 1,
        memories: 3,
        activeMemories: 3,
        links: 4,
        payloads: 3,
      });
      const [alice] = await store.findEntities('Ali');
      expect(alice).to.deep.include({ ref: 'ENT1', canonicalName: 'Alice', entityType: 'person' });
      const tea = await store.getMemory(1);
      expect(tea).to.deep.include({
        summary: 'Alice prefers tea',
        predicate: 'prefers',
        value: 'tea',
        source: { kind: 'console', label: null },
        status: 'active',
        supersededBy: null,
        supersededAt: null,
        supersedes: null,
      });
      expect((await store.getMemory(3))!.links.map((l) => `${l.entityRef} ${l.role}`)).to.deep.equal([
        'ENT1 object',
        'ENT2 subject',
      ]);
      // IDs continue where version 1 left off, and the new features work on the upgraded file.
      const proposal = await store.createProposal({
        kind: 'supersede',
        memoryId: 1,
        value: 'coffee',
        evidence: 'Alice prefers coffee',
        utterance: 'Alice prefers coffee',
      });
      const accepted = await store.acceptProposal(proposal.id);
      expect('memory' in accepted && accepted.memory.ref).to.equal('MEM4');
    } finally {
      await store.close();
    }
    // Exactly the schema a new file gets, with intact references.
    const fresh = join(dir, 'fresh.sqlite3');
    SqliteMemoryStore.open(fresh).close();
    expect(shape(path)).to.deep.equal(shape(fresh));
    const db = new Database(path, { readonly: true });
    expect(db.pragma('foreign_key_check')).to.deep.equal([]);
    expect(db.pragma('integrity_check', { simple: true })).to.equal('ok');
    db.close();
    // Once: the next open neither upgrades nor backs up again.
    const again: UpgradeDone[] = [];
    SqliteMemoryStore.open(path, { onUpgrade: (d) => again.push(d) }).close();
    expect(again).to.deep.equal([]);
    expect(readdirSync(dir).filter((f) => f.includes('.bak'))).to.deep.equal(['memory.sqlite3.v1.bak']);
  });

  it('says so on the console: the new version, and where the backup is', async () => {
    copyFileSync(FIXTURE, path);
    const profile = join(dir, 'profile.toml');
    writeFileSync(
      profile,
      '[profile]\nname = "Mira"\nplugins = ["@mira/plugin-memory"]\n[memory]\nenabled = true\ndatabase_path = "memory.sqlite3"\n',
    );
    const run = await runMira(['--profile', profile], 'memory persistent\nmemory find "Ali"\n', { timeoutMs: 20_000 });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.contain('schema version: 2\n');
    expect(run.stdout).to.contain('MEM1 preference "Alice prefers tea" prefers="tea" [ENT1 subject]');
    expect(run.stderr).to.contain(
      `memory database upgraded from schema version 1 to 2; the version 1 file was copied to ${path}.v1.bak first`,
    );
  });

  const refusals: Array<[string, (db: Database.Database) => void, string, RegExp]> = [
    [
      'a version 1 file with a table Mira did not make',
      (db) => db.exec('CREATE TABLE my_extras (x)'),
      'MIRA_ERR_STORE_NOT_MIRA',
      /not what Mira's version 1 created/,
    ],
    [
      'a version 1 file with an index missing',
      (db) => db.exec('DROP INDEX payloads_by_memory'),
      'MIRA_ERR_STORE_NOT_MIRA',
      /not what Mira's version 1 created/,
    ],
    [
      'a version 1 file with a changed column',
      (db) => db.exec('ALTER TABLE memories ADD COLUMN mood TEXT'),
      'MIRA_ERR_STORE_NOT_MIRA',
      /not upgraded/,
    ],
    [
      'a newer version',
      (db) => db.pragma('user_version = 3'),
      'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
      /schema version 3, but this Mira supports version 2/,
    ],
  ];
  for (const [what, change, code, says] of refusals) {
    it(`refuses ${what}: nothing changed, no backup made`, () => {
      copyFileSync(FIXTURE, path);
      const db = new Database(path);
      change(db);
      db.close();
      const before = readFileSync(path);
      const listing = readdirSync(dir).sort();
      const error = openError(path);
      expect(error.code, error.message).to.equal(code);
      expect(error.message).to.match(says);
      expect(readFileSync(path).equals(before)).to.equal(true);
      expect(readdirSync(dir).sort()).to.deep.equal(listing);
    });
  }

  it('backs up a file in rollback-journal mode byte for byte, then moves it to WAL', async () => {
    copyFileSync(FIXTURE, path);
    const db = new Database(path);
    db.pragma('journal_mode = DELETE');
    db.close();
    const original = readFileSync(path);
    expect(original[18]).to.equal(1);
    const done: UpgradeDone[] = [];
    const store = SqliteMemoryStore.open(path, { onUpgrade: (d) => done.push(d) });
    try {
      expect(done).to.deep.equal([{ from: 1, to: 2, backupPath: `${path}.v1.bak` }]);
      expect(readFileSync(`${path}.v1.bak`).equals(original)).to.equal(true);
      expect((await store.info()).memories).to.equal(3);
    } finally {
      await store.close();
    }
    expect(readFileSync(path)[18]).to.equal(2);
  });

  it('writes no backup for an upgrade it refuses, however often it is started', () => {
    copyFileSync(FIXTURE, path);
    const db = new Database(path);
    db.pragma('foreign_keys = OFF');
    // A link to a memory that does not exist: the upgrade's foreign key check fails.
    db.prepare("INSERT INTO memory_links (memory_id, entity_id, role) VALUES (999, 1, 'subject')").run();
    db.close();
    const before = readFileSync(path);
    for (let start = 0; start < 3; start += 1) {
      const error = openError(path);
      expect(error.code).to.equal('MIRA_ERR_STORE_OPEN_FAILED');
      expect(error.detail).to.equal(
        `${path}: the upgrade from version 1 would leave 1 broken references; nothing was changed and no backup was written. Repair the references with the Mira release that wrote the file, or point [memory] database_path at another file`,
      );
    }
    expect(readdirSync(dir).filter((f) => f.includes('.bak'))).to.deep.equal([]);
    expect(readFileSync(path).equals(before)).to.equal(true);
  });

  it('refuses to serve a version 1 file read-only (mira mcp) until the console has upgraded it', () => {
    copyFileSync(FIXTURE, path);
    const error = openError(path, { readOnly: true });
    expect(error.code).to.equal('MIRA_ERR_STORE_OPEN_FAILED');
    expect(error.message).to.match(/needs its one-time upgrade to version 2; open the profile's console once/);
    expect(readFileSync(path).equals(readFileSync(FIXTURE))).to.equal(true);
    expect(existsSync(`${path}.v1.bak`)).to.equal(false);
  });
});

describe('two processes accepting conflicting proposals for one slot', function () {
  this.timeout(60_000);

  it('applies exactly one; the other fails with a clear code and changes nothing', async () => {
    for (let round = 0; round < 3; round += 1) {
      const dir = mkdtempSync(join(tmpdir(), 'mira-accept-race-'));
      try {
        const path = join(dir, 'memory.sqlite3');
        copyFileSync(FIXTURE, path);
        const store = SqliteMemoryStore.open(path);
        for (const value of ['coffee', 'cocoa']) {
          await store.createProposal({
            kind: 'supersede',
            memoryId: 1,
            value,
            evidence: `Alice prefers ${value}`,
            utterance: `Alice prefers ${value} now.`,
          });
        }
        await store.close();
        const profile = join(dir, 'profile.toml');
        writeFileSync(
          profile,
          '[profile]\nname = "Mira"\nplugins = ["@mira/plugin-memory"]\n[memory]\nenabled = true\ndatabase_path = "memory.sqlite3"\n',
        );
        const runs = await Promise.all(
          ['P1', 'P2'].map((p) => runMira(['--profile', profile], `memory accept ${p}\n`, { timeoutMs: 30_000 })),
        );
        const accepted = runs.filter((r) => /^P[12] accepted$/m.test(r.stdout));
        const stale = runs.filter((r) =>
          /error: MIRA_ERR_MEMORY_PROPOSAL_STALE: P[12] replaces MEM1/.test(r.stdout + r.stderr),
        );
        expect(accepted, JSON.stringify(runs)).to.have.length(1);
        expect(stale, JSON.stringify(runs)).to.have.length(1);
        const check = SqliteMemoryStore.open(path);
        try {
          const old = (await check.getMemory(1))!;
          expect(old.status).to.equal('superseded');
          expect((await check.findActiveBySlot(1, 'subject', 'prefers')).map((m) => m.id)).to.deep.equal([
            old.supersededBy,
          ]);
          expect((await check.info()).memories).to.equal(4);
          expect((await check.listProposals()).map((p) => p.status).sort()).to.deep.equal(['accepted', 'pending']);
        } finally {
          await check.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});
