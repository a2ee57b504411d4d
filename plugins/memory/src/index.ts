/**
 * `@mira/plugin-memory`: Mira's persistent memory on an embedded SQLite file,
 * with the `memory …` console commands for supervised administration.
 *
 * @packageDocumentation
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { definePlugin, type MiraPlugin } from '@mira/core';
import { DEFAULT_MAX_OBJECT_BYTES, MEMORY_STORE, MemoryErrors } from '@mira/memory-contract';
import { memoryCommands } from './commands.js';
import { ensureParentDirectory, requireDatabasePath, type UpgradeDone } from '@mira/sqlite';
import { SqliteMemoryStore } from './sqlite-memory-store.js';
import { FleetErrors } from './postgres/errors.js';
import { SPACE_PATTERN } from './postgres/space.js';
import { configValidator } from './config-validator.generated.js';

export { CONSOLE_SOURCE_KIND, formatMemoryLine, memoryCommands, type MemoryCommandContext } from './commands.js';
export { MEMORY_SCHEMA_V1, SCHEMA_V1 } from './schema-v1.js';
export { MEMORY_SCHEMA, SCHEMA_V2, SCHEMA_VERSION } from './schema-v2.js';
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from './sqlite-memory-store.js';
export { ObjectFiles, readRegularFile, type WriteSeam } from './object-files.js';
// The fleet store itself is in '@mira/plugin-memory/postgres' (it loads typeorm and the PostgreSQL driver).
export { SPACE_PATTERN } from './postgres/space.js';
export { FleetErrorCodes, FleetErrors } from './postgres/errors.js';
export { MemoryRuleErrors } from './errors.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-memory';
/** The name the store is registered under: its key is `MEMORY_STORE` of `@mira/core`. */
export const MEMORY_STORE_NAME = MEMORY_STORE.name;

/**
 * The `[memory]` table's schema: the runtime validates the table with it and fills the defaults, the
 * configuration reference is generated from it, and {@link MemoryConfig} is derived from it.
 */
const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', default: false, description: 'keep persistent memory (entities and memories)' },
    backend: {
      enum: ['sqlite', 'postgres'],
      default: 'sqlite',
      description: 'sqlite: one embedded file per robot; postgres: a fleet server',
    },
    database_path: { type: 'string', description: 'sqlite: the database file, relative to the manifest' },
    url_env: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      default: 'MIRA_PG_URL',
      description: 'postgres: the environment variable holding the connection string (never the manifest)',
    },
    space: {
      type: 'string',
      pattern: SPACE_PATTERN.source,
      description: "postgres: the memory space robots share (default: the profile's name)",
    },
    proposal_expiry_days: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 3650,
      default: 7,
      description: 'how many days a proposal from conversation waits for the operator',
    },
    max_object_bytes: {
      type: 'integer',
      minimum: 1024,
      maximum: 64 * 1024 * 1024,
      default: DEFAULT_MAX_OBJECT_BYTES,
      description: 'the largest object (a snapshot image) a memory may keep, in bytes',
    },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The `[memory]` table as `setup` receives it (defaults filled in): derived from {@link CONFIG_SCHEMA}. */
export type MemoryConfig = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

/** The memory space a profile uses by default: its name, as a space name. */
export function defaultSpace(profileName: string): string {
  const space = profileName
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
  return space || 'default';
}

const plugin: MiraPlugin<MemoryConfig> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'memory',
  configSchema: CONFIG_SCHEMA,
  configValidator,
  setup(kernel, config) {
    const proposalTtlMs = config.proposal_expiry_days * 24 * 60 * 60 * 1000;
    const onUpgrade = (done: UpgradeDone) =>
      kernel.log.info(
        `memory database upgraded from schema version ${done.from} to ${done.to}; the version ${done.from} file was copied to ${done.backupPath} first`,
      );
    if (config.enabled && config.backend === 'postgres') {
      const space = config.space ?? defaultSpace(kernel.profile.name);
      kernel.stores.register({
        key: MEMORY_STORE,
        open: async () => {
          const url = process.env[config.url_env];
          if (!url?.trim()) {
            throw FleetErrors.error('URL_MISSING', { env: config.url_env });
          }
          // Loaded only here: a profile on SQLite never loads typeorm or the PostgreSQL driver.
          const { PostgresMemoryStore } = await import('./postgres/postgres-memory-store.js');
          return PostgresMemoryStore.open({
            url,
            space,
            clock: kernel.clock,
            readOnly: kernel.runtime.readOnly,
            proposalTtlMs,
            maxObjectBytes: config.max_object_bytes,
            log: (line) => kernel.log.error(line),
          });
        },
      });
    }
    const databasePath =
      config.enabled && config.backend === 'sqlite'
        ? requireDatabasePath(kernel, 'memory', config.database_path, '../data/mira-memory.sqlite3')
        : undefined;
    // Whether this runtime created the store: `memory persistent` says so, beside the line on stderr.
    let createdNow = false;
    if (databasePath !== undefined) {
      kernel.stores.register({
        key: MEMORY_STORE,
        files: [databasePath],
        open: async () => {
          if (kernel.runtime.readOnly)
            return SqliteMemoryStore.open(databasePath, { clock: kernel.clock, readOnly: true, proposalTtlMs });
          ensureParentDirectory(databasePath, '[memory] database_path');
          return SqliteMemoryStore.open(databasePath, {
            clock: kernel.clock,
            proposalTtlMs,
            onUpgrade,
            onCreated: () => {
              createdNow = true;
              kernel.log.info(`memory: created a new store at ${databasePath}`);
            },
            maxObjectBytes: config.max_object_bytes,
            log: (line) => kernel.log.warn(line),
          });
        },
      });
    }
    for (const command of memoryCommands({
      enabled: config.enabled,
      databasePath,
      createdNow: () => createdNow,
      store: () => {
        if (!config.enabled) {
          throw MemoryErrors.error('DISABLED');
        }
        return kernel.stores.get(MEMORY_STORE);
      },
      sensors: kernel.sensors,
      monotonic: () => kernel.clock.monotonic(),
      resolvePath: (path) => kernel.resolvePath(path),
      protectedFiles: () => kernel.stores.files(),
    })) {
      kernel.commands.register(command);
    }
  },
});

export default plugin;
