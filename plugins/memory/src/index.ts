/**
 * `@mira/plugin-memory`: Mira's persistent memory on an embedded SQLite file,
 * with the `memory …` console commands for supervised administration.
 *
 * @packageDocumentation
 */
import { MemoryErrorCodes, MiraError, definePlugin, type MemoryStore, type MiraPlugin } from '@mira/core';
import { memoryCommands } from './commands.js';
import { ensureParentDirectory, requireDatabasePath } from '@mira/sqlite';
import { SqliteMemoryStore } from './sqlite-memory-store.js';

export { CONSOLE_SOURCE_KIND, formatMemoryLine, memoryCommands, type MemoryCommandContext } from './commands.js';
export { MEMORY_SCHEMA, SCHEMA_V1, SCHEMA_VERSION } from './schema-v1.js';
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

const plugin: MiraPlugin<MemoryConfig> = definePlugin({
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
  setup(kernel, config) {
    const databasePath = config.enabled
      ? requireDatabasePath(kernel, 'memory', config.database_path, '../data/mira-memory.sqlite3')
      : undefined;
    if (databasePath !== undefined) {
      kernel.stores.register<SqliteMemoryStore>({
        name: MEMORY_STORE_NAME,
        open: async () => {
          ensureParentDirectory(databasePath);
          return SqliteMemoryStore.open(databasePath, { clock: kernel.clock });
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
});

export default plugin;
