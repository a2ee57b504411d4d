/**
 * `@mira/plugin-memory`: Mira's persistent memory on an embedded SQLite file,
 * with the `memory …` console commands for supervised administration.
 *
 * @packageDocumentation
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryErrorCodes, MiraError, type MemoryStore, type MiraPlugin } from '@mira/core';
import { memoryCommands } from './commands.js';
import { SqliteStoreErrorCodes } from './errors.js';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

export { CONSOLE_SOURCE_KIND, formatEntity, formatMemoryLine, memoryCommands, type MemoryCommandContext } from './commands.js';
export { SqliteStoreErrorCodes, type SqliteStoreErrorCode } from './errors.js';
export { MEMORY_SCHEMA, inspectDatabase, openDatabase, type VersionedSchema } from './open-database.js';
export { SCHEMA_V1, SCHEMA_VERSION } from './schema-v1.js';
export { SqliteMemoryStore, type SqliteMemoryStoreOptions } from './sqlite-memory-store.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-memory';
/** The name other plugins find the store under: `kernel.stores.get('memory')`. */
export const MEMORY_STORE_NAME = 'memory';

/** The `[memory]` table. */
export interface MemoryConfig {
  enabled: boolean;
  database_path?: string;
}

const plugin: MiraPlugin<MemoryConfig> = {
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'memory',
  configSchema: {
    type: 'object',
    properties: {
      enabled: { type: 'boolean', default: false },
      database_path: { type: 'string' },
    },
    additionalProperties: false,
  },
  apply(kernel, config) {
    let databasePath: string | undefined;
    if (config.enabled) {
      if (!config.database_path || config.database_path.trim() === '') {
        throw new MiraError(
          'MIRA_ERR_CONFIG_INVALID',
          '[memory] /memory/database_path: a non-empty path is required when enabled = true, e.g. database_path = "../data/mira-memory.sqlite3"',
        );
      }
      databasePath = kernel.resolvePath(config.database_path);
      const path = databasePath;
      kernel.stores.register<SqliteMemoryStore>({
        name: MEMORY_STORE_NAME,
        open: async () => {
          try {
            mkdirSync(dirname(path), { recursive: true });
          } catch (error) {
            throw new MiraError(SqliteStoreErrorCodes.OPEN_FAILED, `cannot create the directory ${dirname(path)}: ${(error as Error).message}`, { cause: error });
          }
          return SqliteMemoryStore.open(path, { clock: kernel.clock });
        },
      });
    }
    for (const command of memoryCommands({
      enabled: config.enabled,
      databasePath,
      store: () => {
        if (!config.enabled) {
          throw new MiraError(
            MemoryErrorCodes.DISABLED,
            'persistent memory is disabled in this profile; set [memory] enabled = true and database_path in profile.toml to use it',
          );
        }
        return kernel.stores.get<SqliteMemoryStore & MemoryStore>(MEMORY_STORE_NAME);
      },
    })) {
      kernel.commands.register(command);
    }
  },
};

export default plugin;
