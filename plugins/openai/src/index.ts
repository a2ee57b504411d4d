/**
 * `@mira/plugin-openai`: Mira's cognition provider on the OpenAI Chat
 * Completions API with strict function tools.
 *
 * @packageDocumentation
 */
import { definePlugin, type MiraPlugin } from '@mira/core';
import { OpenAIProvider, type OpenAIConfig } from './openai-provider.js';

export {
  DEFAULT_OPENAI_BASE_URL,
  NO_API_KEY,
  createOpenAIClient,
  resolveBaseURL,
  type OpenAIEndpoint,
} from './client.js';

export { OpenAIProvider, type OpenAIConfig } from './openai-provider.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-openai';

const plugin: MiraPlugin<OpenAIConfig> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'openai',
  configSchema: {
    type: 'object',
    properties: {
      model: { type: 'string', minLength: 1 },
      base_url: { type: 'string', pattern: '^https?://' },
      api_key_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$', default: 'OPENAI_API_KEY' },
      timeout_ms: { type: 'integer', minimum: 100, maximum: 600000, default: 60000 },
      max_retries: { type: 'integer', minimum: 0, maximum: 10, default: 2 },
      stream: { type: 'boolean', default: false },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
    },
    required: ['model'],
    additionalProperties: false,
  },
  stopPhase: 'cognition',
  setup(kernel, config) {
    kernel.cognition.register(new OpenAIProvider(config));
  },
});

export default plugin;
