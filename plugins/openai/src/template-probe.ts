import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';

/**
 * Start-up probes of a llama-server's chat template through `POST /apply-template` (it renders a chat request
 * with the loaded template and generates nothing: server-context.cpp `post_apply_template`). A template that
 * cannot render a system message and a user message fails every episode; one that cannot render a tool call
 * and its result fails every episode that calls a tool; both are said at start-up, with what to do.
 */

/** What the probes found. */
export interface TemplateProbe {
  readonly warnings: string[];
  /** The form the tools' schemas are sent in: the first the template renders. */
  readonly schemaForm: SchemaForm;
  /** Whether the server rendered the probe (it has `/apply-template`). */
  readonly renders: boolean;
}

const SYSTEM = 'Probe: the instructions.';
const USER = 'Probe: the operator.';
/** A system and a user message: what a probe renders first, and what tools are counted against. */
export const OPENING = [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: USER },
] as const;
const RESULT = 'Probe: the result.';
/** Nine alphanumerics: Mistral's templates raise on a tool call id of another length. */
const CALL_ID = 'probe0001';
const ADVICE =
  "start llama-server with --jinja and the model's own tool-capable chat template (--chat-template-file; llama.cpp's models/templates has the templates of today's models)";

/**
 * A parameter schema with every nullable type array (`type: ["string", "null"]`, as tools declare optional
 * values) said as `anyOf: [{type: "string", …its keywords}, {type: "null"}]`, the `description` kept beside the
 * `anyOf`. Both admit the same values and both are valid in OpenAI's strict mode (`anyOf` in a nested schema,
 * each branch strict); llama-server's grammar reads both. Hermes 2 Pro and Hermes 3 tool-use and Command R+
 * tool-use look the type up in a table and raise on a list; an `anyOf` they render as "Any". The kernel
 * validates arguments against the tool's own schema, never this one.
 *
 * @example
 * nullableAsAnyOf({ type: ['string', 'null'], maxLength: 8, description: 'A label, or null.' })
 * // { description: 'A label, or null.', anyOf: [{ type: 'string', maxLength: 8 }, { type: 'null' }] }
 */
export function nullableAsAnyOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsAnyOf);
  if (schema === null || typeof schema !== 'object') return schema;
  const node = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] =
      key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, nullableAsAnyOf(sub)]))
        : nullableAsAnyOf(value);
  }
  const types = node.type;
  if (!Array.isArray(types) || !types.includes('null') || types.length < 2) return out;
  const { description, ...rest } = out;
  delete rest.type;
  const others = types.filter((t) => t !== 'null');
  if (Array.isArray(rest.enum)) rest.enum = rest.enum.filter((v) => v !== null);
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [...others.map((t) => ({ type: t, ...rest })), { type: 'null' }],
  };
}

/**
 * A schema with a `type` beside every `anyOf` of one type and null (`{type: "string", anyOf: [{type: "string"},
 * {type: "null"}]}`), for templates that read only `type` and raise on a list and on a missing one (ByteDance
 * Seed-OSS, GigaChat 3 and 3.1 test `type in [...]`, which llama.cpp's Jinja refuses for both). Sent to
 * llama-server only, and only when its template needs it: its grammar reads `anyOf` before `type`
 * (json-schema-to-grammar.cpp `visit`), so null is still allowed, but to a validator the `type` would forbid null.
 */
export function withTypeHints(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withTypeHints);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    out[key] =
      key === 'properties' && value !== null && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withTypeHints(sub)]))
        : withTypeHints(value);
  }
  if (out.type === undefined && Array.isArray(out.anyOf)) {
    const types = new Set((out.anyOf as Array<{ type?: unknown }>).map((s) => s?.type).filter((t) => t !== 'null'));
    const [only] = types;
    if (types.size === 1 && typeof only === 'string') return { type: only, ...out };
  }
  return out;
}

/**
 * How requests carry the tools' parameter schemas, in the order a probe tries them: as the tools declare them,
 * with nullable values as `anyOf` ({@link nullableAsAnyOf}), and that with type hints ({@link withTypeHints}).
 * The first form llama-server's template renders is used for the session; the declared form everywhere else.
 */
export type SchemaForm = 'declared' | 'any-of' | 'typed-any-of';

const SCHEMA_FORMS: readonly SchemaForm[] = ['declared', 'any-of', 'typed-any-of'];

/** A parameter schema in a {@link SchemaForm}. */
export function inSchemaForm(schema: Record<string, unknown>, form: SchemaForm): Record<string, unknown> {
  if (form === 'declared') return schema;
  const anyOf = nullableAsAnyOf(schema);
  return (form === 'any-of' ? anyOf : withTypeHints(anyOf)) as Record<string, unknown>;
}

/** A chat request rendered by llama-server's `/apply-template` at `root`: its prompt, or why not. */
export async function render(
  root: string,
  body: object,
  timeoutMs: number,
): Promise<{ prompt?: string; failure?: string }> {
  try {
    const response = await fetch(`${root}/apply-template`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const answer = (await response.json().catch(() => ({}))) as { prompt?: unknown; error?: { message?: unknown } };
    if (response.ok && typeof answer.prompt === 'string') return { prompt: answer.prompt };
    // llama.cpp's message runs on with the template's source: its first line says what failed.
    const message = String(answer.error?.message ?? '')
      .split('\n')[0]!
      .slice(0, 160);
    return { failure: `HTTP ${response.status}${message ? `: ${message}` : ''}` };
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Renders, through llama-server's `/apply-template` at `root`, a system and a user message and then (when the
 * template renders tools) a tool call and its result with Mira's `tools`. Returns the warnings for the operator
 * and the form the tools' schemas render in. A server without `/apply-template` says nothing.
 */
export async function probeTemplate(
  root: string,
  where: string,
  tools: readonly ChatCompletionFunctionTool[],
  rendersTools: boolean,
  timeoutMs: number,
): Promise<TemplateProbe> {
  const warnings: string[] = [];
  const opening = OPENING;
  const plain = await render(root, { messages: opening }, timeoutMs);
  if (plain.failure?.startsWith('HTTP 404')) return { warnings, schemaForm: 'declared', renders: false };
  if (plain.prompt === undefined) {
    warnings.push(
      `the model server at ${where} has a chat template that cannot render a system message followed by a user message (${plain.failure}), so every episode will fail: ${ADVICE}`,
    );
    return { warnings, schemaForm: 'declared', renders: false };
  }
  if (!plain.prompt.includes(SYSTEM) || !plain.prompt.includes(USER)) {
    warnings.push(
      `the model server at ${where} has a chat template that drops ${plain.prompt.includes(USER) ? "the system message, so the model never sees Mira's instructions" : 'the user message, so the model never sees what the operator says'}: ${ADVICE}`,
    );
  }
  if (!rendersTools || tools.length === 0) return { warnings, schemaForm: 'declared', renders: true };
  const exchange = (form: SchemaForm) => ({
    messages: [
      ...opening,
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: CALL_ID, type: 'function', function: { name: tools[0]!.function.name, arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: CALL_ID, content: RESULT },
    ],
    tools: tools.map((t) => ({
      ...t,
      function: { ...t.function, parameters: inSchemaForm(t.function.parameters ?? {}, form) },
    })),
  });
  let schemaForm: SchemaForm = 'declared';
  let found = await render(root, exchange(schemaForm), timeoutMs);
  for (const form of SCHEMA_FORMS.slice(1)) {
    if (found.prompt !== undefined) break;
    const retried = await render(root, exchange(form), timeoutMs);
    if (retried.prompt !== undefined) [schemaForm, found] = [form, retried];
  }
  if (found.prompt === undefined) {
    warnings.push(
      `the model server at ${where} has a chat template that cannot render Mira's tools with a tool call and its result (${found.failure}), so every episode in which the model calls a tool will fail: ${ADVICE}`,
    );
  } else if (!found.prompt.includes(RESULT)) {
    warnings.push(
      `the model server at ${where} has a chat template that drops tool results, so the model never sees what its tool calls found: ${ADVICE}`,
    );
  }
  return { warnings, schemaForm, renders: true };
}
