import type { EpisodeInfo } from '../tools.js';
import type { JsonSchema } from '../types.js';

/** A tool call the model asked for. `arguments` is the raw JSON text. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One message of the conversation sent to the model. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly toolCalls?: readonly ModelToolCall[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

/** A tool as offered to the model (strict function tool). */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
}

/** One model call. */
export interface ModelRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  readonly episode: EpisodeInfo;
}

/** The model's answer: text, tool calls, or both. */
export interface ModelResponse {
  readonly text: string | null;
  readonly toolCalls: readonly ModelToolCall[];
}

/**
 * A model backend, registered by a cognition plugin (e.g. `@mira/plugin-openai`).
 * Throw a `MiraError` with a `MIRA_ERR_COGNITION_*` code on failure.
 */
export interface CognitionProvider {
  /** Shown in logs, e.g. `openai:gpt-4.1-mini`. */
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}

/** Error codes of cognition, raised by the engine and by providers. */
export const CognitionErrorCodes = {
  /** The model server answered with an error status. */
  PROVIDER: 'MIRA_ERR_COGNITION_PROVIDER',
  /** The model server could not be reached. */
  UNREACHABLE: 'MIRA_ERR_COGNITION_UNREACHABLE',
  /** The model server did not answer in time. */
  TIMEOUT: 'MIRA_ERR_COGNITION_TIMEOUT',
  /** The model server needs an API key that is not set. */
  AUTH: 'MIRA_ERR_COGNITION_AUTH',
  /** The answer could not be understood. */
  MALFORMED: 'MIRA_ERR_COGNITION_MALFORMED',
  /** The episode reached its bound on model steps without a reply. */
  STEP_LIMIT: 'MIRA_ERR_COGNITION_STEP_LIMIT',
  /** A second provider was registered. */
  DUPLICATE_PROVIDER: 'MIRA_ERR_COGNITION_DUPLICATE_PROVIDER',
} as const;

/** Every cognition error code. */
export type CognitionErrorCode = (typeof CognitionErrorCodes)[keyof typeof CognitionErrorCodes];
