import { expect } from 'chai';
import { MiraError } from '@mira/core';
import { PostgresMemoryStore, describeUrl, fleetError } from '@mira/plugin-memory';
import { describeMemoryStoreContract, rejection } from './conformance/memory-store-contract.js';
import { createTestDatabase, postgresUnavailable } from './helpers/postgres.js';

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
    expect(codeOf({ code: '3D000', message: 'database "x" does not exist' })).to.equal(
      'MIRA_ERR_MEMORY_SERVER_DATABASE',
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

  it('refuses a memory space name that is not one before connecting', async () => {
    for (const space of ['Ward 3', '', '-ward', 'a'.repeat(65)]) {
      const error = await rejection(PostgresMemoryStore.open({ url: 'postgres://u:p@127.0.0.1:1/db', space }));
      expect(error.message, space).to.equal(
        `MIRA_ERR_MEMORY_BACKEND: memory space "${space}" is not a valid name (a-z, 0-9, _ . -; at most 64)`,
      );
    }
  });
});

if (!unavailable) {
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
