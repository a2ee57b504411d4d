import { DataSource, EntitySchema } from 'typeorm';

// The schema-v1 tables as typeorm entity schemas: the data-mapper code many would reach for.
export interface EntityRow {
  id: number;
  entityType: string;
  canonicalName: string;
  nameKey: string;
  createdAt: string;
  aliases?: AliasRow[];
}
export interface AliasRow {
  id: number;
  entityId: number;
  alias: string;
  aliasKey: string;
  createdAt: string;
  entity?: EntityRow;
}
export interface MemoryRow {
  id: number;
  kind: string;
  summary: string;
  predicate: string | null;
  value: string | null;
  sourceKind: string;
  sourceLabel: string | null;
  confidence: number | null;
  status: string;
  createdAt: string;
  links?: LinkRow[];
  payloads?: PayloadRow[];
}
export interface LinkRow {
  memoryId: number;
  entityId: number;
  role: string;
  memory?: MemoryRow;
  entity?: EntityRow;
}
export interface PayloadRow {
  id: number;
  memoryId: number;
  payloadKind: string;
  mediaType: string;
  byteSize: number;
  createdAt: string;
  memory?: MemoryRow;
}

export const EntitySchemaRow = new EntitySchema<EntityRow>({
  name: 'EntityRow',
  tableName: 'entities',
  columns: {
    id: { type: 'integer', primary: true, generated: true },
    entityType: { type: 'text', name: 'entity_type' },
    canonicalName: { type: 'text', name: 'canonical_name' },
    nameKey: { type: 'text', name: 'name_key' },
    createdAt: { type: 'text', name: 'created_at' },
  },
  relations: { aliases: { type: 'one-to-many', target: 'AliasRow', inverseSide: 'entity' } },
});

export const AliasSchemaRow = new EntitySchema<AliasRow>({
  name: 'AliasRow',
  tableName: 'aliases',
  columns: {
    id: { type: 'integer', primary: true, generated: true },
    entityId: { type: 'integer', name: 'entity_id' },
    alias: { type: 'text' },
    aliasKey: { type: 'text', name: 'alias_key' },
    createdAt: { type: 'text', name: 'created_at' },
  },
  relations: {
    entity: { type: 'many-to-one', target: 'EntityRow', joinColumn: { name: 'entity_id' }, inverseSide: 'aliases' },
  },
});

export const MemorySchemaRow = new EntitySchema<MemoryRow>({
  name: 'MemoryRow',
  tableName: 'memories',
  columns: {
    id: { type: 'integer', primary: true, generated: true },
    kind: { type: 'text' },
    summary: { type: 'text' },
    predicate: { type: 'text', nullable: true },
    value: { type: 'text', nullable: true },
    sourceKind: { type: 'text', name: 'source_kind' },
    sourceLabel: { type: 'text', name: 'source_label', nullable: true },
    confidence: { type: 'real', nullable: true },
    status: { type: 'text' },
    createdAt: { type: 'text', name: 'created_at' },
  },
  relations: {
    links: { type: 'one-to-many', target: 'LinkRow', inverseSide: 'memory' },
    payloads: { type: 'one-to-many', target: 'PayloadRow', inverseSide: 'memory' },
  },
});

export const LinkSchemaRow = new EntitySchema<LinkRow>({
  name: 'LinkRow',
  tableName: 'memory_links',
  columns: {
    memoryId: { type: 'integer', name: 'memory_id', primary: true },
    entityId: { type: 'integer', name: 'entity_id', primary: true },
    role: { type: 'text', primary: true },
  },
  relations: {
    memory: { type: 'many-to-one', target: 'MemoryRow', joinColumn: { name: 'memory_id' }, inverseSide: 'links' },
    entity: { type: 'many-to-one', target: 'EntityRow', joinColumn: { name: 'entity_id' } },
  },
});

export const PayloadSchemaRow = new EntitySchema<PayloadRow>({
  name: 'PayloadRow',
  tableName: 'payloads',
  columns: {
    id: { type: 'integer', primary: true, generated: true },
    memoryId: { type: 'integer', name: 'memory_id' },
    payloadKind: { type: 'text', name: 'payload_kind' },
    mediaType: { type: 'text', name: 'media_type' },
    byteSize: { type: 'integer', name: 'byte_size' },
    createdAt: { type: 'text', name: 'created_at' },
  },
  relations: {
    memory: { type: 'many-to-one', target: 'MemoryRow', joinColumn: { name: 'memory_id' }, inverseSide: 'payloads' },
  },
});

/** Opens a typeorm data source on an existing schema-v1 file (no synchronisation). */
export async function openTypeorm(path: string): Promise<DataSource> {
  const ds = new DataSource({
    type: 'better-sqlite3',
    database: path,
    entities: [EntitySchemaRow, AliasSchemaRow, MemorySchemaRow, LinkSchemaRow, PayloadSchemaRow],
    synchronize: false,
    logging: false,
  });
  return ds.initialize();
}
