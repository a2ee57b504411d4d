/**
 * `@mira/plugin-mcp-tools`: tools from Model Context Protocol servers (the official TypeScript SDK,
 * stdio or Streamable HTTP on loopback) registered as Mira tools: an allow-list per server, strict
 * schemas, a timeout per call, bounded results, origin gating, and `mcp restart <server>`.
 *
 * @packageDocumentation
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  EPISODE_ORIGINS,
  definePlugin,
  printableLine,
  type EpisodeOrigin,
  type MiraError,
  type MiraPlugin,
  type PluginKernel,
  type ToolResult,
} from '@mira/core';
import { McpToolsErrors } from './errors.js';
import { NotStrictError, dropOptionalNulls, toStrictSchema, type JsonSchema } from './strict-schema.js';
import { configValidator } from './config-validator.generated.js';

export { McpToolsErrors } from './errors.js';
export { NotStrictError, dropOptionalNulls, toStrictSchema } from './strict-schema.js';

/** The plugin's name. */
export const PLUGIN_NAME = '@mira/plugin-mcp-tools';

/** The most characters of a tool result the model gets; the rest is cut, and it is told so. */
export const MAX_RESULT_CHARS = 8000;
/** The largest message a stdio server may send (the SDK's read buffer, `STDIO_DEFAULT_MAX_BUFFER_SIZE`). */
export const MAX_MESSAGE_MB = 10;

/** One `[[mcp_tools.servers]]` entry. */
export interface McpServerConfig {
  readonly name: string;
  readonly command?: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly tools: readonly string[];
  readonly origins: readonly EpisodeOrigin[];
  readonly timeout_ms: number;
}

/** How long a server may take to start and list its tools, at least. */
const START_TIMEOUT_MS = 15_000;

const LOOPBACK_URL = '^https?://(127\\.0\\.0\\.1|localhost|\\[::1\\])(:[0-9]+)?(/.*)?$';

/**
 * The `[mcp_tools]` table's schema: the runtime validates the table with it and fills the defaults, the
 * configuration reference is generated from it, and {@link McpToolsConfig} is derived from it (each server
 * must fit {@link McpServerConfig}, the type the connections work with: the type-check says when not).
 */
const CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    servers: {
      type: 'array',
      default: [],
      items: {
        type: 'object',
        properties: {
          name: {
            type: 'string',
            pattern: '^[a-z][a-z0-9_]{0,30}$',
            description: "the server's name; its tools are offered as <name>__<tool>",
          },
          command: { type: 'string', minLength: 1, description: 'stdio: the program to start (command or url)' },
          args: {
            type: 'array',
            items: { type: 'string' },
            default: [],
            description: "stdio: the program's arguments",
          },
          env: {
            type: 'object',
            additionalProperties: { type: 'string' },
            default: {},
            description: 'stdio: environment variables added for the program',
          },
          url: {
            type: 'string',
            pattern: LOOPBACK_URL,
            description: 'Streamable HTTP on this machine (command or url)',
          },
          tools: {
            type: 'array',
            items: { type: 'string', minLength: 1 },
            minItems: 1,
            description: 'the allow-list: only these of its tools are offered',
          },
          origins: {
            type: 'array',
            items: { enum: [...EPISODE_ORIGINS] },
            minItems: 1,
            default: ['operator'],
            description: 'the episode origins its tools are offered in',
          },
          timeout_ms: {
            type: 'integer',
            minimum: 100,
            maximum: 600_000,
            default: 10_000,
            description: 'per tool call',
          },
        },
        required: ['name', 'tools'],
        oneOf: [{ required: ['command'] }, { required: ['url'] }],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
} as const satisfies JSONSchema;

/** The `[mcp_tools]` table as `setup` receives it (defaults filled in): derived from {@link CONFIG_SCHEMA}. */
export type McpToolsConfig = FromSchema<typeof CONFIG_SCHEMA, { keepDefaultedPropertiesOptional: false }>;

type Status = { up: true } | { up: false; why: string };

/** A connection to one server; reconnects on `restart()`. */
class McpConnection {
  client: Client | undefined;
  status: Status = { up: false, why: 'not started' };
  /** What the server offers, by its own tool name. */
  offered = new Map<string, { description?: string; inputSchema: unknown }>();
  /** The server sent a message larger than the SDK's stdio read buffer. */
  oversized = false;
  constructor(
    readonly config: McpServerConfig,
    readonly log: PluginKernel['log'],
  ) {}

  async connect(): Promise<void> {
    const { config } = this;
    const client = new Client({ name: 'mira', version: '0.1.0' });
    const transport = config.url
      ? new StreamableHTTPClientTransport(new URL(config.url))
      : new StdioClientTransport({
          command: config.command!,
          args: [...config.args],
          env: { ...getDefaultEnvironment(), ...config.env },
          stderr: 'pipe',
        });
    if (transport instanceof StdioClientTransport) {
      transport.stderr?.on('data', (chunk: Buffer) => {
        // A server's own words, escaped: no control, escape, carriage return, bidi or OSC sequence reaches
        // the operator's terminal, and each of its lines is one log line under the server's name, so none
        // can pass for Mira's own.
        for (const line of chunk.toString().split('\n').filter(Boolean))
          this.log.info(`mcp ${config.name}: ${printableLine(line)}`);
      });
    }
    this.oversized = false;
    // The SDK drops a stdio message over its read buffer (10 MB) and closes the connection: said as such,
    // not as a crash.
    client.onerror = (error) => {
      if (this.client === client && /ReadBuffer exceeded maximum size/.test(error.message)) this.oversized = true;
    };
    client.onclose = () => {
      if (this.client !== client) return;
      const why = this.oversized
        ? `the server sent a message over ${MAX_MESSAGE_MB} MB, which was dropped and the server stopped`
        : 'the server stopped';
      this.status = { up: false, why };
      this.log.warn(`mcp ${config.name}: ${why}; its tools answer an error until "mcp restart ${config.name}"`);
    };
    // Starting a server (npx fetching it, say) may take longer than one call may.
    const startTimeout = Math.max(config.timeout_ms, START_TIMEOUT_MS);
    await client.connect(transport, { timeout: startTimeout });
    const { tools } = await client.listTools(undefined, { timeout: startTimeout });
    this.offered = new Map(tools.map((t) => [t.name, { description: t.description, inputSchema: t.inputSchema }]));
    this.client = client;
    this.status = { up: true };
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.status = { up: false, why: 'stopped' };
    await client?.close().catch(() => undefined);
  }
}

/** The Mira tool name of an MCP tool: `<server>__<tool>`, in Mira's tool alphabet. */
export function miraToolName(server: string, tool: string): string {
  return `${server}__${tool.toLowerCase().replace(/[^a-z0-9_]+/g, '_')}`.slice(0, 64);
}

/** An MCP tool result as data for the model: its text, bounded, with a note when cut. */
export function resultText(content: unknown): { text: string; cut: number } {
  const parts: string[] = [];
  for (const item of Array.isArray(content) ? content : []) {
    const c = item as { type?: string; text?: string; resource?: { text?: string; uri?: string } };
    if (c.type === 'text' && typeof c.text === 'string') parts.push(c.text);
    else if (c.type === 'resource' && typeof c.resource?.text === 'string') parts.push(c.resource.text);
    else parts.push(`[${c.type ?? 'unknown'} content omitted]`);
  }
  const all = parts.join('\n');
  const chars = [...all];
  if (chars.length <= MAX_RESULT_CHARS) return { text: all, cut: 0 };
  return { text: chars.slice(0, MAX_RESULT_CHARS).join(''), cut: chars.length - MAX_RESULT_CHARS };
}

const error = (server: string, tool: string, reason: string, message: string): ToolResult => ({
  content: JSON.stringify({ status: 'error', server, tool, reason, error: message }),
  display: `error ${reason}`,
});

/** The plugin: one connection per configured server, its allowed tools registered at start. */
export const mcpToolsPlugin: MiraPlugin<McpToolsConfig> = definePlugin({
  name: PLUGIN_NAME,
  version: '0.1.0',
  configSection: 'mcp_tools',
  configSchema: CONFIG_SCHEMA,
  configValidator,
  setup(kernel, config) {
    const names = config.servers.map((s) => s.name);
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated) {
      throw McpToolsErrors.error('CONFIG_INVALID.serverNamedTwice', { name: repeated });
    }
    const connections = new Map(config.servers.map((s) => [s.name, new McpConnection(s, kernel.log)]));
    /** Mira tool names registered so far, with the server tool each stands for. */
    const registered = new Map<string, string>();

    /**
     * Every allowed tool's strict schema, or the refusal: one tool a server offers with a schema that
     * cannot be made safe and strict keeps that whole server out (the rest of the robot runs).
     */
    const strictSchemas = (connection: McpConnection): Map<string, JsonSchema> => {
      const schemas = new Map<string, JsonSchema>();
      for (const toolName of connection.config.tools) {
        const offered = connection.offered.get(toolName);
        if (!offered) continue;
        try {
          schemas.set(toolName, toStrictSchema(offered.inputSchema));
        } catch (e) {
          if (!(e instanceof NotStrictError)) throw e;
          // What the server named and said is shown escaped and on one line: it may hold anything.
          throw McpToolsErrors.error('SCHEMA_NOT_STRICT', {
            server: printableLine(connection.config.name),
            tool: printableLine(toolName),
            why: printableLine(e.message),
          });
        }
      }
      return schemas;
    };

    /** Registers the allowed tools a connected server offers, with their strict schemas. */
    const registerTools = (connection: McpConnection, strict: ReadonlyMap<string, JsonSchema>) => {
      const { config: server } = connection;
      const missing = server.tools.filter((t) => !connection.offered.has(t));
      if (missing.length > 0)
        kernel.log.warn(`mcp ${server.name}: the server does not offer ${missing.join(', ')} (allowed in the profile)`);
      for (const toolName of server.tools) {
        const offered = connection.offered.get(toolName);
        const name = miraToolName(server.name, toolName);
        if (!offered) continue;
        const source = `${server.name}/${toolName}`;
        if (registered.has(name)) {
          if (registered.get(name) === source) continue; // registered before a restart: the same tool
          throw McpToolsErrors.error('TOOL_NAME_CLASH', {
            server: server.name,
            first: registered.get(name)!,
            second: source,
            name,
          });
        }
        const parameters = strict.get(toolName)!;
        const original = offered.inputSchema;
        kernel.tools.register({
          name,
          description: `${offered.description ?? toolName} (from the MCP server "${server.name}")`.slice(0, 1024),
          kind: 'effect',
          origins: server.origins,
          parameters,
          run: async (args: Record<string, unknown>): Promise<ToolResult> => {
            const client = connection.client;
            if (!client || !connection.status.up) {
              const why = connection.status.up ? 'not connected' : connection.status.why;
              return error(
                server.name,
                toolName,
                'server_unavailable',
                `${why}; restart it with: mcp restart ${server.name}`,
              );
            }
            try {
              const result = await client.callTool(
                { name: toolName, arguments: dropOptionalNulls(args, original) as Record<string, unknown> },
                undefined,
                { timeout: server.timeout_ms },
              );
              const { text, cut } = resultText(result.content);
              const failed = result.isError === true;
              return {
                content: JSON.stringify({
                  status: failed ? 'error' : 'ok',
                  server: server.name,
                  tool: toolName,
                  ...(failed ? { reason: 'tool_error' } : {}),
                  result: text,
                  ...(cut > 0 ? { cut: `the last ${cut} characters were cut (at most ${MAX_RESULT_CHARS})` } : {}),
                }),
                display: failed ? 'error tool_error' : `ok ${[...text].length} chars${cut > 0 ? ' (cut)' : ''}`,
              };
            } catch (e) {
              const message = printableLine((e as Error).message);
              const code = (e as { code?: number }).code;
              if (connection.oversized) {
                return error(
                  server.name,
                  toolName,
                  'result_too_large',
                  `the answer was over ${MAX_MESSAGE_MB} MB, so it was dropped and the server stopped; restart it with: mcp restart ${server.name}`,
                );
              }
              // The SDK's ConnectionClosed: the server died (or closed) with the call in flight. The SDK marks the
              // connection closed (onclose, above) before it fails the calls in flight; a server that answers a
              // JSON-RPC error of its own — -32000 is also the first of the codes servers define — runs on.
              if (!connection.status.up && (code === -32000 || /connection closed/i.test(message))) {
                return error(
                  server.name,
                  toolName,
                  'server_crashed',
                  `the server stopped during the call (${message}); restart it with: mcp restart ${server.name}`,
                );
              }
              if (/timed out|timeout/i.test(message) || code === -32001) {
                return error(server.name, toolName, 'timeout', `no answer within ${server.timeout_ms} ms`);
              }
              if (!connection.status.up)
                return error(
                  server.name,
                  toolName,
                  'server_unavailable',
                  `${message}; restart it with: mcp restart ${server.name}`,
                );
              return error(server.name, toolName, 'call_failed', message);
            }
          },
        });
        registered.set(name, source);
      }
    };

    kernel.commands.register({
      name: 'mcp restart',
      summary: 'Restart the connection to an MCP server (after it stopped or was updated)',
      usage: '<server>',
      args: { min: 1, max: 1 },
      run: async (input, out) => {
        const connection = connections.get(input.args[0]!);
        if (!connection) {
          throw McpToolsErrors.error('CONSOLE_USAGE.noServer', {
            name: input.args[0]!,
            servers: [...connections.keys()].join(', ') || 'none',
          });
        }
        await connection.close();
        try {
          await connection.connect();
          registerTools(connection, strictSchemas(connection));
          out.print(
            `mcp ${connection.config.name}: connected, ${connection.config.tools.filter((t) => connection.offered.has(t)).length} tools`,
          );
        } catch (e) {
          if ((e as MiraError).code === McpToolsErrors.codes.TOOL_NAME_CLASH) throw e;
          await connection.close();
          connection.status = { up: false, why: printableLine((e as Error).message) };
          out.print(`mcp ${connection.config.name}: could not start (${connection.status.why})`);
        }
      },
    });
    kernel.commands.register({
      name: 'mcp status',
      summary: 'The MCP servers, whether each is running, and the tools offered from it',
      run: (_input, out) => {
        if (connections.size === 0) out.print('no MCP servers in this profile');
        for (const c of connections.values()) {
          const tools = c.config.tools.filter((t) => c.offered.has(t)).map((t) => miraToolName(c.config.name, t));
          out.print(
            `${c.config.name}: ${c.status.up ? 'running' : `down (${printableLine(c.status.why)})`}; tools: ${tools.join(', ') || 'none'}`,
          );
        }
      },
    });

    return {
      async start() {
        try {
          for (const connection of connections.values()) {
            let strict: Map<string, JsonSchema>;
            try {
              await connection.connect();
              strict = strictSchemas(connection);
            } catch (e) {
              // One server failing to start, or offering a schema that cannot be made safe and strict,
              // does not keep the others (or Mira) from running.
              await connection.close();
              connection.status = { up: false, why: printableLine((e as Error).message) };
              kernel.log.error(
                `mcp ${connection.config.name}: could not start (${connection.status.why}); its tools are not offered`,
              );
              continue;
            }
            registerTools(connection, strict);
          }
        } catch (error) {
          // Two allowed tools under one Mira name fail start-up; the servers already started are stopped.
          for (const connection of connections.values()) await connection.close();
          throw error;
        }
      },
      async stop() {
        for (const connection of connections.values()) await connection.close();
      },
    };
  },
});

export default mcpToolsPlugin;
