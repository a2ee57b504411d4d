import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatMessage } from '@mira/core';

/** A Mira chat message as Chat Completions takes it (a user message's images as content parts). */
export function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls && message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'user':
      if (!message.images || message.images.length === 0) return { role: 'user', content: message.content };
      // Chat Completions' image input: a user message's content parts, the text then each image as a data URL.
      return {
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          ...message.images.map((image) => ({
            type: 'image_url' as const,
            image_url: {
              url: `data:${image.mediaType};base64,${Buffer.from(image.bytes).toString('base64')}`,
              detail: 'low' as const,
            },
          })),
        ],
      };
    default:
      return { role: message.role, content: message.content };
  }
}
