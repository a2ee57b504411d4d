import { expect } from 'chai';
import { PostgresMemoryStore } from '@mira/plugin-memory/postgres';
import { recallMemoryTool } from '@mira/plugin-memory-tools';
import { startPgWireProxy, type PgWireProxy, type WireMessage } from './helpers/pg-wire-proxy.js';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from './helpers/postgres.js';
import { adaPrefersTea } from './helpers/admissions.js';

// What the fleet store sends on the wire, read by a proxy in front of the real server: a read sent as a
// named statement is parsed (and planned) by PostgreSQL once per connection; an unnamed one on every call.
const unavailable = postgresUnavailable();

/** The statement names each Parse of `messages` carried, per connection, and the names each Bind used. */
function wire(messages: readonly WireMessage[]) {
  const parsed = messages.filter((m) => m.kind === 'parse');
  return {
    unnamedParses: parsed.filter((m) => m.statement === '').map((m) => m.text),
    simpleQueries: messages.filter((m) => m.kind === 'query').map((m) => m.text),
    parsedTwice: parsed.filter(
      (m, i) => parsed.findIndex((o) => o.connection === m.connection && o.statement === m.statement) !== i,
    ),
    bound: messages.filter((m) => m.kind === 'bind').map((m) => m.statement),
  };
}

if (unavailable) {
  describe('PostgreSQL prepared reads', () => {
    it('needs a PostgreSQL server', function () {
      process.stdout.write(`      (skipped: ${unavailable})\n`);
      this.skip();
    });
  });
} else {
  describe('PostgresMemoryStore: recall reads are prepared statements', function () {
    this.timeout(60_000);
    let db: TestDatabase;
    let proxy: PgWireProxy;
    let store: PostgresMemoryStore;
    let sam: number;
    let memory: number;

    before(async () => {
      db = await createTestDatabase();
      proxy = await startPgWireProxy(db.url);
      store = await PostgresMemoryStore.open({ url: proxy.url, space: 'ward-7' });
      const kitchen = await store.createEntity({ entityType: 'place', canonicalName: 'Kitchen' });
      sam = (await store.createEntity({ entityType: 'person', canonicalName: 'Sam' })).id;
      await store.addAlias(sam, 'Samuel');
      for (let i = 0; i < 3; i += 1) {
        const created = await store.createMemory({
          kind: 'fact',
          summary: `Sam fact ${i}`,
          predicate: `fact_${i}`,
          value: `value ${i}`,
          sourceKind: 'console',
          links: [
            { entityId: sam, role: 'subject' },
            { entityId: kitchen.id, role: 'location' },
          ],
        });
        memory = created.id;
      }
    });

    after(async () => {
      await store?.close();
      await proxy?.close();
      await db?.drop();
    });

    it('recall_memory sends its one read by name, parsed at most once per connection', async () => {
      const tool = recallMemoryTool(
        () => store,
        () => {},
      );
      proxy.clear();
      // More calls than PostgreSQL's five custom plans before it weighs a generic one, and than the pool's size.
      const answers: string[] = [];
      for (let i = 0; i < 12; i += 1) answers.push((await tool.run({ query: 'Samuel' }, {} as never)).content);
      expect(new Set(answers).size).to.equal(1);
      expect(answers[0]).to.include('Sam fact 2');
      const sent = wire(proxy.messages);
      expect(sent.unnamedParses).to.deep.equal([]);
      expect(sent.simpleQueries).to.deep.equal([]);
      expect(sent.parsedTwice).to.deep.equal([]);
      expect(sent.bound).to.deep.equal(Array(12).fill('mira_recall'));
    });

    it('a warm connection parses nothing: findEntities, listActiveMemories, getEntity and getMemory', async () => {
      const work = async () => [
        (await store.findEntities('Samuel')).map((e) => e.id),
        (await store.listActiveMemories(sam, { newest: 2 })).memories.map((m) => m.id),
        (await store.getEntity(sam))?.canonicalName,
        (await store.getMemory(memory))?.summary,
      ];
      proxy.clear();
      const first = await work();
      const warm = new Set(proxy.messages.map((m) => m.connection));
      proxy.clear();
      const again = await work();
      expect(again).to.deep.equal(first);
      expect(again).to.deep.equal([[sam], [memory - 1, memory], 'Sam', 'Sam fact 2']);
      expect(wire(proxy.messages).bound).to.deep.equal([
        'mira_entities_by_key',
        'mira_newest_active',
        'mira_entities_by_id',
        'mira_memories_by_id',
      ]);
      // A connection the pool opened meanwhile prepares on its first use; one used before parses nothing.
      expect(proxy.messages.filter((m) => m.kind === 'parse' && warm.has(m.connection))).to.deep.equal([]);
    });
  });

  describe('PostgresMemoryStore: a link that breaks under a prepared statement', function () {
    this.timeout(60_000);

    it('refuses the call as the server unreachable, keeps the process, and answers on a new connection after', async () => {
      const db = await createTestDatabase();
      const proxy = await startPgWireProxy(db.url);
      const store = await PostgresMemoryStore.open({ url: proxy.url, space: 'ward-7' });
      const holder = await db.client();
      try {
        const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
        // The slot's lock held elsewhere: the admission's one statement (mira_admit) waits on the server.
        await holder.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [
          `mira-slot\u0001ward-7\u0001${ada.id}\u0001subject\u0001prefers`,
        ]);
        const admitting = store.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'prefers' }, () => ({
          create: adaPrefersTea(ada.id),
        }));
        const outcome = admitting.then(
          () => 'answered',
          (error: { code?: string }) => error.code,
        );
        for (let tries = 0; ; tries += 1) {
          const { rows } = await holder.query(`SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`);
          if (rows[0].n > 0) break;
          if (tries > 250) throw new Error('the admission never waited for the slot');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // The link breaks while the statement runs: the client emits an error of its own beside the query's.
        proxy.reset();
        expect(await outcome).to.equal('MIRA_ERR_MEMORY_SERVER_UNREACHABLE');
        await holder.query(`SELECT pg_advisory_unlock_all()`);
        expect((await store.findEntities('Ada')).map((e) => e.id)).to.deep.equal([ada.id]);
      } finally {
        await holder.end();
        await store.close();
        await proxy.close();
        await db.drop();
      }
    });
  });
}
