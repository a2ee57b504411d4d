import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { describeMemoryStoreContract } from './conformance/memory-store-contract.js';

describeMemoryStoreContract('SqliteMemoryStore on a real file', async (clock) => {
  const dir = mkdtempSync(join(tmpdir(), 'mira-store-'));
  const path = join(dir, 'memory.sqlite3');
  let current = SqliteMemoryStore.open(path, { clock });
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = SqliteMemoryStore.open(path, { clock });
      return current;
    },
    dispose: async () => {
      await current.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
