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
 * Throw a `MiraError` with a MIRA_ERR_COGNITION_* code on failure.
 */
export interface CognitionProvider {
  /** Shown in logs, e.g. `openai:gpt-4.1-mini`. */
  readonly name: string;
  complete(request: ModelRequest): Promise<ModelResponse>;
}
