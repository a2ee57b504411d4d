import type { SqliteDatabase } from '@mira/sqlite';

/** The most names and aliases one range read of entityIdsByKeys takes in (more: read key by key). */
export const KEY_RANGE_LIMIT = 64;

/** A proposal's columns, in the order the rows module reads them. */
export const PROPOSAL_COLUMNS =
  'id, kind, entity_type, name, memory_id, value, slot_ids, evidence, utterance, decision, created_at, expires_at, decided_at, reason, result';
/** A memory's own columns. */
export const MEMORY_COLUMNS =
  'id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at, superseded_by, superseded_at';

/** The statements of entities, their names and aliases, and the name lookups of recall and remember. */
function nameStatements(db: SqliteDatabase) {
  return {
    insertEntity: db.prepare(
      'INSERT INTO entities (entity_type, canonical_name, name_key, created_at) VALUES (?, ?, ?, ?)',
    ),
    entityNameById: db.prepare('SELECT canonical_name FROM entities WHERE id = ?').pluck(),
    entityById: db.prepare('SELECT id, entity_type, canonical_name, name_key, created_at FROM entities WHERE id = ?'),
    aliasesOf: db.prepare('SELECT id, alias, alias_key, created_at FROM aliases WHERE entity_id = ? ORDER BY id'),
    insertAlias: db.prepare('INSERT INTO aliases (entity_id, alias, alias_key, created_at) VALUES (?, ?, ?, ?)'),
    entityIdsByKey: db
      .prepare(
        'SELECT id FROM entities WHERE name_key = ? UNION SELECT entity_id FROM aliases WHERE alias_key = ? ORDER BY 1',
      )
      .pluck(),
    // Several keys in one statement (a JSON array; `k.key` is each key's index): one call into SQLite
    // costs about what one key's lookup does, so remember's longer-name check adds little to its name's.
    entityIdsByKeys: db.prepare(
      `SELECT k.key AS i, e.id AS id FROM json_each(?) k JOIN entities e ON e.name_key = k.value
       UNION SELECT k.key, a.entity_id FROM json_each(?) k JOIN aliases a ON a.alias_key = k.value ORDER BY 1, 2`,
    ),
    // The keys and IDs of every name and alias between two keys (byte order, as the indexes hold them): one
    // seek into each index for remember's name and its longer names, which sort beside it (anna, anna maria).
    // Bounded: a range holding more than the limit is read key by key instead.
    // Rows as [key, id] arrays, the bounds given twice (positional parameters bind faster than named ones).
    keysBetween: db
      .prepare(
        `SELECT name_key, id FROM entities WHERE name_key BETWEEN ? AND ?
           UNION ALL SELECT alias_key, entity_id FROM aliases WHERE alias_key BETWEEN ? AND ? LIMIT ${KEY_RANGE_LIMIT + 1}`,
      )
      .raw(),
    // keysBetween's rows (tagged 0: [0, key, id]) and, when exactly one entity has the name (the 1st and
    // 2nd parameters), its slotMemories' rows (tagged 1: [1, id, kind, value, links]): admission's two reads
    // in one statement. The name's entities are looked up on their own (two seeks into pages the range
    // read holds) so that the range is read once, streamed rather than stored in a temporary table.
    namedSlot: db
      .prepare(
        `WITH one (id) AS (
           SELECT min(id) FROM (SELECT id FROM entities WHERE name_key = ? UNION ALL SELECT entity_id FROM aliases WHERE alias_key = ?)
           HAVING min(id) = max(id))
         SELECT 0, k, id, NULL, NULL FROM (
           SELECT name_key AS k, id FROM entities WHERE name_key BETWEEN ? AND ?
           UNION ALL SELECT alias_key, entity_id FROM aliases WHERE alias_key BETWEEN ? AND ? LIMIT ${KEY_RANGE_LIMIT + 1})
         UNION ALL
         SELECT 1, m.id, m.kind, m.value,
                (SELECT json_group_array(json_array(x.entity_id, x.role)) FROM memory_links x WHERE x.memory_id = m.id)
         FROM one JOIN memory_links l ON l.entity_id = one.id AND l.role = ? JOIN memories m ON m.id = l.memory_id
         WHERE m.predicate = ? AND m.status = 'active'`,
      )
      .raw(),
    entityIdsPage: db
      .prepare('SELECT id FROM entities WHERE (? IS NULL OR entity_type = ?) ORDER BY id LIMIT ? OFFSET ?')
      .pluck(),
    entityCount: db.prepare('SELECT count(*) FROM entities WHERE (? IS NULL OR entity_type = ?)').pluck(),
  };
}

/** The statements of memories, their links and payloads, and the slot admission decides on. */
function memoryStatements(db: SqliteDatabase) {
  return {
    insertMemory: db.prepare(
      "INSERT INTO memories (kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'active', ?)",
    ),
    insertLink: db.prepare('INSERT INTO memory_links (memory_id, entity_id, role) VALUES (?, ?, ?)'),
    insertPayload: db.prepare(
      "INSERT INTO payloads (memory_id, payload_kind, media_type, text_body, byte_size, created_at) VALUES (?, 'inline_text', 'text/plain', ?, ?, ?)",
    ),
    insertObjectPayload: db.prepare(
      "INSERT INTO payloads (memory_id, payload_kind, media_type, object_ref, sha256, byte_size, created_at) VALUES (?, 'object_ref', ?, ?, ?, ?, ?)",
    ),
    objectDigests: db.prepare("SELECT DISTINCT sha256 FROM payloads WHERE payload_kind = 'object_ref'").pluck(),
    memoryById: db.prepare(
      `SELECT ${MEMORY_COLUMNS}, (SELECT s.id FROM memories s WHERE s.superseded_by = m.id) AS supersedes
       FROM memories m WHERE id = ?`,
    ),
    historyOf: db.prepare('SELECT DISTINCT memory_id FROM memory_links WHERE entity_id = ? ORDER BY memory_id').pluck(),
    supersede: db.prepare(
      "UPDATE memories SET status = 'superseded', superseded_by = ?, superseded_at = ? WHERE id = ? AND status = 'active'",
    ),
    linksOf: db.prepare(
      'SELECT l.entity_id, l.role, e.canonical_name FROM memory_links l JOIN entities e ON e.id = l.entity_id WHERE l.memory_id = ? ORDER BY l.entity_id, l.role',
    ),
    payloadsOf: db.prepare(
      'SELECT id, payload_kind, media_type, text_body, object_ref, sha256, byte_size, created_at FROM payloads WHERE memory_id = ? ORDER BY id',
    ),
    // What a memory shows of its payloads: no body (recall and listings never load one).
    payloadInfoOf: db.prepare(
      'SELECT id, payload_kind, media_type, object_ref, sha256, byte_size, created_at FROM payloads WHERE memory_id = ? ORDER BY id',
    ),
    newestActive: db
      .prepare(
        `SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories m ON m.id = l.memory_id
         WHERE l.entity_id = ? AND m.status = 'active' ORDER BY l.memory_id DESC LIMIT ?`,
      )
      .pluck(),
    countActive: db
      .prepare(
        `SELECT count(DISTINCT l.memory_id) FROM memory_links l JOIN memories m ON m.id = l.memory_id
         WHERE l.entity_id = ? AND m.status = 'active'`,
      )
      .pluck(),
    bySlot: db
      .prepare(
        `SELECT m.id FROM memory_links l JOIN memories m ON m.id = l.memory_id
         WHERE l.entity_id = ? AND l.role = ? AND m.predicate = ? AND m.status = 'active' ORDER BY m.id`,
      )
      .pluck(),
    // The slot an admission decides on: each memory with its links as JSON ([[entity_id, role], …]), as
    // arrays (no object per row) and in the link index's order (m.id is l.memory_id: no sort). The
    // predicate is the slot's own.
    slotMemories: db
      .prepare(
        `SELECT m.id, m.kind, m.value,
              (SELECT json_group_array(json_array(k.entity_id, k.role)) FROM memory_links k WHERE k.memory_id = m.id)
         FROM memory_links l JOIN memories m ON m.id = l.memory_id
         WHERE l.entity_id = ? AND l.role = ? AND m.predicate = ? AND m.status = 'active' ORDER BY l.memory_id`,
      )
      .raw(),
  };
}

/** The statements of proposals, and the store's counts and revision. */
function proposalStatements(db: SqliteDatabase) {
  return {
    insertProposal: db.prepare(
      `INSERT INTO proposals (kind, entity_type, name, name_key, memory_id, value, slot_ids, evidence, utterance, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    proposalById: db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals WHERE id = ?`),
    proposals: db.prepare(`SELECT ${PROPOSAL_COLUMNS} FROM proposals ORDER BY id`),
    // A decided proposal keeps its evidence, not the rest of what was said.
    decideProposal: db.prepare(
      "UPDATE proposals SET decision = ?, decided_at = ?, reason = ?, result = ?, utterance = evidence WHERE id = ? AND decision = 'pending'",
    ),
    eraseSpentUtterances: db.prepare(
      "UPDATE proposals SET utterance = evidence WHERE utterance <> evidence AND (decision <> 'pending' OR expires_at <= ?)",
    ),
    revision: db.prepare('SELECT total_changes()').pluck(),
    counts: db.prepare(
      `SELECT (SELECT count(*) FROM entities) AS entities, (SELECT count(*) FROM aliases) AS aliases,
              (SELECT count(*) FROM memories) AS memories,
              (SELECT count(*) FROM memories WHERE status = 'active') AS activeMemories,
              (SELECT count(*) FROM memory_links) AS links, (SELECT count(*) FROM payloads) AS payloads`,
    ),
  };
}

/**
 * Every statement of the SQLite dialect (sqlite-statements.ts), prepared once per store on its connection:
 * the SQL of the store, by name.
 */
export function prepareStatements(db: SqliteDatabase) {
  return { ...nameStatements(db), ...memoryStatements(db), ...proposalStatements(db) };
}

/** The prepared statements by name. */
export type PreparedStatements = ReturnType<typeof prepareStatements>;
