import type OpenAI from 'openai';

/** Where requests go when neither the profile nor `OPENAI_BASE_URL` names a server. */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Sent as the key when none is set: local OpenAI-compatible servers need none, and the SDK requires one. */
export const NO_API_KEY = 'no-key-set';

/** How to reach an OpenAI-compatible server, as a profile table describes it. */
export interface OpenAIEndpoint {
  /** The server; otherwise `OPENAI_BASE_URL`, otherwise OpenAI's. */
  readonly base_url?: string;
  /** The environment variable holding the key. */
  readonly api_key_env: string;
  readonly timeout_ms: number;
}

/** The server an endpoint resolves to, the profile first, then `OPENAI_BASE_URL`, then OpenAI's. */
export function resolveBaseURL(
  endpoint: Pick<OpenAIEndpoint, 'base_url'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return endpoint.base_url ?? env.OPENAI_BASE_URL ?? DEFAULT_OPENAI_BASE_URL;
}

/**
 * The official SDK, loaded when the first client is made: a runtime that never calls a model (`mira mcp`,
 * `mira check`, a console that only runs commands) does not load its 150 modules at start-up.
 */
export async function loadOpenAI(): Promise<typeof OpenAI> {
  return (await import('openai')).default;
}

/**
 * The official SDK's client for an endpoint, with the same defaults for chat
 * and for embeddings (base URL fallback, placeholder key). Creating it makes
 * no request.
 */
export async function createOpenAIClient(
  endpoint: OpenAIEndpoint,
  maxRetries: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenAI> {
  const OpenAI = await loadOpenAI();
  return new OpenAI({
    apiKey: env[endpoint.api_key_env] || NO_API_KEY,
    baseURL: resolveBaseURL(endpoint, env),
    timeout: endpoint.timeout_ms,
    maxRetries,
  });
}
