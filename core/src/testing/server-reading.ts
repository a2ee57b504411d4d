/**
 * How the double reads a request and refuses it, as the server it answers as: the error bodies, the history's
 * refusals, and llama-server's build.
 */
import type { ServerResponse } from 'node:http';
import { argumentsParse, type WireMessage } from './model-prompt.js';

/**
 * Which server the double answers as. Where the two differ, each behaviour of the double names its source:
 * llama.cpp's `tools/server/server-common.cpp`, `server-task.cpp`, `server-context.cpp` and
 * `common/chat.cpp` (the bundle node-llama-cpp 3.21.1 ships), and OpenAI's Chat Completions reference.
 */
export type ModelServerFlavor = 'llama-server' | 'openai';

/** What llama-server's `llama_build_info()` reports for the bundled build. */
export const LLAMA_BUILD_INFO = 'b1-5b4ebc5';

/**
 * llama-server's error body (server-common.cpp `format_error_response`): `{error: {code, message, type}}`;
 * OpenAI's: `{error: {message, type, param, code}}`.
 */
export function errorBody(flavor: ModelServerFlavor, status: number, message: string, type?: string, extra = {}) {
  if (flavor === 'openai') {
    return { error: { message, type: type ?? 'invalid_request_error', param: null, code: null, ...extra } };
  }
  const byStatus: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    501: 'not_supported_error',
    503: 'unavailable_error',
  };
  return { error: { code: status, message, type: type ?? byStatus[status] ?? 'server_error', ...extra } };
}

/** Answers `body` as JSON with `status`. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Why the history cannot be read, as the server would say it, or undefined. llama-server parses every
 * assistant tool call's arguments before rendering with a template that takes them as an object, as
 * Qwen2.5's does (`common/chat.cpp` `func_args_not_string`, when `supports_object_arguments`: HTTP 500
 * "Failed to parse tool call arguments as JSON"); OpenAI answers 400 when a tool message answers no call
 * or a call has no tool message.
 */
export function historyError(
  flavor: ModelServerFlavor,
  messages: readonly WireMessage[],
  objectArguments: boolean,
): [number, string] | undefined {
  if (flavor === 'llama-server') {
    if (!objectArguments) return undefined;
    for (const message of messages) {
      for (const call of (message.tool_calls ?? []) as Array<{ function?: { arguments?: unknown } }>) {
        const args = call.function?.arguments;
        if (typeof args === 'string' && !argumentsParse(args)) {
          return [
            500,
            `Failed to parse tool call arguments as JSON: [json.exception.parse_error.101] ${args.slice(0, 40)}`,
          ];
        }
      }
    }
    return undefined;
  }
  for (let i = 0; i < messages.length; i += 1) {
    const calls = (messages[i]!.tool_calls ?? []) as Array<{ id: string }>;
    if (messages[i]!.role === 'tool' && !messages.slice(0, i).some((m) => m.tool_calls)) {
      return [
        400,
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      ];
    }
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j += 1) {
      answered.add(messages[j]!.tool_call_id ?? '');
    }
    const missing = calls.filter((c) => !answered.has(c.id)).map((c) => c.id);
    if (missing.length > 0) {
      return [
        400,
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
      ];
    }
  }
  return undefined;
}
