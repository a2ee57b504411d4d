import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables of schema version 1, which version 2 copies into {@link BACKUP_SCHEMA_V1} first. */
export const TABLES_V1 = ['aliases', 'entities', 'memories', 'memory_links', 'mira_meta', 'payloads', 'spaces'];
/** Where the upgrade keeps a copy of every version 1 table, as it was. */
export const BACKUP_SCHEMA_V1 = 'mira_backup_v1';

/**
 * Fleet memory, schema version 2: superseded memories (status, what replaced them and when) and
 * proposals, as in the SQLite schema. One transaction: all of it or nothing. Before changing anything it
 * copies every version 1 table into the `mira_backup_v1` schema.
 */
export class MemorySchemaV2 implements MigrationInterface {
  readonly name = 'MemorySchemaV21700000000002';

  async up(q: QueryRunner): Promise<void> {
    // A new database (no space yet) has nothing to keep.
    const [{ used }] = (await q.query(`SELECT EXISTS (SELECT 1 FROM spaces) AS used`)) as [{ used: boolean }];
    if (used) {
      await q.query(`CREATE SCHEMA ${BACKUP_SCHEMA_V1}`);
      for (const table of [...TABLES_V1, 'mira_migrations'])
        await q.query(`CREATE TABLE ${BACKUP_SCHEMA_V1}.${table} AS TABLE ${table} WITH DATA`);
    }
    const at = (column: string) => `CHECK (${column} IS NULL OR ${column} ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T.*Z$')`;
    await q.query(`ALTER TABLE memories DROP CONSTRAINT memories_status_check`);
    await q.query(`ALTER TABLE memories
      ADD CONSTRAINT memories_status_check CHECK (status IN ('active', 'inactive', 'superseded')),
      ADD COLUMN superseded_by bigint,
      ADD COLUMN superseded_at text ${at('superseded_at')},
      ADD CONSTRAINT memories_superseded_by_fkey FOREIGN KEY (space, superseded_by) REFERENCES memories (space, id),
      ADD CONSTRAINT memories_superseded_check CHECK (
        (status = 'superseded') = (superseded_by IS NOT NULL) AND (superseded_by IS NULL) = (superseded_at IS NULL))`);
    await q.query(
      `CREATE UNIQUE INDEX memories_by_superseded_by ON memories (space, superseded_by) WHERE superseded_by IS NOT NULL`,
    );
    await q.query(`ALTER TABLE spaces ADD COLUMN next_proposal bigint NOT NULL DEFAULT 1 CHECK (next_proposal >= 1)`);
    await q.query(`CREATE TABLE proposals (
      space text NOT NULL REFERENCES spaces (name),
      id bigint NOT NULL CHECK (id >= 1),
      kind text NOT NULL CHECK (kind IN ('entity', 'supersede')),
      entity_type text CHECK (entity_type IS NULL OR entity_type ~ '^[a-z][a-z0-9_]{0,63}$'),
      name text CHECK (name IS NULL OR char_length(name) BETWEEN 1 AND 256),
      name_key text,
      memory_id bigint,
      value text,
      slot_ids text NOT NULL DEFAULT '' CHECK (slot_ids ~ '^[0-9,]*$'),
      evidence text NOT NULL CHECK (char_length(evidence) >= 1),
      utterance text NOT NULL CHECK (char_length(utterance) >= 1),
      decision text NOT NULL DEFAULT 'pending' CHECK (decision IN ('pending', 'accepted', 'rejected')),
      created_at text NOT NULL ${at('created_at')},
      expires_at text NOT NULL CHECK (expires_at > created_at),
      decided_at text ${at('decided_at')},
      reason text,
      result text,
      PRIMARY KEY (space, id),
      FOREIGN KEY (space, memory_id) REFERENCES memories (space, id),
      CHECK ((kind = 'entity') = (entity_type IS NOT NULL AND name IS NOT NULL AND name_key IS NOT NULL)),
      CHECK ((kind = 'supersede') = (memory_id IS NOT NULL AND value IS NOT NULL)),
      CHECK ((decision = 'pending') = (decided_at IS NULL)),
      CHECK (result IS NULL OR decision = 'accepted'))`);
    await q.query(`CREATE INDEX proposals_by_decision ON proposals (space, decision, id)`);
    await q.query(`UPDATE mira_meta SET value = '2' WHERE key = 'schema_version'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE proposals`);
    await q.query(`ALTER TABLE spaces DROP COLUMN next_proposal`);
    await q.query(`DROP INDEX memories_by_superseded_by`);
    await q.query(`ALTER TABLE memories DROP CONSTRAINT memories_superseded_check,
      DROP CONSTRAINT memories_superseded_by_fkey, DROP COLUMN superseded_at, DROP COLUMN superseded_by,
      DROP CONSTRAINT memories_status_check,
      ADD CONSTRAINT memories_status_check CHECK (status IN ('active', 'inactive'))`);
    await q.query(`UPDATE mira_meta SET value = '1' WHERE key = 'schema_version'`);
    await q.query(`DROP SCHEMA IF EXISTS ${BACKUP_SCHEMA_V1} CASCADE`);
  }
}
