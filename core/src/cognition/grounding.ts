/**
 * The changing grounding as the engine sends it: a block after the newest message's content (the operator's
 * words or a tool result), under {@link GROUNDING_HEADER}, never a message of its own (many chat templates
 * refuse or drop a second `system` message).
 */

import type { GroundingSection } from '../tools.js';
import { GROUNDING_HEADER } from './prompt.js';
import type { ChatMessage } from './provider.js';

/**
 * A reading in few tokens: a flat object as `key value, key value` (nested values as JSON), anything else
 * as JSON. The readings are sent again on every call, on the newest message, where no cache reuses them.
 */
export function compactValue(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([key, v]) => `${key} ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

export function renderSection(section: GroundingSection): string {
  return `[${section.source}]\n${section.text}`;
}

/** The changing grounding as the block appended to a message: empty when nothing changes. */
export function groundingBlock(changing: readonly GroundingSection[]): string {
  if (changing.length === 0) return '';
  return `\n\n${GROUNDING_HEADER}\n${changing.map(renderSection).join('\n\n')}`;
}

/** A user or tool message with the grounding block after its content (the operator's words or a result). */
export function withGrounding(message: ChatMessage, block: string): ChatMessage {
  if (block === '' || (message.role !== 'user' && message.role !== 'tool')) return message;
  return { ...message, content: `${message.content}${block}` };
}
