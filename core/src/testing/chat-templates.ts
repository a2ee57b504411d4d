import { renderPrompt, renderQwen25, type WireMessage, type WireTool } from './model-prompt.js';

/**
 * The chat templates the scripted llama-server renders with (llama-server `--jinja --chat-template-file`), each
 * refusing and rendering as the real template does through the bundled llama-server (node-llama-cpp 3.21.1's
 * llama.cpp, `models/templates/`; measured with its `/apply-template` and `/props`):
 *
 * - `chatml-tools` (the default): ChatML with a tool section in Qwen2.5's layout, written compactly (see
 *   `renderPrompt`), refusing a `system` message that is not first as Qwen3.5's template does (HTTP 500, see
 *   {@link SYSTEM_NOT_FIRST}).
 * - `qwen2.5`: Qwen2.5's own template (`Qwen-Qwen2.5-7B-Instruct.jinja`, the generated test model's), rendered byte
 *   for byte as the bundled llama-server renders it (`renderQwen25`); it renders a late `system` message too.
 * - `hermes-2-pro`: NousResearch Hermes 2 Pro tool-use (`NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja`),
 *   whose `json_to_python_type` looks a parameter's `type` up in a table and raises on a list
 *   (`"type": ["string", "null"]`): HTTP 400. An `anyOf` renders ("Union[]"). Hermes 3 and Command R+ tool-use do
 *   the same.
 * - `gemma-2`: Google Gemma 2 (`google-gemma-2-2b-it.jinja`): no system role (llama.cpp folds a first `system`
 *   message into the first user message), no tools (`/props` says `supports_tools: false`; llama-server drops
 *   them), and a raise when the roles do not alternate user/assistant from the first (a tool result: HTTP 400).
 */
export type ScriptedTemplate = 'chatml-tools' | 'qwen2.5' | 'hermes-2-pro' | 'gemma-2';

/**
 * What llama-server answers when Qwen3.5's chat template (llama.cpp `models/templates/Qwen3.5-4B.jinja`,
 * line 85) meets a `system` message that is not first: the template's `raise_exception` becomes a
 * `raised_exception` (`common/jinja/value.cpp`), which `statement::execute` (`common/jinja/runtime.cpp`)
 * rethrows with the line, column and a peek of the template's source; `common_chat_params_init_qwen3_coder`
 * (`common/chat.cpp`, the specialized path Qwen3.5 takes) does not catch it, so `ex_wrapper`
 * (`tools/server/server.cpp`) answers it as `ERROR_TYPE_SERVER`: HTTP 500, type `server_error`. Ministral
 * 3's template raises on the same request too; SmolLM3's and gpt-oss's drop the message silently.
 */
const SYSTEM_NOT_FIRST =
  "\n------------\nWhile executing CallExpression at line 85, column 32 in source:\n...first %}\u21b5            {{- raise_exception('System message must be at the beginnin...\n                                           ^\nError: Jinja Exception: System message must be at the beginning.";

/**
 * A template without a specialized path raises inside llama.cpp's automatic parser generation (`common/chat.cpp`),
 * which throws `std::invalid_argument`: HTTP 400, type `invalid_request_error`, the template's error after this.
 */
const PARSER_FAILED = 'Unable to generate parser for this template. Automatic parser generation failed: ';

/** Hermes 2 Pro tool-use on a parameter whose `type` is a list, as the bundled llama-server says it. */
const HERMES_TYPE_LIST = `${PARSER_FAILED}\n------------\nWhile executing MemberExpression at line 9, column 22 in source:\n...ean": "bool"\u21b5} %}\u21b5\u21b5{%- if basic_type_map[json_spec.type] is defined %}\u21b5    {{- b...\n                                           ^\nError: Object key of unhashable type: Array`;

/** Gemma 2 on roles that do not alternate, as the bundled llama-server says it. */
const GEMMA_ALTERNATE = `${PARSER_FAILED}\n------------\nWhile executing CallExpression at line 1, column 226 in source:\n...op.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user...\n                                           ^\nError: Jinja Exception: Conversation roles must alternate user/assistant/user/assistant/...`;

/** Whether a Hermes 2 Pro `json_to_python_type` of `spec` meets a `type` list (it recurses into items and maps). */
function typeList(spec: unknown): boolean {
  if (spec === null || typeof spec !== 'object') return false;
  const { type, items, additionalProperties } = spec as Record<string, unknown>;
  if (Array.isArray(type)) return true;
  if (type === 'array') return typeList(items);
  return type === 'object' && typeList(additionalProperties);
}

/** The messages as Gemma 2 sees them through llama.cpp: a first `system` message folded into the first user one. */
function foldSystem(messages: readonly WireMessage[]): WireMessage[] {
  const [first, second, ...rest] = messages;
  if (first?.role !== 'system') return [...messages];
  if (second?.role !== 'user') return [{ role: 'user', content: first.content }, ...messages.slice(1)];
  return [{ role: 'user', content: `${first.content ?? ''}\n${second.content ?? ''}` }, ...rest];
}

/**
 * Why `template` refuses to render the messages with the tools, as llama-server says it (status and message), or
 * undefined. The tools are those llama-server passes to the template (none when it renders no tools).
 */
export function templateError(
  template: ScriptedTemplate,
  messages: readonly WireMessage[],
  tools: readonly WireTool[],
): [number, string] | undefined {
  switch (template) {
    case 'chatml-tools':
      return messages.slice(1).some((m) => m.role === 'system') ? [500, SYSTEM_NOT_FIRST] : undefined;
    case 'qwen2.5':
      return undefined;
    case 'hermes-2-pro': {
      const properties = tools.flatMap((t) =>
        Object.values((t.function.parameters as { properties?: Record<string, unknown> })?.properties ?? {}),
      );
      return properties.some(typeList) ? [400, HERMES_TYPE_LIST] : undefined;
    }
    case 'gemma-2':
      return foldSystem(messages).some((m, i) => (m.role === 'user') !== (i % 2 === 0))
        ? [400, GEMMA_ALTERNATE]
        : undefined;
  }
}

/** The prompt `template` renders (call {@link templateError} first; `renderTools` false drops the tools). */
export function renderTemplate(
  template: ScriptedTemplate,
  messages: readonly WireMessage[],
  tools: readonly WireTool[],
  renderTools: boolean,
): string {
  if (template === 'qwen2.5') return renderQwen25(messages, tools, renderTools);
  if (template !== 'gemma-2') return renderPrompt(messages, tools, renderTools);
  const turns = foldSystem(messages).map(
    (m) => `<start_of_turn>${m.role === 'assistant' ? 'model' : m.role}\n${(m.content ?? '').trim()}<end_of_turn>\n`,
  );
  return `${turns.join('')}<start_of_turn>model\n`;
}

/** llama-server's `/props` `chat_template_caps` for `template` (common/jinja/caps.cpp `caps::to_map()`). */
export function templateCaps(template: ScriptedTemplate, rendersTools: boolean): Record<string, boolean> {
  const tools = template !== 'gemma-2' && rendersTools;
  return {
    supports_object_arguments: tools,
    supports_parallel_tool_calls: tools,
    supports_preserve_reasoning: false,
    supports_reasoning_effort: false,
    supports_string_content: true,
    supports_system_role: template !== 'gemma-2',
    supports_tool_calls: tools,
    supports_tools: tools,
    supports_typed_content: false,
  };
}
