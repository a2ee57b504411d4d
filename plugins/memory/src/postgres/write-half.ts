/**
 * The write half of an admission on PostgreSQL, written once.
 *
 * The store's algorithm writes an admitted memory one of two ways (see `ScriptedMemoryStore`): in one round
 * trip, `mira_admit`, when the slot still holds what the first read saw; or, when it does not, under the
 * slot's lock in a transaction, statement by statement (the lock, the slot read, `sameSlot`, the linked
 * entities' names, the IDs, the memory, its links, its payload). Each of those statements is written here
 * once, as the text the store sends, and `mira_admit` is generated from the same texts: its body runs them
 * in the same order, each with its parameters renamed to the function's. A statement changed here changes
 * both ways at once. The body names its {@link ADMIT_VERSION}; a store replaces an installed function of an
 * earlier version at its writable open (never a later one: robots of two builds do not take turns).
 *
 * Every statement's `$1` is the memory space.
 */

/** The slot's lock: `$2` entity, `$3` role, `$4` predicate; held until the transaction ends. */
export const LOCK_SLOT = `SELECT pg_advisory_xact_lock(hashtextextended('mira-slot' || chr(1) || $1 || chr(1) || $2::text || chr(1) || $3 || chr(1) || $4, 0))`;

/** The active memories of slot ($2, $3, $4) with their links, as an admission sees them. */
export const SLOT_MEMORIES = `SELECT m.id, m.kind, m.predicate, m.value,
  (SELECT json_agg(json_build_array(k.entity_id, k.role)) FROM memory_links k
   WHERE k.space = m.space AND k.memory_id = m.id) AS links
  FROM memories m WHERE m.space = $1 AND m.status = 'active' AND m.predicate = $4 AND m.id IN (
    SELECT memory_id FROM memory_links WHERE space = $1 AND entity_id = $2 AND role = $3) ORDER BY m.id`;

/** The names of entities `$2` (an array) that exist. */
export const ENTITY_NAMES = `SELECT id, canonical_name FROM entities WHERE space = $1 AND id = ANY($2::bigint[])`;

/** The IDs of a new memory and of its payload, in one update of the space's row (locked until the end). */
export const NEXT_MEMORY_IDS = `UPDATE spaces SET next_memory = next_memory + 1, next_payload = next_payload + 1 WHERE name = $1
  RETURNING next_memory - 1 AS memory_id, next_payload - 1 AS payload_id`;

/** Memory `$2`: kind, summary, predicate, value, source kind and label, confidence (`$3`…`$9`), created `$10`. */
export const INSERT_MEMORY = `INSERT INTO memories (space, id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'active', $10)`;

/** The links of memory `$2`: entities `$3` and roles `$4`, two arrays in link order. */
export const INSERT_LINKS = `INSERT INTO memory_links (space, memory_id, entity_id, role)
         SELECT $1, $2, e, r FROM unnest($3::bigint[], $4::text[]) AS k(e, r)`;

/** Payload `$2` of memory `$3`: its text `$4`, its size in bytes `$5`, created `$6`. */
export const INSERT_PAYLOAD = `INSERT INTO payloads (space, id, memory_id, payload_kind, media_type, text_body, byte_size, created_at)
       VALUES ($1, $2, $3, 'inline_text', 'text/plain', $4, $5, $6)`;

/**
 * `sql` with its parameters `$1`, `$2`, … replaced by `names` (PL/pgSQL expressions), for the body of
 * {@link ADMIT_FUNCTION}. Refuses a parameter it has no name for, and a name left unused: a statement and
 * the names given for it must agree.
 */
export function inFunction(sql: string, names: readonly string[]): string {
  const used = new Set<number>();
  const body = sql.replace(/\$(\d+)/g, (_, n: string) => {
    const name = names[Number(n) - 1];
    if (name === undefined) throw new Error(`write-half: no name for $${n} in ${sql}`);
    used.add(Number(n));
    return name;
  });
  if (used.size !== names.length) throw new Error(`write-half: ${names.length} names for ${used.size} parameters`);
  return body;
}

/**
 * The version of `mira_admit`'s body: raise it with any change to the statements above or to the body (a
 * test pins the body's digest to it). 1 was the hand-written body of schema version 3.
 */
export const ADMIT_VERSION = 2;

/** The version an installed body names; 1 for a body that names none (the hand-written one). */
export function admitVersionOf(body: string): number {
  return Number(/^-- mira_admit (\d+)$/m.exec(body)?.[1] ?? 1);
}

const SLOT = ['p_space', 'p_slot_entity', 'p_slot_role', 'p_slot_predicate'];
const NAMES = ['p_space', 'p_link_entities'];

/** The parameters of `mira_admit`, in order. Its signature never changes: `CREATE OR REPLACE` keeps it. */
export const ADMIT_SIGNATURE = `mira_admit(
    p_space text, p_slot_entity bigint, p_slot_role text, p_slot_predicate text, p_seen bigint[],
    p_kind text, p_summary text, p_predicate text, p_value text, p_source_kind text, p_source_label text,
    p_confidence double precision, p_link_entities bigint[], p_link_roles text[], p_payload text,
    p_byte_size bigint, p_now text)
  RETURNS TABLE (memory_id bigint, payload_id bigint, missing_entity bigint, link_names text[])`;

/**
 * The body of `mira_admit`, generated from the statements above. Each statement of a PL/pgSQL function sees
 * what committed before it, so after the slot's lock the slot read sees every write into the slot: no row
 * when the slot no longer holds `p_seen` (nothing written); a row with `missing_entity` when a link names
 * no entity (nothing written); otherwise the new memory's and payload's IDs and the linked entities' names,
 * in link order. The table's column names are the function's output too: `use_column` reads a bare name
 * in a statement as the column, as the statement means it when the store sends it.
 */
export const ADMIT_BODY = `
#variable_conflict use_column
-- mira_admit ${ADMIT_VERSION}
DECLARE
  v_memory bigint;
  v_payload bigint;
  v_missing bigint;
  v_names text[];
BEGIN
  PERFORM ${inFunction(LOCK_SLOT, SLOT).slice('SELECT '.length)};
  IF p_seen IS DISTINCT FROM (
    SELECT coalesce(array_agg(s.id ORDER BY s.id), '{}'::bigint[]) FROM (${inFunction(SLOT_MEMORIES, SLOT)}) s) THEN
    RETURN;
  END IF;
  SELECT k.id INTO v_missing FROM unnest(p_link_entities) WITH ORDINALITY AS k(id, ord)
    LEFT JOIN (${inFunction(ENTITY_NAMES, NAMES)}) e ON e.id = k.id
    WHERE e.id IS NULL ORDER BY k.ord LIMIT 1;
  IF v_missing IS NOT NULL THEN
    RETURN QUERY SELECT NULL::bigint, NULL::bigint, v_missing, NULL::text[];
    RETURN;
  END IF;
  SELECT coalesce(array_agg(e.canonical_name ORDER BY k.ord), '{}'::text[]) INTO v_names
    FROM unnest(p_link_entities) WITH ORDINALITY AS k(id, ord)
    JOIN (${inFunction(ENTITY_NAMES, NAMES)}) e ON e.id = k.id;
  ${inFunction(NEXT_MEMORY_IDS, ['p_space'])} INTO v_memory, v_payload;
  ${inFunction(INSERT_MEMORY, ['p_space', 'v_memory', 'p_kind', 'p_summary', 'p_predicate', 'p_value', 'p_source_kind', 'p_source_label', 'p_confidence', 'p_now'])};
  ${inFunction(INSERT_LINKS, ['p_space', 'v_memory', 'p_link_entities', 'p_link_roles'])};
  ${inFunction(INSERT_PAYLOAD, ['p_space', 'v_payload', 'v_memory', 'p_payload', 'p_byte_size', 'p_now'])};
  RETURN QUERY SELECT v_memory, v_payload, NULL::bigint, v_names;
END
`;

/** `mira_admit` as installed: created by schema version 3, replaced by a body of a later {@link ADMIT_VERSION}. */
export const ADMIT_FUNCTION = `CREATE OR REPLACE FUNCTION ${ADMIT_SIGNATURE}
  LANGUAGE plpgsql AS $fn$${ADMIT_BODY}$fn$`;

/** The installed body of `mira_admit` in the current schema (no row when there is none). */
export const INSTALLED_ADMIT_BODY = `SELECT p.prosrc AS body FROM pg_proc p
  WHERE p.proname = 'mira_admit' AND p.pronamespace = current_schema()::regnamespace`;
