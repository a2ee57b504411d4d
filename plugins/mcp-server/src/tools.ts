import type { Application, RegisteredTool } from '@mira/core';

// What `mira mcp` offers and in which form, without the MCP SDK: `tools/list` is answered from here before
// the SDK has loaded (see early-answers.ts), and by the SDK's server after.

/**
 * Tools that need the robot running (a fresh sensor reading, the ROS graph): `mira mcp` opens a profile's
 * stores only, it does not connect to the robot. The read-only graph tools would suit another agent (they
 * write nothing), but offering them means a connection to the robot of its own for `mira mcp`.
 */
const NEEDS_RUNNING_ROBOT = new Set(['read_sensor', 'list_ros_graph', 'get_ros_parameters', 'echo_ros_topic', 'look']);

/**
 * The tools `mira mcp` offers: the profile's acquisition tools (they read; none writes), with their
 * own strict schemas, bounds and results. Effect tools — `remember`, `save_memory`, `drive` — are never
 * offered: admission needs an operator's own utterance inside an episode.
 */
export function mcpTools(app: Application): RegisteredTool[] {
  return [
    ...app.kernel.tools.values().filter((t) => t.tool.kind === 'acquisition' && !NEEDS_RUNNING_ROBOT.has(t.tool.name)),
    // Plugins' tools for other agents (search_notes with a scope, list_sensors), never offered to the model.
    ...app.kernel.agentTools.values(),
  ];
}

type JsonSchema = Record<string, unknown>;

/** Whether a property schema allows null: `type: [..., 'null']` or `anyOf: [..., { type: 'null' }]`. */
function nullable(schema: JsonSchema): boolean {
  if (Array.isArray(schema.type)) return schema.type.includes('null');
  return Array.isArray(schema.anyOf) && schema.anyOf.some((s) => (s as JsonSchema).type === 'null');
}

/** The property schema without its null (an absent argument says it in MCP's form). */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  const rest = (schema.anyOf as JsonSchema[]).filter((s) => s.type !== 'null');
  const { anyOf: _anyOf, ...outer } = schema;
  return rest.length === 1 ? { ...outer, ...rest[0] } : { ...outer, anyOf: rest };
}

/**
 * A tool's parameters in MCP's conventions. Mira's tool schemas are in the strict form the OpenAI
 * provider needs (every property required, an optional one nullable); to an MCP client an optional
 * parameter is one it may leave out. Each nullable property becomes optional and non-null;
 * {@link fromMcpArguments} gives a call back the strict form.
 */
export function mcpInputSchema(parameters: object): { type: 'object' } & JsonSchema {
  const schema = parameters as JsonSchema;
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const optional = new Set(Object.keys(properties).filter((name) => nullable(properties[name]!)));
  return {
    ...schema,
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, p]) => [name, optional.has(name) ? withoutNull(p) : p]),
    ),
    required: required.filter((name) => !optional.has(name)),
  };
}

/** An MCP call's arguments in the tool's strict form: each optional parameter left out is null. */
export function fromMcpArguments(parameters: object, args: Record<string, unknown>): Record<string, unknown> {
  const properties = ((parameters as JsonSchema).properties ?? {}) as Record<string, JsonSchema>;
  const strict: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(properties)) if (nullable(p) && !(name in args)) strict[name] = null;
  return { ...strict, ...args };
}

/** What `initialize` says of the server: the same for every profile. */
export function serverIdentity(version: string): {
  readonly serverInfo: { readonly name: 'mira'; readonly version: string };
  readonly capabilities: { readonly tools: Record<string, never> };
} {
  return { serverInfo: { name: 'mira', version }, capabilities: { tools: {} } };
}

/** The result of `tools/list`: every offered tool in MCP's form, read-only. */
export function toolListResult(tools: Iterable<RegisteredTool>): {
  tools: Array<{
    name: string;
    description: string;
    inputSchema: { type: 'object' } & JsonSchema;
    annotations: { readOnlyHint: true };
  }>;
} {
  return {
    tools: [...tools].map(({ tool }) => ({
      name: tool.name,
      description: tool.agentDescription ?? tool.description,
      inputSchema: mcpInputSchema(tool.parameters),
      annotations: { readOnlyHint: true },
    })),
  };
}
