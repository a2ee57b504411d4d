import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit } from '@mira/plugin-memory-tools';
import { entityName } from '../lib/generate.js';
const store = SqliteMemoryStore.open('/tmp/prof.sqlite3');
const profile = { name: 'Mira', description: '', manifestPath: '/x', dir: '/' };
const cases = Array.from({ length: 200 }, (_, i) => { const name = entityName(1 + i); const evidence = `${name} prefers dock 2`; return { utterance: `Remember that ${evidence}.`, proposal: { kind: 'preference' as const, subject: name, predicate: 'favourite_dock', value: 'dock 2', evidence, related_entity: null, related_role: null } }; });
for (let r = 0; r < 120; r++) for (const c of cases) await admit(store, profile, c.utterance, c.proposal);
