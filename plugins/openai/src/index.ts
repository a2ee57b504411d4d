/**
 * `@mira/plugin-openai`: Mira's cognition provider on the OpenAI Chat
 * Completions API with strict function tools.
 *
 * @packageDocumentation
 */
import { definePlugin, type MiraPlugin } from '@mira/core';
import { OpenAIProvider } from './openai-provider.js';
import { OPENAI_CONFIG_SCHEMA, type OpenAIConfig } from './config.js';
import { configValidator } from './config-validator.generated.js';

export {
  DEFAULT_OPENAI_BASE_URL,
  NO_API_KEY,
  createOpenAIClient,
  resolveBaseURL,
  type OpenAIEndpoint,
} from './client.js';

export { OpenAIProvider } from './openai-provider.js';
export type { OpenAIConfig } from './config.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-openai';

const plugin: MiraPlugin<OpenAIConfig> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'openai',
  configSchema: OPENAI_CONFIG_SCHEMA,
  configValidator,
  stopPhase: 'cognition',
  setup(kernel, config) {
    kernel.cognition.register(new OpenAIProvider(config, process.env, (m) => kernel.log.warn(m)));
  },
});

export default plugin;
