import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { PostgresMemoryStore } from '@mira/plugin-memory/postgres';
import {
  createTestDatabase,
  postgresUnavailable,
  superuser,
  type TestDatabase,
} from '../../../test/helpers/postgres.js';
import {
  ADMIT_BODY,
  ADMIT_VERSION,
  admitVersionOf,
  ENTITY_NAMES,
  INSERT_LINKS,
  INSERT_MEMORY,
  INSERT_PAYLOAD,
  LOCK_SLOT,
  NEXT_MEMORY_IDS,
  SLOT_MEMORIES,
  inFunction,
} from '../src/postgres/write-half.js';
import { adaPrefersTea } from '../../../test/helpers/admissions.js';

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
    expect(rest).not.to.match(/\b(INSERT|UPDATE|DELETE)\b|pg_(try_)?advisory/i);
    expect(rest).not.to.match(/\b(FROM|JOIN)\s+(memories|memory_links|entities|aliases|payloads|spaces)\b/i);
  });

  it('names its version in the body, and a changed body needs a new version', () => {
    expect(admitVersionOf(ADMIT_BODY)).to.equal(ADMIT_VERSION);
    expect(admitVersionOf('BEGIN RETURN; END')).to.equal(1);
    // Raise ADMIT_VERSION with any change to the body, then pin its new digest here: an installed body of
    // an earlier version is replaced, one of the same version never is.
    expect({ version: ADMIT_VERSION, sha256: createHash('sha256').update(ADMIT_BODY).digest('hex') }).to.deep.equal({
      version: 2,
      sha256: 'e022cb1f9cbd47121a12a2bbeb1fa5c4919c7bb35815f88a988958523a2bcca0',
    });
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

  /** The installed bodies of `mira_admit`, and a way to install another, on the database of `url`. */
  async function functionOf(db: TestDatabase) {
    const client = await db.client();
    return {
      bodies: async () =>
        (await client.query(`SELECT prosrc FROM pg_proc WHERE proname = 'mira_admit'`)).rows.map(
          (r: { prosrc: string }) => r.prosrc,
        ),
      /** Installs the current definition with its version line replaced (or removed, for version 1). */
      install: async (version: number) => {
        const { rows } = await client.query(`SELECT pg_get_functiondef('mira_admit'::regproc) AS sql`);
        const line = `-- mira_admit ${ADMIT_VERSION}`;
        const sql = (rows[0].sql as string).replace(line, version === 1 ? '' : `-- mira_admit ${version}`);
        await client.query(sql);
        return (await client.query(`SELECT prosrc FROM pg_proc WHERE proname = 'mira_admit'`)).rows[0].prosrc as string;
      },
      end: () => client.end(),
    };
  }

  /** Runs `test` on a new database with a handle on its `mira_admit`; both ended after, whatever happens. */
  async function withFunction(test: (db: TestDatabase, fn: Awaited<ReturnType<typeof functionOf>>) => Promise<void>) {
    const db = await createTestDatabase();
    const fn = await functionOf(db);
    try {
      await test(db, fn);
    } finally {
      await fn.end();
      await db.drop();
    }
  }

  /** Admits "Ada prefers tea" into a new entity Ada; the memory it says it created is memory 1 as read back. */
  async function expectAdmitsTea(store: PostgresMemoryStore) {
    const ada = await store.createEntity({ entityType: 'person', canonicalName: 'Ada' });
    const outcome = await store.admitToSlot({ entityId: ada.id, role: 'subject', predicate: 'prefers' }, () => ({
      create: adaPrefersTea(ada.id),
    }));
    expect('created' in outcome && outcome.created).to.deep.equal(await store.getMemory(1));
  }

  it('replaces an earlier version of the admission function at a writable open, never at a read-only one', () =>
    withFunction(async (db, fn) => {
      await (await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' })).close();
      expect(await fn.bodies()).to.deep.equal([ADMIT_BODY]);
      const earlier = await fn.install(1);
      expect(admitVersionOf(earlier)).to.equal(1);

      await (await PostgresMemoryStore.open({ url: db.url, space: 'ward-3', readOnly: true })).close();
      expect(await fn.bodies()).to.deep.equal([earlier]);

      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        expect(await fn.bodies()).to.deep.equal([ADMIT_BODY]);
        await expectAdmitsTea(store);
      } finally {
        await store.close();
      }
    }));

  it('leaves a later version in place: robots of two builds do not take turns replacing it', () =>
    withFunction(async (db, fn) => {
      await (await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' })).close();
      const later = await fn.install(ADMIT_VERSION + 1);
      const store = await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' });
      try {
        expect(await fn.bodies()).to.deep.equal([later]);
        await expectAdmitsTea(store);
      } finally {
        await store.close();
      }
    }));

  it('opens as a role that may not replace an earlier version, saying so, and admits through the installed one', () =>
    withFunction(async (db, fn) => {
      const robot = 'mira_test_robot';
      superuser(
        `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${robot}') THEN CREATE ROLE ${robot} LOGIN; END IF; END $$;`,
      );
      superuser(`ALTER ROLE ${robot} WITH LOGIN PASSWORD 'robot-test-only'`);
      await (await PostgresMemoryStore.open({ url: db.url, space: 'ward-3' })).close();
      const earlier = await fn.install(1);
      const owner = await db.client();
      await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${robot}`);
      await owner.end();
      const url = new URL(db.url);
      url.username = robot;
      url.password = 'robot-test-only';
      const lines: string[] = [];
      const store = await PostgresMemoryStore.open({ url: url.toString(), space: 'ward-3', log: (l) => lines.push(l) });
      try {
        expect(await fn.bodies()).to.deep.equal([earlier]);
        expect(lines).to.have.length(1);
        expect(lines[0]).to.match(/mira_admit is of an earlier version and this role may not replace it/);
        expect(lines[0]).to.match(/start one robot as the role that owns the function/);
        await expectAdmitsTea(store);
      } finally {
        await store.close();
      }
    }));
});
