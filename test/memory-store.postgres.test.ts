import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { MiraError } from '@mira/core';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { PostgresMemoryStore, describeUrl, fleetError } from '@mira/plugin-memory/postgres';
import { describeMemoryStoreContract, objectFile, pngBytes, rejection } from './conformance/memory-store-contract.js';
import { createTestDatabase, postgresUnavailable, superuser } from './helpers/postgres.js';
import { adaPrefersTea } from './helpers/admissions.js';

const unavailable = postgresUnavailable();

if (unavailable) {
  describe('MemoryStore contract: PostgresMemoryStore', () => {
    it('needs a PostgreSQL server', function () {
      process.stdout.write(`      (skipped: ${unavailable})\n`);
      this.skip();
    });
  });
} else {
  describeMemoryStoreContract('PostgresMemoryStore on a real server', async (clock) => {
    const db = await createTestDatabase();
    let current = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3', clock });
    return {
      store: current,
      reopen: async () => {
        await current.close();
        current = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3', clock });
        return current;
      },
      dispose: async () => {
        await current.close();
        await db.drop();
      },
      // Another connection puts a view in the table's place whose body column raises when it is read;
      // PostgreSQL evaluates a view's column only when a query reads it (a stable function lets it pull the view up).
      makeBodiesUnreadable: async () => {
        const client = await db.client();
        try {
          await client.query(`CREATE FUNCTION unreadable_body() RETURNS text LANGUAGE plpgsql STABLE AS
            $$ BEGIN RAISE EXCEPTION 'a payload body was read'; END $$;
            ALTER TABLE payloads RENAME TO payloads_kept;
            CREATE VIEW payloads AS SELECT space, id, memory_id, payload_kind, media_type, unreadable_body() AS text_body,
              object_ref, sha256, byte_size, created_at FROM payloads_kept;`);
        } finally {
          await client.end();
        }
      },
      corruptObject: async (sha256) => {
        const client = await db.client();
        try {
          await client.query(
            `UPDATE objects SET body = overlay(body placing '\\xff'::bytea from length(body)) WHERE sha256 = $1`,
            [sha256],
          );
        } finally {
          await client.end();
        }
      },
      ageObjects: async (ms) => {
        const client = await db.client();
        try {
          await client.query(
            `UPDATE objects SET created_at = created_at - make_interval(secs => $1::double precision / 1000)`,
            [ms],
          );
        } finally {
          await client.end();
        }
      },
      removeObject: async (sha256) => {
        const client = await db.client();
        try {
          await client.query('DELETE FROM objects WHERE sha256 = $1', [sha256]);
        } finally {
          await client.end();
        }
      },
      storedUtterances: async () => {
        const client = await db.client();
        try {
          const { rows } = await client.query<{ id: string; utterance: string }>(
            'SELECT id, utterance FROM proposals WHERE space = $1',
            ['ward-3'],
          );
          return Object.fromEntries(rows.map((r) => [Number(r.id), r.utterance]));
        } finally {
          await client.end();
        }
      },
    };
  });
}

describe('PostgreSQL failures as Mira errors', () => {
  const codeOf = (error: unknown) => fleetError(error, 'reading a slot').code;

  it('names a refused login, a missing database and an unreachable server apart', () => {
    expect(codeOf({ code: '28P01', message: 'password authentication failed' })).to.equal(
      'MIRA_ERR_MEMORY_SERVER_AUTH',
    );
    expect(codeOf({ driverError: { code: '28000', message: 'no pg_hba.conf entry' } })).to.equal(
      'MIRA_ERR_MEMORY_SERVER_AUTH',
    );
    expect(fleetError({ code: '3D000', message: 'database "x" does not exist' }, 'opening').message).to.equal(
      'MIRA_ERR_MEMORY_SERVER_DATABASE: opening: database "x" does not exist',
    );
    for (const code of [
      'ECONNREFUSED',
      'ENOTFOUND',
      'ECONNRESET',
      'ETIMEDOUT',
      'EHOSTUNREACH',
      '57P01',
      '57P02',
      '57P03',
    ])
      expect(codeOf({ code, message: 'x' }), code).to.equal('MIRA_ERR_MEMORY_SERVER_UNREACHABLE');
    for (const message of [
      'Connection terminated unexpectedly',
      'connection timeout expired',
      'timeout expired',
      'Connection is not queryable',
      'Client has encountered a connection error and is not queryable',
      'the database system is not currently accepting connections',
      'the database system is starting up',
      'the database system is shutting down',
    ])
      expect(codeOf(new Error(message)), message).to.equal('MIRA_ERR_MEMORY_SERVER_UNREACHABLE');
  });

  it('says where, that nothing was written, and keeps anything else a backend failure with its cause', () => {
    const down = fleetError({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' }, 'reading a slot');
    expect(down.message).to.equal(
      'MIRA_ERR_MEMORY_SERVER_UNREACHABLE: reading a slot: connect ECONNREFUSED 127.0.0.1:1; nothing was written; the next command tries again',
    );
    expect(fleetError({ code: '28P01', message: 'bad password' }, 'opening').message).to.equal(
      'MIRA_ERR_MEMORY_SERVER_AUTH: opening: bad password',
    );
    const cause = { code: '23505', driverError: { code: '23505', message: 'duplicate key value' } };
    const other = fleetError(cause, 'writing');
    expect([other.code, other.message, other.cause]).to.deep.equal([
      'MIRA_ERR_MEMORY_BACKEND',
      'MIRA_ERR_MEMORY_BACKEND: the memory database failed and nothing was written: duplicate key value',
      cause,
    ]);
    expect(fleetError('plain text', 'writing').message).to.equal(
      'MIRA_ERR_MEMORY_BACKEND: the memory database failed and nothing was written: plain text',
    );
    const mira = new MiraError('MIRA_ERR_MEMORY_CLOSED', 'closed');
    expect(fleetError(mira, 'x')).to.equal(mira);
  });

  it('describes a connection string without its password', () => {
    expect(describeUrl('postgres://ward:s3cret@db.local:6543/fleet%20a')).to.deep.equal({
      server: 'db.local:6543',
      database: 'fleet a',
      user: 'ward',
    });
    expect(describeUrl('postgres:///')).to.deep.equal({
      server: 'localhost:5432',
      database: '(default)',
      user: '(default)',
    });
    expect(describeUrl('not a url')).to.deep.equal({
      server: '(unparsable connection string)',
      database: '?',
      user: '?',
    });
  });

  it('reports only the failure of an open that never connected: no close error follows it', async () => {
    const lines: string[] = [];
    const error = await rejection(
      PostgresMemoryStore.open({
        url: 'postgres://u:p@127.0.0.1:1/db',
        space: 'ward',
        connectTimeoutMs: 2000,
        log: (line) => lines.push(line),
      }),
    );
    expect(error.code).to.equal('MIRA_ERR_MEMORY_SERVER_UNREACHABLE');
    expect(lines).to.deep.equal([]);
  });

  it('refuses a memory space name that is not one before connecting', async () => {
    for (const space of ['Ward 3', '', '-ward', 'a'.repeat(65)]) {
      const error = await rejection(PostgresMemoryStore.open({ url: 'postgres://u:p@127.0.0.1:1/db', space }));
      expect(error.message, space).to.equal(
        `MIRA_ERR_MEMORY_SPACE_INVALID: memory space "${space}" is not a valid name (a-z, 0-9, _ . -; at most 64)`,
      );
    }
  });
});

if (!unavailable) {
  describe('PostgresMemoryStore while the server refuses connections', function () {
    this.timeout(60_000);
    it('answers every call with SERVER_UNREACHABLE saying what it was doing, and works again after', async () => {
      const db = await createTestDatabase();
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3', connectTimeoutMs: 2000 });
      try {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        superuser(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS false`);
        superuser(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${db.name}'`);
        await new Promise((r) => setTimeout(r, 100));
        const calls: Array<[string, () => Promise<unknown>]> = [
          ['reading memory counts', () => store.info()],
          ['creating an entity', () => store.createEntity({ entityType: 'person', canonicalName: 'Bob' })],
          ['adding an alias', () => store.addAlias(ada.id, 'Countess')],
          ['reading an entity', () => store.getEntity(ada.id)],
          ['listing entities', () => store.listEntities()],
          ['reading the memory revision', () => store.revision()],
          ['finding entities', () => store.findEntities('Ada')],
          ['finding entities', () => store.findEntityIds('Ada')],
          ['writing a memory', () => store.createMemory({ kind: 'fact', summary: 'x', sourceKind: 'console' })],
          [
            'admitting a memory',
            () => store.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'p' }, () => ({ answer: 1 })),
          ],
          ['reading a memory', () => store.getMemory(1)],
          ['reading payloads', () => store.getPayloads(1)],
          ['listing memories', () => store.listActiveMemories(ada.id)],
          ['listing memories', () => store.listActiveMemoriesOf([ada.id])],
          ['recalling', () => store.recall('Ada', { entities: 5, newest: 8 })],
          ['reading a slot', () => store.findActiveBySlot(ada.id, 'subject', 'p')],
          ['reading memory history', () => store.listMemoryHistory(ada.id)],
          [
            'writing a proposal',
            () =>
              store.createProposal({ kind: 'entity', entityType: 'person', name: 'C', evidence: 'C', utterance: 'C' }),
          ],
          ['reading a proposal', () => store.getProposal(1)],
          ['listing proposals', () => store.listProposals()],
          ['accepting a proposal', () => store.acceptProposal(1)],
          ['rejecting a proposal', () => store.rejectProposal(1)],
          [
            'copying memory',
            () => store.importSnapshot({ entities: [], aliases: [], memories: [], links: [], payloads: [] }),
          ],
        ];
        for (const [what, call] of calls) {
          const error = await rejection(call());
          expect(error.code, what).to.equal('MIRA_ERR_MEMORY_SERVER_UNREACHABLE');
          expect(error.message, what).to.match(new RegExp(`^MIRA_ERR_MEMORY_SERVER_UNREACHABLE: ${what}: `));
        }
        superuser(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS true`);
        expect((await store.findEntities('Ada')).map((e) => e.ref)).to.deep.equal(['ENT1']);
      } finally {
        superuser(`ALTER DATABASE ${db.name} WITH ALLOW_CONNECTIONS true`);
        await store.close();
        await db.drop();
      }
    });
  });

  describe('PostgresMemoryStore closing', function () {
    this.timeout(60_000);
    it('reports a failure to close its connections, once, instead of swallowing it', async () => {
      const db = await createTestDatabase();
      try {
        const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
        const ds = store.dataSource;
        const destroy = ds.destroy.bind(ds);
        let calls = 0;
        ds.destroy = async () => {
          calls += 1;
          await destroy();
          throw new Error('the pool did not drain');
        };
        const error = await rejection(store.close());
        expect(error.code).to.equal('MIRA_ERR_MEMORY_BACKEND');
        expect(error.message).to.equal(
          "MIRA_ERR_MEMORY_BACKEND: closing the memory store's connections failed: the pool did not drain",
        );
        await store.close();
        expect(calls).to.equal(1);
      } finally {
        await db.drop();
      }
    });
  });

  describe('PostgresMemoryStore read-only and copying in', function () {
    this.timeout(60_000);
    it('serves read-only only a database a robot has used, and refuses writes there', async () => {
      const db = await createTestDatabase();
      try {
        const empty = await rejection(PostgresMemoryStore.open({ url: db.url, space: 'ward-3', readOnly: true }));
        expect(empty.code).to.equal('MIRA_ERR_MEMORY_FOREIGN_DATABASE');
        expect(empty.message).to.match(/holds no Mira memory yet; start a robot on it once, then serve it read-only$/);
        const writer = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
        await writer.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        await writer.close();
        const reader = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3', readOnly: true });
        try {
          expect((await reader.findEntities('ada')).map((e) => e.ref)).to.deep.equal(['ENT1']);
          const refused = await rejection(reader.createEntity({ entityType: 'person', canonicalName: 'Bob' }));
          expect(refused.message).to.match(/read-only transaction/);
        } finally {
          await reader.close();
        }
      } finally {
        await db.drop();
      }
    });

    it('copies superseded memories, proposals, and more rows than one batch', async () => {
      const db = await createTestDatabase();
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        const at = '2026-01-02T03:04:05.000Z';
        const later = '2026-01-03T03:04:05.000Z';
        const memory = (id: number, value: string, status: 'active' | 'superseded', by: number | null) => ({
          id,
          kind: 'preference',
          summary: `Ada prefers ${value}`,
          predicate: 'prefers',
          value,
          sourceKind: 'console',
          sourceLabel: null,
          confidence: null,
          status,
          createdAt: at,
          supersededBy: by,
          supersededAt: by === null ? null : later,
        });
        const entities = Array.from({ length: 501 }, (_, i) => ({
          id: i + 1,
          entityType: 'person',
          canonicalName: `P${i + 1}`,
          nameKey: `p${i + 1}`,
          createdAt: at,
        }));
        const proposal = {
          id: 4,
          kind: 'supersede' as const,
          entityType: null,
          name: null,
          memoryId: 1,
          value: 'cocoa',
          slotIds: [1],
          evidence: 'Ada prefers cocoa',
          utterance: 'Ada prefers cocoa',
          decision: 'accepted' as const,
          createdAt: at,
          expiresAt: '2026-01-09T03:04:05.000Z',
          decidedAt: later,
          reason: null,
          result: 'MEM2',
        };
        await store.importSnapshot({
          entities,
          aliases: [],
          memories: [memory(1, 'tea', 'superseded', 2), memory(2, 'cocoa', 'active', null)],
          links: [
            { memoryId: 1, entityId: 1, role: 'subject' },
            { memoryId: 2, entityId: 1, role: 'subject' },
          ],
          payloads: [],
          proposals: [proposal],
        });
        expect((await store.info()).entities).to.equal(501);
        expect(await store.getMemory(1)).to.deep.include({
          status: 'superseded',
          supersededBy: 2,
          supersededAt: later,
        });
        expect(await store.getMemory(2)).to.deep.include({ status: 'active', supersedes: 1 });
        expect(await store.listProposals()).to.deep.equal([{ ...proposal, ref: 'P4', status: 'accepted' }]);
        const next = await store.createProposal({
          kind: 'entity',
          entityType: 'person',
          name: 'Zed',
          evidence: 'Zed',
          utterance: 'Zed',
        });
        expect(next.ref).to.equal('P5');
      } finally {
        await store.close();
        await db.drop();
      }
    });

    it('copies a snapshot in whole with its IDs, reporting progress, and only into an empty space', async () => {
      const db = await createTestDatabase();
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        const at = '2026-01-02T03:04:05.000Z';
        const snapshot = {
          entities: [
            { id: 3, entityType: 'person', canonicalName: 'Ada', nameKey: 'ada', createdAt: at },
            { id: 7, entityType: 'person', canonicalName: 'Bob', nameKey: 'bob', createdAt: at },
          ],
          aliases: [{ id: 2, entityId: 3, alias: 'Countess', aliasKey: 'countess', createdAt: at }],
          memories: [
            {
              id: 5,
              kind: 'fact',
              summary: 'Ada knows Bob',
              predicate: null,
              value: null,
              sourceKind: 'console',
              sourceLabel: null,
              confidence: 0.5,
              status: 'active' as const,
              createdAt: at,
            },
          ],
          links: [
            { memoryId: 5, entityId: 3, role: 'subject' },
            { memoryId: 5, entityId: 7, role: 'friend' },
          ],
          payloads: [
            {
              id: 9,
              memoryId: 5,
              payloadKind: 'inline_text' as const,
              mediaType: 'text/plain',
              textBody: 'Ada knows Bob',
              objectRef: null,
              sha256: null,
              byteSize: 13,
              createdAt: at,
            },
          ],
        };
        const progress: Array<[number, number]> = [];
        expect(await store.importSnapshot(snapshot, (done, total) => progress.push([done, total]))).to.deep.equal({
          entities: 2,
          aliases: 1,
          memories: 1,
        });
        expect(progress).to.deep.equal([
          [0, 7],
          [2, 7],
          [3, 7],
          [4, 7],
          [6, 7],
          [7, 7],
        ]);
        const memory = (await store.getMemory(5))!;
        expect(memory).to.deep.include({ summary: 'Ada knows Bob', confidence: 0.5, createdAt: at });
        expect(memory.links.map((l) => `${l.entityRef} ${l.role}`)).to.deep.equal(['ENT3 subject', 'ENT7 friend']);
        expect((await store.findEntities('Countess')).map((e) => e.ref)).to.deep.equal(['ENT3']);
        // IDs go on after the highest copied one of each kind.
        expect((await store.createEntity({ entityType: 'person', canonicalName: 'Cy' })).ref).to.equal('ENT8');
        const next = await store.createMemory({ kind: 'fact', summary: 'new', sourceKind: 'console' });
        expect([next.ref, next.payloads[0]!.id]).to.deep.equal(['MEM6', 10]);
        const again = await rejection(store.importSnapshot(snapshot));
        expect(again.message).to.match(
          /^MIRA_ERR_MEMORY_SPACE_NOT_EMPTY: space ward-3 at 127\.0\.0\.1:5432\/\S+ already holds 5 entities and memories; nothing was copied$/,
        );
      } finally {
        await store.close();
        await db.drop();
      }
    });

    it("copies a robot's objects with their memories, verified, and copies nothing when one is damaged", async () => {
      const db = await createTestDatabase();
      const dir = mkdtempSync(join(tmpdir(), 'mira-copy-objects-'));
      const robot = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-5' });
      try {
        const shelf = await robot.createEntity({ entityType: 'place', canonicalName: 'Shelf' });
        const snapshot = (bytes: Buffer) =>
          robot.createMemory({
            kind: 'observation',
            summary: 'the shelf',
            links: [{ entityId: shelf.id, role: 'subject' }],
            sourceKind: 'sensor_observation',
            object: { bytes, mediaType: 'image/png' },
          });
        const one = await snapshot(pngBytes(50_000, 1));
        await snapshot(pngBytes(50_000, 1));
        const three = await snapshot(pngBytes(20_000, 2));
        // A damaged object: the copy refuses and the space stays empty.
        const damaged = objectFile(dir, three.payloads[1]!.sha256!);
        const good = readFileSync(damaged);
        writeFileSync(damaged, Buffer.concat([good.subarray(0, 100), Buffer.from('x'), good.subarray(101)]));
        expect((await rejection(store.importSnapshot(await robot.exportSnapshot()))).code).to.equal(
          'MIRA_ERR_MEMORY_OBJECT_CORRUPT',
        );
        expect((await store.info()).memories).to.equal(0);
        expect(await store.objectUsage()).to.deep.equal({ objects: 0, bytes: 0 });
        writeFileSync(damaged, good);
        await store.importSnapshot(await robot.exportSnapshot());
        expect(await store.objectUsage()).to.deep.equal({ objects: 2, bytes: 70_000 });
        expect((await store.readObject(one.id))!.bytes.equals(pngBytes(50_000, 1))).to.equal(true);
        expect((await store.readObject(three.id))!.bytes.equals(pngBytes(20_000, 2))).to.equal(true);
        expect((await store.getMemory(three.id))!.payloads).to.deep.equal(three.payloads);
      } finally {
        await robot.close();
        await store.close();
        await db.drop();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('copies each memory with its status: an inactive one stays inactive', async () => {
      const db = await createTestDatabase();
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-4' });
      try {
        const at = '2026-01-02T03:04:05.000Z';
        const memory = (id: number, status: 'active' | 'inactive') => ({
          id,
          kind: 'fact' as const,
          summary: `Ada note ${id}`,
          predicate: null,
          value: null,
          sourceKind: 'console',
          sourceLabel: null,
          confidence: 1,
          status,
          createdAt: at,
        });
        await store.importSnapshot({
          entities: [{ id: 1, entityType: 'person', canonicalName: 'Ada', nameKey: 'ada', createdAt: at }],
          aliases: [],
          memories: [memory(1, 'inactive'), memory(2, 'active')],
          links: [
            { memoryId: 1, entityId: 1, role: 'subject' },
            { memoryId: 2, entityId: 1, role: 'subject' },
          ],
          payloads: [],
        });
        expect([(await store.getMemory(1))?.status, (await store.getMemory(2))?.status]).to.deep.equal([
          'inactive',
          'active',
        ]);
      } finally {
        await store.close();
        await db.drop();
      }
    });
  });

  describe('PostgresMemoryStore says exactly what went wrong', function () {
    this.timeout(60_000);
    let db: Awaited<ReturnType<typeof createTestDatabase>>;
    beforeEach(async () => (db = await createTestDatabase()));
    afterEach(async () => db.drop());
    const message = async (promise: Promise<unknown>) => (await rejection(promise)).message;
    const where = () => `127.0.0.1:5432/${db.name}`;

    it('says which backend it is, and reads its revision from the space', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        expect(store.backend).to.equal('postgres');
        expect(await store.revision()).to.match(/^\d+(:\d+){5}$/);
      } finally {
        await store.close();
      }
    });

    it('says why it refuses a database, naming it', async () => {
      const wrong = await rejection(PostgresMemoryStore.open({ url: db.wrongPasswordUrl, space: 's' }));
      expect(wrong.message).to.match(
        new RegExp(`^MIRA_ERR_MEMORY_SERVER_AUTH: cannot open memory at ${where()}: password authentication failed`),
      );
      const client = await db.client();
      await client.query('CREATE TABLE orders (id int); CREATE TABLE invoices (id int)');
      expect(await message(PostgresMemoryStore.open({ url: db.url, space: 's' }))).to.equal(
        `MIRA_ERR_MEMORY_FOREIGN_DATABASE: ${where()} holds tables (invoices, orders) but no Mira schema version: not Mira's database; left unchanged`,
      );
      await client.query(
        "CREATE TABLE mira_meta (key text PRIMARY KEY, value text); INSERT INTO mira_meta VALUES ('x', 'y')",
      );
      expect(await message(PostgresMemoryStore.open({ url: db.url, space: 's' }))).to.equal(
        `MIRA_ERR_MEMORY_FOREIGN_DATABASE: ${where()} belongs to another application (unnamed); left unchanged`,
      );
      await client.query("INSERT INTO mira_meta VALUES ('application', 'mira-memory'), ('schema_version', '5')");
      await client.end();
      expect(await message(PostgresMemoryStore.open({ url: db.url, space: 's' }))).to.equal(
        `MIRA_ERR_MEMORY_UNSUPPORTED_SCHEMA: ${where()} has Mira's memory schema version 5; this build reads version 4; left unchanged`,
      );
    });

    it('refuses a version 1 database whose migration history is not version 1 alone', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      await store.close();
      const client = await db.client();
      // Back to what version 1 had, plus a migration Mira never wrote.
      await client.query(`DROP TABLE objects; DELETE FROM mira_migrations WHERE name = 'MemorySchemaV41700000000004';
        DROP FUNCTION mira_admit; DELETE FROM mira_migrations WHERE name = 'MemorySchemaV31700000000003';
        DROP TABLE proposals; DROP SCHEMA IF EXISTS mira_backup_v1 CASCADE;
        ALTER TABLE memories DROP CONSTRAINT memories_superseded_check, DROP CONSTRAINT memories_superseded_by_fkey,
          DROP COLUMN superseded_at, DROP COLUMN superseded_by;
        ALTER TABLE spaces DROP COLUMN next_proposal;
        UPDATE mira_meta SET value = '1' WHERE key = 'schema_version';
        DELETE FROM mira_migrations WHERE name = 'MemorySchemaV21700000000002';
        INSERT INTO mira_migrations (timestamp, name) VALUES (1800000000000, 'SomeoneElses1800000000000')`);
      await client.end();
      const before = db.dump();
      expect(await message(PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }))).to.equal(
        `MIRA_ERR_MEMORY_UNSUPPORTED_SCHEMA: ${where()} says Mira's memory schema version 1, but its tables (aliases, entities, memories, memory_links, mira_meta, mira_migrations, payloads, spaces) or migrations (MemorySchemaV11700000000001, SomeoneElses1800000000000) are not what version 1 made; it is not upgraded and was left unchanged`,
      );
      expect(db.dump()).to.equal(before);
    });

    /** Takes a fresh database back to exactly what schema version 2 made. */
    const versionTwo = async (extra = '') => {
      const client = await db.client();
      await client.query(`DROP TABLE objects; DELETE FROM mira_migrations WHERE name = 'MemorySchemaV41700000000004';
        DROP FUNCTION mira_admit; DELETE FROM mira_migrations WHERE name = 'MemorySchemaV31700000000003';
        UPDATE mira_meta SET value = '2' WHERE key = 'schema_version'; ${extra}`);
      await client.end();
    };

    it('upgrades a version 2 database to 4 once, keeping every row, and admits through it after', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      await store.close();
      await versionTwo();
      const before = db.dump();
      expect(before).not.to.contain('mira_admit');
      const [a, b] = await Promise.all([
        PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }),
        PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }),
      ]);
      try {
        const client = await db.client();
        const meta = await client.query(`SELECT value FROM mira_meta WHERE key = 'schema_version'`);
        const ran = await client.query('SELECT name FROM mira_migrations ORDER BY id');
        await client.end();
        expect(meta.rows).to.deep.equal([{ value: '4' }]);
        expect(ran.rows.map((r) => r.name)).to.deep.equal([
          'MemorySchemaV11700000000001',
          'MemorySchemaV21700000000002',
          'MemorySchemaV31700000000003',
          'MemorySchemaV41700000000004',
        ]);
        expect((await a.getEntity(ada.id))!.canonicalName).to.equal('Ada');
        const outcome = await b.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'prefers' }, () => ({
          create: adaPrefersTea(ada.id),
        }));
        expect('created' in outcome && outcome.created).to.deep.equal(await a.getMemory(1));
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('starts on a database another robot upgrades to 3 while it reads the version, and takes it on to 4', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
      await store.close();
      const client = await db.client();
      const { rows } = await client.query(`SELECT pg_get_functiondef('mira_admit'::regproc) AS sql`);
      await client.end();
      await versionTwo();
      // The other robot holds the upgrade lock (and the migration history) from before this one reads the
      // schema version until its upgrade commits: this robot reads version 2, and must find version 3 under
      // the lock, not refuse the history of version 3 it then sees.
      const other = await db.client();
      await other.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtextextended('mira-memory-schema', 0));
        LOCK TABLE mira_migrations IN ACCESS EXCLUSIVE MODE`);
      const opening = PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      for (let waiting = 0; waiting < 1;) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        const blocked = await other.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`);
        waiting = blocked.rows[0].n;
      }
      await other.query(`${rows[0].sql}; UPDATE mira_meta SET value = '3' WHERE key = 'schema_version';
        INSERT INTO mira_migrations (timestamp, name) VALUES (1700000000003, 'MemorySchemaV31700000000003'); COMMIT`);
      await other.end();
      const started = await opening;
      try {
        const check = await db.client();
        const ran = await check.query('SELECT name FROM mira_migrations ORDER BY id');
        await check.end();
        expect(ran.rows.map((r) => r.name).slice(-2)).to.deep.equal([
          'MemorySchemaV31700000000003',
          'MemorySchemaV41700000000004',
        ]);
        expect((await started.getEntity(ada.id))!.canonicalName).to.equal('Ada');
        const outcome = await started.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'likes' }, () => ({
          create: {
            kind: 'preference',
            summary: 'Ada likes tea',
            predicate: 'likes',
            value: 'tea',
            sourceKind: 'operator_statement',
            links: [{ entityId: ada.id, role: 'subject' }],
          },
        }));
        expect('created' in outcome).to.equal(true);
      } finally {
        await started.close();
      }
    });

    it('refuses a version 2 database whose migration history is not version 2 alone, leaving it unchanged', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      await store.close();
      await versionTwo(
        `INSERT INTO mira_migrations (timestamp, name) VALUES (1800000000000, 'SomeoneElses1800000000000')`,
      );
      const before = db.dump();
      expect(await message(PostgresMemoryStore.open({ url: db.url, space: 'ward-3' }))).to.equal(
        `MIRA_ERR_MEMORY_UNSUPPORTED_SCHEMA: ${where()} says Mira's memory schema version 2, but its tables (aliases, entities, memories, memory_links, mira_meta, mira_migrations, payloads, proposals, spaces) or migrations (MemorySchemaV11700000000001, MemorySchemaV21700000000002, SomeoneElses1800000000000) are not what version 2 made; it is not upgraded and was left unchanged`,
      );
      expect(db.dump()).to.equal(before);
    });

    it('waits for a decision another process is writing, and then refuses to reject what it accepted', async () => {
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      const other = await db.client();
      try {
        const p = await store.createProposal({
          kind: 'entity',
          entityType: 'person',
          name: 'Carol',
          evidence: 'x',
          utterance: 'x',
        });
        // Another process is in the middle of accepting it: the row is locked, the decision not yet written.
        await other.query('BEGIN');
        await other.query(`SELECT id FROM proposals WHERE space = 'ward-3' AND id = $1 FOR UPDATE`, [p.id]);
        const reject = store.rejectProposal(p.id).then(
          () => 'rejected',
          (error: MiraError) => error.code,
        );
        const waiting = async () =>
          Number(
            (
              await other.query(
                'SELECT count(*) AS n FROM pg_locks WHERE NOT granted AND pg_backend_pid() = ANY (pg_blocking_pids(pid))',
              )
            ).rows[0].n,
          );
        for (let tries = 0; (await waiting()) === 0; tries += 1) {
          if (tries > 250) throw new Error('the reject never waited for the locked proposal');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await other.query(
          `UPDATE proposals SET decision = 'accepted', decided_at = '2026-11-30T00:00:00.000Z' WHERE space = 'ward-3' AND id = $1`,
          [p.id],
        );
        await other.query('COMMIT');
        expect(await reject).to.equal('MIRA_ERR_MEMORY_PROPOSAL_DECIDED');
        expect((await store.getProposal(p.id))?.status).to.equal('accepted');
      } finally {
        await other.end();
        await store.close();
      }
    });

    it('lets one of two simultaneous decisions on one proposal through', async () => {
      const a = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      const b = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        for (let round = 0; round < 4; round += 1) {
          const p = await a.createProposal({
            kind: 'entity',
            entityType: 'person',
            name: `Carol ${round}`,
            evidence: 'x',
            utterance: 'x',
          });
          const decisions = await Promise.allSettled([
            a.acceptProposal(p.id),
            round % 2 ? b.acceptProposal(p.id) : b.rejectProposal(p.id),
          ]);
          expect(
            decisions.filter((d) => d.status === 'fulfilled'),
            `round ${round}`,
          ).to.have.length(1);
          expect(await a.findEntities(`Carol ${round}`)).to.have.length(
            (await a.getProposal(p.id))!.status === 'accepted' ? 1 : 0,
          );
        }
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  describe('PostgresMemoryStore admission beside other robots', function () {
    this.timeout(60_000);
    // The slot's advisory lock as the store takes it (pg_advisory_xact_lock on this key): a session lock on
    // the same key from another connection holds every write into the slot.
    const slotKey = (space: string, entityId: number) =>
      `mira-slot\u0001${space}\u0001${entityId}\u0001subject\u0001prefers`;
    const prefers = (entityId: number, value: string) => ({
      create: {
        kind: 'preference',
        summary: `Ada prefers ${value}`,
        predicate: 'prefers',
        value,
        sourceKind: 'operator_statement',
        links: [{ entityId, role: 'subject' }],
      },
    });

    it('answers without the slot lock, and decides again under it on a slot written into meanwhile', async () => {
      const db = await createTestDatabase();
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      const other = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      const holder = await db.client();
      try {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        const slot = { entityId: ada.id, role: 'subject', predicate: 'prefers' };
        await holder.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [slotKey('ward-3', ada.id)]);
        // An answer is given from a read: the held lock does not hold it up.
        expect(await store.admitToSlot(slot, (existing) => ({ answer: existing.length }))).to.deep.equal({ answer: 0 });
        // A write waits for the lock; meanwhile another robot writes "coffee" into the slot.
        const seen: Array<Array<string | null>> = [];
        const admitting = store.admitToSlot(slot, (existing) => {
          seen.push(existing.map((m) => m.value));
          return existing.some((m) => m.value !== 'tea') ? { answer: 'conflict' } : prefers(ada.id, 'tea');
        });
        await new Promise((r) => setTimeout(r, 200));
        expect(seen).to.deep.equal([[]]);
        await other.createMemory(prefers(ada.id, 'coffee').create);
        await holder.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [slotKey('ward-3', ada.id)]);
        expect(await admitting).to.deep.equal({ answer: 'conflict' });
        expect(seen).to.deep.equal([[], ['coffee']]);
        expect((await store.findActiveBySlot(ada.id, 'subject', 'prefers')).map((m) => m.value)).to.deep.equal([
          'coffee',
        ]);
      } finally {
        await holder.end();
        await other.close();
        await store.close();
        await db.drop();
      }
    });
  });

  describe('PostgresMemoryStore spaces', function () {
    this.timeout(30_000);
    it('keeps spaces apart: IDs, names, memories and proposals of one are not seen from another', async () => {
      const db = await createTestDatabase();
      const a = await PostgresMemoryStore.open({ url: db.url, space: 'ward-a' });
      const b = await PostgresMemoryStore.open({ url: db.url, space: 'ward-b' });
      try {
        const adaA = await a.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        await a.addAlias(adaA.id, 'Countess');
        const memory = await a.createMemory({
          kind: 'fact',
          summary: 'Ada writes',
          predicate: 'writes',
          value: 'programs',
          sourceKind: 'console',
          links: [{ entityId: adaA.id, role: 'subject' }],
        });
        await a.createProposal({ kind: 'entity', entityType: 'person', name: 'Carol', evidence: 'C', utterance: 'C' });
        expect(a.location).to.match(/^postgres:\/\/mira_test@127\.0\.0\.1:5432\/\S+ \(space ward-a\)$/);
        expect(await b.findEntities('Countess')).to.deep.equal([]);
        expect(await b.getMemory(memory.id)).to.equal(undefined);
        expect(await b.getPayloads(memory.id)).to.deep.equal([]);
        expect(await b.listProposals()).to.deep.equal([]);
        expect((await b.info()).entities).to.equal(0);
        expect((await b.listEntities()).total).to.equal(0);
        expect(await b.findActiveBySlot(adaA.id, 'subject', 'writes')).to.deep.equal([]);
        const adaB = await b.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        expect(adaB.ref).to.equal('ENT1');
        expect((await a.info()).entities).to.equal(1);
      } finally {
        await a.close();
        await b.close();
        await db.drop();
      }
    });
  });
}
