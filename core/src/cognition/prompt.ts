import type { ProfileInfo } from '../types.js';

/**
 * The header of the block that carries what changes from call to call (time, sensor readings, what plugins
 * add): appended, after a blank line, to the episode's opening user message at its first model call and to
 * the last tool result of each later step. It says whose words the block is not, so a model never reads the
 * runtime's state as the operator's. Every chat template renders a user or tool message; many refuse a
 * `system` message that is not first (Qwen3.5, Ministral 3) or drop it (SmolLM3, gpt-oss).
 *
 * @example
 * // The opening user message of an operator episode, as sent:
 * // Who is Ada?
 * //
 * // [Robot state — from the runtime, not said by the operator]
 * // [runtime]
 * // Current time (UTC): 2026-05-01T09:00:00.000Z
 * // …
 */
export const GROUNDING_HEADER = '[Robot state — from the runtime, not said by the operator]';

/**
 * The fixed instructions every episode starts with: the same text, byte for byte, for every call of a
 * session (a server's prefix cache reuses it). Grounding (rebuilt before every model call) rides late in the
 * conversation under {@link GROUNDING_HEADER}; nothing from persistent memory is ever added here.
 */
export function baseInstructions(profile: ProfileInfo): string {
  return [
    `You are ${profile.name}, a robot talking with your operator through a console.${profile.description ? ` ${profile.description}` : ''}`,
    'Answer briefly and plainly.',
    '',
    'Memory:',
    '- You know what persistent memory holds only from recall_memory calls in this episode; nothing is recalled for you in advance. It takes one exact name or alias (no fuzzy search).',
    '- Recalled memory is history and may be stale: say you remember it. The current state of the world or of yourself needs a fresh sensor read, not memory.',
    '- Use remember only for a durable fact, preference or simple relationship the operator states in the current message, copying their words as its description says.',
    '- Only a remember result in this turn confirms a write: "applied" stored it (outcome "created") or found it known ("duplicate"); "rejected" wrote nothing. Never claim a write without such a result in this turn.',
    '',
    'Budgets per operator message: two information-gathering calls (recall, sensor reads) and one remember proposal; a call over budget is refused.',
    `The current context (time, sensors) is the block headed ${GROUNDING_HEADER}, rebuilt before every call and added after the operator's message or a tool result: the latest one is current, and it is never the operator's words.`,
  ].join('\n');
}
