import type { StoreSchema } from '@mira/sqlite';

/** Entities and aliases: unchanged since version 1. */
export const ENTITIES_DDL = `
CREATE TABLE entities (
  id             INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_type    TEXT    NOT NULL CHECK (length(entity_type) BETWEEN 1 AND 64 AND entity_type NOT GLOB '*[^a-z0-9_]*' AND substr(entity_type, 1, 1) GLOB '[a-z]'),
  canonical_name TEXT    NOT NULL CHECK (length(canonical_name) BETWEEN 1 AND 256),
  name_key       TEXT    NOT NULL CHECK (length(name_key) >= 1),
  created_at     TEXT    NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z')
);
CREATE INDEX entities_by_name_key ON entities (name_key, id);

CREATE TABLE aliases (
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_id  INTEGER NOT NULL REFERENCES entities (id),
  alias      TEXT    NOT NULL CHECK (length(alias) BETWEEN 1 AND 256),
  alias_key  TEXT    NOT NULL CHECK (length(alias_key) >= 1),
  created_at TEXT    NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
  UNIQUE (entity_id, alias_key)
);
CREATE INDEX aliases_by_key ON aliases (alias_key, entity_id);

`;

/** Version 1's memories table. */
const MEMORIES_V1_DDL = `CREATE TABLE memories (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind         TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
  summary      TEXT    NOT NULL CHECK (length(summary) >= 1),
  predicate    TEXT    CHECK (predicate IS NULL OR length(predicate) BETWEEN 1 AND 64),
  value        TEXT,
  source_kind  TEXT    NOT NULL CHECK (length(source_kind) BETWEEN 1 AND 64),
  source_label TEXT,
  confidence   REAL    CHECK (confidence IS NULL OR (confidence >= 0.0 AND confidence <= 1.0)),
  status       TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at   TEXT    NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
  CHECK (value IS NULL OR predicate IS NOT NULL)
);

`;

/** Links and payloads: unchanged since version 1. */
export const LINKS_PAYLOADS_DDL = `CREATE TABLE memory_links (
  memory_id INTEGER NOT NULL REFERENCES memories (id),
  entity_id INTEGER NOT NULL REFERENCES entities (id),
  role      TEXT    NOT NULL CHECK (length(role) BETWEEN 1 AND 64),
  PRIMARY KEY (memory_id, entity_id, role)
) WITHOUT ROWID;
-- "Newest active memories of an entity" walks this index backwards.
CREATE INDEX memory_links_by_entity ON memory_links (entity_id, memory_id);
-- Duplicate and conflict checks look up one entity's role and predicate slot.
CREATE INDEX memory_links_by_entity_role ON memory_links (entity_id, role, memory_id);

CREATE TABLE payloads (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  memory_id    INTEGER NOT NULL REFERENCES memories (id),
  payload_kind TEXT    NOT NULL CHECK (payload_kind IN ('inline_text', 'object_ref')),
  media_type   TEXT    NOT NULL CHECK (length(media_type) BETWEEN 3 AND 255),
  text_body    TEXT,
  object_ref   TEXT,
  sha256       TEXT,
  byte_size    INTEGER NOT NULL CHECK (byte_size >= 0),
  created_at   TEXT    NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
  CHECK (
    (payload_kind = 'inline_text' AND text_body IS NOT NULL AND object_ref IS NULL AND sha256 IS NULL)
    OR (payload_kind = 'object_ref' AND text_body IS NULL AND object_ref IS NOT NULL
        AND length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')
  )
);
CREATE INDEX payloads_by_memory ON payloads (memory_id);
`;

/**
 * Schema version 1: entities, aliases, memories, entity-memory links and
 * payloads in separate tables. Keys are computed in code (NFKC + full case
 * folding) and stored in indexed columns; `AUTOINCREMENT` keeps IDs from
 * ever being reused.
 */
export const SCHEMA_V1 = ENTITIES_DDL + MEMORIES_V1_DDL + LINKS_PAYLOADS_DDL;

/** Version 1 of the persistent memory store's file, as releases before proposals wrote it. */
export const MEMORY_SCHEMA_V1: StoreSchema = {
  kind: 'memory',
  version: 1,
  ddl: SCHEMA_V1,
  tables: ['aliases', 'entities', 'memories', 'memory_links', 'payloads'],
  setting: '[memory] database_path',
  what: 'Mira memory database',
};
