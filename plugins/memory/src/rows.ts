import {
  entityRef,
  memoryRef,
  type Entity,
  type Memory,
  type MemoryLink,
  type MemoryStatus,
  type PayloadInfo,
  type ProposalRow,
  type SlotMemory,
} from '@mira/memory-contract';

// Row codecs the two dialects share: how a stored row becomes a domain value. PostgreSQL answers bigint
// columns as strings, SQLite as numbers; both go through Number().

/** A comma-separated ID list, as stores keep `slot_ids`. */
export const formatIds = (ids: readonly number[]): string => ids.join(',');
/** Parses what {@link formatIds} wrote. */
export const parseIds = (text: string | null): number[] => (text ? text.split(',').map((id) => Number(id)) : []);

/** A `proposals` row as both stores read it (PostgreSQL answers bigint columns as strings). */
export interface ProposalColumns {
  id: number | string;
  kind: 'entity' | 'supersede';
  entity_type: string | null;
  name: string | null;
  memory_id: number | string | null;
  value: string | null;
  slot_ids: string;
  evidence: string;
  utterance: string;
  decision: 'pending' | 'accepted' | 'rejected';
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  reason: string | null;
  result: string | null;
}

/** The stored proposal of a row. */
export function proposalFromColumns(row: ProposalColumns): ProposalRow {
  return {
    id: Number(row.id),
    kind: row.kind,
    entityType: row.entity_type,
    name: row.name,
    memoryId: row.memory_id === null ? null : Number(row.memory_id),
    value: row.value,
    slotIds: parseIds(row.slot_ids),
    evidence: row.evidence,
    utterance: row.utterance,
    decision: row.decision,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decidedAt: row.decided_at,
    reason: row.reason,
    result: row.result,
  };
}

/** A `payloads` row without its body, as listings read it. */
export interface PayloadColumns {
  id: number | string;
  payload_kind: 'inline_text' | 'object_ref';
  media_type: string;
  object_ref: string | null;
  sha256: string | null;
  byte_size: number | string;
  created_at: string;
}

/** What a memory shows of a payload (never its body). */
export function payloadInfoFromColumns(row: PayloadColumns): PayloadInfo {
  return {
    id: Number(row.id),
    payloadKind: row.payload_kind,
    mediaType: row.media_type,
    byteSize: Number(row.byte_size),
    objectRef: row.object_ref,
    sha256: row.sha256,
    createdAt: row.created_at,
  };
}

/** An `entities` row. */
export interface EntityColumns {
  id: number | string;
  entity_type: string;
  canonical_name: string;
  name_key: string;
  created_at: string;
}

/** An `aliases` row, without the entity it names. */
export interface AliasColumns {
  id: number | string;
  alias: string;
  alias_key: string;
  created_at: string;
}

/** An entity with its aliases (in ID order). */
export function entityFromColumns(row: EntityColumns, aliases: readonly AliasColumns[]): Entity {
  const id = Number(row.id);
  return {
    id,
    ref: entityRef(id),
    entityType: row.entity_type,
    canonicalName: row.canonical_name,
    nameKey: row.name_key,
    createdAt: row.created_at,
    aliases: aliases.map((a) => ({
      id: Number(a.id),
      entityId: id,
      alias: a.alias,
      aliasKey: a.alias_key,
      createdAt: a.created_at,
    })),
  };
}

/** A `memories` row, with the memory that it superseded (if any). */
export interface MemoryColumns {
  id: number | string;
  kind: string;
  summary: string;
  predicate: string | null;
  value: string | null;
  source_kind: string;
  source_label: string | null;
  confidence: number | string | null;
  status: MemoryStatus;
  created_at: string;
  superseded_by: number | string | null;
  superseded_at: string | null;
  supersedes: number | string | null;
}

/** A `memory_links` row with the linked entity's canonical name. */
export interface LinkColumns {
  entity_id: number | string;
  role: string;
  canonical_name: string;
}

const orNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** A memory with its links (sorted by entity, then role) and its payloads' metadata (in ID order). */
export function memoryFromColumns(
  row: MemoryColumns,
  links: readonly LinkColumns[],
  payloads: readonly PayloadColumns[],
): Memory {
  const id = Number(row.id);
  return {
    id,
    ref: memoryRef(id),
    kind: row.kind,
    summary: row.summary,
    predicate: row.predicate,
    value: row.value,
    source: { kind: row.source_kind, label: row.source_label },
    confidence: orNull(row.confidence),
    status: row.status,
    createdAt: row.created_at,
    supersededBy: orNull(row.superseded_by),
    supersededAt: row.superseded_at,
    supersedes: orNull(row.supersedes),
    links: links.map((l): MemoryLink => {
      const entityId = Number(l.entity_id);
      return { entityId, entityRef: entityRef(entityId), entityName: l.canonical_name, role: l.role };
    }),
    payloads: payloads.map(payloadInfoFromColumns),
  };
}

/** A slot's memory as an admission sees it; `links` as `[[entity_id, role], …]`. */
export interface SlotColumns {
  id: number | string;
  kind: string;
  predicate: string | null;
  value: string | null;
  links: ReadonlyArray<readonly [number | string, string]>;
}

export function slotMemoryFromColumns(row: SlotColumns): SlotMemory {
  const id = Number(row.id);
  return {
    id,
    ref: memoryRef(id),
    kind: row.kind,
    predicate: row.predicate,
    value: row.value,
    links: row.links.map(([entityId, role]) => ({ entityId: Number(entityId), role })),
  };
}
