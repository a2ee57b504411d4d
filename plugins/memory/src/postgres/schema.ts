import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { FleetErrors } from './errors.js';
import { sqlState } from './failures.js';
import { FLEET_APPLICATION, MemorySchemaV1 } from './migrations/0001-schema-v1.js';
import { MemorySchemaV2, TABLES_V1 } from './migrations/0002-proposals.js';
import { MemorySchemaV3, TABLES_V2 } from './migrations/0003-admission.js';
import { FLEET_SCHEMA_VERSION, MemorySchemaV4 } from './migrations/0004-objects.js';
import type { Runner } from './reads.js';
import { ADMIT_FUNCTION, ADMIT_VERSION, admitVersionOf, INSTALLED_ADMIT_BODY } from './write-half.js';

/** The migrations a data source runs on an empty database, in order. */
export const FLEET_MIGRATIONS = [MemorySchemaV1, MemorySchemaV2, MemorySchemaV3, MemorySchemaV4];

/**
 * Opens Mira's schema on a connected data source: an empty database is initialised (versioned typeorm
 * migrations); Mira's schema at the supported version opens, an earlier one is upgraded; an unversioned,
 * foreign or newer schema is refused and left unchanged.
 */
export async function openSchema(
  ds: DataSource,
  where: { server: string; database: string },
  readOnly: boolean,
): Promise<void> {
  const tables = (await ds.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
  )) as Array<{ table_name: string }>;
  const db = `${where.server}/${where.database}`;
  if (tables.length === 0) {
    if (readOnly) {
      throw FleetErrors.error('FOREIGN_DATABASE.noMemoryYet', { db });
    }
    await ds.runMigrations({ transaction: 'all' });
    return;
  }
  const names = new Set(tables.map((t) => t.table_name));
  if (!names.has('mira_meta')) {
    throw FleetErrors.error('FOREIGN_DATABASE.unversionedTables', {
      db,
      tables: [...names].slice(0, 5).join(', '),
    });
  }
  const meta = new Map(
    ((await ds.query(`SELECT key, value FROM mira_meta`)) as Array<{ key: string; value: string }>).map((r) => [
      r.key,
      r.value,
    ]),
  );
  if (meta.get('application') !== FLEET_APPLICATION) {
    throw FleetErrors.error('FOREIGN_DATABASE.otherApplication', {
      db,
      application: meta.get('application') ?? 'unnamed',
    });
  }
  const version = Number(meta.get('schema_version'));
  if ((version === 1 || version === 2 || version === 3) && !readOnly) {
    await upgrade(ds, db, version);
    return;
  }
  if (version !== FLEET_SCHEMA_VERSION) {
    throw FleetErrors.error('UNSUPPORTED_SCHEMA.version', {
      db,
      found: String(meta.get('schema_version')),
      version: FLEET_SCHEMA_VERSION,
    });
  }
}

/**
 * Version 1, 2 or 3 → 4, once, in one transaction under an advisory lock (robots starting together
 * upgrade one after the other; the later ones find version 4). Only Mira's exact tables and migration
 * history of the version found under the lock are upgraded; anything else is refused and left unchanged.
 */
async function upgrade(ds: DataSource, db: string, from: 1 | 2 | 3): Promise<void> {
  await underSchemaLock(ds, async (q) => {
    // Read again under the lock: a robot that started at the same time may have upgraded meanwhile (its
    // version 4 tables and history are then what this robot finds, and nothing is left to do).
    const [row] = (await q.query(`SELECT value FROM mira_meta WHERE key = 'schema_version'`)) as Array<{
      value: string;
    }>;
    if (Number(row?.value) === FLEET_SCHEMA_VERSION) return;
    // The version under the lock decides (another robot of an earlier build may have upgraded to it).
    const at = Number(row?.value);
    const expected = [...(at === 1 ? TABLES_V1 : TABLES_V2), 'mira_migrations'].sort();
    const history = [
      new MemorySchemaV1().name,
      ...(at >= 2 ? [new MemorySchemaV2().name] : []),
      ...(at >= 3 ? [new MemorySchemaV3().name] : []),
    ];
    const found = (
      (await q.query(
        `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
      )) as Array<{ table_name: string }>
    ).map((t) => t.table_name);
    const ran = ((await q.query(`SELECT name FROM mira_migrations ORDER BY id`)) as Array<{ name: string }>).map(
      (r) => r.name,
    );
    if (
      !(at === 1 || at === 2 || at === 3) ||
      found.join(',') !== expected.join(',') ||
      ran.join(',') !== history.join(',')
    ) {
      throw FleetErrors.error('UNSUPPORTED_SCHEMA.notWhatItMade', {
        db,
        found: String(row?.value ?? from),
        tables: found.join(', '),
        migrations: ran.join(', '),
      });
    }
    const steps: Array<[number, MigrationInterface & { name: string }, number]> = [
      [1, new MemorySchemaV2(), 1700000000002],
      [2, new MemorySchemaV3(), 1700000000003],
      [3, new MemorySchemaV4(), 1700000000004],
    ];
    for (const [version, migration, timestamp] of steps) {
      if (at > version) continue;
      await migration.up(q);
      await q.query(`INSERT INTO mira_migrations (timestamp, name) VALUES ($1, $2)`, [timestamp, migration.name]);
    }
  });
}

/**
 * `body` in one transaction on a connection of its own, under the schema's advisory lock, which robots
 * changing the schema take first: committed when it returns, rolled back when it throws.
 */
async function underSchemaLock(ds: DataSource, body: (q: QueryRunner) => Promise<void>): Promise<void> {
  const q = ds.createQueryRunner();
  try {
    await q.startTransaction();
    await q.query(`SELECT pg_advisory_xact_lock(hashtextextended('mira-memory-schema', 0))`);
    await body(q);
    await q.commitTransaction();
  } catch (error) {
    if (q.isTransactionActive) await q.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await q.release();
  }
}

/**
 * Replaces `mira_admit` when its body is of an earlier version than the one write-half.ts generates from
 * the statements this build sends (a database made or upgraded by an earlier build): in one transaction
 * under the schema's advisory lock, so robots starting together replace it once. A later version is left
 * as it is (robots of two builds never take turns), and so is any body when this role may not replace
 * the function (another role owns it): the installed one does the same work, so the store says so and
 * opens. The signature stays, so a robot of another build calling it meanwhile is not refused.
 */
export async function currentAdmitFunction(ds: DataSource, log: (line: string) => void): Promise<void> {
  const installed = async (run: Runner) =>
    admitVersionOf(((await run.query(INSTALLED_ADMIT_BODY)) as Array<{ body: string }>)[0]?.body ?? '');
  if ((await installed(ds)) >= ADMIT_VERSION) return;
  try {
    await underSchemaLock(ds, async (q) => {
      if ((await installed(q)) < ADMIT_VERSION) await q.query(ADMIT_FUNCTION);
    });
  } catch (error) {
    if (sqlState(error) !== '42501') throw error;
    log(
      `memory: mira_admit is of an earlier version and this role may not replace it (${(error as Error).message}); ` +
        'admissions use the installed one, which does the same work. To update it, start one robot as the role that owns the function.',
    );
  }
}
