/**
 * `@mira/plugin-mind-view`: the runtime serves a local web page, the Mind
 * view, to review and curate note memory and entity memory.
 *
 * @packageDocumentation
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { definePlugin, type MiraPlugin, type PluginInstance } from '@mira/core';
import { MEMORY_STORE } from '@mira/memory-contract';
import { NOTES_STORE } from '@mira/plugin-notes';
import { MindViewErrors } from './errors.js';
import { startMindViewServer, type MindViewServer } from './server.js';
import { configValidator } from './config-validator.generated.js';

export { MindViewErrorCodes, MindViewErrors } from './errors.js';
export {
  SECURITY_HEADERS,
  startMindViewServer,
  statusOf,
  type MindViewServer,
  type MindViewSources,
} from './server.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-mind-view';

/**
 * The `[mind_view]` table's schema: the runtime validates the table with it and fills the defaults, the
 * configuration reference is generated from it, and {@link MindViewConfig} is derived from it.
 */
const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    enabled: { type: 'boolean', default: false, description: 'serve the Mind view page' },
    host: {
      type: 'string',
      enum: ['127.0.0.1', 'localhost', '::1'],
      default: '127.0.0.1',
      description: 'the loopback address it listens on (never another interface)',
    },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 7777, description: '0 picks a free port' },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The `[mind_view]` table as `setup` receives it (defaults filled in): derived from {@link CONFIG_SCHEMA}. */
export type MindViewConfig = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

/** One runtime's Mind view. */
export interface MindViewInstance extends PluginInstance {
  /** The running server (address, port, token) once started; undefined while disabled or stopped. */
  readonly server: MindViewServer | undefined;
}

/** The Mind view plugin: each runtime serves its own page on its own port with its own token. */
export const mindViewPlugin: MiraPlugin<MindViewConfig, MindViewInstance> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'mind_view',
  configSchema: CONFIG_SCHEMA,
  configValidator,
  setup(kernel, config) {
    let server: MindViewServer | undefined;
    return {
      get server() {
        return server;
      },
      async start() {
        if (!config.enabled) return;
        try {
          server = await startMindViewServer(
            {
              notes: () => (kernel.stores.has(NOTES_STORE) ? kernel.stores.get(NOTES_STORE) : undefined),
              memory: () => (kernel.stores.has(MEMORY_STORE) ? kernel.stores.get(MEMORY_STORE) : undefined),
              now: () => kernel.clock.now(),
              log: (message) => kernel.log.error(message),
            },
            { host: config.host, port: config.port },
          );
        } catch (error) {
          // Node's EADDRINUSE names no key; the operator needs the one to change and the file it is in.
          if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
          const { port, host } = config;
          throw MindViewErrors.error(
            'PORT_IN_USE',
            { port, host, path: kernel.profile.manifestPath },
            { cause: error },
          );
        }
        // Like a notebook server, the address with its token goes to the log (stderr), once.
        kernel.log.info(`Mind view: ${server.url}`);
      },
      async stop() {
        await server?.close();
        server = undefined;
      },
    };
  },
});

export default mindViewPlugin;
