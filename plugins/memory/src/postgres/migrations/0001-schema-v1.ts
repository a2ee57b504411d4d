import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The application name in `mira_meta`: how Mira tells its own database from anyone else's. */
export const FLEET_APPLICATION = 'mira-memory';

/**
 * Fleet memory, schema version 1: the SQLite schema's tables, each keyed by memory space, with the
 * same constraints. IDs are per space (a robot's SQLite memory copies in keeping its IDs), allocated
 * from the space's row, which serialises writers of one space. Keys are computed by Mira (NFKC and
 * full case folding) and compared byte for byte: nothing depends on the database's collation.
 */
export class MemorySchemaV1 implements MigrationInterface {
  readonly name = 'MemorySchemaV11700000000001';

  async up(q: QueryRunner): Promise<void> {
    const created = `created_at text NOT NULL CHECK (created_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T.*Z$')`;
    await q.query(`CREATE TABLE mira_meta (key text PRIMARY KEY, value text NOT NULL)`);
    await q.query(
      `INSERT INTO mira_meta (key, value) VALUES ('application', '${FLEET_APPLICATION}'), ('schema_version', '1')`,
    );
    await q.query(`CREATE TABLE spaces (
      name text PRIMARY KEY CHECK (name ~ '^[a-z0-9][a-z0-9_.-]{0,63}$'),
      next_entity bigint NOT NULL DEFAULT 1 CHECK (next_entity >= 1),
      next_alias bigint NOT NULL DEFAULT 1 CHECK (next_alias >= 1),
      next_memory bigint NOT NULL DEFAULT 1 CHECK (next_memory >= 1),
      next_payload bigint NOT NULL DEFAULT 1 CHECK (next_payload >= 1),
      ${created})`);
    await q.query(`CREATE TABLE entities (
      space text NOT NULL REFERENCES spaces (name),
      id bigint NOT NULL CHECK (id >= 1),
      entity_type text NOT NULL CHECK (entity_type ~ '^[a-z][a-z0-9_]{0,63}$'),
      canonical_name text NOT NULL CHECK (char_length(canonical_name) BETWEEN 1 AND 256),
      name_key text NOT NULL CHECK (char_length(name_key) >= 1),
      ${created},
      PRIMARY KEY (space, id))`);
    await q.query(`CREATE INDEX entities_by_name_key ON entities (space, name_key, id)`);
    await q.query(`CREATE INDEX entities_by_type ON entities (space, entity_type, id)`);
    await q.query(`CREATE TABLE aliases (
      space text NOT NULL,
      id bigint NOT NULL CHECK (id >= 1),
      entity_id bigint NOT NULL,
      alias text NOT NULL CHECK (char_length(alias) BETWEEN 1 AND 256),
      alias_key text NOT NULL CHECK (char_length(alias_key) >= 1),
      ${created},
      PRIMARY KEY (space, id),
      FOREIGN KEY (space, entity_id) REFERENCES entities (space, id),
      UNIQUE (space, entity_id, alias_key))`);
    await q.query(`CREATE INDEX aliases_by_key ON aliases (space, alias_key, entity_id)`);
    await q.query(`CREATE TABLE memories (
      space text NOT NULL REFERENCES spaces (name),
      id bigint NOT NULL CHECK (id >= 1),
      kind text NOT NULL CHECK (char_length(kind) BETWEEN 1 AND 64),
      summary text NOT NULL CHECK (char_length(summary) >= 1),
      predicate text CHECK (predicate IS NULL OR char_length(predicate) BETWEEN 1 AND 64),
      value text,
      source_kind text NOT NULL CHECK (char_length(source_kind) BETWEEN 1 AND 64),
      source_label text,
      confidence double precision CHECK (confidence IS NULL OR (confidence >= 0 AND confidence <= 1)),
      status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
      ${created},
      CHECK (value IS NULL OR predicate IS NOT NULL),
      PRIMARY KEY (space, id))`);
    await q.query(`CREATE TABLE memory_links (
      space text NOT NULL,
      memory_id bigint NOT NULL,
      entity_id bigint NOT NULL,
      role text NOT NULL CHECK (char_length(role) BETWEEN 1 AND 64),
      PRIMARY KEY (space, memory_id, entity_id, role),
      FOREIGN KEY (space, memory_id) REFERENCES memories (space, id),
      FOREIGN KEY (space, entity_id) REFERENCES entities (space, id))`);
    // "Newest active memories of an entity" walks this index backwards.
    await q.query(`CREATE INDEX memory_links_by_entity ON memory_links (space, entity_id, memory_id)`);
    // Duplicate and conflict checks look up one entity's role and predicate slot.
    await q.query(`CREATE INDEX memory_links_by_entity_role ON memory_links (space, entity_id, role, memory_id)`);
    await q.query(`CREATE TABLE payloads (
      space text NOT NULL,
      id bigint NOT NULL CHECK (id >= 1),
      memory_id bigint NOT NULL,
      payload_kind text NOT NULL CHECK (payload_kind IN ('inline_text', 'object_ref')),
      media_type text NOT NULL CHECK (char_length(media_type) BETWEEN 3 AND 255),
      text_body text,
      object_ref text,
      sha256 text,
      byte_size bigint NOT NULL CHECK (byte_size >= 0),
      ${created},
      PRIMARY KEY (space, id),
      FOREIGN KEY (space, memory_id) REFERENCES memories (space, id),
      CHECK (
        (payload_kind = 'inline_text' AND text_body IS NOT NULL AND object_ref IS NULL AND sha256 IS NULL)
        OR (payload_kind = 'object_ref' AND text_body IS NULL AND object_ref IS NOT NULL AND sha256 ~ '^[0-9a-f]{64}$')
      ))`);
    await q.query(`CREATE INDEX payloads_by_memory ON payloads (space, memory_id, id)`);
    // One inline payload per memory: admission writes exactly one.
    await q.query(
      `CREATE UNIQUE INDEX payloads_one_inline ON payloads (space, memory_id) WHERE payload_kind = 'inline_text'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['payloads', 'memory_links', 'memories', 'aliases', 'entities', 'spaces', 'mira_meta'])
      await q.query(`DROP TABLE ${table}`);
  }
}
