/**
 * `@mira/plugin-mind-view`: the runtime serves a local web page, the Mind
 * view, to review and curate note memory and entity memory.
 *
 * @packageDocumentation
 */
import type { MemoryStore, MiraPlugin } from '@mira/core';
import type { NotesStore } from '@mira/plugin-notes';
import { startMindViewServer, type MindViewServer } from './server.js';

export { SECURITY_HEADERS, startMindViewServer, type MindViewServer, type MindViewSources } from './server.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-mind-view';

/** The `[mind_view]` table. */
export interface MindViewConfig {
  enabled: boolean;
  host: string;
  /** 0 picks a free port. */
  port: number;
}

/** A fresh Mind view plugin; `handle.server` is the running server after start. */
export function createMindViewPlugin(): MiraPlugin<MindViewConfig> & { readonly handle: { server?: MindViewServer } } {
  const handle: { server?: MindViewServer } = {};
  let start: (() => Promise<void>) | undefined;
  return {
    name: PLUGIN_NAME,
    version: '0.1.0',
    configSection: 'mind_view',
    handle,
    configSchema: {
      type: 'object',
      properties: {
        enabled: { type: 'boolean', default: false },
        host: { type: 'string', enum: ['127.0.0.1', 'localhost', '::1'], default: '127.0.0.1' },
        port: { type: 'integer', minimum: 0, maximum: 65535, default: 7777 },
      },
      additionalProperties: false,
    },
    apply(kernel, config) {
      if (!config.enabled) return;
      start = async () => {
        handle.server = await startMindViewServer(
          {
            notes: () => (kernel.stores.has('notes') ? kernel.stores.get<NotesStore>('notes') : undefined),
            memory: () => (kernel.stores.has('memory') ? kernel.stores.get<MemoryStore>('memory') : undefined),
            now: () => kernel.clock.now(),
          },
          { host: config.host, port: config.port },
        );
        // Like a notebook server, the address with its token goes to the log (stderr), once.
        kernel.log.info(`Mind view: ${handle.server.url}`);
      };
    },
    async start() {
      await start?.();
    },
    async stop() {
      await handle.server?.close();
    },
  };
}

export default createMindViewPlugin();
