import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A real PostgreSQL server for the fleet tests: the Debian package's cluster on 127.0.0.1:5432,
 * started by `.ci/run`. A role with a password (scram-sha-256 over TCP, as a fleet robot connects)
 * is created once per run, and each suite gets a fresh database, dropped afterwards.
 */
const ROLE = 'mira_test';
// One password for every test process: processes that run at once (a mutation run beside a test
// run) must not reset it under each other's connections.
const PASSWORD = process.env.MIRA_TEST_PG_PASSWORD ?? 'mira-test-only-7f3a';
const HOST = process.env.MIRA_TEST_PG_HOST ?? '127.0.0.1';
const PORT = process.env.MIRA_TEST_PG_PORT ?? '5432';
let roleReady = false;
let counter = 0;

/** Runs SQL as the `postgres` superuser over the local socket (peer authentication). */
export function superuser(sql: string): string {
  return execFileSync(
    'runuser',
    ['-u', 'postgres', '--', 'psql', '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-c', sql],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
}

/** Why PostgreSQL cannot be used here, or undefined when it can. In CI it must be usable: the suite fails. */
export function postgresUnavailable(): string | undefined {
  try {
    superuser('SELECT 1');
    return undefined;
  } catch (error) {
    const why = `no PostgreSQL server reachable as the postgres user (${(error as Error).message.split('\n')[0]}); start it with pg_ctlcluster 15 main start`;
    if (process.env.CI) throw new Error(`CI needs PostgreSQL: ${why}`);
    return why;
  }
}

function ensureRole(): void {
  if (roleReady) return;
  superuser(
    `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${ROLE}') THEN CREATE ROLE ${ROLE} LOGIN; END IF; END $$;`,
  );
  superuser(`ALTER ROLE ${ROLE} WITH LOGIN PASSWORD '${PASSWORD}'`);
  roleReady = true;
}

/** A fresh database owned by the test role. */
export interface TestDatabase {
  readonly name: string;
  /** `postgres://mira_test:…@127.0.0.1:5432/<name>` */
  readonly url: string;
  /** The same server with a wrong password. */
  readonly wrongPasswordUrl: string;
  /** A plain pg client on the database (as the test role). */
  client(): Promise<pg.Client>;
  /** `pg_dump` of the database, schema and data, for comparing before and after. */
  dump(): string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  ensureRole();
  const name = `mira_test_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
  superuser(`CREATE DATABASE ${name} OWNER ${ROLE}`);
  const url = `postgres://${ROLE}:${PASSWORD}@${HOST}:${PORT}/${name}`;
  return {
    name,
    url,
    wrongPasswordUrl: `postgres://${ROLE}:wrong@${HOST}:${PORT}/${name}`,
    async client() {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    },
    dump: () =>
      execFileSync('runuser', ['-u', 'postgres', '--', 'pg_dump', '--no-owner', '--no-privileges', name], {
        encoding: 'utf8',
      })
        // pg_dump names a fresh random key in each dump's \restrict lines; the rest is the database.
        .replace(/^\\(un)?restrict .*$/gm, ''),
    async drop() {
      superuser(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
