import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The schema version this build reads and writes. */
export const FLEET_SCHEMA_VERSION = 4;

/** The tables of schema version 4: version 3's and the objects. */
export const TABLES_V4 = [
  'aliases',
  'entities',
  'memories',
  'memory_links',
  'mira_meta',
  'objects',
  'payloads',
  'proposals',
  'spaces',
];

/**
 * Fleet memory, schema version 4: object payloads' bytes, once per digest in each space (the payload rows
 * refer to them by `sha256`). A new table, no row changes: the upgrade keeps no backup.
 */
export class MemorySchemaV4 implements MigrationInterface {
  readonly name = 'MemorySchemaV41700000000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE objects (
      space      text   NOT NULL REFERENCES spaces (name),
      sha256     text   NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      media_type text   NOT NULL CHECK (length(media_type) BETWEEN 3 AND 255),
      byte_size  bigint NOT NULL CHECK (byte_size > 0),
      body       bytea  NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (space, sha256)
    )`);
    await q.query(`UPDATE mira_meta SET value = '4' WHERE key = 'schema_version'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE objects`);
    await q.query(`UPDATE mira_meta SET value = '3' WHERE key = 'schema_version'`);
  }
}
