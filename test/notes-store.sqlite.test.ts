import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { describeNotesStoreContract } from './conformance/notes-store-contract.js';

describeNotesStoreContract('SqliteNotesStore on a real file', async ({ clock, embedder }) => {
  const dir = mkdtempSync(join(tmpdir(), 'mira-notes-contract-'));
  const path = join(dir, 'notes.sqlite3');
  const open = () => SqliteNotesStore.open(path, { clock, ...(embedder ? { embedder } : {}), log: () => {} });
  let current = open();
  return {
    store: current,
    reopen: async () => {
      current.close();
      current = open();
      return current;
    },
    dispose: async () => {
      current.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
