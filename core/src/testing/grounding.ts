import { GROUNDING_HEADER } from '../cognition/prompt.js';

/**
 * A message's content before the runtime's grounding block (all of it when it has none): the operator's
 * words of an opening user message, or a tool's own result.
 *
 * @example
 * withoutGrounding(server.requests[0]!.body.messages.at(-1)!.content!); // 'Who is Ada?'
 */
export function withoutGrounding(content: string): string {
  const at = content.indexOf(`\n\n${GROUNDING_HEADER}\n`);
  return at === -1 ? content : content.slice(0, at);
}

/** The sections of a message's grounding block (what follows its header), or undefined when it has none. */
export function groundingOf(content: string): string | undefined {
  const marker = `\n\n${GROUNDING_HEADER}\n`;
  const at = content.indexOf(marker);
  return at === -1 ? undefined : content.slice(at + marker.length);
}
