import type OpenAI from 'openai';
import { createOpenAIClient, loadOpenAI, resolveBaseURL } from './client.js';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import {
  CognitionErrors,
  MiraError,
  type CognitionProvider,
  type ModelRequest,
  type ModelResponse,
  type ModelToolCall,
  type ProviderCheck,
  type ToolSpec,
} from '@mira/core';
import { assembleStream } from './assemble-stream.js';
import { OPENING, inSchemaForm, probeTemplate, render, type SchemaForm } from './template-probe.js';
import type { OpenAIConfig } from './config.js';
import { toOpenAIMessage } from './messages.js';

/** Where the operator raises the limit on an answer's tokens (the plugin's section of the manifest). */
const TOKEN_LIMIT_SETTING = '[openai] max_tokens';

/**
 * A {@link CognitionProvider} on the official `openai` SDK, Chat Completions
 * API, function tools with `strict: true`. Works with OpenAI and with
 * OpenAI-compatible servers (Ollama, llama.cpp server, vLLM). Nothing is
 * contacted until the first episode.
 */
export class OpenAIProvider implements CognitionProvider {
  readonly name: string;
  readonly #config: OpenAIConfig;
  readonly #env: NodeJS.ProcessEnv;
  #client: Promise<OpenAI> | undefined;
  /** The SDK, once a client was made (its error classes explain a failure). */
  #sdk: typeof OpenAI | undefined;

  readonly #log: ((message: string) => void) | undefined;
  /** Whether the server has llama-server's `/tokenize` (its `/props` answered); false once it failed. */
  #tokenizer = false;
  /** The form the tools' schemas are sent in: another than declared where llama-server's template needs it. */
  #schemaForm: SchemaForm = 'declared';
  /** Whether the server renders requests through `/apply-template` (llama-server's probe rendered). */
  #renders = false;

  /** @param log where a retried failure is reported (the runtime's log, stderr). */
  constructor(config: OpenAIConfig, env: NodeJS.ProcessEnv = process.env, log?: (message: string) => void) {
    this.#config = config;
    this.#env = env;
    this.#log = log;
    this.name = `openai:${config.model}`;
  }

  /** Whether the model takes images: the profile's `[openai] vision`. */
  get seesImages(): boolean {
    return this.#config.vision;
  }

  get #keyMissing(): boolean {
    return !this.#env[this.#config.api_key_env];
  }

  get #baseURL(): string {
    return resolveBaseURL(this.#config, this.#env);
  }

  /** The server's root, where llama-server answers `/props` and `/tokenize` (beside `/v1`). */
  get #serverRoot(): string {
    return this.#baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  #getClient(): Promise<OpenAI> {
    this.#client ??= (async () => {
      this.#sdk = await loadOpenAI();
      return createOpenAIClient(this.#config, 0, this.#env);
    })();
    return this.#client;
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const client = await this.#getClient();
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.#completeOnce(client, request);
      } catch (error) {
        const wait = attempt < this.#config.max_retries ? this.#retryDelay(error, attempt) : undefined;
        if (wait === undefined) throw this.#explain(error);
        this.#log?.(`model server: ${this.#explain(error).message}; retrying in ${wait} ms`);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  /**
   * How long to wait before retrying a failed request, or undefined when a retry cannot fix it: a
   * connection that failed, and the statuses that mean "busy" (408, 409, 429, 502, 503, 504). Not a
   * timeout (the same request would be as slow), not another 4xx, and not a 500, which llama-server
   * answers when it cannot read Mira's own request: the SDK's own retries (which retry all of these)
   * are off, so a doomed request is not sent three times.
   */
  #retryDelay(error: unknown, attempt: number): number | undefined {
    const OpenAI = this.#sdk!;
    const backoff = Math.min(500 * 2 ** attempt, 8000);
    if (error instanceof OpenAI.APIConnectionTimeoutError) return undefined;
    if (error instanceof OpenAI.APIConnectionError) return backoff;
    if (!(error instanceof OpenAI.APIError) || ![408, 409, 429, 502, 503, 504].includes(error.status ?? 0)) {
      return undefined;
    }
    const after = Number(error.headers?.get?.('retry-after'));
    return Number.isFinite(after) && after > 0 ? Math.min(after * 1000, 10_000) : backoff;
  }

  async #completeOnce(client: OpenAI, request: ModelRequest): Promise<ModelResponse> {
    const tools = this.#wireTools(request.tools);
    const limit = Math.min(this.#config.max_tokens, request.maxTokens ?? Infinity);
    const body = {
      model: this.#config.model,
      messages: request.messages.map(toOpenAIMessage),
      ...(tools.length > 0 ? { tools } : {}),
      ...(this.#config.temperature === undefined ? {} : { temperature: this.#config.temperature }),
      [this.#config.max_tokens_field]: limit,
    };
    if (this.#config.stream) {
      const stream = await client.chat.completions.create({ ...body, stream: true });
      const idle = {
        idleMs: this.#config.stream_idle_ms,
        server: this.#baseURL,
        abort: () => stream.controller.abort(),
      };
      return {
        ...(await assembleStream(stream, request.onText, idle)),
        tokenLimit: limit,
        tokenLimitSetting: TOKEN_LIMIT_SETTING,
      };
    }
    const completion = await client.chat.completions.create({ ...body, stream: false });
    const choice = completion?.choices?.[0];
    const message = choice?.message;
    if (!message) throw CognitionErrors.error('MALFORMED.noChoices');
    const toolCalls: ModelToolCall[] = [];
    for (const call of message.tool_calls ?? []) {
      if (call.type !== 'function' || !call.function?.name) {
        throw CognitionErrors.error('MALFORMED.notFunctionCall');
      }
      toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' });
    }
    const usage = completion.usage;
    return {
      // Only `content` is the reply: a reasoning model's `reasoning_content` is never read.
      text: message.content ?? null,
      toolCalls,
      tokenLimit: limit,
      tokenLimitSetting: TOKEN_LIMIT_SETTING,
      ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
      ...(message.refusal ? { refusal: message.refusal } : {}),
      ...(usage
        ? {
            usage: {
              promptTokens: usage.prompt_tokens,
              cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? undefined,
            },
          }
        : {}),
    };
  }

  /** The tools as a request carries them: strict function tools, in the schema form the server's template renders. */
  #wireTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
    return tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        description: t.description,
        parameters: inSchemaForm(t.parameters, this.#schemaForm),
        strict: true,
      },
    }));
  }

  /**
   * Asks llama-server's `GET /props` (beside `/v1`) whether its chat template renders tools and how long
   * its context is, and renders probes through its `/apply-template` (see probeTemplate): a template that
   * cannot render a conversation, or Mira's tools with a tool call and its result, is said here. Another
   * server (404, or no such fields) says nothing: no warning, the profile's `context_tokens` alone. Never
   * throws for what the server answers; a server that is down is found by the first request.
   */
  async check(tools: readonly ToolSpec[] = []): Promise<ProviderCheck> {
    const warnings: string[] = [];
    let nCtx: number | undefined;
    const url = `${this.#serverRoot}/props`;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(Math.min(this.#config.timeout_ms, 5000)) });
      if (response.ok) {
        const props = (await response.json()) as {
          default_generation_settings?: { n_ctx?: unknown };
          chat_template_caps?: { supports_tools?: unknown; supports_tool_calls?: unknown };
          modalities?: { vision?: unknown };
        };
        if (this.#config.vision && props.modalities?.vision === false) {
          warnings.push(
            `[openai] vision is on, but the model server at ${this.#baseURL} takes no images (its /props says so: llama-server started without --mmproj, or built without its multimodal part), so it would refuse every request that shows one: start it with --mmproj, or set vision = false`,
          );
        }
        const caps = props.chat_template_caps;
        const rendersTools = !(caps && (caps.supports_tools === false || caps.supports_tool_calls === false));
        if (!rendersTools) {
          warnings.push(
            `the model server at ${this.#baseURL} has a chat template that renders no tools, so the model never sees them and will never call one: start llama-server with --jinja and a tool-capable template (a model whose template has a tool section, or --chat-template-file)`,
          );
        }
        if (caps) {
          const timeout = Math.min(this.#config.timeout_ms, 5000);
          const probe = await probeTemplate(
            this.#serverRoot,
            this.#baseURL,
            this.#wireTools(tools),
            rendersTools,
            timeout,
          );
          warnings.push(...probe.warnings);
          this.#schemaForm = probe.schemaForm;
          this.#renders = probe.renders;
        }
        const n = props.default_generation_settings?.n_ctx;
        if (typeof n === 'number' && n > 0) nCtx = n;
        // A server that says its context says it as llama-server does: it has llama-server's tokenizer too.
        this.#tokenizer = nCtx !== undefined;
      }
    } catch {
      // No /props, or no server yet: nothing to warn about here.
    }
    const context = this.#config.context_tokens ?? nCtx;
    const answer = this.#config.max_tokens;
    if (context === undefined) return { warnings };
    return { warnings, promptTokens: Math.max(0, context - answer), answerTokens: answer };
  }

  /**
   * A text's tokens by llama-server's own tokenizer (`POST /tokenize`, `{content}` → `{tokens}`), once
   * {@link check} found a llama-server; undefined for another server, or once `/tokenize` failed.
   */
  async countTokens(text: string): Promise<number | undefined> {
    if (!this.#tokenizer) return undefined;
    try {
      const response = await fetch(`${this.#serverRoot}/tokenize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: text }),
        signal: AbortSignal.timeout(Math.min(this.#config.timeout_ms, 5000)),
      });
      const tokens = response.ok ? ((await response.json()) as { tokens?: unknown }).tokens : undefined;
      if (Array.isArray(tokens)) return tokens.length;
    } catch {
      // Counted by the estimate instead.
    }
    this.#tokenizer = false;
    return undefined;
  }

  /**
   * The tokens llama-server's chat template renders for `tools`: a system and a user message rendered through
   * `/apply-template` with the tools and without, each counted by `/tokenize`; undefined for another server.
   */
  async countToolTokens(tools: readonly ToolSpec[]): Promise<number | undefined> {
    if (!this.#renders || !this.#tokenizer) return undefined;
    const timeout = Math.min(this.#config.timeout_ms, 5000);
    const [bare, full] = await Promise.all([
      render(this.#serverRoot, { messages: OPENING }, timeout),
      render(this.#serverRoot, { messages: OPENING, tools: this.#wireTools(tools) }, timeout),
    ]);
    if (bare.prompt === undefined || full.prompt === undefined) return undefined;
    const [without, withTools] = await Promise.all([this.countTokens(bare.prompt), this.countTokens(full.prompt)]);
    return without === undefined || withTools === undefined ? undefined : Math.max(0, withTools - without);
  }

  #explain(error: unknown): MiraError {
    if (error instanceof MiraError) return error;
    const where = this.#baseURL;
    const OpenAI = this.#sdk!;
    // llama-server: 400 exceed_context_size_error; OpenAI: 400 context_length_exceeded.
    if (
      error instanceof OpenAI.APIError &&
      (error.type === 'exceed_context_size_error' || error.code === 'context_length_exceeded')
    ) {
      const detail = (error.message ?? '').split('\n')[0]!.slice(0, 200);
      return CognitionErrors.error(
        'CONTEXT_OVERFLOW',
        { server: where, status: error.status ?? 'no status', answer: detail },
        { cause: error },
      );
    }
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      return CognitionErrors.error('TIMEOUT', { server: where, timeoutMs: this.#config.timeout_ms }, { cause: error });
    }
    if (error instanceof OpenAI.APIConnectionError) {
      return CognitionErrors.error('UNREACHABLE', { server: where }, { cause: error });
    }
    if (error instanceof OpenAI.AuthenticationError || (error instanceof OpenAI.APIError && error.status === 403)) {
      return CognitionErrors.error(
        this.#keyMissing ? 'AUTH.keyMissing' : 'AUTH.keyRefused',
        { server: where, status: String(error.status), variable: this.#config.api_key_env },
        { cause: error },
      );
    }
    if (error instanceof OpenAI.APIError) {
      const detail = (error.message ?? '').split('\n')[0]!.slice(0, 200);
      return CognitionErrors.error(
        'PROVIDER',
        { server: where, status: error.status ?? 'no status', answer: detail },
        { cause: error },
      );
    }
    const text = error instanceof Error ? error.message : String(error);
    return CognitionErrors.error('MALFORMED.unreadable', { answer: text.slice(0, 200) }, { cause: error });
  }
}
