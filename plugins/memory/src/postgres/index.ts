/**
 * The fleet memory store on PostgreSQL (typeorm), apart from the plugin's entry point so that a profile on
 * the embedded SQLite store never loads typeorm or the PostgreSQL driver:
 * `import { PostgresMemoryStore } from '@mira/plugin-memory/postgres'`.
 *
 * @packageDocumentation
 */
export {
  PostgresMemoryStore,
  describeUrl,
  fleetError,
  type PostgresMemoryStoreOptions,
} from './postgres-memory-store.js';
export { FLEET_APPLICATION, MemorySchemaV1 } from './migrations/0001-schema-v1.js';
export { BACKUP_SCHEMA_V1, MemorySchemaV2 } from './migrations/0002-proposals.js';
export { MemorySchemaV3 } from './migrations/0003-admission.js';
export { FLEET_SCHEMA_VERSION, MemorySchemaV4 } from './migrations/0004-objects.js';
export { SPACE_PATTERN } from './space.js';
export { FleetErrorCodes, FleetErrors } from './errors.js';
