import type { MigrationInterface, QueryRunner } from 'typeorm';

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
 * Writes an admitted memory in one statement, so that no transaction waits on the client: it takes the
 * slot's lock (the key the store's locked path takes, so the two exclude each other), checks that the
 * slot's active memories are still `p_seen` — each statement of a PL/pgSQL function sees what committed
 * before it, so after the lock it sees every write into the slot — and then allocates the IDs (the
 * space's row is locked only until this returns) and writes the memory, its links and its payload.
 * No row: the slot changed, nothing written. A row with `missing_entity`: a link names no entity, nothing
 * written. Otherwise the new memory's and payload's IDs and the linked entities' names, in link order.
 */
export const ADMIT_FUNCTION = `CREATE FUNCTION mira_admit(
    p_space text, p_slot_entity bigint, p_slot_role text, p_slot_predicate text, p_seen bigint[],
    p_kind text, p_summary text, p_predicate text, p_value text, p_source_kind text, p_source_label text,
    p_confidence double precision, p_link_entities bigint[], p_link_roles text[], p_payload text,
    p_byte_size bigint, p_now text)
  RETURNS TABLE (memory_id bigint, payload_id bigint, missing_entity bigint, link_names text[])
  LANGUAGE plpgsql AS $fn$
DECLARE
  v_memory bigint;
  v_payload bigint;
  v_missing bigint;
  v_names text[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(
    'mira-slot' || chr(1) || p_space || chr(1) || p_slot_entity::text || chr(1) || p_slot_role || chr(1) || p_slot_predicate, 0));
  IF p_seen IS DISTINCT FROM (
    SELECT coalesce(array_agg(m.id ORDER BY m.id), '{}'::bigint[]) FROM memories m
    WHERE m.space = p_space AND m.status = 'active' AND m.predicate = p_slot_predicate AND m.id IN (
      SELECT l.memory_id FROM memory_links l
      WHERE l.space = p_space AND l.entity_id = p_slot_entity AND l.role = p_slot_role)) THEN
    RETURN;
  END IF;
  SELECT k.id INTO v_missing FROM unnest(p_link_entities) WITH ORDINALITY AS k(id, ord)
  WHERE NOT EXISTS (SELECT 1 FROM entities e WHERE e.space = p_space AND e.id = k.id) ORDER BY k.ord LIMIT 1;
  IF v_missing IS NOT NULL THEN
    RETURN QUERY SELECT NULL::bigint, NULL::bigint, v_missing, NULL::text[];
    RETURN;
  END IF;
  SELECT coalesce(array_agg(e.canonical_name ORDER BY k.ord), '{}'::text[]) INTO v_names
  FROM unnest(p_link_entities) WITH ORDINALITY AS k(id, ord) JOIN entities e ON e.space = p_space AND e.id = k.id;
  UPDATE spaces SET next_memory = next_memory + 1, next_payload = next_payload + 1 WHERE name = p_space
  RETURNING next_memory - 1, next_payload - 1 INTO v_memory, v_payload;
  INSERT INTO memories (space, id, kind, summary, predicate, value, source_kind, source_label, confidence, status, created_at)
  VALUES (p_space, v_memory, p_kind, p_summary, p_predicate, p_value, p_source_kind, p_source_label, p_confidence, 'active', p_now);
  INSERT INTO memory_links (space, memory_id, entity_id, role)
  SELECT p_space, v_memory, k.id, k.role FROM unnest(p_link_entities, p_link_roles) AS k(id, role);
  INSERT INTO payloads (space, id, memory_id, payload_kind, media_type, text_body, byte_size, created_at)
  VALUES (p_space, v_payload, v_memory, 'inline_text', 'text/plain', p_payload, p_byte_size, p_now);
  RETURN QUERY SELECT v_memory, v_payload, NULL::bigint, v_names;
END
$fn$`;

/**
 * Fleet memory, schema version 3: the admission function {@link ADMIT_FUNCTION}. No table or row changes,
 * so the upgrade keeps no backup.
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
