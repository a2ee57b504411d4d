import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Application, RegisteredTool } from '@mira/core';
import { fromMcpArguments, mcpTools, serverIdentity, toolListResult } from './tools.js';

/** The streams a server speaks on: by default the process's own stdin and stdout. */
export interface McpStdio {
  /** Requests from the client, one JSON-RPC message a line. */
  readonly stdin: Readable;
  /** Answers to the client: protocol messages only. */
  readonly stdout: Writable;
}

/** How a session ended, when not because the client left: why the server stopped (one line for stderr). */
export interface McpSessionEnd {
  readonly refused?: string;
}

type Message = Record<string, unknown>;
const isObject = (value: unknown): value is Message =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A short JSON-RPC error for a `tools/call` request whose params are not `{ name, arguments? }`, or
 * undefined: the SDK answers those with -32603 and its schema library's multi-line dump of every issue.
 */
function malformedCall(message: unknown): Message | undefined {
  if (!isObject(message) || message.method !== 'tools/call' || !('id' in message)) return undefined;
  const { params } = message;
  const wrong = !isObject(params)
    ? 'params is missing'
    : typeof params.name !== 'string'
      ? 'params.name is not a string'
      : params.arguments !== undefined && !isObject(params.arguments)
        ? 'params.arguments is not an object'
        : undefined;
  if (!wrong) return undefined;
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: ErrorCode.InvalidParams, message: `tools/call needs params {"name", "arguments"}: ${wrong}` },
  };
}

/**
 * Serves a profile's memory to other agents over MCP on stdio: stdout carries protocol messages
 * only (log lines go to stderr). `booting` may still be starting: the handshake (`initialize`, whose
 * answer is the same for every profile) is answered at once, and requests for tools wait for it.
 * Resolves when the client disconnects (its stdin ends, or ended before); rejects with the boot's error
 * when it fails (each waiting request has been answered with it), and says why it stopped when it refused
 * the client (a message over 10 MiB). `stdio` replaces the process's own
 * streams (`mira mcp` passes what follows the messages it answered before this module loaded).
 */
export async function serveMcp(
  booting: Application | Promise<Application>,
  version: string,
  stdio: McpStdio = { stdin: process.stdin, stdout: process.stdout },
): Promise<McpSessionEnd> {
  const ready = Promise.resolve(booting);
  let offered: Map<string, RegisteredTool> | undefined;
  const toolsOf = async () => (offered ??= new Map(mcpTools(await ready).map((t) => [t.tool.name, t])));
  const { serverInfo, capabilities } = serverIdentity(version);
  const server = new Server({ ...serverInfo }, { capabilities: { ...capabilities } });
  let episode = 0;
  server.setRequestHandler(ListToolsRequestSchema, async () => toolListResult((await toolsOf()).values()));
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
      // The result's image goes back to the agent as image content.
      seesImages: true,
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
  const { stdin, stdout } = stdio;
  const transport = new StdioServerTransport(stdin, stdout);
  const closed = new Promise<void>((resolve) => (transport.onclose = () => resolve()));
  // A client that left before this server started has ended stdin already: no 'end' comes.
  const ended = new Promise<void>((resolve) => (stdin.readableEnded ? resolve() : stdin.once('end', () => resolve())));
  // The SDK's transport refuses a message over its 10 MiB buffer by closing, and tells only onerror.
  let refused: string | undefined;
  server.onerror = (error) => {
    if (/exceeded maximum size/.test(error.message))
      refused = `a message from the client was over 10 MiB (${error.message}); the session is closed`;
  };
  await server.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    const refusal = malformedCall(message);
    if (refusal) void transport.send(refusal as JSONRPCMessage);
    else deliver?.(message);
  };
  try {
    await Promise.race([
      closed,
      ended,
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
  return refused === undefined ? {} : { refused };
}
