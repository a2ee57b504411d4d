/**
 * How the scripted model server sees a request as a model would: the prompt a ChatML chat template with
 * a tool section renders (the layout of Qwen2.5's template, which llama.cpp's `--jinja` runs: the first
 * system message, then the tools, then every turn; a `system` message anywhere else is refused before
 * rendering, as Qwen3.5's template does, see `model-server.ts`), and its length in tokens.
 *
 * The tokenizer is a stand-in at the density of the repository's generated model: one token per 3 bytes of
 * UTF-8 (issue 61 measured that model's tokenizer at 2.9 bytes a token on Mira's prompts; real models'
 * tokenizers give 3–4 on English and JSON). It is not that tokenizer itself, for three reasons: its
 * vocabulary is made from the repository's docs when the real-server tier builds the model
 * (`tools/llama-server/make-model.py`: the 1,500 commonest words and every prefix of each), so the double
 * would have to read the docs and rebuild it the same way; counting as llama.cpp does means its
 * SentencePiece merge by score with byte fallback and the template's control tokens; and nothing here can
 * check such a copy against the real one without generating the model and running llama.cpp. The density
 * is what the budget and the cache depend on; where exact counts matter the tier measures the real server.
 *
 * How far it is, measured by the tier (test/model-server/tokens.tier.ts, which holds it to 0.82–1.05): over the
 * 27 requests of a 12-turn session, the double's count of its own rendering is 0.87–0.99 of llama-server's count
 * of the same request rendered by the model's Qwen2.5 template. It undercounts because the real template adds a
 * tool preamble and writes JSON with spaces (the stand-in on the real prompt: 0.88–1.03), and because text is not
 * of one density: at 3 bytes a token in the real tokenizer on the whole prompt, tool schemas take 2.76, log lines
 * full of numbers 2.65, utterances 2.94, the instructions 3.66 and replies 4.18. The tokenizer packages on npm
 * (gpt-tokenizer, js-tiktoken, tiktoken) count OpenAI's vocabularies, not this model's, and none is a dependency;
 * for the `openai` flavor one of them would count as OpenAI does.
 */

import { renderedContent } from './content-parts.js';

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

/** Tokens in a text, by the stand-in tokenizer. */
export function countTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN);
}

/** A text's token ids by the stand-in tokenizer (`/tokenize`): as many as {@link countTokens} counts. */
export function tokenIds(text: string): number[] {
  return Array.from({ length: countTokens(text) }, (_, i) => 1000 + i);
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
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && x[i] === y[i]) i += 1;
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
