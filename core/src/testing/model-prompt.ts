/**
 * How the scripted model server sees a request as a model would: the prompt a ChatML chat template with
 * a tool section renders (the layout of Qwen2.5's template, which llama.cpp's `--jinja` runs: the first
 * system message, then the tools, then every turn; a `system` message anywhere else is refused before
 * rendering, as Qwen3.5's template does, see `model-server.ts`), and its length in tokens.
 *
 * Tokens are counted as the repository's generated model counts them (`model-tokenizer.ts`: its vocabulary made
 * from the repository's docs as `tools/llama-server/make-model.py` makes it, tokenized as llama.cpp does), so a
 * text the double counts is the count the real `llama-server` of the test tier gives (held exact, id for id, by
 * test/model-server/tokens.tier.ts). The double's own rendering is compact (see {@link renderPrompt}), so a
 * request's count runs 0.87–0.99 of the same request rendered by the model's Qwen2.5 template; {@link renderQwen25}
 * is that template byte for byte.
 *
 * Without the repository's docs at hand (the package installed elsewhere) the count is a stand-in at that model's
 * density: one token per 3 bytes of UTF-8 (issue 61 measured the model at 2.9 bytes a token on Mira's prompts;
 * real models' tokenizers give 3–4 on English and JSON).
 */

import { renderedContent } from './content-parts.js';
import { modelPieces, modelTokenIds } from './model-tokenizer.js';

/** Bytes per token of the double's stand-in tokenizer. */
export const BYTES_PER_TOKEN = 3;

/** A chat message as the server receives it. */
export interface WireMessage {
  role: string;
  /**
   * Text, as Mira sends every message but one that shows images; that one's content is an array of content
   * parts (typed as text here so tests read the usual case plainly: see `content-parts.ts`).
   */
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
}

/** A tool as the server receives it. */
export interface WireTool {
  type: string;
  function: { name: string; description: string; parameters: unknown; strict?: boolean };
}

/** Tokens in a text, as the test model counts them (or by the stand-in density). */
export function countTokens(text: string): number {
  return modelPieces(text)?.length ?? Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

/** A text's token ids (`/tokenize`): the test model's, or as many as the stand-in counts. */
export function tokenIds(text: string): number[] {
  return modelTokenIds(text) ?? Array.from({ length: countTokens(text) }, (_, i) => 1000 + i);
}

/** The text of a text's first `tokens` tokens (a character cut inside its bytes is left out). */
export function firstTokens(text: string, tokens: number): string {
  const pieces = modelPieces(text);
  if (pieces === undefined) return text.slice(0, tokens * BYTES_PER_TOKEN);
  let bytes = 0;
  for (const piece of pieces.slice(0, tokens))
    bytes += /^<0x[0-9A-F]{2}>$/.test(piece) ? 1 : Buffer.byteLength(piece.replaceAll('\u2581', ' '), 'utf8');
  return Buffer.from(text, 'utf8')
    .subarray(0, bytes)
    .toString('utf8')
    .replace(/\uFFFD$/u, '');
}

/**
 * The prompt text of the default template, `chatml-tools`: Qwen2.5's layout, written compactly (no tool preamble,
 * each tool's JSON as received, `strict` included, each tool result a user turn of its own), so it runs 0.87–0.99
 * of the real template's count (see above); {@link renderQwen25} is the real template byte for byte. Tools are
 * dropped when `renderTools` is false, as llama-server does with a template that has no tool section.
 */
export function renderPrompt(messages: readonly WireMessage[], tools: readonly WireTool[], renderTools = true): string {
  let out = '';
  let rest = messages;
  if (renderTools && tools.length > 0) {
    const system =
      messages[0]?.role === 'system' ? renderedContent(messages[0].content).text : 'You are a helpful assistant.';
    if (messages[0]?.role === 'system') rest = messages.slice(1);
    out += `<|im_start|>system\n${system}\n\n# Tools\n\n<tools>`;
    // Each tool as JSON, in the order received: a reordered list is a different prompt.
    for (const tool of tools) out += `\n${JSON.stringify(tool)}`;
    out += '\n</tools><|im_end|>\n';
  }
  for (const message of rest) {
    if (message.role === 'tool') {
      out += `<|im_start|>user\n<tool_response>\n${renderedContent(message.content).text}\n</tool_response><|im_end|>\n`;
      continue;
    }
    out += `<|im_start|>${message.role}\n${renderedContent(message.content).text}`;
    for (const call of (message.tool_calls ?? []) as Array<{ function: { name: string; arguments: string } }>) {
      out += `\n<tool_call>\n{"name": "${call.function.name}", "arguments": ${call.function.arguments}}\n</tool_call>`;
    }
    out += '<|im_end|>\n';
  }
  return `${out}<|im_start|>assistant\n`;
}

/**
 * A value as the chat template's `tojson` writes it through llama.cpp's Jinja (`common/jinja`): JSON with `", "` and
 * `": "` between items, keys in the order received, non-ASCII text as it is.
 */
function templateJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(templateJson).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${templateJson(item)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** Qwen2.5's system message when the request has none. */
const QWEN_DEFAULT_SYSTEM = 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.';

/**
 * The prompt Qwen2.5's chat template (llama.cpp `models/templates/Qwen-Qwen2.5-7B-Instruct.jinja`) renders through
 * llama-server, byte for byte as the bundled build renders the same request (a test pins it): the first system
 * message (or Qwen's own) with the tool section, each tool as llama-server passes it (`type`, and `name`,
 * `description` and `parameters` of the function: `strict` is not passed), each call's arguments as an object,
 * consecutive tool results in one user turn. Tools are dropped when `renderTools` is false, as llama-server does
 * with a template that has no tool section.
 */
export function renderQwen25(messages: readonly WireMessage[], tools: readonly WireTool[], renderTools = true): string {
  let out = '';
  const first = messages[0]?.role === 'system' ? messages[0] : undefined;
  const rest = first ? messages.slice(1) : messages;
  const system = first ? (first.content ?? '') : QWEN_DEFAULT_SYSTEM;
  if (renderTools && tools.length > 0) {
    out += `<|im_start|>system\n${system}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n`;
    out += 'You are provided with function signatures within <tools></tools> XML tags:\n<tools>';
    // Each tool in the order received: a reordered list is a different prompt.
    for (const { type, function: f } of tools) {
      const passed = { type, function: { name: f.name, description: f.description, parameters: f.parameters } };
      out += `\n${templateJson(passed)}`;
    }
    out += '\n</tools>\n\nFor each function call, return a json object with function name and arguments within ';
    out +=
      '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n';
    out += '</tool_call><|im_end|>\n';
  } else {
    out += `<|im_start|>system\n${system}<|im_end|>\n`;
  }
  for (const [i, message] of rest.entries()) {
    if (message.role === 'tool') {
      if (rest[i - 1]?.role !== 'tool') out += '<|im_start|>user';
      out += `\n<tool_response>\n${message.content ?? ''}\n</tool_response>`;
      if (rest[i + 1]?.role !== 'tool') out += '<|im_end|>\n';
      continue;
    }
    const calls = (message.tool_calls ?? []) as Array<{ function: { name: string; arguments: string } }>;
    if (message.role !== 'assistant' || calls.length === 0) {
      out += `<|im_start|>${message.role}\n${message.content ?? ''}<|im_end|>\n`;
      continue;
    }
    out += `<|im_start|>assistant${message.content ? `\n${message.content}` : ''}`;
    for (const call of calls) {
      // llama-server hands a tool-capable template the arguments parsed (it refused the history if they did not).
      const args = argumentsParse(call.function.arguments)
        ? templateJson(JSON.parse(call.function.arguments))
        : call.function.arguments;
      out += `\n<tool_call>\n{"name": "${call.function.name}", "arguments": ${args}}\n</tool_call>`;
    }
    out += '<|im_end|>\n';
  }
  return `${out}<|im_start|>assistant\n`;
}

/** Tokens two prompts share from their start (what a server's prompt cache can reuse). */
export function commonPrefixTokens(a: string, b: string): number {
  const x = modelTokenIds(a);
  const y = modelTokenIds(b);
  if (x !== undefined && y !== undefined) {
    let same = 0;
    while (same < x.length && same < y.length && x[same] === y[same]) same += 1;
    return same;
  }
  const p = Buffer.from(a, 'utf8');
  const q = Buffer.from(b, 'utf8');
  const n = Math.min(p.length, q.length);
  let i = 0;
  while (i < n && p[i] === q[i]) i += 1;
  return Math.floor(i / BYTES_PER_TOKEN);
}

/**
 * Whether a tool call's arguments parse as llama.cpp's JSON reader (nlohmann::json) parses them: valid
 * JSON, and no number that overflows a double (`JSON.parse` reads `1e999` as Infinity; nlohmann refuses it).
 */
export function argumentsParse(text: string): boolean {
  let finite = true;
  try {
    JSON.parse(text, (_key, value: unknown) => {
      if (typeof value === 'number' && !Number.isFinite(value)) finite = false;
      return value;
    });
  } catch {
    return false;
  }
  return finite;
}
