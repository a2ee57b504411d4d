import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ADMIT_FUNCTION } from '../write-half.js';

/** The tables of schema version 2 (and 3, which adds none). */
export const TABLES_V2 = [
  'aliases',
  'entities',
  'memories',
  'memory_links',
  'mira_meta',
  'payloads',
  'proposals',
  'spaces',
];

/**
 * Fleet memory, schema version 3: the admission function `mira_admit`, as write-half.ts generates it now (a
 * database that has an earlier body gets this one at its next writable open). No table or row changes, so
 * the upgrade keeps no backup.
 */
export class MemorySchemaV3 implements MigrationInterface {
  readonly name = 'MemorySchemaV31700000000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(ADMIT_FUNCTION);
    await q.query(`UPDATE mira_meta SET value = '3' WHERE key = 'schema_version'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION mira_admit`);
    await q.query(`UPDATE mira_meta SET value = '2' WHERE key = 'schema_version'`);
  }
}
