import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { CognitionErrors, type ModelResponse } from '@mira/core';

/** A streamed answer put together; each piece of its text is also given to `onText` as it arrives. */
export async function assembleStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  onText?: (delta: string) => void,
): Promise<ModelResponse> {
  let text = '';
  let sawText = false;
  let refusal = '';
  let finishReason: string | undefined;
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const chunk of stream) {
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
