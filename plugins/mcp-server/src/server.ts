import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Application, RegisteredTool } from '@mira/core';

/**
 * Tools that need the robot running (a fresh sensor reading): `mira mcp` opens a profile's stores
 * only, it does not connect to the robot.
 */
const NEEDS_RUNNING_ROBOT = new Set(['read_sensor']);

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

/**
 * Serves a profile's memory to other agents over MCP on stdio: stdout carries protocol messages
 * only (log lines go to stderr). `booting` may still be starting: the handshake (`initialize`, whose
 * answer is the same for every profile) is answered at once, and requests for tools wait for it.
 * Resolves when the client disconnects; rejects with the boot's error when it fails (each waiting
 * request has been answered with it).
 */
export async function serveMcp(booting: Application | Promise<Application>, version: string): Promise<void> {
  const ready = Promise.resolve(booting);
  let offered: Map<string, RegisteredTool> | undefined;
  const toolsOf = async () => (offered ??= new Map(mcpTools(await ready).map((t) => [t.tool.name, t])));
  const server = new Server({ name: 'mira', version }, { capabilities: { tools: {} } });
  let episode = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...(await toolsOf()).values()].map(({ tool }) => ({
      name: tool.name,
      description: tool.agentDescription ?? tool.description,
      inputSchema: mcpInputSchema(tool.parameters),
      annotations: { readOnlyHint: true },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tools = await toolsOf();
    const app = await ready;
    const registered = tools.get(request.params.name);
    if (!registered) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `no tool ${request.params.name} here; this server is read-only and offers ${[...tools.keys()].join(', ')}`,
      );
    }
    const args = fromMcpArguments(registered.tool.parameters, request.params.arguments ?? {});
    if (!registered.validate(args)) {
      const first = registered.validate.errors?.[0];
      throw new McpError(
        ErrorCode.InvalidParams,
        `invalid arguments for ${registered.tool.name}: ${first ? `${first.instancePath || '/'} ${first.message ?? ''}` : 'rejected'}`,
      );
    }
    // Each call is an episode of its own, as a console line is: per-episode budgets start afresh.
    const result = await registered.tool.run(args, {
      episode: { id: ++episode, origin: 'operator', startedAt: app.kernel.services.clock.now() },
    });
    return {
      content: [
        { type: 'text' as const, text: result.content },
        ...(result.image
          ? [
              {
                type: 'image' as const,
                data: Buffer.from(result.image.bytes).toString('base64'),
                mimeType: result.image.mediaType,
              },
            ]
          : []),
      ],
    };
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  await server.connect(transport);
  try {
    await Promise.race([
      closed,
      new Promise<void>((resolve) => process.stdin.once('end', () => resolve())),
      ready.then(
        () => new Promise<never>(() => {}),
        async (error: unknown) => {
          // The requests waiting for the boot answer with its error before the server closes.
          await new Promise((resolve) => setImmediate(resolve));
          throw error;
        },
      ),
    ]);
  } finally {
    await server.close();
  }
  // A client that left during the boot still learns nothing more, but the exit status says how it went.
  await ready;
}
