import { randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderTemplate, templateCaps, templateError, type ScriptedTemplate } from './chat-templates.js';
import {
  argumentsParse,
  commonPrefixTokens,
  countTokens,
  tokenIds,
  BYTES_PER_TOKEN,
  type WireMessage,
  type WireTool,
} from './model-prompt.js';
import { IMAGE_TOKENS, contentPartsError, renderedContent } from './content-parts.js';

/**
 * Which server the double answers as. Where the two differ, each behaviour below names its source:
 * llama.cpp's `tools/server/server-common.cpp`, `server-task.cpp`, `server-context.cpp` and
 * `common/chat.cpp` (the bundle node-llama-cpp 3.21.1 ships), and OpenAI's Chat Completions reference.
 */
export type ModelServerFlavor = 'llama-server' | 'openai';

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
/** What llama-server's `llama_build_info()` reports for the bundled build. */
const LLAMA_BUILD_INFO = 'b1-5b4ebc5';

/**
 * llama-server's error body (server-common.cpp `format_error_response`): `{error: {code, message, type}}`;
 * OpenAI's: `{error: {message, type, param, code}}`.
 */
function errorBody(flavor: ModelServerFlavor, status: number, message: string, type?: string, extra = {}) {
  if (flavor === 'openai') {
    return { error: { message, type: type ?? 'invalid_request_error', param: null, code: null, ...extra } };
  }
  const byStatus: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    501: 'not_supported_error',
    503: 'unavailable_error',
  };
  return { error: { code: status, message, type: type ?? byStatus[status] ?? 'server_error', ...extra } };
}

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
 * Why the history cannot be read, as the server would say it, or undefined. llama-server parses every
 * assistant tool call's arguments before rendering with a template that takes them as an object, as
 * Qwen2.5's does (`common/chat.cpp` `func_args_not_string`, when `supports_object_arguments`: HTTP 500
 * "Failed to parse tool call arguments as JSON"); OpenAI answers 400 when a tool message answers no call
 * or a call has no tool message.
 */
function historyError(
  flavor: ModelServerFlavor,
  messages: readonly WireMessage[],
  objectArguments: boolean,
): [number, string] | undefined {
  if (flavor === 'llama-server') {
    if (!objectArguments) return undefined;
    for (const message of messages) {
      for (const call of (message.tool_calls ?? []) as Array<{ function?: { arguments?: unknown } }>) {
        const args = call.function?.arguments;
        if (typeof args === 'string' && !argumentsParse(args)) {
          return [
            500,
            `Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] ${args.slice(0, 40)}`,
          ];
        }
      }
    }
    return undefined;
  }
  for (let i = 0; i < messages.length; i += 1) {
    const calls = (messages[i]!.tool_calls ?? []) as Array<{ id: string }>;
    if (messages[i]!.role === 'tool' && !messages.slice(0, i).some((m) => m.tool_calls)) {
      return [
        400,
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      ];
    }
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j += 1) {
      answered.add(messages[j]!.tool_call_id ?? '');
    }
    const missing = calls.filter((c) => !answered.has(c.id)).map((c) => c.id);
    if (missing.length > 0) {
      return [
        400,
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
      ];
    }
  }
  return undefined;
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
  if (countTokens(content) > limit) return { content: content.slice(0, limit * BYTES_PER_TOKEN), toolCalls: [] };
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
    const partial = args.slice(0, Math.min(left * BYTES_PER_TOKEN, args.length - 1));
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

  const send = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  async function answer(req: IncomingMessage, res: ServerResponse, raw: string, receivedAt: number): Promise<void> {
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const body = JSON.parse(raw) as { model: string; input: string | string[] };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      embeddingRequests.push({ model: body.model, input: inputs });
      send(res, 200, {
        object: 'list',
        model: body.model,
        data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
      return;
    }
    if (req.method === 'GET' && req.url === '/props' && flavor === 'llama-server') {
      // server-context.cpp `get_res_props`; caps from common/jinja/caps.cpp `caps::to_map()`.
      send(res, 200, {
        default_generation_settings: { params: {}, n_ctx: nCtx },
        total_slots: 1,
        model_alias: 'scripted-model',
        model_path: 'scripted-model.gguf',
        modalities: { vision, video: false, audio: false },
        chat_template: `{# ${template}${rendersTools ? '' : ', no tools'} #}`,
        chat_template_caps: templateCaps(template, rendersTools),
        build_info: LLAMA_BUILD_INFO,
        is_sleeping: false,
      });
      return;
    }
    if (req.method === 'POST' && req.url === '/tokenize' && flavor === 'llama-server') {
      // server-context.cpp `post_tokenize`: `{content}` → `{tokens}` (ids; `with_pieces` not modelled). No content
      // is no tokens; content that is neither a string nor a list fails nlohmann's `get<std::string>()` (500).
      const body = JSON.parse(raw) as { content?: unknown };
      if (body.content !== undefined && typeof body.content !== 'string' && !Array.isArray(body.content)) {
        const type = body.content === null ? 'null' : typeof body.content;
        send(res, 500, errorBody(flavor, 500, `[json.exception.type_error.302] type must be string, but is ${type}`));
        return;
      }
      // server-common.cpp `tokenize_mixed`: a list mixes texts and token ids.
      const parts: unknown[] = body.content === undefined ? [] : [body.content].flat();
      const texts = parts.filter((p): p is string => typeof p === 'string');
      tokenizeRequests.push(...texts);
      send(res, 200, { tokens: parts.flatMap((p) => (typeof p === 'string' ? tokenIds(p) : [p])) });
      return;
    }
    if (req.method === 'POST' && req.url === '/apply-template' && flavor === 'llama-server' && applyTemplate) {
      applyTemplateRoute(res, raw);
      return;
    }
    if (req.url === '/apply-template') {
      try {
        templateRequests.push(JSON.parse(raw) as Record<string, unknown>);
      } catch {
        // Recorded only when it parses, as on a server with the route.
      }
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      send(
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
      send(res, 400, errorBody(flavor, 400, 'invalid JSON body'));
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
      send(res, status, payload);
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
    send(res, 200, completionBody(flavor, result));
  }

  /**
   * server-context.cpp `post_apply_template`: the request read as a chat completion's is
   * (`oaicompat_chat_params_parse`, the same refusals) and rendered, `{prompt}`; nothing is generated, the context
   * is not checked, the slot is kept.
   */
  function applyTemplateRoute(res: ServerResponse, raw: string): void {
    let body: { messages?: unknown; tools?: WireTool[] };
    try {
      body = JSON.parse(raw);
    } catch (error) {
      // nlohmann's parse_error is no invalid_argument: ex_wrapper answers it as a server error.
      send(res, 500, errorBody(flavor, 500, `[json.exception.parse_error.101] ${(error as Error).message}`));
      return;
    }
    templateRequests.push(body as Record<string, unknown>);
    if (body.messages === undefined) {
      send(res, 400, errorBody(flavor, 400, "'messages' is required"));
      return;
    }
    if (!Array.isArray(body.messages)) {
      send(res, 400, errorBody(flavor, 400, "Expected 'messages' to be an array"));
      return;
    }
    const messages = body.messages as WireMessage[];
    const tools = rendersTools ? (body.tools ?? []) : [];
    const refused = historyError(flavor, messages, rendersTools) ?? templateError(template, messages, tools);
    if (refused) {
      send(res, refused[0], errorBody(flavor, refused[0], refused[1]));
      return;
    }
    send(res, 200, { prompt: renderTemplate(template, messages, tools, rendersTools) });
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
