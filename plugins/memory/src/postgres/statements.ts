import type { MemorySlot, ObjectUsage, PreparedMemory, PreparedObject } from '@mira/memory-contract';
import { objectRef } from '@mira/memory-contract';
import { formatIds } from '../rows.js';
import type { PreparedProposal } from '../rules.js';
import type { AsyncStatements } from '../script.js';
import type { AdmitWritten } from '../statements.js';
import { PostgresReads, returned } from './reads.js';
import { INSERT_LINKS, INSERT_MEMORY, INSERT_PAYLOAD, LOCK_SLOT, NEXT_MEMORY_IDS } from './write-half.js';

/**
 * A memory's values in the order both ways of writing it take them (INSERT_MEMORY's `$3`…`$9` and
 * mira_admit's `p_kind`…`p_confidence`), then its links as two arrays (INSERT_LINKS' `$3`, `$4`; `p_link_*`).
 */
const memoryValues = (m: PreparedMemory) =>
  [m.kind, m.summary, m.predicate, m.value, m.sourceKind, m.sourceLabel, m.confidence] as const;
const linkArrays = (m: PreparedMemory) => [m.links.map((l) => l.entityId), m.links.map((l) => l.role)] as const;

/**
 * The PostgreSQL dialect of the store's statements: the reads (reads.ts) and the locks and writes. IDs are
 * allocated per space from the space's row, which a write transaction holds only from its first allocation
 * to its end.
 */
export class PostgresStatements extends PostgresReads implements AsyncStatements {
  /** The next ID of `kind` in this space; locks the space's row until the transaction ends. */
  async #nextId(kind: 'entity' | 'alias' | 'memory' | 'payload' | 'proposal'): Promise<number> {
    const rows = returned<{ id: string }>(
      await this.runner.query(
        `UPDATE spaces SET next_${kind} = next_${kind} + 1 WHERE name = $1 RETURNING next_${kind} - 1 AS id`,
        [this.space],
      ),
    );
    return Number(rows[0]!.id);
  }

  async lockSlot(slot: MemorySlot): Promise<void> {
    await this.query(LOCK_SLOT, [slot.entityId, slot.role, slot.predicate]);
  }

  async lockProposal(id: number): Promise<void> {
    await this.query(`SELECT id FROM proposals WHERE space = $1 AND id = $2 FOR UPDATE`, [id]);
  }

  async insertEntity(entityType: string, name: { display: string; key: string }, now: string): Promise<number> {
    const id = await this.#nextId('entity');
    await this.query(
      `INSERT INTO entities (space, id, entity_type, canonical_name, name_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, entityType, name.display, name.key, now],
    );
    return id;
  }

  async insertAlias(entityId: number, name: { display: string; key: string }, now: string): Promise<number> {
    const id = await this.#nextId('alias');
    await this.query(
      `INSERT INTO aliases (space, id, entity_id, alias, alias_key, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, entityId, name.display, name.key, now],
    );
    return id;
  }

  async putObject(object: PreparedObject): Promise<void> {
    // Stored once per digest in the space; a row whose bytes no longer hash to its name is replaced. An
    // object stored before is made young again: a collection running meanwhile must not take it away
    // before the rows that now refer to it commit.
    await this.query(
      `INSERT INTO objects (space, sha256, media_type, byte_size, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (space, sha256) DO UPDATE SET created_at = now(),
         body = CASE WHEN sha256(objects.body) <> decode(objects.sha256, 'hex') THEN EXCLUDED.body ELSE objects.body END`,
      [object.sha256, object.mediaType, object.bytes.length, object.bytes],
    );
  }

  async collectObjects(graceMs: number): Promise<ObjectUsage> {
    const rows = returned<{ byte_size: string }>(
      await this.runner.query(
        `DELETE FROM objects o WHERE o.space = $1 AND o.created_at < now() - make_interval(secs => $2::double precision / 1000)
         AND NOT EXISTS (SELECT 1 FROM payloads p WHERE p.space = o.space AND p.sha256 = o.sha256)
       RETURNING o.byte_size`,
        [this.space, graceMs],
      ),
    );
    return { objects: rows.length, bytes: rows.reduce((sum, r) => sum + Number(r.byte_size), 0) };
  }

  async insertObjectPayload(memoryId: number, object: PreparedObject, now: string): Promise<number> {
    const payloadId = await this.#nextId('payload');
    await this.query(
      `INSERT INTO payloads (space, id, memory_id, payload_kind, media_type, object_ref, sha256, byte_size, created_at)
       VALUES ($1, $2, $3, 'object_ref', $4, $5, $6, $7, $8)`,
      [payloadId, memoryId, object.mediaType, objectRef(object.sha256), object.sha256, object.bytes.length, now],
    );
    return payloadId;
  }

  async insertMemory(
    m: PreparedMemory,
    byteSize: number,
    now: string,
  ): Promise<{ memoryId: number; payloadId: number }> {
    const [ids] = returned<{ memory_id: string; payload_id: string }>(
      await this.runner.query(NEXT_MEMORY_IDS, [this.space]),
    );
    const memoryId = Number(ids!.memory_id);
    const payloadId = Number(ids!.payload_id);
    await this.query(INSERT_MEMORY, [memoryId, ...memoryValues(m), now]);
    if (m.links.length > 0) await this.query(INSERT_LINKS, [memoryId, ...linkArrays(m)]);
    await this.query(INSERT_PAYLOAD, [payloadId, memoryId, m.payloadText, byteSize, now]);
    return { memoryId, payloadId };
  }

  /** One round trip (mira_admit): the slot's lock, the check that it still holds `seenIds`, the IDs and rows. */
  async admitWrite(
    slot: MemorySlot,
    seenIds: readonly number[],
    m: PreparedMemory,
    byteSize: number,
    now: string,
  ): Promise<AdmitWritten | undefined> {
    const [row] = await this.prepared<{
      memory_id: string | null;
      payload_id: string | null;
      missing_entity: string | null;
      link_names: string[] | null;
    }>(
      'mira_admit',
      `SELECT memory_id, payload_id, missing_entity, link_names
       FROM mira_admit($1, $2, $3, $4, $5::bigint[], $6, $7, $8, $9, $10, $11, $12, $13::bigint[], $14::text[], $15, $16, $17)`,
      [
        slot.entityId,
        slot.role,
        slot.predicate,
        seenIds,
        ...memoryValues(m),
        ...linkArrays(m),
        m.payloadText,
        byteSize,
        now,
      ],
    );
    if (!row) return undefined;
    if (row.missing_entity !== null) return { missingEntity: Number(row.missing_entity) };
    return { memoryId: Number(row.memory_id), payloadId: Number(row.payload_id), linkNames: row.link_names! };
  }

  async supersede(oldId: number, newId: number, now: string): Promise<void> {
    await this.query(
      `UPDATE memories SET status = 'superseded', superseded_by = $3, superseded_at = $4
       WHERE space = $1 AND id = $2 AND status = 'active'`,
      [oldId, newId, now],
    );
  }

  async insertProposal(p: PreparedProposal, slotIds: readonly number[]): Promise<number> {
    const id = await this.#nextId('proposal');
    await this.query(
      `INSERT INTO proposals (space, id, kind, entity_type, name, name_key, memory_id, value, slot_ids, evidence, utterance, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        id,
        p.kind,
        p.entityType,
        p.name,
        p.nameKey,
        p.memoryId,
        p.value,
        formatIds(slotIds),
        p.evidence,
        p.utterance,
        p.createdAt,
        p.expiresAt,
      ],
    );
    return id;
  }

  async decideProposal(
    id: number,
    decision: 'accepted' | 'rejected',
    now: string,
    reason: string | null,
    result: string | null,
  ): Promise<void> {
    // A decided proposal keeps its evidence, not the rest of what was said.
    await this.query(
      `UPDATE proposals SET decision = $3, decided_at = $4, reason = $5, result = $6, utterance = evidence
       WHERE space = $1 AND id = $2 AND decision = 'pending'`,
      [id, decision, now, reason, result],
    );
  }

  async eraseSpentUtterances(now: string): Promise<void> {
    await this.query(
      `UPDATE proposals SET utterance = evidence
       WHERE space = $1 AND utterance <> evidence AND (decision <> 'pending' OR expires_at <= $2)`,
      [now],
    );
  }
}
