/**
 * The PostgreSQL text of the store's reads that join several tables (statements.ts sends them): every read
 * is one statement, however many rows it involves (JSON aggregation, `= ANY($n)`, lateral joins). `$1` is
 * always the memory space. The write half (mira_admit and the statements it runs) is in write-half.ts.
 */
/** The IDs of the entities named `$2` exactly (canonical name or alias) in space `$1`. */
const IDS_BY_KEY = `SELECT id FROM entities WHERE space = $1 AND name_key = $2
  UNION SELECT entity_id FROM aliases WHERE space = $1 AND alias_key = $2`;
export const IDS_BY_KEY_ORDERED = `${IDS_BY_KEY} ORDER BY 1`;
/** {@link IDS_BY_KEY} for an array of keys at once: each key with its IDs. */
const KEYS_AND_IDS = `SELECT name_key AS key, id FROM entities WHERE space = $1 AND name_key = ANY($2::text[])
  UNION SELECT alias_key, entity_id FROM aliases WHERE space = $1 AND alias_key = ANY($2::text[])`;
export const IDS_BY_KEYS = `${KEYS_AND_IDS} ORDER BY 2`;
/**
 * {@link IDS_BY_KEYS} (rows with `part` 0) and, when exactly one entity has the name `$3`, its slot under role
 * `$4` and predicate `$5` as {@link SLOT_MEMORIES} reads it (rows with `part` 1): admission's two reads in one
 * round trip.
 */
export const NAMED_SLOT = `WITH r AS (${KEYS_AND_IDS}),
  one AS (SELECT min(id) AS id FROM r WHERE key = $3 HAVING count(DISTINCT id) = 1)
  SELECT 0 AS part, r.key, r.id, NULL::text AS kind, NULL::text AS value, NULL::json AS links FROM r
  UNION ALL
  SELECT 1, NULL, m.id, m.kind, m.value,
    (SELECT json_agg(json_build_array(k.entity_id, k.role)) FROM memory_links k WHERE k.space = m.space AND k.memory_id = m.id)
  FROM one JOIN memories m ON m.space = $1 AND m.status = 'active' AND m.predicate = $5 AND m.id IN (
    SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = one.id AND role = $4)`;

/** An entity's columns with its aliases (as JSON, in ID order), as one row per entity of `e`. */
const ENTITY_FIELDS = `e.id, e.entity_type, e.canonical_name, e.name_key, e.created_at,
  (SELECT coalesce(json_agg(json_build_object('id', a.id, 'alias', a.alias, 'alias_key', a.alias_key,
     'created_at', a.created_at) ORDER BY a.id), '[]')
   FROM aliases a WHERE a.space = e.space AND a.entity_id = e.id) AS aliases`;
export const ENTITY_SELECT = `SELECT ${ENTITY_FIELDS} FROM entities e`;

/**
 * A memory's columns, what superseded it, its links (with the entities' names) and its payloads (never
 * a body: recall and listings do not load one), as one row per memory of `m`.
 */
const MEMORY_FIELDS = `m.id, m.kind, m.summary, m.predicate, m.value, m.source_kind, m.source_label, m.confidence,
  m.status, m.created_at, m.superseded_by, m.superseded_at,
  (SELECT s.id FROM memories s WHERE s.space = m.space AND s.superseded_by = m.id) AS supersedes,
  (SELECT coalesce(json_agg(json_build_object('entity_id', l.entity_id, 'role', l.role,
     'canonical_name', e.canonical_name) ORDER BY l.entity_id, l.role COLLATE "C"), '[]')
   FROM memory_links l JOIN entities e ON e.space = l.space AND e.id = l.entity_id
   WHERE l.space = m.space AND l.memory_id = m.id) AS links,
  (SELECT coalesce(json_agg(json_build_object('id', p.id, 'payload_kind', p.payload_kind, 'media_type', p.media_type,
     'object_ref', p.object_ref, 'sha256', p.sha256, 'byte_size', p.byte_size, 'created_at', p.created_at)
     ORDER BY p.id), '[]')
   FROM payloads p WHERE p.space = m.space AND p.memory_id = m.id) AS payloads`;
export const MEMORY_SELECT = `SELECT ${MEMORY_FIELDS} FROM memories m`;

/** Entities `$2` (an array) of space `$1`, with their aliases. */
export const ENTITIES_BY_ID = `${ENTITY_SELECT} WHERE e.space = $1 AND e.id = ANY($2::bigint[])`;
/** The entities named `$2` exactly (canonical name or alias) in space `$1`, with their aliases, in ID order. */
export const ENTITIES_BY_KEY = `${ENTITY_SELECT} WHERE e.space = $1 AND e.id IN (${IDS_BY_KEY}) ORDER BY e.id`;
/** Memories `$2` (an array) of space `$1`, as {@link MEMORY_FIELDS} shows them. */
export const MEMORIES_BY_ID = `${MEMORY_SELECT} WHERE m.space = $1 AND m.id = ANY($2::bigint[])`;

/**
 * The newest `$3` (all when null) active memories of each entity of `$2` in space `$1`, ascending, with
 * how many each has in all: one row per memory, or one row without a memory for an entity that has none.
 */
export const NEWEST_ACTIVE = `WITH wanted AS (SELECT DISTINCT unnest($2::bigint[]) AS entity_id),
  picked AS (
    SELECT w.entity_id, p.memory_id FROM wanted w CROSS JOIN LATERAL (
      SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories a ON a.space = l.space AND a.id = l.memory_id
      WHERE l.space = $1 AND l.entity_id = w.entity_id AND a.status = 'active'
      ORDER BY l.memory_id DESC LIMIT $3) p),
  totals AS (
    SELECT l.entity_id, count(DISTINCT l.memory_id) AS n
    FROM memory_links l JOIN memories a ON a.space = l.space AND a.id = l.memory_id
    WHERE l.space = $1 AND l.entity_id IN (SELECT entity_id FROM wanted) AND a.status = 'active'
    GROUP BY l.entity_id)
  SELECT w.entity_id AS of_entity, coalesce(t.n, 0) AS total, ${MEMORY_FIELDS}
  FROM wanted w LEFT JOIN totals t ON t.entity_id = w.entity_id
  LEFT JOIN picked k ON k.entity_id = w.entity_id
  LEFT JOIN memories m ON m.space = $1 AND m.id = k.memory_id
  ORDER BY w.entity_id, m.id`;

/** The active memories of entity `e.id` in space `$1`, as a set of their IDs (DISTINCT: one per memory). */
const ACTIVE_OF_E = `SELECT DISTINCT l.memory_id FROM memory_links l JOIN memories a ON a.space = l.space AND a.id = l.memory_id
  WHERE l.space = $1 AND l.entity_id = e.id AND a.status = 'active'`;

/**
 * Recall in one statement: the entities named `$2` exactly in space `$1` (as {@link ENTITIES_BY_KEY}), in ID
 * order, one row per entity; for the first `$3` of them, how many active memories each has (`total`) and its
 * newest `$4` as JSON rows of {@link MEMORY_FIELDS} (`memories`), both null for the others.
 */
export const RECALL = `WITH found AS (${IDS_BY_KEY}), shown AS (SELECT id FROM found ORDER BY id LIMIT $3)
  SELECT ${ENTITY_FIELDS},
    CASE WHEN e.id IN (SELECT id FROM shown) THEN (SELECT count(*) FROM (${ACTIVE_OF_E}) t) END AS total,
    CASE WHEN e.id IN (SELECT id FROM shown) THEN (
      SELECT coalesce(json_agg(n ORDER BY n.id), '[]') FROM (
        ${MEMORY_SELECT} WHERE m.space = $1 AND m.id IN (${ACTIVE_OF_E} ORDER BY l.memory_id DESC LIMIT $4)) n) END
      AS memories
  FROM entities e WHERE e.space = $1 AND e.id IN (SELECT id FROM found) ORDER BY e.id`;
