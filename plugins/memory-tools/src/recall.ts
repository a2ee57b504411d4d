import {
  CoreErrorCodes,
  EPISODE_ORIGINS,
  findForbiddenCharacter,
  isMiraError,
  longerThan,
  rejectedResult,
  defineTool,
  type ToolResult,
} from '@mira/core';
import type { Memory, MemoryStore, Recalled } from '@mira/memory-contract';

const INPUT_ERRORS: ReadonlySet<string> = new Set([
  CoreErrorCodes.TEXT_TOO_LONG,
  CoreErrorCodes.TEXT_EMPTY,
  CoreErrorCodes.TEXT_CONTROL_CHARACTER,
]);

/** Most aliases shown per entity; the rest are counted. */
export const MAX_RECALL_ALIASES = 8;

/** Longest query, in characters. */
export const MAX_QUERY_LENGTH = 256;
/** Most entities projected per recall. */
export const MAX_RECALL_ENTITIES = 5;
/** Newest active memories projected per entity. */
export const MAX_MEMORIES_PER_ENTITY = 8;
/** Cap on the rendered text, in characters. */
export const MAX_RECALL_CHARS = 12_000;

const FRAME =
  'Persistent memory recall. This is remembered knowledge from earlier sessions and may be stale relative to present physical reality; describe it as remembered, and use fresh perception for current state.';

const quote = (text: string) => JSON.stringify(text);

function renderMemory(memory: Memory): string {
  const parts = [`  ${memory.ref} ${memory.kind}: ${quote(memory.summary)}`];
  if (memory.predicate)
    parts.push(`predicate=${memory.predicate}${memory.value === null ? '' : ` value=${quote(memory.value)}`}`);
  if (memory.links.length > 0)
    parts.push(`links: ${memory.links.map((l) => `${l.entityRef} ${quote(l.entityName)} (${l.role})`).join(', ')}`);
  parts.push(`source: ${memory.source.kind}`);
  if (memory.confidence !== null) parts.push(`confidence: ${memory.confidence}`);
  parts.push(`recorded ${memory.createdAt}`);
  // Only current memories are shown; one that replaced another says so (its history is in the console).
  if (memory.supersedes !== null) parts.push(`supersedes MEM${memory.supersedes} (the operator accepted the change)`);
  return parts.join('; ');
}

/** Keeps whole lines within the cap and says so when something was cut. */
function cap(lines: readonly string[]): string {
  const full = lines.join('\n');
  if (full.length <= MAX_RECALL_CHARS) return full;
  const note = `[output truncated: the rendering was capped at ${MAX_RECALL_CHARS} characters; later lines are not shown]`;
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    const next = length + line.length + 1;
    if (next + note.length > MAX_RECALL_CHARS) break;
    kept.push(line);
    length = next;
  }
  kept.push(note);
  return kept.join('\n');
}

/**
 * Renders a recall over exact matches, as {@link MemoryStore.recall} reads them with
 * `{ entities: MAX_RECALL_ENTITIES, newest: MAX_MEMORIES_PER_ENTITY }`: at most five entities in entity-ID
 * order, each with its eight newest active memories in ascending ID order, with every truncation stated.
 */
export function renderRecall({ entities: matches, newest }: Recalled): { text: string; display: string } {
  const shown = matches.slice(0, MAX_RECALL_ENTITIES);
  const refs = shown.map((e) => e.ref).join(',');
  const lines = [FRAME];
  if (matches.length === 1) {
    lines.push('Exact match: 1 entity.');
  } else {
    lines.push(
      `Ambiguous: ${matches.length} entities have exactly this name or alias; they are listed in entity-ID order. Do not pick one yourself: ask the operator which is meant, or use what distinguishes them.`,
    );
    if (matches.length > shown.length) {
      lines.push(
        `Entity list truncated: showing the first ${shown.length} of ${matches.length} matches; ${matches.length - shown.length} more not shown.`,
      );
    }
  }
  for (const [i, entity] of shown.entries()) {
    const { memories, total } = newest[i]!;
    // The ID and the memories first: however many aliases an entity has, they come after, bounded.
    lines.push(`${entity.ref} ${entity.entityType} ${quote(entity.canonicalName)}`);
    if (total === 0) lines.push('  no active memories');
    else if (total > memories.length) {
      lines.push(
        `  ${total} active memories; showing the newest ${memories.length} in ascending ID order (${total - memories.length} older not shown)`,
      );
    } else lines.push(`  ${total} active memor${total === 1 ? 'y' : 'ies'}, in ascending ID order`);
    for (const memory of memories) lines.push(renderMemory(memory));
    if (entity.aliases.length > 0) {
      const shownAliases = entity.aliases.slice(0, MAX_RECALL_ALIASES).map((a) => quote(a.alias));
      const more = entity.aliases.length - shownAliases.length;
      lines.push(`  aliases: ${shownAliases.join(', ')}${more > 0 ? ` +${more} more` : ''}`);
    }
  }
  return {
    text: cap(lines),
    display:
      matches.length === 1
        ? `hit ${refs}`
        : `ambiguous ${refs}${matches.length > shown.length ? ` (+${matches.length - shown.length})` : ''}`,
  };
}

/** Where a tool reports the cause of a failure it answers with a stable reason (the runtime's log, stderr). */
export type FailureLog = (message: string) => void;

/** The cause of a failure, with its stack, for the log. */
export const describeFailure = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? error.message) : String(error);

/** The `recall_memory` acquisition tool over `store`. */
export function recallMemoryTool(getStore: () => MemoryStore, log: FailureLog) {
  return defineTool({
    name: 'recall_memory',
    description:
      'Recall persistent memory about one known entity by its exact canonical name or alias (no fuzzy or partial matching). ' +
      'Returns remembered, possibly stale knowledge. Uses one of the two acquisition attempts of this episode.',
    agentDescription:
      "Look up what the robot's long-term memory holds about one entity (a person, place, object …), named " +
      'exactly as it is known: its canonical name or an alias, case and accents aside, never a partial or fuzzy ' +
      'match. Answers each matching entity with its newest active memories (facts, preferences, events, with their ' +
      'IDs, when each was recorded and who said it), or says that none matched or that the name is ambiguous. ' +
      'Read-only; what it returns may be out of date.',
    kind: 'acquisition',
    origins: EPISODE_ORIGINS,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'One exact canonical name or alias, at most 256 characters.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async run({ query }): Promise<ToolResult> {
      if (query.trim() === '')
        return rejectedResult('invalid_query', 'the query is empty; give one exact name or alias');
      if (longerThan(query, MAX_QUERY_LENGTH))
        return rejectedResult(
          'invalid_query',
          `the query is longer than ${MAX_QUERY_LENGTH} characters; give one exact name or alias`,
        );
      if (findForbiddenCharacter(query))
        return rejectedResult('invalid_query', 'the query contains a control character; give one exact name or alias');
      let rendered: { text: string; display: string };
      try {
        // The names and the memories shown in one read: one statement, one round trip to a server.
        const recalled = await getStore().recall(query, {
          entities: MAX_RECALL_ENTITIES,
          newest: MAX_MEMORIES_PER_ENTITY,
        });
        if (recalled.entities.length === 0) {
          return {
            content: `${FRAME}\nMiss: no entity has exactly the name or alias ${quote(query)}. Nothing is remembered under it; there is no fuzzy matching, so do not guess at similar names.`,
            display: 'miss',
          };
        }
        rendered = renderRecall(recalled);
      } catch (error) {
        // A query the store's own rules refuse (longer than 256 characters once NFKC-normalised, an
        // invisible format character) is bad input, not a failing store.
        if (isMiraError(error) && INPUT_ERRORS.has(error.code)) {
          return rejectedResult('invalid_tool_arguments', `the query is not a valid name or alias: ${error.detail}`);
        }
        log(`recall_memory: persistent memory could not be read: ${describeFailure(error)}`);
        return rejectedResult('backend_failure', 'persistent memory could not be read; nothing was recalled');
      }
      return { content: rendered.text, display: rendered.display };
    },
  });
}
