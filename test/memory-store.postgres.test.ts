import { PostgresMemoryStore } from '@mira/plugin-memory';
import { describeMemoryStoreContract } from './conformance/memory-store-contract.js';
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
