import { expect } from 'chai';
import pg from 'pg';
import type { CommandInput } from '@mira/core';
import type { MemoryStore } from '@mira/memory-contract';
import { memoryCommands } from '@mira/plugin-memory';
import { PostgresMemoryStore } from '@mira/plugin-memory/postgres';
import { admit, recallMemoryTool } from '@mira/plugin-memory-tools';
import { createTestDatabase, postgresUnavailable, type TestDatabase } from './helpers/postgres.js';

// Every statement the fleet store sends is one `pg.Client#query` (typeorm's driver calls nothing else), so
// counting those calls counts the round trips to the server, BEGIN and COMMIT included.
const unavailable = postgresUnavailable();

/** How many round trips `work` makes; its result beside. */
async function roundTrips<T>(work: () => Promise<T>): Promise<{ trips: number; result: T; names: string[] }> {
  const query = pg.Client.prototype.query;
  let trips = 0;
  // The name of each statement sent as a prepared one (a query config with a name), in order.
  const names: string[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    trips += 1;
    const name = (args[0] as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string') names.push(name);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    const result = await work();
    return { trips, result, names };
  } finally {
    pg.Client.prototype.query = query;
  }
}

/** Runs a console command of the memory plugin, answering what it printed. */
async function command(store: MemoryStore, line: string, args: string[]): Promise<string[]> {
  const name = line;
  const definition = memoryCommands({ enabled: true, databasePath: undefined, store: () => store }).find(
    (c) => c.name === name,
  );
  if (!definition) throw new Error(`no command ${name}`);
  const printed: string[] = [];
  const input: CommandInput = { args, options: new Map(), line: `${line} ${args.join(' ')}` };
  await definition.run(input, { print: (text) => printed.push(text) });
  return printed;
}

if (unavailable) {
  describe('PostgreSQL round trips', () => {
    it('needs a PostgreSQL server', function () {
      process.stdout.write(`      (skipped: ${unavailable})\n`);
      this.skip();
    });
  });
} else {
  describe('PostgreSQL round trips per operation', function () {
    this.timeout(60_000);
    let db: TestDatabase;
    let store: PostgresMemoryStore;
    const ids: number[] = [];

    before(async () => {
      db = await createTestDatabase();
      store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-7' });
      // Five entities named "Sam" (an ambiguous recall shows them all), each with twelve memories, every one
      // linked to a second entity as well, and a chain of supersessions: the count must not grow with any.
      const other = await store.createEntity({ entityType: 'place', canonicalName: 'Kitchen' });
      for (let e = 0; e < 6; e += 1) {
        const sam = await store.createEntity({ entityType: 'person', canonicalName: 'Sam' });
        await store.addAlias(sam.id, `Sam ${e}`);
        await store.addAlias(sam.id, `Samuel ${e}`);
        ids.push(sam.id);
        for (let i = 0; i < 12; i += 1) {
          await store.createMemory({
            kind: 'fact',
            summary: `Sam ${e} fact ${i}`,
            predicate: `fact_${i}`,
            value: `value ${i}`,
            sourceKind: 'console',
            links: [
              { entityId: sam.id, role: 'subject' },
              { entityId: other.id, role: 'location' },
            ],
          });
        }
      }
      let memory = (await store.listActiveMemories(ids[0]!, { newest: 1 })).memories[0]!;
      for (let v = 0; v < 4; v += 1) {
        const proposal = await store.createProposal({
          kind: 'supersede',
          memoryId: memory.id,
          value: `changed ${v}`,
          evidence: `it is changed ${v}`,
          utterance: `it is changed ${v}`,
        });
        const accepted = await store.acceptProposal(proposal.id);
        memory = 'memory' in accepted ? accepted.memory : memory;
      }
    });

    after(async () => {
      await store?.close();
      await db?.drop();
    });

    it('recall_memory: 1, a prepared statement, for five ambiguous entities with eight memories each', async () => {
      const tool = recallMemoryTool(
        () => store,
        () => {},
      );
      const { trips, result, names } = await roundTrips(() => tool.run({ query: 'Sam' }, {} as never));
      expect(result.display).to.match(/^ambiguous ENT\d+(,ENT\d+){4} \(\+1\)$/);
      expect((result.content.match(/^ {2}MEM\d+ fact: /gm) ?? []).length).to.equal(40);
      expect(trips).to.equal(1);
      expect(names).to.deep.equal(['mira_recall']);
      // A miss and a hit: one each as well.
      const miss = await roundTrips(() => tool.run({ query: 'Nobody' }, {} as never));
      expect([miss.result.display, miss.trips]).to.deep.equal(['miss', 1]);
      const hit = await roundTrips(() => tool.run({ query: 'Samuel 2' }, {} as never));
      expect([hit.result.display, hit.trips]).to.deep.equal([`hit ENT${ids[2]}`, 1]);
    });

    it('memory find: at most 3, for six entities and their active memories', async () => {
      const { trips, result } = await roundTrips(() => command(store, 'memory find', ['Sam']));
      expect(result.filter((line) => /^ENT\d+ /.test(line))).to.have.length(6);
      expect(result.filter((line) => /^ {2}MEM\d+ /.test(line))).to.have.length(72);
      expect(trips).to.be.at.most(3);
    });

    it('memory list: at most 3', async () => {
      const { trips, result } = await roundTrips(() => command(store, 'memory list', [`ENT${ids[1]}`]));
      expect(result.filter((line) => /^ {2}MEM\d+ /.test(line))).to.have.length(12);
      expect(trips).to.be.at.most(3);
    });

    it('memory history ENT<n> and MEM<n>: at most 3, with a chain of five', async () => {
      const entity = await roundTrips(() => command(store, 'memory history', [`ENT${ids[0]}`]));
      expect(entity.result.filter((line) => /superseded by MEM/.test(line))).to.have.length(4);
      expect(entity.trips).to.be.at.most(3);
      const newest = (await store.listActiveMemories(ids[0]!)).memories.at(-1)!;
      expect(newest.value).to.equal('changed 3');
      const memory = await roundTrips(() => command(store, 'memory history', [newest.ref]));
      expect(memory.result.filter((line) => /^MEM\d+ /.test(line))).to.have.length(5);
      expect(memory.trips).to.be.at.most(3);
    });

    it('memory show MEM<n>: at most 3', async () => {
      const [first] = (await store.listActiveMemories(ids[3]!, { newest: 1 })).memories;
      const { trips, result } = await roundTrips(() => command(store, 'memory show', [first!.ref]));
      expect(result[0]).to.equal(`${first!.ref} fact`);
      expect(trips).to.be.at.most(3);
    });

    it("the Mind view's entity pages: a page of entities, and one entity with its memories, at most 3 each", async () => {
      // What /api/entities and /api/entities/ENT<n>/memories ask of the store.
      const page = await roundTrips(() => store.listEntities({ limit: 50 }));
      expect([page.result.entities.length, page.result.total]).to.deep.equal([7, 7]);
      expect(page.trips).to.be.at.most(3);
      const past = await roundTrips(() => store.listEntities({ offset: 100 }));
      expect([past.result.entities.length, past.result.total]).to.deep.equal([0, 7]);
      expect(past.trips).to.be.at.most(3);
      const one = await roundTrips(async () => [
        await store.getEntity(ids[2]!),
        await store.listActiveMemories(ids[2]!),
      ]);
      expect(one.trips).to.be.at.most(3);
    });

    it('remember: 2 for a write and 1 for a conflict or a duplicate (the name with its slot, then the write)', async () => {
      const profile = { name: 'Mira', description: '', manifestPath: '/p/profile.toml', dir: '/p' };
      const proposal = (value: string) => ({
        kind: 'preference' as const,
        subject: 'Sam 4',
        predicate: 'favourite_tea',
        value,
        evidence: `Sam 4 prefers ${value}`,
        related_entity: null,
        related_role: null,
      });
      const write = await roundTrips(() => admit(store, profile, 'Sam 4 prefers green tea.', proposal('green tea')));
      expect(write.result).to.deep.include({ status: 'applied', outcome: 'created' });
      expect(write.trips).to.equal(2);
      const conflict = await roundTrips(() => admit(store, profile, 'Sam 4 prefers black tea.', proposal('black tea')));
      expect(conflict.result).to.deep.include({ status: 'rejected', reason: 'conflict' });
      expect(conflict.trips).to.equal(1);
      const duplicate = await roundTrips(() =>
        admit(store, profile, 'Sam 4 prefers green tea.', proposal('green tea')),
      );
      expect(duplicate.result).to.deep.include({ status: 'applied', outcome: 'duplicate' });
      expect(duplicate.trips).to.equal(1);
      // Each of them a prepared statement: the server parses and plans it once per connection, not per call.
      // The name, the longer names it may begin (a known "Sam 4 prefers…"?) and the name's slot are read in
      // one statement.
      expect(write.names).to.deep.equal(['mira_named_slot', 'mira_admit']);
      expect(conflict.names).to.deep.equal(['mira_named_slot']);
      expect(duplicate.names).to.deep.equal(['mira_named_slot']);
    });

    it('counts what it claims to: one statement is one round trip', async () => {
      const { trips } = await roundTrips(() => store.info());
      expect(trips).to.equal(1);
    });
  });
}
