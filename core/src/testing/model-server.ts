import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tool call the scripted model makes. `arguments` may be an object (sent as JSON) or raw text. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly arguments: unknown;
  readonly id?: string;
}

/** One scripted answer. */
export type ScriptedReply =
  | { readonly text: string; readonly delayMs?: number }
  | { readonly toolCalls: readonly ScriptedToolCall[]; readonly text?: string; readonly delayMs?: number }
  | { readonly status: number; readonly error?: string; readonly delayMs?: number }
  | { readonly malformed: true; readonly delayMs?: number }
  | ((request: RecordedRequest) => ScriptedReply);

/** What the server received for one call. */
export interface RecordedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: {
    model: string;
    stream?: boolean;
    messages: Array<{ role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }>;
    tools?: Array<{
      type: string;
      function: { name: string; description: string; parameters: unknown; strict?: boolean };
    }>;
    [key: string]: unknown;
  };
  /** Names of the tools offered in this call. */
  readonly toolNames: string[];
}

/** A local OpenAI-compatible server that plays scripted answers in order. */
export interface ScriptedModelServer {
  /** Base URL to give the SDK (ends in `/v1`). */
  readonly url: string;
  /** Every chat request, in order. */
  readonly requests: RecordedRequest[];
  /** Every embeddings request (model and input texts), in order. */
  readonly embeddingRequests: Array<{ model: string; input: string[] }>;
  /** Appends answers to the script. */
  push(...replies: ScriptedReply[]): void;
  /** Answers not yet played. */
  readonly remaining: number;
  close(): Promise<void>;
}

let counter = 0;

function completion(model: string, reply: { text?: string; toolCalls?: readonly ScriptedToolCall[] }) {
  const toolCalls = (reply.toolCalls ?? []).map((c) => ({
    id: c.id ?? `call_${++counter}`,
    type: 'function',
    function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
  return {
    id: `chatcmpl-${++counter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.text ?? null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          refusal: null,
        },
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

function streamChunks(model: string, full: ReturnType<typeof completion>): unknown[] {
  const base = { id: full.id, object: 'chat.completion.chunk', created: full.created, model };
  const message = full.choices[0]!.message as {
    content: string | null;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  };
  const chunks: unknown[] = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  ];
  if (message.content) {
    const half = Math.ceil(message.content.length / 2);
    for (const piece of [message.content.slice(0, half), message.content.slice(half)]) {
      if (piece) chunks.push({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
    }
  }
  (message.tool_calls ?? []).forEach((call, index) => {
    const half = Math.ceil(call.function.arguments.length / 2);
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index,
                id: call.id,
                type: 'function',
                function: { name: call.function.name, arguments: call.function.arguments.slice(0, half) },
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }] },
          finish_reason: null,
        },
      ],
    });
  });
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: full.choices[0]!.finish_reason }] });
  return chunks;
}

/**
 * Starts a scripted OpenAI-compatible Chat Completions server on 127.0.0.1.
 * It answers `POST /v1/chat/completions` (streaming or not) with the next
 * scripted reply and records every request. When the script runs out it
 * answers 500, so a test that calls the model more than planned fails.
 *
 * @example
 * const server = await startScriptedModelServer([
 *   { toolCalls: [{ name: 'recall_memory', arguments: { query: 'Ada' } }] },
 *   { text: 'I remember Ada likes tea.' },
 * ]);
 * // [openai] base_url = server.url
 */
/** Options of the scripted server. */
export interface ScriptedServerOptions {
  /**
   * Answers `POST /v1/embeddings`: a vector per input text. The default is a
   * deterministic 32-dimension bag of hashed words, so equal words embed close.
   */
  readonly embed?: (text: string) => number[];
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

export async function startScriptedModelServer(
  script: readonly ScriptedReply[] = [],
  options: ScriptedServerOptions = {},
): Promise<ScriptedModelServer> {
  const embed = options.embed ?? ((text: string) => hashedBagOfWords(text));
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  const embeddingRequests: Array<{ model: string; input: string[] }> = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => void answer(req, res, raw));
  });

  async function answer(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      const body = JSON.parse(raw) as { model: string; input: string | string[] };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      embeddingRequests.push({ model: body.model, input: inputs });
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          model: body.model,
          data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(raw);
    } catch {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'invalid JSON body' } }));
      return;
    }
    const recorded: RecordedRequest = {
      path: req.url,
      headers: req.headers,
      body,
      toolNames: (body.tools ?? []).map((t) => t.function.name),
    };
    requests.push(recorded);
    let reply = queue.shift();
    while (typeof reply === 'function') reply = reply(recorded);
    if (reply === undefined) {
      res
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'scripted model server: script exhausted' } }));
      return;
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    if (res.destroyed) return;
    if ('status' in reply) {
      res
        .writeHead(reply.status, { 'content-type': 'application/json' })
        .end(
          JSON.stringify({ error: { message: reply.error ?? `scripted status ${reply.status}`, type: 'scripted' } }),
        );
      return;
    }
    if ('malformed' in reply) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [ this is not json');
      return;
    }
    const full = completion(body.model, reply);
    if (body.stream) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      for (const chunk of streamChunks(body.model, full)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(full));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
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
