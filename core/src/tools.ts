import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { CoreErrors } from './errors.js';
import type { EpisodeOrigin, JsonSchema } from './types.js';

/** Whether a tool gathers information (read-only) or changes the world or durable state. */
export type ToolKind = 'acquisition' | 'effect';

/** What a tool handler and the hooks learn about the episode that called it. */
export interface EpisodeInfo {
  /** Session-unique episode number. */
  readonly id: number;
  readonly origin: EpisodeOrigin;
  /** The current operator utterance; present only for `operator` episodes. */
  readonly utterance?: string;
  /** When the episode started (wall clock). */
  readonly startedAt: Date;
  /**
   * When what began the episode was asked (`crossThreadNow()`, comparable across the process's threads):
   * for a typed utterance, when its line was read, however long the runtime took to get to it. A robot
   * refuses motion asked before its latest stop (the stop fence); absent, the tool call's own time counts.
   */
  readonly askedAt?: number;
}

/** One part of the grounding text the model sees, contributed by a named source. */
export interface GroundingSection {
  readonly source: string;
  readonly text: string;
  /**
   * The same text for the whole session (guidance, not state): placed with the instructions at the start
   * of the prompt, which a server's prefix cache reuses, instead of last with what changes every call.
   */
  readonly fixed?: boolean;
}

/** Runtime and temporal grounding, rebuilt before every model call. */
export interface Grounding {
  readonly sections: readonly GroundingSection[];
}

/** A tool call as the model made it. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** The raw JSON argument text the model sent. */
  readonly rawArguments: string;
}

/** The runtime's answer to a tool call. */
export interface ToolResult {
  /** What the model receives (usually JSON text). */
  readonly content: string;
  /** One short line for the operator, e.g. `hit ENT3`; printed as `[tool] display`. */
  readonly display: string;
  /**
   * An image beside the text: `mira mcp` returns it to another agent as image content; in an episode whose
   * model sees images ({@link ToolContext.seesImages}) the engine shows it to the model in a user message after
   * the step's tool results (a tool message holds text only), for the rest of that episode; otherwise it is
   * dropped. Working memory never keeps it.
   */
  readonly image?: ToolImage;
}

/** An encoded image a tool returns. */
export interface ToolImage {
  readonly mediaType: string;
  readonly bytes: Uint8Array;
}

/** Passed to a tool handler. */
export interface ToolContext {
  readonly episode: EpisodeInfo;
  /**
   * Whether the caller is shown an image the result carries (the episode's model, when its provider says it
   * sees images; another agent through `mira mcp`). Absent: it is not, and a tool need not make one.
   */
  readonly seesImages?: boolean;
}

/**
 * A tool offered to cognition. Its parameter schema is strict: every object
 * property is listed in `required` and `additionalProperties` is `false`;
 * optional values are nullable types (`["string", "null"]`).
 *
 * @example
 * api.tools.register({
 *   name: 'read_battery', description: 'Reads the battery level.', kind: 'acquisition',
 *   origins: ['operator', 'monitor'],
 *   parameters: { type: 'object', properties: {}, required: [], additionalProperties: false },
 *   run: async () => ({ content: '{"percent":81}', display: '81%' }),
 * });
 */
export interface ToolDefinition<Args = unknown> {
  /** `[a-z][a-z0-9_]*`, unique in the runtime. */
  readonly name: string;
  /** What the robot's model reads (its budget and episode rules may be part of it). */
  readonly description: string;
  /**
   * What another agent reads (`mira mcp`): the tool as a service, without the model's episode rules;
   * the model's `description` when absent.
   */
  readonly agentDescription?: string;
  readonly kind: ToolKind;
  /** The episode origins that may be offered this tool. */
  readonly origins: readonly EpisodeOrigin[];
  readonly parameters: JsonSchema;
  /** At most this many calls per episode (e.g. 1 for `remember`); unbounded when absent. */
  readonly maxCallsPerEpisode?: number;
  /**
   * The reason the engine puts in its rejection when it refuses a call to this
   * tool (not offered to the episode's origin, or over its per-episode bound),
   * so a tool with its own reason vocabulary (`remember`) keeps it.
   */
  readonly refusalReason?: string;
  run(args: Args, context: ToolContext): Promise<ToolResult>;
}

/** The arguments a tool parameter schema admits: its TypeScript type, derived from the schema itself. */
export type ToolArgs<S extends ToolSchema> = FromSchema<S>;

/** A JSON schema as an object (a tool's parameters are one). */
export type ToolSchema = Exclude<JSONSchema, boolean>;

/**
 * A tool whose argument type is derived from its parameter schema, so the two cannot drift: the schema
 * is the one source (the runtime validates calls with it, the model and `mira mcp` read it), and `run`
 * receives exactly what it admits. Write the schema inline (it is read as a literal) or `as const`.
 *
 * @example
 * kernel.tools.register(
 *   defineTool({
 *     name: 'greet', description: 'Greets a person by name.', kind: 'acquisition', origins: ['operator'],
 *     parameters: {
 *       type: 'object',
 *       properties: { name: { type: 'string' }, loud: { type: ['boolean', 'null'] } },
 *       required: ['name', 'loud'],
 *       additionalProperties: false,
 *     },
 *     run: async ({ name, loud }) => ({ content: '{}', display: loud ? `${name}!` : name }), // name: string
 *   }),
 * );
 */
export function defineTool<const S extends ToolSchema, A = FromSchema<S>>(
  tool: Omit<ToolDefinition<A>, 'parameters'> & { readonly parameters: S },
): ToolDefinition<A> {
  return tool;
}

/**
 * Checks that a tool parameter schema is strict in the sense of function
 * calling with `strict: true`, returning the JSON path of the first violation.
 */
export function findStrictSchemaViolation(schema: unknown, path = ''): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined;
  const node = schema as Record<string, unknown>;
  const types = Array.isArray(node.type) ? node.type : [node.type];
  if (types.includes('object') || node.properties !== undefined) {
    if (node.additionalProperties !== false) return `${path || '/'}: additionalProperties must be false`;
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
    for (const key of Object.keys(properties)) {
      if (!required.includes(key))
        return `${path}/properties/${key}: every property must be listed in required (make it nullable instead)`;
      const inner = findStrictSchemaViolation(properties[key], `${path}/properties/${key}`);
      if (inner) return inner;
    }
  }
  if (node.items !== undefined) {
    const inner = findStrictSchemaViolation(node.items, `${path}/items`);
    if (inner) return inner;
  }
  for (const combinator of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[combinator];
    if (Array.isArray(list)) {
      for (let i = 0; i < list.length; i += 1) {
        const inner = findStrictSchemaViolation(list[i], `${path}/${combinator}/${i}`);
        if (inner) return inner;
      }
    }
  }
  return undefined;
}

/** Throws MIRA_ERR_TOOL_SCHEMA_NOT_STRICT when the parameter schema is not strict. */
export function assertStrictToolSchema(tool: Pick<ToolDefinition, 'name' | 'parameters'>, owner: string): void {
  if (tool.parameters?.type !== 'object') {
    throw CoreErrors.error('TOOL_SCHEMA_NOT_STRICT.notObject', { name: tool.name, owner });
  }
  const violation = findStrictSchemaViolation(tool.parameters);
  if (violation) {
    throw CoreErrors.error('TOOL_SCHEMA_NOT_STRICT.notStrict', { name: tool.name, owner, violation });
  }
}

/** A registered tool with its owner and compiled argument validator. */
export interface RegisteredTool {
  readonly tool: ToolDefinition;
  readonly owner: string;
  /** Validates a call's parsed arguments against the tool's schema (ajv); errors in `validate.errors`. */
  readonly validate: ((value: unknown) => boolean) & {
    errors?: ReadonlyArray<{ instancePath: string; message?: string }> | null;
  };
}

/** The tools an episode may offer, by name and in registration order. */
export interface ToolCatalogue {
  get(name: string): RegisteredTool | undefined;
  values(): readonly RegisteredTool[];
}
