import type { ProposalColumns } from '../rows.js';
import { EntitySchema } from 'typeorm';

/**
 * The fleet tables as typeorm entity schemas (the migrations create them; typeorm never synchronises).
 * Every row belongs to a memory space; IDs are per space.
 */
export interface SpaceRow {
  name: string;
  next_entity: string;
  next_alias: string;
  next_memory: string;
  next_payload: string;
  created_at: string;
}
export interface EntityRow {
  space: string;
  id: string;
  entity_type: string;
  canonical_name: string;
  name_key: string;
  created_at: string;
}
export interface AliasRow {
  space: string;
  id: string;
  entity_id: string;
  alias: string;
  alias_key: string;
  created_at: string;
}
export interface MemoryRow {
  space: string;
  id: string;
  kind: string;
  summary: string;
  predicate: string | null;
  value: string | null;
  source_kind: string;
  source_label: string | null;
  confidence: number | null;
  status: 'active' | 'inactive' | 'superseded';
  created_at: string;
  superseded_by: string | null;
  superseded_at: string | null;
}
export interface LinkRow {
  space: string;
  memory_id: string;
  entity_id: string;
  role: string;
}
export interface PayloadRow {
  space: string;
  id: string;
  memory_id: string;
  payload_kind: 'inline_text' | 'object_ref';
  media_type: string;
  text_body: string | null;
  object_ref: string | null;
  sha256: string | null;
  byte_size: string;
  created_at: string;
}

const text = { type: 'text' } as const;
const nullableText = { type: 'text', nullable: true } as const;
const key = (type: 'text' | 'bigint') => ({ type, primary: true }) as const;

export const SpaceSchema = new EntitySchema<SpaceRow>({
  name: 'FleetSpace',
  tableName: 'spaces',
  columns: {
    name: key('text'),
    next_entity: { type: 'bigint' },
    next_alias: { type: 'bigint' },
    next_memory: { type: 'bigint' },
    next_payload: { type: 'bigint' },
    created_at: text,
  },
});
export const EntitySchemaV1 = new EntitySchema<EntityRow>({
  name: 'FleetEntity',
  tableName: 'entities',
  columns: {
    space: key('text'),
    id: key('bigint'),
    entity_type: text,
    canonical_name: text,
    name_key: text,
    created_at: text,
  },
});
export const AliasSchema = new EntitySchema<AliasRow>({
  name: 'FleetAlias',
  tableName: 'aliases',
  columns: {
    space: key('text'),
    id: key('bigint'),
    entity_id: { type: 'bigint' },
    alias: text,
    alias_key: text,
    created_at: text,
  },
});
export const MemorySchema = new EntitySchema<MemoryRow>({
  name: 'FleetMemory',
  tableName: 'memories',
  columns: {
    space: key('text'),
    id: key('bigint'),
    kind: text,
    summary: text,
    predicate: nullableText,
    value: nullableText,
    source_kind: text,
    source_label: nullableText,
    confidence: { type: 'double precision', nullable: true },
    status: text,
    created_at: text,
    superseded_by: { type: 'bigint', nullable: true },
    superseded_at: nullableText,
  },
});
export const LinkSchema = new EntitySchema<LinkRow>({
  name: 'FleetLink',
  tableName: 'memory_links',
  columns: { space: key('text'), memory_id: key('bigint'), entity_id: key('bigint'), role: key('text') },
});
export const PayloadSchema = new EntitySchema<PayloadRow>({
  name: 'FleetPayload',
  tableName: 'payloads',
  columns: {
    space: key('text'),
    id: key('bigint'),
    memory_id: { type: 'bigint' },
    payload_kind: text,
    media_type: text,
    text_body: nullableText,
    object_ref: nullableText,
    sha256: nullableText,
    byte_size: { type: 'bigint' },
    created_at: text,
  },
});

/** A `proposals` row: the columns both stores share, keyed by space (bigint columns read as strings). */
export interface ProposalDbRow extends ProposalColumns {
  space: string;
  id: string;
  name_key: string | null;
  memory_id: string | null;
}
export const ProposalSchema = new EntitySchema<ProposalDbRow>({
  name: 'FleetProposal',
  tableName: 'proposals',
  columns: {
    space: key('text'),
    id: key('bigint'),
    kind: text,
    entity_type: nullableText,
    name: nullableText,
    name_key: nullableText,
    memory_id: { type: 'bigint', nullable: true },
    value: nullableText,
    slot_ids: text,
    evidence: text,
    utterance: text,
    decision: text,
    created_at: text,
    expires_at: text,
    decided_at: nullableText,
    reason: nullableText,
    result: nullableText,
  },
});

/** Every fleet entity schema, for the data source. */
export const FLEET_ENTITIES = [
  SpaceSchema,
  EntitySchemaV1,
  AliasSchema,
  MemorySchema,
  LinkSchema,
  PayloadSchema,
  ProposalSchema,
];
