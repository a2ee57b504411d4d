/** What a remember refusal says: its stable reasons, their fixed explanations, and the result the model reads. */
import type { ToolResult } from '@mira/core';
import { notAssertedWhy, type NotAsserted } from './assertion.js';

/** Every stable reason a rejected remember result carries. */
export const REMEMBER_REASONS = [
  'invalid_tool_arguments',
  'invalid_proposal',
  'evidence_not_in_utterance',
  'evidence_not_asserted',
  'value_not_supported',
  'subject_not_supported',
  'subject_not_found',
  'subject_ambiguous',
  'related_fields_incomplete',
  'related_entity_invalid_for_kind',
  'related_entity_not_supported',
  'relationship_value_mismatch',
  'related_entity_not_found',
  'related_entity_ambiguous',
  'conflict',
  'backend_failure',
] as const;

/** One of {@link REMEMBER_REASONS}. */
export type RememberReason = (typeof REMEMBER_REASONS)[number];

/** The JSON result the model receives. It never echoes evidence, values, the utterance or the arguments. */
export type RememberResult =
  | { readonly status: 'applied'; readonly outcome: 'created' | 'duplicate'; readonly memory_id: string }
  | {
      readonly status: 'rejected';
      readonly reason: RememberReason;
      readonly error: string;
      readonly conflicting_memory_ids?: readonly string[];
    };

/** The fixed, bounded explanation per reason; nothing from the proposal is interpolated. */
const EXPLANATIONS: Record<RememberReason, string> = {
  invalid_tool_arguments: 'the arguments do not match the remember schema; nothing was written',
  invalid_proposal:
    'the proposal is malformed (empty, too long, control characters, a bad predicate or role token, or not an operator dialogue turn); nothing was written',
  evidence_not_in_utterance:
    'the evidence is not a whole span of the current operator message; copy the shortest complete clause verbatim from it; nothing was written',
  evidence_not_asserted:
    'the evidence is in a question, or the operator asked not to keep it; only what the operator states is remembered; nothing was written',
  value_not_supported: 'the value does not occur as a whole span in the evidence; nothing was written',
  subject_not_supported: 'the subject does not occur as a whole span in the evidence; nothing was written',
  subject_not_found:
    'no existing entity has exactly the subject as name or alias, and remember cannot create entities; an operator can add one with the memory console; nothing was written',
  subject_ambiguous: 'more than one entity has exactly the subject as name or alias; nothing was written',
  related_fields_incomplete: 'a relationship needs both related_entity and related_role; nothing was written',
  related_entity_invalid_for_kind:
    'facts and preferences take null related_entity and related_role; nothing was written',
  related_entity_not_supported:
    'the related entity does not occur as a whole span in the evidence; nothing was written',
  relationship_value_mismatch: 'for a relationship the related entity must equal the value; nothing was written',
  related_entity_not_found: 'no existing entity has exactly the related entity as name or alias; nothing was written',
  related_entity_ambiguous: 'more than one entity has exactly the related entity as name or alias; nothing was written',
  conflict:
    'persistent memory already holds a different value for this subject and predicate; admission never replaces memory, so nothing was written',
  backend_failure: 'persistent memory could not be written; nothing was written',
};

/**
 * A refusal on its way out of admission (`decide` in remember.ts): a plain value, not an `Error` (a refusal is an
 * answer, not a failure; it needs no stack trace, whose capture was a measurable share of a refusal's cost).
 */
export class Rejection {
  constructor(
    readonly reason: RememberReason,
    readonly conflicting: readonly string[] = [],
    /** What decided, when the reason has more than one cause (which assertion cue). */
    readonly detail?: string,
  ) {}
}

export function reject(reason: RememberReason, conflicting?: readonly string[], detail?: string): never {
  throw new Rejection(reason, conflicting, detail);
}

/** The rejected result of `reason`: its fixed explanation (or `detail`), and the conflicting IDs if any. */
export function rejected(reason: RememberReason, conflicting: readonly string[], detail?: string): RememberResult {
  return {
    status: 'rejected',
    reason,
    error: detail ?? EXPLANATIONS[reason],
    ...(conflicting.length > 0 ? { conflicting_memory_ids: conflicting } : {}),
  };
}

/** Evidence of more than one sentence. */
export const ONE_SENTENCE =
  'the evidence holds more than one sentence; copy the one clause that states it, verbatim; nothing was written';
/** A value of another clause than the subject's. */
export const OTHER_CLAUSE =
  "the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written";

/** Refuses evidence the operator did not assert, naming the cue that decided. */
export function rejectNotAsserted(cue: NotAsserted, utterance: string, names: readonly string[]): never {
  return reject(
    'evidence_not_asserted',
    [],
    `${notAssertedWhy(cue, utterance, names)}; only what the operator states is remembered; nothing was written`,
  );
}

/** Renders a result for the model (JSON) and the operator (one short line). */
export function toToolResult(result: RememberResult): ToolResult {
  const display =
    result.status === 'applied' ? `applied/${result.outcome} ${result.memory_id}` : `rejected ${result.reason}`;
  return { content: JSON.stringify(result), display };
}
