import { MEMORY_STORE } from '@mira/memory-contract';
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { DataSource } from 'typeorm';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { promisify } from 'node:util';
import type { MiraError } from '@mira/core';
import { createTestRuntime, type TestRuntime } from '@mira/core/testing';
import mindViewPlugin from '@mira/plugin-mind-view';
import memoryToolsPlugin from '@mira/plugin-memory-tools';
import memoryPlugin, { SqliteMemoryStore } from '@mira/plugin-memory';
import {
  BACKUP_SCHEMA_V1,
  FLEET_SCHEMA_VERSION,
  MemorySchemaV1,
  PostgresMemoryStore,
} from '@mira/plugin-memory/postgres';
import { rejection } from './conformance/memory-store-contract.js';
import { killAfter, startWriter } from './helpers/memory-writer.js';
import { modelRuntime, toolMessages } from './helpers/model-runtime.js';
import { REPO_ROOT, runMira } from './helpers/run-mira.js';
import { createTestDatabase, postgresUnavailable, superuser, type TestDatabase } from './helpers/postgres.js';

const run = promisify(execFile);
const unavailable = postgresUnavailable();

describe('fleet memory on PostgreSQL (a real server)', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  before(function () {
    if (unavailable) {
      process.stdout.write(`      (skipped: ${unavailable})\n`);
      this.skip();
    }
  });
  beforeEach(async () => (db = await createTestDatabase()));
  afterEach(async () => db?.drop());

  describe('opening', () => {
    it('initialises an empty database with versioned migrations and opens it again', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      await store.close();
      const again = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      expect((await again.findEntities('ada')).map((e) => e.ref)).to.deep.equal(['ENT1']);
      await again.close();
      const client = await db.client();
      const migrations = await client.query('SELECT name FROM mira_migrations');
      const meta = await client.query('SELECT key, value FROM mira_meta ORDER BY key');
      await client.end();
      expect(migrations.rows.map((r) => r.name)).to.deep.equal([
        'MemorySchemaV11700000000001',
        'MemorySchemaV21700000000002',
        'MemorySchemaV31700000000003',
        'MemorySchemaV41700000000004',
      ]);
      expect(meta.rows).to.deep.equal([
        { key: 'application', value: 'mira-memory' },
        { key: 'schema_version', value: String(FLEET_SCHEMA_VERSION) },
      ]);
    });

    for (const [what, setup, code] of [
      [
        'another application’s tables',
        'CREATE TABLE orders (id int PRIMARY KEY); INSERT INTO orders VALUES (1)',
        'MIRA_ERR_MEMORY_FOREIGN_DATABASE',
      ],
      [
        'another application’s mira_meta',
        "CREATE TABLE mira_meta (key text PRIMARY KEY, value text); INSERT INTO mira_meta VALUES ('application', 'billing')",
        'MIRA_ERR_MEMORY_FOREIGN_DATABASE',
      ],
      [
        'a newer Mira schema',
        `UPDATE mira_meta SET value = '${FLEET_SCHEMA_VERSION + 1}' WHERE key = 'schema_version'`,
        'MIRA_ERR_MEMORY_UNSUPPORTED_SCHEMA',
      ],
    ] as const) {
      it(`refuses ${what} and leaves the database unchanged (pg_dump before and after)`, async () => {
        if (what === 'a newer Mira schema') await (await PostgresMemoryStore.open({ url: db.url, space: 's' })).close();
        const client = await db.client();
        await client.query(setup);
        await client.end();
        const before = db.dump();
        const error = await rejection(PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }));
        expect(error.code).to.equal(code);
        expect(error.message).to.include('left unchanged');
        expect(db.dump()).to.equal(before);
      });
    }
  });

  describe('upgrading a version 1 database', () => {
    /** A database as the release before proposals left it: version 1's migration, and one robot's rows. */
    async function versionOne(extra = ''): Promise<void> {
      const ds = new DataSource({
        type: 'postgres',
        url: db.url,
        migrations: [MemorySchemaV1],
        migrationsTableName: 'mira_migrations',
      });
      await ds.initialize();
      await ds.runMigrations({ transaction: 'all' });
      const at = '2026-01-02T03:04:05.000Z';
      await ds.query(
        `INSERT INTO spaces (name, next_entity, next_memory, next_payload, created_at) VALUES ('ward-3', 2, 2, 2, $1);
        INSERT INTO entities VALUES ('ward-3', 1, 'person', 'Alice', 'alice', '${at}');
        INSERT INTO memories VALUES ('ward-3', 1, 'preference', 'Alice prefers tea', 'prefers', 'tea', 'console', NULL, NULL, 'active', '${at}');
        INSERT INTO memory_links VALUES ('ward-3', 1, 1, 'subject');
        INSERT INTO payloads VALUES ('ward-3', 1, 1, 'inline_text', 'text/plain', 'Alice prefers tea', NULL, NULL, 17, '${at}');
        ${extra}`.replace('$1', `'${at}'`),
      );
      await ds.destroy();
    }
    const dumpOf = (schema: string) =>
      execFileSync('runuser', ['-u', 'postgres', '--', 'pg_dump', '--data-only', '--schema', schema, db.name], {
        encoding: 'utf8',
      })
        .split('\n')
        .filter((line) => !/^(--|SET |\\(un)?restrict )/.test(line) && !line.includes('pg_catalog'))
        .map((line) => line.replaceAll(`${schema}.`, ''))
        .join('\n')
        // One COPY block per table, in table-name order (pg_dump orders by dependencies).
        .split(/\n(?=COPY )/)
        .map((block) => block.trim())
        .filter((block) => block.startsWith('COPY '))
        .sort();

    it('upgrades it once, copying every version 1 table first, and keeps every row and ID', async () => {
      await versionOne();
      const before = dumpOf('public');
      const [a, b] = await Promise.all([
        PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }),
        PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }),
      ]);
      await b.close();
      try {
        expect((await a.info()).schemaVersion).to.equal(FLEET_SCHEMA_VERSION);
        const tea = await a.getMemory(1);
        expect(tea).to.deep.include({ summary: 'Alice prefers tea', status: 'active', supersededBy: null });
        const p = await a.createProposal({
          kind: 'supersede',
          memoryId: 1,
          value: 'coffee',
          evidence: 'Alice prefers coffee',
          utterance: 'Alice prefers coffee',
        });
        const accepted = await a.acceptProposal(p.id);
        expect('memory' in accepted && accepted.memory.ref).to.equal('MEM2');
      } finally {
        await a.close();
      }
      // The backup holds the version 1 rows exactly as they were.
      expect(dumpOf(BACKUP_SCHEMA_V1)).to.deep.equal(before);
      const client = await db.client();
      const migrations = await client.query('SELECT name FROM mira_migrations ORDER BY id');
      await client.end();
      expect(migrations.rows.map((r) => r.name)).to.deep.equal([
        'MemorySchemaV11700000000001',
        'MemorySchemaV21700000000002',
        'MemorySchemaV31700000000003',
        'MemorySchemaV41700000000004',
      ]);
    });

    it('two robots accepting conflicting proposals for one slot at once: one applies, one is stale', async () => {
      await versionOne();
      const [a, b] = [
        await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }),
        await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }),
      ];
      try {
        for (let round = 0; round < 5; round += 1) {
          const [current] = await a.findActiveBySlot(1, 'subject', 'prefers');
          const ids = [];
          for (const value of [`coffee ${round}`, `cocoa ${round}`]) {
            const p = await a.createProposal({
              kind: 'supersede',
              memoryId: current!.id,
              value,
              evidence: `Alice prefers ${value}`,
              utterance: `Alice prefers ${value}`,
            });
            ids.push(p.id);
          }
          const outcomes = await Promise.allSettled([a.acceptProposal(ids[0]!), b.acceptProposal(ids[1]!)]);
          const codes = outcomes.map((o) => (o.status === 'fulfilled' ? 'applied' : (o.reason as MiraError).code));
          expect(codes.sort()).to.deep.equal(['MIRA_ERR_MEMORY_PROPOSAL_STALE', 'applied']);
          expect(await a.findActiveBySlot(1, 'subject', 'prefers')).to.have.length(1);
        }
        expect((await a.listMemoryHistory(1)).map((m) => m.status)).to.deep.equal([
          'superseded',
          'superseded',
          'superseded',
          'superseded',
          'superseded',
          'active',
        ]);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('refuses a version 1 database it does not recognise, leaving it unchanged', async () => {
      await versionOne('CREATE TABLE extra_notes (id int);');
      const before = db.dump();
      const error = await rejection(PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }));
      expect(error.code).to.equal('MIRA_ERR_MEMORY_UNSUPPORTED_SCHEMA');
      expect(error.message).to.include('left unchanged');
      expect(db.dump()).to.equal(before);
    });
  });

  describe('reaching the server', () => {
    it('says plainly when the password is wrong, the database is missing or the server is down', async () => {
      expect((await rejection(PostgresMemoryStore.open({ url: db.wrongPasswordUrl, space: 's' }))).code).to.equal(
        'MIRA_ERR_MEMORY_SERVER_AUTH',
      );
      const missing = db.url.replace(/\/[^/]+$/, '/no_such_database');
      expect((await rejection(PostgresMemoryStore.open({ url: missing, space: 's' }))).code).to.equal(
        'MIRA_ERR_MEMORY_SERVER_DATABASE',
      );
      const down = db.url.replace(/:5432\//, ':1/');
      const error = await rejection(PostgresMemoryStore.open({ url: down, space: 's', connectTimeoutMs: 1000 }));
      expect(error.code).to.equal('MIRA_ERR_MEMORY_SERVER_UNREACHABLE');
      expect(error.message).not.to.include(new URL(db.url).password);
    });

    it('answers one clear error while the server is gone, and works again once it is back', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        // The server drops every connection of this database, as a restart does.
        superuser(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db.name}'`);
        superuser(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS false`);
        await new Promise((r) => setTimeout(r, 100));
        const error = await rejection(store.findEntities('Ada'));
        expect(error.code).to.equal('MIRA_ERR_MEMORY_SERVER_UNREACHABLE');
        superuser(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS true`);
        expect((await store.findEntities('Ada')).map((e) => e.ref)).to.deep.equal(['ENT1']);
      } finally {
        superuser(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS true`);
        await store.close();
      }
    });
  });

  describe('robots sharing a space', () => {
    const robot = (space: string, name = 'Robot') =>
      createTestRuntime({
        name,
        plugins: [memoryPlugin],
        tables: { memory: { enabled: true, backend: 'postgres', url_env: 'MIRA_TEST_FLEET_URL', space } },
      });
    let rts: TestRuntime[] = [];
    beforeEach(() => {
      process.env.MIRA_TEST_FLEET_URL = db.url;
      rts = [];
    });
    afterEach(async () => {
      for (const rt of rts) await rt.dispose();
      delete process.env.MIRA_TEST_FLEET_URL;
    });

    it('shares entities and memories between robots of one space, and not with another space', async () => {
      const a = await robot('ward-3');
      const b = await robot('ward-3');
      const other = await robot('ward-4');
      rts.push(a, b, other);
      expect((await a.run('memory entity add person "Ada Lovelace"')).output[0]).to.match(
        /^ENT1 person "Ada Lovelace"/,
      );
      expect((await a.run('memory add fact "Ada wrote the first program" --link ENT1:subject')).output[0]).to.match(
        /^MEM1 fact/,
      );
      expect((await b.run('memory entity find "ada lovelace"')).output.join('\n')).to.contain(
        'ENT1 person "Ada Lovelace"',
      );
      expect((await b.run('memory list ENT1')).output.join('\n')).to.contain('MEM1 fact "Ada wrote the first program"');
      expect((await other.run('memory entity find "Ada Lovelace"')).output.join('\n')).not.to.contain('ENT1');
      const shown = (await b.run('memory persistent')).output.join('\n');
      expect(shown).to.contain('persistent memory: enabled (postgres)');
      expect(shown).to.contain(`database: postgres://mira_test@127.0.0.1:5432/${db.name} (space ward-3)`);
      expect(shown).not.to.contain(new URL(db.url).password);
    });

    it('takes the profile name as the space by default, and says which variable is missing', async () => {
      const rt = await robot(undefined as unknown as string, 'Ward Robot 7');
      rts.push(rt);
      expect((await rt.run('memory persistent')).output.join('\n')).to.contain('(space ward-robot-7)');
      delete process.env.MIRA_TEST_FLEET_URL;
      const error = await rejection(robot('ward-3'));
      expect(error.code).to.equal('MIRA_ERR_MEMORY_URL_MISSING');
      expect(error.message).to.contain('$MIRA_TEST_FLEET_URL');
    });
  });

  it('admits atomically across robots: 4 processes × 50 conflicting admissions, one memory per slot', async () => {
    const seed = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
    const SLOTS = 10;
    for (let i = 1; i <= SLOTS; i += 1) await seed.createEntity({ entityType: 'person', canonicalName: `Person ${i}` });
    const script = `${REPO_ROOT}test/helpers/fleet-admit.ts`;
    const outputs = await Promise.all(
      [0, 1, 2, 3].map((r) =>
        run(process.execPath, ['--import', 'tsx', script, db.url, 'ward-3', String(r), '50', String(SLOTS)], {
          cwd: REPO_ROOT,
        }),
      ),
    );
    const lines = outputs.flatMap((o) => o.stdout.trim().split('\n'));
    expect(lines).to.have.length(200);
    const created = lines.filter((l) => l.endsWith(' created'));
    expect(new Set(created.map((l) => l.split(' ')[0])).size).to.equal(created.length); // one per slot
    expect(created).to.have.length(SLOTS);
    expect(lines.every((l) => /^\d+ (created|duplicate|conflict)$/.test(l))).to.equal(true);
    const info = await seed.info();
    expect(info.memories).to.equal(SLOTS);
    expect(info.payloads).to.equal(SLOTS);
    for (let i = 1; i <= SLOTS; i += 1) {
      expect(await seed.findActiveBySlot(i, 'subject', 'prefers')).to.have.length(1);
    }
    await seed.close();
  });

  it('admits what the operator said through remember, and a second robot then sees the conflict', async () => {
    process.env.MIRA_TEST_FLEET_URL = db.url;
    const table = { enabled: true, backend: 'postgres', url_env: 'MIRA_TEST_FLEET_URL', space: 'ward-3' };
    const first = await modelRuntime({ memoryTable: table });
    const second = await modelRuntime({ memoryTable: table });
    try {
      await first.store().createEntity({ entityType: 'person', canonicalName: 'Alice' });
      const proposal = (value: string, evidence: string) => ({
        kind: 'preference',
        subject: 'Alice',
        predicate: 'prefers',
        value,
        evidence,
        related_entity: null,
        related_role: null,
      });
      first.server.push(
        { toolCalls: [{ name: 'remember', arguments: proposal('green tea', 'Alice prefers green tea') }] },
        { text: 'Noted.' },
      );
      expect((await first.say('Alice prefers green tea')).output[0]).to.equal('[remember] applied/created MEM1');
      second.server.push(
        { toolCalls: [{ name: 'remember', arguments: proposal('coffee', 'Alice prefers coffee') }] },
        { text: 'Hm.' },
      );
      expect((await second.say('Alice prefers coffee')).output[0]).to.equal('[remember] rejected conflict');
      const result = JSON.parse(toolMessages(second.server, 1)[0]!);
      expect(result).to.deep.include({ status: 'rejected', reason: 'conflict', conflicting_memory_ids: ['MEM1'] });
      expect((await second.store().info()).memories).to.equal(1);
    } finally {
      await first.dispose();
      await second.dispose();
      delete process.env.MIRA_TEST_FLEET_URL;
    }
  });

  it('serves recall_memory and the Mind view unchanged: what another robot wrote is there', async () => {
    process.env.MIRA_TEST_FLEET_URL = db.url;
    const rt = await createTestRuntime({
      plugins: [memoryPlugin, memoryToolsPlugin, mindViewPlugin],
      tables: {
        memory: { enabled: true, backend: 'postgres', url_env: 'MIRA_TEST_FLEET_URL', space: 'ward-3' },
        mind_view: { enabled: true, port: 0 },
      },
    });
    try {
      const other = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      const dock = await other.createEntity({ entityType: 'place', canonicalName: 'Dock' });
      await other.createMemory({
        kind: 'fact',
        summary: 'The dock is behind the lab door',
        sourceKind: 'console',
        links: [{ entityId: dock.id, role: 'subject' }],
      });
      await other.close();
      const store = rt.app.kernel.store(MEMORY_STORE);
      expect((await store.findEntities('dock')).map((e) => e.ref)).to.deep.equal(['ENT1']);
      const recall = await rt.callTool('recall_memory', { query: 'DOCK' });
      expect(recall.display).to.equal('hit ENT1');
      expect(recall.content).to.contain('The dock is behind the lab door');
      const { token, port } = rt.instance(mindViewPlugin).server!;
      const listed = await (
        await fetch(`http://127.0.0.1:${port}/api/entities?type=place`, {
          headers: { authorization: `Bearer ${token}` },
        })
      ).json();
      expect(listed).to.deep.include({ total: 1 });
      expect(listed.entities[0]).to.deep.include({ id: 'ENT1', canonical_name: 'Dock' });
    } finally {
      await rt.dispose();
      delete process.env.MIRA_TEST_FLEET_URL;
    }
  });

  it("mira memory copy moves a robot's SQLite memory into an empty space, keeping IDs, and refuses a second time", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mira-copy-'));
    try {
      const sqlite = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
      const ada = await sqlite.createEntity({ entityType: 'person', canonicalName: 'Ada Lovelace' });
      const dock = await sqlite.createEntity({ entityType: 'place', canonicalName: 'Dock' });
      await sqlite.addAlias(ada.id, 'Ada');
      await sqlite.createMemory({
        kind: 'preference',
        summary: 'Ada prefers tea',
        predicate: 'prefers',
        value: 'tea',
        sourceKind: 'console',
        confidence: 0.8,
        links: [{ entityId: ada.id, role: 'subject' }],
      });
      await sqlite.createMemory({
        kind: 'fact',
        summary: 'Ada charges at the dock',
        sourceKind: 'console',
        links: [
          { entityId: ada.id, role: 'subject' },
          { entityId: dock.id, role: 'place' },
        ],
      });
      // History and proposals travel too: MEM1 superseded by MEM3, one proposal still pending.
      const change = await sqlite.createProposal({
        kind: 'supersede',
        memoryId: 1,
        value: 'coffee',
        evidence: 'Ada prefers coffee',
        utterance: 'Ada prefers coffee now.',
      });
      await sqlite.acceptProposal(change.id);
      await sqlite.createProposal({
        kind: 'entity',
        entityType: 'person',
        name: 'Carol',
        evidence: 'Carol is new',
        utterance: 'Carol is new.',
      });
      const proposals = await sqlite.listProposals();
      const history = await sqlite.listMemoryHistory(ada.id);
      const before = await sqlite.exportSnapshot();
      await sqlite.close();
      const write = (name: string, memory: Record<string, unknown>) => {
        const profile = join(dir, name);
        writeFileSync(
          join(dir, `${name}.toml`),
          stringify({ profile: { name, plugins: ['@mira/plugin-memory'] }, memory }),
        );
        return `${profile}.toml`;
      };
      const robot = write('robot', { enabled: true, database_path: 'memory.sqlite3' });
      const fleet = write('fleet', {
        enabled: true,
        backend: 'postgres',
        url_env: 'MIRA_TEST_FLEET_URL',
        space: 'ward-3',
      });
      const env = { MIRA_TEST_FLEET_URL: db.url };
      const copied = await runMira(['memory', 'copy', '--profile', robot, '--to', fleet], '', {
        env,
        timeoutMs: 30_000,
      });
      expect(copied.stderr).to.equal('');
      expect(copied.code).to.equal(0);
      expect(copied.stdout).to.equal(
        `copied 2 entities, 1 aliases and 3 memories from ${join(dir, 'memory.sqlite3')} into postgres://mira_test@127.0.0.1:5432/${db.name} (space ward-3)\n`,
      );
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        expect((await store.findEntities('ada')).map((e) => e.ref)).to.deep.equal([ada.ref]);
        const listed = await store.listActiveMemories(ada.id);
        expect(listed.memories.map((m) => [m.ref, m.summary, m.confidence])).to.deep.equal([
          ['MEM2', 'Ada charges at the dock', null],
          ['MEM3', 'Ada prefers coffee', null],
        ]);
        expect(await store.listMemoryHistory(ada.id)).to.deep.equal(history);
        expect(await store.listProposals()).to.deep.equal(proposals);
        expect(
          (
            await store.createProposal({
              kind: 'entity',
              entityType: 'person',
              name: 'Dan',
              evidence: 'x',
              utterance: 'x',
            })
          ).ref,
        ).to.equal('P3');
        expect((await store.getPayloads(2))[0]!.text).to.equal(before.payloads[1]!.textBody);
        // New IDs continue after the copied ones.
        expect((await store.createEntity({ entityType: 'person', canonicalName: 'Grace' })).ref).to.equal('ENT3');
      } finally {
        await store.close();
      }
      const again = await runMira(['memory', 'copy', '--profile', robot, '--to', fleet], '', {
        env,
        timeoutMs: 30_000,
      });
      expect(again.code).to.equal(1);
      expect(again.stderr).to.match(
        /^mira: MIRA_ERR_MEMORY_SPACE_NOT_EMPTY: space ward-3 .* nothing was copied\nmira: what to do: copy into a new space \(\[memory\] space\) or an empty database\n$/,
      );
      const usage = await runMira(['memory', 'copy', '--profile', robot], '', { timeoutMs: 30_000 });
      expect(usage.code).to.equal(2);
      expect(usage.stderr).to.contain('needs --profile');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (let round = 1; round <= 2; round += 1) {
    it(`keeps every acknowledged write whole after kill -9 of a writer at a random moment (round ${round})`, async () => {
      const seed = await PostgresMemoryStore.open({ url: db.url, space: 'crash' });
      const a = (await seed.createEntity({ entityType: 'robot', canonicalName: 'Mira' })).id;
      const b = (await seed.createEntity({ entityType: 'place', canonicalName: 'Lab' })).id;
      const writer = startWriter(db.url, `crash${round}`, 'forever', a, b);
      expect(await killAfter(writer, 5 + Math.floor(Math.random() * 60))).to.equal('SIGKILL');
      const { acked } = writer;
      const client = await db.client();
      try {
        const memories = (
          await client.query(`SELECT id::int FROM memories WHERE space = 'crash' ORDER BY id`)
        ).rows.map((r) => r.id as number);
        const partial = await client.query(
          `SELECT m.id FROM memories m WHERE m.space = 'crash' AND (
             (SELECT count(*) FROM memory_links l WHERE l.space = m.space AND l.memory_id = m.id) <> 2 OR
             (SELECT count(*) FROM payloads p WHERE p.space = m.space AND p.memory_id = m.id AND p.payload_kind = 'inline_text') <> 1)`,
        );
        expect(partial.rows, 'memories without exactly two links and one payload').to.deep.equal([]);
        expect(memories).to.include.members(acked);
        // At most the one write in flight at the kill may have committed unacknowledged.
        expect(memories.length - acked.length).to.be.within(0, 1);
      } finally {
        await client.end();
        await seed.close();
      }
    });
  }
});
