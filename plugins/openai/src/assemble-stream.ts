import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { CognitionErrors, type ModelResponse } from '@mira/core';

/** How long a stream may go without a chunk, and how to give it up. */
export interface StreamIdleLimit {
  /** The longest wait for the next chunk, in ms. */
  readonly idleMs: number;
  /** The server, as the error names it. */
  readonly server: string;
  /** Closes the stream's connection (the SDK's `stream.controller.abort()`). */
  readonly abort: () => void;
}

/**
 * The chunks of `source`, failing with `MIRA_ERR_COGNITION_STREAM_STALLED` (after closing the connection) when the
 * next one takes longer than `idleMs`: a server that stalls mid-answer would otherwise hold the episode for as long
 * as it keeps the connection open, since the request's own timeout ends once the stream has begun.
 */
export async function* withIdleLimit<T>(source: AsyncIterable<T>, limit: StreamIdleLimit): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const next = iterator.next();
    const idle = new Promise<'idle'>((resolve) => (timer = setTimeout(resolve, limit.idleMs, 'idle')));
    const result = await Promise.race([next, idle]).finally(() => clearTimeout(timer));
    if (result === 'idle') {
      // The pending read fails once the connection is closed: that failure is this error's, not another.
      next.catch(() => undefined);
      limit.abort();
      throw CognitionErrors.error('STREAM_STALLED', { server: limit.server, idleMs: limit.idleMs });
    }
    if (result.done) return;
    yield result.value;
  }
}

/**
 * A streamed answer put together; each piece of its text is also given to `onText` as it arrives. With `idle`, a
 * stream that stops arriving fails (see {@link withIdleLimit}) and nothing of it is returned.
 */
export async function assembleStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onText?: (delta: string) => void,
  idle?: StreamIdleLimit,
): Promise<ModelResponse> {
  let text = '';
  let sawText = false;
  let refusal = '';
  let finishReason: string | undefined;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const chunk of idle ? withIdleLimit(stream, idle) : stream) {
    const choice = chunk.choices?.[0];
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    const delta = choice?.delta;
    if (!delta) continue;
    if (typeof delta.refusal === 'string') refusal += delta.refusal;
    if (typeof delta.content === 'string') {
      text += delta.content;
      sawText = true;
      if (delta.content !== '') onText?.(delta.content);
    }
    for (const part of delta.tool_calls ?? []) {
      const call = calls.get(part.index) ?? { id: '', name: '', arguments: '' };
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
      calls.set(part.index, call);
    }
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
  if (toolCalls.some((c) => c.id === '' || c.name === '')) {
    throw CognitionErrors.error('MALFORMED.streamedToolCall');
  }
  return {
    text: sawText ? text : null,
    toolCalls,
    ...(finishReason ? { finishReason } : {}),
    ...(refusal ? { refusal } : {}),
  };
}
