import type { EntityManager, EntitySchema } from 'typeorm';
import { MemoryErrors, prepareName, type MemorySnapshot } from '@mira/memory-contract';
import { formatIds } from '../rows.js';
import { AliasSchema, EntitySchemaV1, LinkSchema, MemorySchema, PayloadSchema, ProposalSchema } from './entities.js';
import { FleetErrors } from './errors.js';

type EntitySchemaLike = EntitySchema<any>;
type Rows = Array<Record<string, unknown>>;

/** The snapshot's rows of each table as the typeorm entities write them, in an order the references allow. */
function snapshotBatches(snapshot: MemorySnapshot, space: string): Array<[EntitySchemaLike, Rows]> {
  return [
    [
      EntitySchemaV1,
      snapshot.entities.map((e) => ({
        space,
        id: e.id,
        entity_type: e.entityType,
        canonical_name: e.canonicalName,
        name_key: e.nameKey,
        created_at: e.createdAt,
      })),
    ],
    [
      AliasSchema,
      snapshot.aliases.map((a) => ({
        space,
        id: a.id,
        entity_id: a.entityId,
        alias: a.alias,
        alias_key: a.aliasKey,
        created_at: a.createdAt,
      })),
    ],
    [MemorySchema, memoryRows(snapshot, space)],
    [LinkSchema, snapshot.links.map((l) => ({ space, memory_id: l.memoryId, entity_id: l.entityId, role: l.role }))],
    [
      PayloadSchema,
      snapshot.payloads.map((p) => ({
        space,
        id: p.id,
        memory_id: p.memoryId,
        payload_kind: p.payloadKind,
        media_type: p.mediaType,
        text_body: p.textBody,
        object_ref: p.objectRef,
        sha256: p.sha256,
        byte_size: p.byteSize,
        created_at: p.createdAt,
      })),
    ],
    [ProposalSchema, proposalRows(snapshot, space)],
  ];
}

function memoryRows(snapshot: MemorySnapshot, space: string): Rows {
  return snapshot.memories.map((r) => ({
    space,
    id: r.id,
    kind: r.kind,
    summary: r.summary,
    predicate: r.predicate,
    value: r.value,
    source_kind: r.sourceKind,
    source_label: r.sourceLabel,
    confidence: r.confidence,
    // A superseded memory is written active and marked below, once the memory that
    // replaced it exists (the row refers to it).
    status: r.status === 'superseded' ? 'active' : r.status,
    created_at: r.createdAt,
    superseded_by: null,
    superseded_at: null,
  }));
}

function proposalRows(snapshot: MemorySnapshot, space: string): Rows {
  return (snapshot.proposals ?? []).map((p) => ({
    space,
    id: p.id,
    kind: p.kind,
    entity_type: p.entityType,
    name: p.name,
    name_key: p.name === null ? null : prepareName(p.name).key,
    memory_id: p.memoryId,
    value: p.value,
    slot_ids: formatIds(p.slotIds),
    evidence: p.evidence,
    utterance: p.utterance,
    decision: p.decision,
    created_at: p.createdAt,
    expires_at: p.expiresAt,
    decided_at: p.decidedAt,
    reason: p.reason,
    result: p.result,
  }));
}

/** The objects the payloads refer to, once each, read and verified one at a time. */
async function copyObjects(m: EntityManager, snapshot: MemorySnapshot, space: string): Promise<void> {
  const objects = new Map(
    snapshot.payloads.flatMap((p) => (p.payloadKind === 'object_ref' && p.sha256 ? [[p.sha256, p]] : [])),
  );
  if (objects.size > 0 && !snapshot.readObject)
    throw MemoryErrors.error('OBJECT_MISSING.copyUnreadable', { count: objects.size });
  for (const [sha256, payload] of objects) {
    const bytes = await snapshot.readObject!(sha256);
    await m.query(
      `INSERT INTO objects (space, sha256, media_type, byte_size, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (space, sha256) DO NOTHING`,
      [space, sha256, payload.mediaType, bytes.length, bytes],
    );
  }
}

/**
 * Writes a robot's memory (an SQLite snapshot) into `space` on `m`'s transaction, keeping its IDs, through
 * the typeorm entities; refused unless the space is empty.
 */
export async function importSnapshot(
  m: EntityManager,
  target: { space: string; server: string; database: string },
  snapshot: MemorySnapshot,
  onProgress: (done: number, total: number) => void,
): Promise<{ entities: number; aliases: number; memories: number }> {
  const { space } = target;
  // The space row is locked first: no robot writes into it while it is filled.
  await m.query(`SELECT name FROM spaces WHERE name = $1 FOR UPDATE`, [space]);
  const [used] = (await m.query(
    `SELECT (SELECT count(*) FROM entities WHERE space = $1) + (SELECT count(*) FROM memories WHERE space = $1) AS n`,
    [space],
  )) as Array<{ n: string }>;
  if (Number(used!.n) > 0) {
    throw FleetErrors.error('SPACE_NOT_EMPTY', {
      space,
      server: target.server,
      database: target.database,
      count: used!.n,
    });
  }
  const batches = snapshotBatches(snapshot, space);
  const total = batches.reduce((n, [, rows]) => n + rows.length, 0);
  let done = 0;
  onProgress(0, total);
  for (const [schema, rows] of batches) {
    for (let i = 0; i < rows.length; i += 500) {
      const chunk = rows.slice(i, i + 500);
      await m.insert(schema, chunk as never);
      done += chunk.length;
      onProgress(done, total);
    }
  }
  await copyObjects(m, snapshot, space);
  for (const r of snapshot.memories) {
    if (r.supersededBy == null) continue;
    await m.query(
      `UPDATE memories SET status = 'superseded', superseded_by = $3, superseded_at = $4 WHERE space = $1 AND id = $2`,
      [space, r.id, r.supersededBy, r.supersededAt],
    );
  }
  const next = (ids: number[]) => (ids.length === 0 ? 1 : Math.max(...ids) + 1);
  await m.query(
    `UPDATE spaces SET next_entity = $2, next_alias = $3, next_memory = $4, next_payload = $5,
       next_proposal = $6 WHERE name = $1`,
    [
      space,
      next(snapshot.entities.map((e) => e.id)),
      next(snapshot.aliases.map((a) => a.id)),
      next(snapshot.memories.map((r) => r.id)),
      next(snapshot.payloads.map((p) => p.id)),
      next((snapshot.proposals ?? []).map((p) => p.id)),
    ],
  );
  return { entities: snapshot.entities.length, aliases: snapshot.aliases.length, memories: snapshot.memories.length };
}
