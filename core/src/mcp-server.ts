import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Application } from './application.js';
import type { RegisteredTool } from './tools.js';

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
      description: tool.description,
      inputSchema: tool.parameters as { type: 'object' },
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
    const args = request.params.arguments ?? {};
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
    return { content: [{ type: 'text' as const, text: result.content }] };
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
