import type { SqliteDatabase, StoreSchema } from '@mira/sqlite';
import { ENTITIES_DDL, LINKS_PAYLOADS_DDL, SCHEMA_V1 } from './schema-v1.js';

/** The schema version this build reads and writes (`PRAGMA user_version`). */
export const SCHEMA_VERSION = 2;

/** Version 2's memories: a `superseded` status, with what replaced it and when. */
const MEMORIES_V2_DDL = `
CREATE TABLE memories (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  kind          TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
  summary       TEXT    NOT NULL CHECK (length(summary) >= 1),
  predicate     TEXT    CHECK (predicate IS NULL OR length(predicate) BETWEEN 1 AND 64),
  value         TEXT,
  source_kind   TEXT    NOT NULL CHECK (length(source_kind) BETWEEN 1 AND 64),
  source_label  TEXT,
  confidence    REAL    CHECK (confidence IS NULL OR (confidence >= 0.0 AND confidence <= 1.0)),
  status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'superseded')),
  created_at    TEXT    NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
  superseded_by INTEGER REFERENCES memories (id),
  superseded_at TEXT    CHECK (superseded_at IS NULL OR superseded_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
  CHECK (value IS NULL OR predicate IS NOT NULL),
  CHECK ((status = 'superseded') = (superseded_by IS NOT NULL) AND (superseded_by IS NULL) = (superseded_at IS NULL))
);
CREATE UNIQUE INDEX memories_by_superseded_by ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
`;

/**
 * Proposals the model made from the operator's words and the operator decides: a new entity, or a new
 * value in place of an active fact or preference. Nothing here is memory until an accept.
 */
const PROPOSALS_DDL = `
CREATE TABLE proposals (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  kind         TEXT    NOT NULL CHECK (kind IN ('entity', 'supersede')),
  entity_type  TEXT    CHECK (entity_type IS NULL OR (length(entity_type) BETWEEN 1 AND 64 AND entity_type NOT GLOB '*[^a-z0-9_]*')),
  name         TEXT    CHECK (name IS NULL OR length(name) BETWEEN 1 AND 256),
  name_key     TEXT,
  memory_id    INTEGER REFERENCES memories (id),
  value        TEXT,
  slot_ids     TEXT    NOT NULL DEFAULT '' CHECK (slot_ids NOT GLOB '*[^0-9,]*'),
  evidence     TEXT    NOT NULL CHECK (length(evidence) >= 1),
  utterance    TEXT    NOT NULL CHECK (length(utterance) >= 1),
  decision     TEXT    NOT NULL DEFAULT 'pending' CHECK (decision IN ('pending', 'accepted', 'rejected')),
  created_at   TEXT    NOT NULL CHECK (created_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T*Z'),
  expires_at   TEXT    NOT NULL CHECK (expires_at > created_at),
  decided_at   TEXT,
  reason       TEXT,
  result       TEXT,
  CHECK ((kind = 'entity') = (entity_type IS NOT NULL AND name IS NOT NULL AND name_key IS NOT NULL)),
  CHECK ((kind = 'supersede') = (memory_id IS NOT NULL AND value IS NOT NULL)),
  CHECK ((decision = 'pending') = (decided_at IS NULL)),
  CHECK (result IS NULL OR decision = 'accepted')
);
CREATE INDEX proposals_by_decision ON proposals (decision, id);
`;

/**
 * Schema version 2: version 1 with superseded memories and proposals. A new file gets it directly; a
 * version 1 file is upgraded once, after a backup (see {@link MEMORY_SCHEMA}).
 */
export const SCHEMA_V2 = ENTITIES_DDL + MEMORIES_V2_DDL + LINKS_PAYLOADS_DDL + PROPOSALS_DDL;

/**
 * Version 1 → 2. `memories` is rebuilt (SQLite cannot change a CHECK in place): the old table is renamed
 * with legacy renaming, so the links and payloads keep referring to `memories`, the new table is made
 * from the same text a new file gets, the rows move over with their IDs, and the ID sequence is kept.
 */
function upgradeFromV1(db: SqliteDatabase): void {
  const seq = db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'memories'").pluck().get() as number | undefined;
  db.pragma('legacy_alter_table = ON');
  try {
    db.exec('ALTER TABLE memories RENAME TO memories_v1');
  } finally {
    db.pragma('legacy_alter_table = OFF');
  }
  db.exec(MEMORIES_V2_DDL);
  db.exec(`INSERT INTO memories (id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at)
           SELECT id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at FROM memories_v1`);
  db.exec('DROP TABLE memories_v1');
  if (seq !== undefined) db.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'memories'").run(seq);
  db.exec(PROPOSALS_DDL);
}

/** The persistent memory store's file: schema v2, marked with the memory application ID. */
export const MEMORY_SCHEMA: StoreSchema = {
  kind: 'memory',
  version: SCHEMA_VERSION,
  ddl: SCHEMA_V2,
  tables: ['aliases', 'entities', 'memories', 'memory_links', 'payloads', 'proposals'],
  setting: '[memory] database_path',
  what: 'Mira memory database',
  upgrades: [{ from: 1, fromDdl: SCHEMA_V1, run: upgradeFromV1 }],
};
