import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EpisodeInfo, ProfileInfo } from '@mira/core';
import type { MemoryStore } from '@mira/memory-contract';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit, rememberTool, type RememberProposal } from '@mira/plugin-memory-tools';

const profile: ProfileInfo = { name: 'Mira', description: '', manifestPath: '/x/profile.toml', dir: '/x' };
const proposal: RememberProposal = {
  kind: 'fact',
  subject: 'Alice',
  predicate: 'prefers',
  value: 'tea',
  evidence: 'Alice prefers tea',
  related_entity: null,
  related_role: null,
};
const episode = (origin: EpisodeInfo['origin'], utterance?: string): EpisodeInfo => ({
  id: 1,
  origin,
  utterance,
  startedAt: new Date('2026-05-01T09:00:00Z'),
});

describe('the remember tool guards its own door', () => {
  let dir: string;
  let store: SqliteMemoryStore;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mira-remember-'));
    store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
    await store.createEntity({ entityType: 'person', canonicalName: 'Alice' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a call from any episode but an operator dialogue, even when called directly', async () => {
    const logged: string[] = [];
    const tool = rememberTool(
      () => store,
      profile,
      (m) => logged.push(m),
    );
    for (const origin of ['attention', 'temporal', 'monitor'] as const) {
      const result = await tool.run(proposal, { episode: episode(origin, 'Alice prefers tea') });
      expect(JSON.parse(result.content)).to.deep.include({ status: 'rejected', reason: 'invalid_proposal' });
      expect(result.display).to.equal('rejected invalid_proposal');
    }
    expect((await store.info()).memories).to.equal(0);
    const admitted = await tool.run(proposal, { episode: episode('operator', 'Alice prefers tea') });
    expect(JSON.parse(admitted.content)).to.deep.equal({ status: 'applied', outcome: 'created', memory_id: 'MEM1' });
    expect(admitted.display).to.equal('applied/created MEM1');
    expect(logged).to.deep.equal([]);
  });

  it('answers backend_failure and logs why when the store cannot be had', async () => {
    const logged: string[] = [];
    const tool = rememberTool(
      (): MemoryStore => {
        throw new Error('the store is not open');
      },
      profile,
      (m) => logged.push(m),
    );
    const result = await tool.run(proposal, { episode: episode('operator', 'Alice prefers tea') });
    expect(JSON.parse(result.content)).to.deep.equal({
      status: 'rejected',
      reason: 'backend_failure',
      error: 'persistent memory could not be written; nothing was written',
    });
    expect(logged).to.have.length(1);
    expect(logged[0]).to.match(/^remember: persistent memory is not available: .*the store is not open/);
  });

  it('writes a backend failure to stderr when no log is given', async () => {
    await store.close();
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const result = await admit(store, profile, 'Alice prefers tea', proposal);
      expect(result).to.deep.equal({
        status: 'rejected',
        reason: 'backend_failure',
        error: 'persistent memory could not be written; nothing was written',
      });
    } finally {
      process.stderr.write = original;
    }
    expect(written).to.have.length(1);
    expect(written[0]).to.match(/^mira: remember: persistent memory could not be written: .*MIRA_ERR_MEMORY_CLOSED/);
    expect(written[0]!.endsWith('\n')).to.equal(true);
  });
});
