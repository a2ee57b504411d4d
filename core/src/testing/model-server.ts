import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderTemplate, templateError, type ScriptedTemplate } from './chat-templates.js';
import { commonPrefixTokens, countTokens, firstTokens, type WireMessage, type WireTool } from './model-prompt.js';
import { IMAGE_TOKENS, contentPartsError, renderedContent } from './content-parts.js';
import { answerLlamaRoute, type LlamaRoutes } from './llama-routes.js';
import { LLAMA_BUILD_INFO, errorBody, historyError, sendJson, type ModelServerFlavor } from './server-reading.js';

export type { ModelServerFlavor } from './server-reading.js';

/** A tool call the scripted model makes. `arguments` may be an object (sent as JSON) or raw text. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: unknown;
  readonly id?: string;
}

/** One scripted answer. */
export type ScriptedReply =
  | {
      readonly text: string;
      /** Sent as `reasoning_content` (llama-server's field for a reasoning model's thinking). */
      readonly reasoning?: string;
      /** Overrides the finish reason, e.g. `content_filter` (OpenAI). */
      readonly finishReason?: string;
      /** OpenAI's `message.refusal`: the model declined; `content` is then null. */
      readonly refusal?: string;
      readonly delayMs?: number;
      /** When streamed, the wait before each chunk after the first, as a model generating slowly. */
      readonly chunkDelayMs?: number;
      /** When streamed, the chunks sent before the server stalls: it sends no more and keeps the connection open. */
      readonly stallAfterChunks?: number;
    }
  | {
      readonly toolCalls: readonly ScriptedToolCall[];
      readonly text?: string;
      readonly delayMs?: number;
      readonly chunkDelayMs?: number;
      readonly stallAfterChunks?: number;
    }
  | { readonly status: number; readonly error?: string; readonly type?: string; readonly delayMs?: number }
  | { readonly malformed: true; readonly delayMs?: number }
  | ((request: RecordedRequest) => ScriptedReply);

/** What the server received for one call, and how it saw it. */
export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: {
    model: string;
    stream?: boolean;
    messages: WireMessage[];
    tools?: WireTool[];
    [key: string]: unknown;
  };
  /** Names of the tools offered in this call. */
  readonly toolNames: string[];
  /** The prompt the chat template rendered (see `model-prompt.ts`). */
  readonly prompt: string;
  /** Its length in the double's tokens. */
  readonly promptTokens: number;
  /** Tokens reused from the previous prompt of the (single) slot: `usage.prompt_tokens_details.cached_tokens`. */
  readonly cachedTokens: number;
  /** The HTTP status answered. */
  status: number;
  /** When streamed, when each chunk was written (`Date.now()`), the last `[DONE]` included. */
  readonly chunkTimes: number[];
  /** Whether the client closed the connection before the answer's end (a stalled stream given up). */
  closedEarly: boolean;
  /** When the whole request had arrived (`performance.now()` in the server's process), before it was read. */
  readonly receivedAt: number;
}

/** A local OpenAI-compatible server that plays scripted answers in order. */
export interface ScriptedModelServer {
  /** Base URL to give the SDK (ends in `/v1`). */
  readonly url: string;
  /** Every chat request, in order (those refused too). */
  readonly requests: RecordedRequest[];
  /** Every embeddings request (model and input texts), in order. */
  readonly embeddingRequests: Array<{ model: string; input: string[] }>;
  /** The text of every `POST /tokenize` (llama-server), in order. */
  readonly tokenizeRequests: string[];
  /** The body of every `POST /apply-template`, in order (those refused, and those answered 404, too). */
  readonly templateRequests: Array<Record<string, unknown>>;
  /** Appends answers to the script. */
  push(...replies: ScriptedReply[]): void;
  /** Answers not yet played. */
  readonly remaining: number;
  close(): Promise<void>;
}

/** Options of the scripted server. */
export interface ScriptedServerOptions {
  /**
   * Answers `POST /v1/embeddings`: a vector per input text. The default is a
   * deterministic 32-dimension bag of hashed words, so equal words embed close.
   */
  readonly embed?: (text: string) => number[];
  /** Which server to answer as; `llama-server` by default. */
  readonly flavor?: ModelServerFlavor;
  /** The context size in the double's tokens (llama-server's `n_ctx`; the model's limit on OpenAI). Default 32768. */
  readonly contextTokens?: number;
  /**
   * Whether the chat template renders tools (llama-server `--jinja` with a tool-capable template). When
   * false the tools are dropped silently, as llama-server does, and `/props` says so. Default true.
   */
  readonly rendersTools?: boolean;
  /**
   * The chat template llama-server renders with, refusing what the real one refuses (see {@link ScriptedTemplate});
   * `chatml-tools` by default. `gemma-2` renders no tools whatever `rendersTools` says.
   */
  readonly template?: ScriptedTemplate;
  /**
   * Whether llama-server answers `POST /apply-template` (a request rendered with the template, nothing generated).
   * When false it answers 404, as a server without the route does. Default true.
   */
  readonly applyTemplate?: boolean;
  /**
   * llama-server: whether it was started with a multimodal projector (`--mmproj`), so it takes image inputs
   * (`/props` `modalities.vision`); without one an image part is refused (see `content-parts.ts`). OpenAI takes
   * them in user messages either way. Default false.
   */
  readonly vision?: boolean;
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const randomString = (length: number) => Array.from({ length }, () => ALNUM[randomInt(ALNUM.length)]).join('');
/**
 * Ids: server-common.cpp `random_string()`, `gen_chatcmplid()`, `gen_tool_call_id()` (32 alphanumerics);
 * OpenAI's reference examples (`chatcmpl-` + 29, `call_` + 24).
 */
const ids = {
  'llama-server': { completion: () => `chatcmpl-${randomString(32)}`, toolCall: () => randomString(32) },
  openai: { completion: () => `chatcmpl-${randomString(29)}`, toolCall: () => `call_${randomString(24)}` },
} as const;
/** The default deterministic embedding: hashed, case-folded words, L2-normalised. */
export function hashedBagOfWords(text: string, dimension = 32): number[] {
  const vector = new Array<number>(dimension).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let h = 2166136261;
    for (const ch of word) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
    vector[h % dimension]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

interface Answer {
  id: string;
  created: number;
  model: string;
  content: string;
  reasoning?: string;
  refusal?: string;
  toolCalls: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  finishReason: string;
  usage: Record<string, unknown>;
  timings?: Record<string, number>;
}

/**
 * An answer generated past `limit` tokens, cut where generation stopped (text first, then each call's
 * arguments in order), or undefined when it fits. A call the limit falls inside keeps the arguments generated
 * so far, cut mid-JSON, and the calls after it are never generated: llama-server's final parse is lenient
 * (`common/chat.cpp` `common_chat_peg_parse`, `COMMON_PEG_PARSE_FLAG_LENIENT`), so the partial call is sent
 * with `finish_reason: "length"` (`server-task.cpp` `to_json_oaicompat_chat`), as issue 61 measured against
 * llama-server itself (the last call of 24 of 41 answers cut mid-arguments at `max_tokens` 1024).
 */
function cutAtLimit<C extends { function: { name: string; arguments: string } }>(
  content: string,
  calls: readonly C[],
  limit: number,
): { content: string; toolCalls: C[] } | undefined {
  const tokens = countTokens(content) + calls.reduce((n, c) => n + countTokens(c.function.arguments), 0);
  if (tokens <= limit) return undefined;
  if (countTokens(content) > limit) return { content: firstTokens(content, limit), toolCalls: [] };
  let left = limit - countTokens(content);
  const kept: C[] = [];
  for (const call of calls) {
    const args = call.function.arguments;
    if (countTokens(args) <= left) {
      kept.push(call);
      left -= countTokens(args);
      continue;
    }
    // Never the whole text: a cut call's arguments are always shorter than the model's.
    const partial = firstTokens(args, left).slice(0, args.length - 1);
    if (left > 0) kept.push({ ...call, function: { ...call.function, arguments: partial } });
    break;
  }
  return { content, toolCalls: kept };
}

function streamChunks(flavor: ModelServerFlavor, answer: Answer, includeUsage: boolean): unknown[] {
  const base = {
    id: answer.id,
    object: 'chat.completion.chunk',
    created: answer.created,
    model: answer.model,
    system_fingerprint: flavor === 'openai' ? 'fp_scripted' : LLAMA_BUILD_INFO,
  };
  const chunk = (delta: unknown, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  // server-task.cpp: the first partial result sends {role, content: null} "to conform to openai behavior";
  // OpenAI's first chunk is {role, content: "", refusal: null}.
  const chunks: unknown[] = [
    chunk(
      flavor === 'openai' ? { role: 'assistant', content: '', refusal: null } : { role: 'assistant', content: null },
    ),
  ];
  if (answer.reasoning) chunks.push(chunk({ reasoning_content: answer.reasoning }));
  if (answer.refusal) chunks.push(chunk({ refusal: answer.refusal }));
  const half = Math.ceil(answer.content.length / 2);
  for (const piece of [answer.content.slice(0, half), answer.content.slice(half)]) {
    if (piece) chunks.push(chunk({ content: piece }));
  }
  answer.toolCalls.forEach((call, index) => {
    const cut = Math.ceil(call.function.arguments.length / 2);
    chunks.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id,
            type: 'function',
            function: { name: call.function.name, arguments: call.function.arguments.slice(0, cut) },
          },
        ],
      }),
    );
    chunks.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments.slice(cut) } }] }));
  });
  const last = chunk({}, answer.finishReason) as Record<string, unknown>;
  chunks.push(last);
  if (includeUsage) {
    // Both servers: with stream_options.include_usage, a last chunk with no choices carries the usage.
    const usage = { ...base, choices: [], usage: answer.usage } as Record<string, unknown>;
    chunks.push(usage);
    if (answer.timings) usage.timings = answer.timings;
  } else if (answer.timings) {
    last.timings = answer.timings;
  }
  return chunks;
}

function completionBody(flavor: ModelServerFlavor, answer: Answer) {
  const message: Record<string, unknown> = { role: 'assistant' };
  if (flavor === 'openai') {
    message.content = answer.refusal || (answer.toolCalls.length > 0 && answer.content === '') ? null : answer.content;
    message.refusal = answer.refusal ?? null;
    message.annotations = [];
  } else {
    // common/chat.cpp `to_json_oaicompat`: content is "" when empty (tool calls or not); no refusal field.
    message.content = answer.content;
    if (answer.reasoning) message.reasoning_content = answer.reasoning;
  }
  if (answer.toolCalls.length > 0) message.tool_calls = answer.toolCalls;
  return {
    choices: [
      { finish_reason: answer.finishReason, index: 0, message, ...(flavor === 'openai' ? { logprobs: null } : {}) },
    ],
    created: answer.created,
    model: answer.model,
    system_fingerprint: flavor === 'openai' ? 'fp_scripted' : LLAMA_BUILD_INFO,
    object: 'chat.completion',
    usage: answer.usage,
    id: answer.id,
    ...(answer.timings ? { timings: answer.timings } : {}),
  };
}

/**
 * Starts a scripted OpenAI-compatible Chat Completions server on 127.0.0.1, as faithful to llama.cpp's
 * `llama-server` (or OpenAI) as it is strict. It answers `POST /v1/chat/completions` (streaming or not)
 * with the next scripted reply and records every request. Before playing a reply it reads the request
 * as the server would: a history it cannot parse is refused (no reply is used), so is a `system` message
 * that is not first (500, as llama-server with Qwen3.5's chat template; OpenAI takes it), the prompt is rendered
 * and counted against the context (400 `exceed_context_size_error` / `context_length_exceeded`), and the
 * prefix it shares with the previous prompt is reported as cached. The text is cut at `max_tokens`
 * (`finish_reason: "length"`). `GET /props`, `POST /tokenize` and `POST /apply-template` answer as llama-server's
 * do, with the chat template of `options.template`. When the script runs out it
 * answers 500, so a test that calls the model more than planned fails.
 *
 * @example
 * const server = await startScriptedModelServer([
 *   { toolCalls: [{ name: 'recall_memory', arguments: { query: 'Ada' } }] },
 *   { text: 'I remember Ada likes tea.' },
 * ]);
 * // [openai] base_url = server.url
 */
export async function startScriptedModelServer(
  script: readonly ScriptedReply[] = [],
  options: ScriptedServerOptions = {},
): Promise<ScriptedModelServer> {
  const embed = options.embed ?? ((text: string) => hashedBagOfWords(text));
  const flavor = options.flavor ?? 'llama-server';
  const nCtx = options.contextTokens ?? 32768;
  const template = options.template ?? 'chatml-tools';
  const rendersTools = template !== 'gemma-2' && (options.rendersTools ?? true);
  const applyTemplate = options.applyTemplate ?? true;
  const vision = options.vision ?? false;
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const embeddingRequests: Array<{ model: string; input: string[] }> = [];
  const tokenizeRequests: string[] = [];
  const templateRequests: Array<Record<string, unknown>> = [];
  /** The single slot's cached prompt (llama-server `-np 1`; OpenAI's cache keyed by prefix). */
  let slot = '';
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => void answer(req, res, raw, performance.now()));
  });

  const routes: LlamaRoutes = {
    flavor,
    nCtx,
    template,
    rendersTools,
    applyTemplate,
    vision,
    tokenizeRequests,
    templateRequests,
  };

  async function answer(req: IncomingMessage, res: ServerResponse, raw: string, receivedAt: number): Promise<void> {
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const body = JSON.parse(raw) as { model: string; input: string | string[] };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      embeddingRequests.push({ model: body.model, input: inputs });
      sendJson(res, 200, {
        object: 'list',
        model: body.model,
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
      return;
    }
    if (answerLlamaRoute(req, res, raw, routes)) return;
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      sendJson(
        res,
        404,
        errorBody(flavor, 404, flavor === 'openai' ? `Invalid URL (${req.method} ${req.url})` : 'File Not Found'),
      );
      return;
    }
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      sendJson(res, 400, errorBody(flavor, 400, 'invalid JSON body'));
      return;
    }
    const tools = body.tools ?? [];
    const prompt = renderTemplate(template, body.messages, tools, rendersTools);
    const images = body.messages.reduce((n, message) => n + renderedContent(message.content).images, 0);
    const promptTokens = countTokens(prompt) + IMAGE_TOKENS * images;
    const shared = Math.min(commonPrefixTokens(slot, prompt), promptTokens - 1);
    // OpenAI caches prefixes of 1024 tokens and more, in steps of 128.
    const cachedTokens = flavor === 'openai' ? (shared >= 1024 ? shared - (shared % 128) : 0) : Math.max(0, shared);
    const recorded: RecordedRequest = {
      path: req.url,
      headers: req.headers,
      body,
      toolNames: tools.map((t) => t.function.name),
      prompt,
      promptTokens,
      cachedTokens,
      status: 200,
      chunkTimes: [],
      closedEarly: false,
      receivedAt,
    };
    requests.push(recorded);
    const refuse = (status: number, payload: unknown) => {
      recorded.status = status;
      sendJson(res, status, payload);
    };
    // llama-server parses the history's tool-call arguments before it renders the template (common/chat.cpp
    // `common_chat_templates_apply_jinja`: `func_args_not_string`, then the template).
    // llama-server reads the content parts (its images) before anything else of the messages.
    const unreadable =
      contentPartsError(flavor, body.messages, vision) ??
      historyError(flavor, body.messages, rendersTools) ??
      (flavor === 'llama-server' ? templateError(template, body.messages, rendersTools ? tools : []) : undefined);
    if (unreadable) {
      const [status, message] = unreadable;
      refuse(status, errorBody(flavor, status, message));
      return;
    }
    if (promptTokens >= nCtx) {
      refuse(
        400,
        flavor === 'openai'
          ? errorBody(
              flavor,
              400,
              `This model's maximum context length is ${nCtx} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
              'invalid_request_error',
              { param: 'messages', code: 'context_length_exceeded' },
            )
          : // server-context.cpp: ERROR_TYPE_EXCEED_CONTEXT_SIZE, with n_prompt_tokens and n_ctx.
            errorBody(
              flavor,
              400,
              `request (${promptTokens} tokens) exceeds the available context size (${nCtx} tokens), try increasing it`,
              'exceed_context_size_error',
              { n_prompt_tokens: promptTokens, n_ctx: nCtx },
            ),
      );
      return;
    }
    let reply = queue.shift();
    while (typeof reply === 'function') reply = reply(recorded);
    if (reply === undefined) {
      refuse(500, errorBody(flavor, 500, 'scripted model server: script exhausted'));
      return;
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    if ('status' in reply) {
      refuse(
        reply.status,
        errorBody(flavor, reply.status, reply.error ?? `scripted status ${reply.status}`, reply.type),
      );
      return;
    }
    if ('malformed' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [ this is not json');
      return;
    }
    slot = prompt;
    const limit = [body.max_completion_tokens, body.max_tokens, body.n_predict].find((v) => typeof v === 'number') as
      number | undefined;
    let content = reply.text ?? '';
    let finishReason: string | undefined;
    let toolCalls = ('toolCalls' in reply ? reply.toolCalls : []).map((c) => ({
      id: c.id ?? ids[flavor].toolCall(),
      type: 'function' as const,
      function: {
        name: c.name,
        arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
      },
    }));
    if (limit !== undefined && limit >= 0) {
      const cut = cutAtLimit(content, toolCalls, limit);
      if (cut) {
        // Generation stops at the limit: server-task.cpp reports "length" unless it stopped on EOS or a stop word.
        ({ content, toolCalls } = cut);
        finishReason = 'length';
      }
    }
    finishReason ??= ('finishReason' in reply && reply.finishReason) || (toolCalls.length > 0 ? 'tool_calls' : 'stop');
    const completionTokens =
      countTokens(content) + toolCalls.reduce((n, c) => n + countTokens(c.function.arguments), 0);
    const details = { cached_tokens: cachedTokens, ...(flavor === 'openai' ? { audio_tokens: 0 } : {}) };
    const result: Answer = {
      id: ids[flavor].completion(),
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      content,
      reasoning: 'reasoning' in reply ? reply.reasoning : undefined,
      refusal: 'refusal' in reply ? reply.refusal : undefined,
      toolCalls,
      finishReason,
      // server-task.cpp `usage_json_oaicompat()`; OpenAI's usage has the same fields and more details.
      usage: {
        completion_tokens: completionTokens,
        prompt_tokens: promptTokens,
        total_tokens: completionTokens + promptTokens,
        prompt_tokens_details: details,
      },
      timings:
        flavor === 'llama-server'
          ? { cache_n: cachedTokens, prompt_n: promptTokens - cachedTokens, predicted_n: completionTokens }
          : undefined,
    };
    if (body.stream) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      const pause = ('chunkDelayMs' in reply && reply.chunkDelayMs) || 0;
      const stall = 'stallAfterChunks' in reply ? reply.stallAfterChunks : undefined;
      res.on('close', () => (recorded.closedEarly = !res.writableEnded));
      for (const [i, chunk] of streamChunks(flavor, result, includeUsage).entries()) {
        if (i > 0 && pause > 0) await new Promise((r) => setTimeout(r, pause));
        if (res.destroyed) return;
        if (i === stall) return; // Nothing more is sent; the connection stays open until either side closes it.
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        recorded.chunkTimes.push(Date.now());
      }
      res.end('data: [DONE]\n\n');
      recorded.chunkTimes.push(Date.now());
      return;
    }
    sendJson(res, 200, completionBody(flavor, result));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    tokenizeRequests,
    templateRequests,
    push: (...replies) => queue.push(...replies),
    get remaining() {
      return queue.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
