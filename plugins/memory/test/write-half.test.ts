import { expect } from 'chai';
import { PostgresMemoryStore } from '@mira/plugin-memory/postgres';
import { createTestDatabase, postgresUnavailable } from '../../../test/helpers/postgres.js';
import {
  ADMIT_BODY,
  ENTITY_NAMES,
  INSERT_LINKS,
  INSERT_MEMORY,
  INSERT_PAYLOAD,
  LOCK_SLOT,
  NEXT_MEMORY_IDS,
  SLOT_MEMORIES,
  inFunction,
} from '../src/postgres/write-half.js';

describe("admission's write half on PostgreSQL: one source", () => {
  it('renames each parameter, $10 as itself and not as $1 followed by 0', () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    expect(inFunction(INSERT_MEMORY, names)).to.contain("VALUES (a, b, c, d, e, f, g, h, i, 'active', j)");
  });

  it('refuses a parameter without a name, and a name without a parameter', () => {
    expect(() => inFunction(INSERT_PAYLOAD, ['a', 'b', 'c', 'd', 'e'])).to.throw(/no name for \$6/);
    expect(() => inFunction(ENTITY_NAMES, ['a', 'b', 'c'])).to.throw(/3 names for 2 parameters/);
  });

  it("generates mira_admit's body from the statements the store sends one by one, and writes nothing else", () => {
    const slot = ['p_space', 'p_slot_entity', 'p_slot_role', 'p_slot_predicate'];
    const parts = [
      inFunction(LOCK_SLOT, slot).slice('SELECT '.length),
      inFunction(SLOT_MEMORIES, slot),
      inFunction(ENTITY_NAMES, ['p_space', 'p_link_entities']),
      inFunction(NEXT_MEMORY_IDS, ['p_space']),
      inFunction(INSERT_MEMORY, [
        'p_space',
        'v_memory',
        'p_kind',
        'p_summary',
        'p_predicate',
        'p_value',
        'p_source_kind',
        'p_source_label',
        'p_confidence',
        'p_now',
      ]),
      inFunction(INSERT_LINKS, ['p_space', 'v_memory', 'p_link_entities', 'p_link_roles']),
      inFunction(INSERT_PAYLOAD, ['p_space', 'v_payload', 'v_memory', 'p_payload', 'p_byte_size', 'p_now']),
    ];
    let rest = ADMIT_BODY;
    for (const part of parts) {
      expect(rest).to.contain(part);
      rest = rest.split(part).join('');
    }
    // What is left is control flow: no write, no lock and no read of a table of its own.
    expect(rest).not.to.match(
      /\b(INSERT|UPDATE|DELETE|pg_advisory|FROM (memories|memory_links|entities|payloads|spaces))\b/i,
    );
  });
});

const unavailable = postgresUnavailable();

describe("admission's write half on a PostgreSQL server", function () {
  this.timeout(60_000);
  before(function () {
    if (unavailable) {
      process.stdout.write(`      (skipped: ${unavailable})\n`);
      this.skip();
    }
  });

  it('replaces the admission function of an earlier build at a writable open, never at a read-only one', async () => {
    const db = await createTestDatabase();
    try {
      (await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' })).close();
      const client = await db.client();
      const installed = async () =>
        (await client.query(`SELECT prosrc FROM pg_proc WHERE proname = 'mira_admit'`)).rows.map(
          (r: { prosrc: string }) => r.prosrc,
        );
      try {
        expect(await installed()).to.deep.equal([ADMIT_BODY]);
        // An earlier build's body: the same signature, another text.
        const { rows } = await client.query(`SELECT pg_get_functiondef('mira_admit'::regproc) AS sql`);
        const earlier = (rows[0].sql as string).replace('#variable_conflict use_column', '#variable_conflict error');
        expect(earlier).not.to.equal(rows[0].sql);
        await client.query(earlier);
        const other = (await installed())[0];
        expect(other).not.to.equal(ADMIT_BODY);

        const reader = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3', readOnly: true });
        await reader.close();
        expect(await installed()).to.deep.equal([other]);

        const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
        try {
          expect(await installed()).to.deep.equal([ADMIT_BODY]);
          const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
          const outcome = await store.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'prefers' }, () => ({
            create: {
              kind: 'preference',
              summary: 'Ada prefers tea',
              predicate: 'prefers',
              value: 'tea',
              sourceKind: 'operator_statement',
              links: [{ entityId: ada.id, role: 'subject' }],
            },
          }));
          expect('created' in outcome && outcome.created).to.deep.equal(await store.getMemory(1));
        } finally {
          await store.close();
        }
      } finally {
        await client.end();
      }
    } finally {
      await db.drop();
    }
  });
});
