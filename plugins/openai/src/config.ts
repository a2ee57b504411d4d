import type { FromSchema, JSONSchema } from 'json-schema-to-ts';

/**
 * The `[openai]` table's schema: the runtime validates the table with it and fills the defaults, the
 * configuration reference is generated from it, and {@link OpenAIConfig} is derived from it.
 */
export const OPENAI_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    model: { type: 'string', minLength: 1, description: "the model's name, e.g. gpt-4.1-mini, or a local server's" },
    base_url: {
      type: 'string',
      pattern: '^https?://',
      description: "the server's address; otherwise $OPENAI_BASE_URL, otherwise OpenAI's",
    },
    api_key_env: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      default: 'OPENAI_API_KEY',
      description: 'the environment variable holding the API key',
    },
    timeout_ms: {
      type: 'integer',
      minimum: 100,
      maximum: 600000,
      default: 180000,
      description:
        'how long one request may wait for its answer (a streamed answer: for its stream to begin); a local model on a CPU took 10–55 s a call',
    },
    max_retries: {
      type: 'integer',
      minimum: 0,
      maximum: 10,
      default: 2,
      description:
        'of a request that failed in a way a retry can fix (no connection, 408, 409, 429, 502, 503, 504); never of a timeout, another 4xx or a 500',
    },
    max_tokens: {
      type: 'integer',
      minimum: 16,
      maximum: 131072,
      default: 1024,
      description: 'the limit on tokens the model generates per answer; a reply cut at it is said to be cut',
    },
    max_tokens_field: {
      type: 'string',
      enum: ['max_tokens', 'max_completion_tokens'],
      default: 'max_tokens',
      description:
        "the request field carrying max_tokens: max_completion_tokens for OpenAI's reasoning models (o-series, gpt-5); llama.cpp and vLLM read both",
    },
    context_tokens: {
      type: 'integer',
      minimum: 512,
      description:
        "the model's context size in tokens; otherwise asked of the server (llama-server's /props n_ctx), otherwise unknown. Requests are kept inside it: working memory's oldest turns, then the episode's oldest tool results, are left out",
    },
    stream: { type: 'boolean', default: false, description: 'receive the answer as a stream of chunks' },
    stream_idle_ms: {
      type: 'integer',
      minimum: 100,
      maximum: 600000,
      default: 60000,
      description:
        'how long a streamed answer may go without a chunk before it is given up (nothing of it is kept, none of its tool calls run); llama-server sends one per token once the answer has begun',
    },
    vision: {
      type: 'boolean',
      default: false,
      description:
        'whether the model takes images (OpenAI vision models; llama-server started with --mmproj): then `look` shows it a camera frame, otherwise `look` refuses',
    },
    temperature: { type: 'number', minimum: 0, maximum: 2, description: "the model's default when left out" },
  },
  required: ['model'],
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The `[openai]` table as `setup` receives it (defaults filled in): derived from its schema. */
export type OpenAIConfig = FromSchema<typeof OPENAI_CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;
