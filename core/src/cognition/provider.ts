import type { EpisodeInfo, ToolImage } from '../tools.js';
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
  | {
      readonly role: 'user';
      readonly content: string;
      /**
       * Images shown with the text (a tool's, see `ToolResult.image`): the provider sends them as the API's
       * image inputs after the text. Only in a user message, only within the episode that took them.
       */
      readonly images?: readonly ToolImage[];
    }
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
  /**
   * A lower limit on the answer's tokens than the provider's own (its `max_tokens`), set when the session's
   * context is too small for the instructions, the tools and a whole answer of that length (see
   * `SessionContext`); the provider sends the smaller of the two.
   */
  readonly maxTokens?: number;
  /**
   * Called with each piece of the answer's text as it arrives, when the provider streams (the console prints
   * it at once); a provider that does not stream never calls it. The whole text is still in the response.
   */
  readonly onText?: (delta: string) => void;
}

/** The model's answer: text, tool calls, or both. */
export interface ModelResponse {
  readonly text: string | null;
  readonly toolCalls: readonly ModelToolCall[];
  /**
   * Why generation ended, as the server said: `stop`, `tool_calls`, `length` (cut at the token limit),
   * `content_filter`; absent when the server did not say.
   */
  readonly finishReason?: string;
  /** The model declined to answer (OpenAI's `refusal`), in its own words. */
  readonly refusal?: string;
  /** The limit on generated tokens the request carried, so a cut reply can say which. */
  readonly tokenLimit?: number;
  /** Where the operator raises that limit, e.g. `[openai] max_tokens`, so a cut answer can say what to do. */
  readonly tokenLimitSetting?: string;
  /** What the server reported of the prompt: its tokens and those reused from its prefix cache. */
  readonly usage?: { readonly promptTokens: number; readonly cachedTokens?: number };
}

/**
 * A model backend, registered by a cognition plugin (e.g. `@mira/plugin-openai`).
 * Throw a `MiraError` with a MIRA_ERR_COGNITION_* code on failure.
 */
export interface CognitionProvider {
  /** Shown in logs, e.g. `openai:gpt-4.1-mini`. */
  readonly name: string;
  /**
   * Whether the model is shown images (the profile says so): a tool's image then reaches it as an image input;
   * otherwise tools that only show images refuse (`ToolContext.seesImages`). Absent: it is not.
   */
  readonly seesImages?: boolean;
  complete(request: ModelRequest): Promise<ModelResponse>;
  /**
   * Asks the server once, before the first episode, what it can say of itself: warnings for the operator
   * (e.g. its chat template renders no tools, or cannot render a conversation) and how many prompt tokens a
   * request may carry (its context less the answer's token limit). `tools` are the operator's tools as
   * requests carry them, for a probe render of a tool exchange. Optional; a server that cannot say is not an
   * error.
   */
  check?(tools?: readonly ToolSpec[]): Promise<ProviderCheck>;
  /**
   * A text's tokens by the server's own tokenizer (llama-server's `POST /tokenize`), or undefined when the
   * server has none; the engine counts each distinct text once. Optional: without it tokens are estimated.
   */
  countTokens?(text: string): Promise<number | undefined>;
  /**
   * The tokens the server's chat template renders for `tools` (llama-server: a conversation rendered through
   * `/apply-template` with them and without them, each counted by `/tokenize`), or undefined when the server
   * cannot say. Optional: without it the tools' JSON is counted.
   */
  countToolTokens?(tools: readonly ToolSpec[]): Promise<number | undefined>;
}

/** What {@link CognitionProvider.check} found. */
export interface ProviderCheck {
  readonly warnings: readonly string[];
  /** The most prompt tokens a request may carry, when known. */
  readonly promptTokens?: number;
  /** The answer's token limit a request carries (`max_tokens`), when the context is known: with it, the context. */
  readonly answerTokens?: number;
}
