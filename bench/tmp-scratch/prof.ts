import { copyFileSync } from 'node:fs';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit } from '@mira/plugin-memory-tools';
import { entityName, generate } from '../lib/generate.js';
import { normalizeKey } from '@mira/core';
const big = generate(10000, 100000);
copyFileSync(big.path, '/tmp/prof.sqlite3');
const store = SqliteMemoryStore.open('/tmp/prof.sqlite3');
const profile = { name: 'Mira', description: '', manifestPath: '/x', dir: '/' };
// seed conflicts
for (let e = 1; e <= 200; e++) {
  await store.createMemory({ kind: 'preference', summary: `${entityName(e)} prefers dock 1`, predicate: 'favourite_dock', value: 'dock 1', sourceKind: 'console', links: [{ entityId: e, role: 'subject' }] });
}
const cases = Array.from({ length: 200 }, (_, i) => { const name = entityName(1 + i); const evidence = `${name} prefers dock 2`; return { utterance: `Remember that ${evidence}.`, proposal: { kind: 'preference' as const, subject: name, predicate: 'favourite_dock', value: 'dock 2', evidence, related_entity: null, related_role: null } }; });
async function t(label: string, f: (c: (typeof cases)[0]) => unknown) {
  for (let r = 0; r < 3; r++) { const s = process.hrtime.bigint(); for (const c of cases) await f(c); const us = Number(process.hrtime.bigint() - s) / 1000 / cases.length; if (r === 2) console.log(label, us.toFixed(1), 'µs'); }
}
await t('admit()', (c) => admit(store, profile, c.utterance, c.proposal));
await t('findEntityIds+admitToSlot', async (c) => { const [id] = await store.findEntityIds(c.proposal.subject); return store.admitToSlot({ entityId: id!, role: 'subject', predicate: 'favourite_dock' }, (ex) => ({ answer: ex.length })); });
await t('findEntityIds', (c) => store.findEntityIds(c.proposal.subject));
await t('normalizeKey', (c) => normalizeKey(c.proposal.subject));
