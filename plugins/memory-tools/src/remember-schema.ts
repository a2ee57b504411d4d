/** What the model proposes to `remember`: the tool's strict parameter schema, and the proposal it admits. */
import type { ToolArgs, ToolSchema } from '@mira/core';

/** The proposal the model makes: what {@link REMEMBER_PARAMETERS} admits (every property required). */
export type RememberProposal = ToolArgs<typeof REMEMBER_PARAMETERS>;

/** The strict parameter schema of `remember`. */
export const REMEMBER_PARAMETERS = {
  type: 'object',
  properties: {
    kind: {
      type: 'string',
      enum: ['fact', 'preference', 'relationship'],
      description: 'fact, preference, or relationship',
    },
    subject: {
      type: 'string',
      description:
        'The subject exactly as written in the current operator message (a known entity name or alias, or you/your/yours/yourself for you).',
    },
    predicate: { type: 'string', description: 'A concise stable identifier, e.g. prefers, lives_in, works_with.' },
    value: {
      type: 'string',
      description: 'The value exactly as written in the evidence; for a relationship, the related entity.',
    },
    evidence: {
      type: 'string',
      description: 'The shortest complete clause, copied verbatim from the current operator message.',
    },
    related_entity: {
      type: ['string', 'null'],
      description: 'Relationships only: the related known entity as written; otherwise null.',
    },
    related_role: {
      type: ['string', 'null'],
      description: 'Relationships only: a simple role identifier for the related entity; otherwise null.',
    },
  },
  required: ['kind', 'subject', 'predicate', 'value', 'evidence', 'related_entity', 'related_role'],
  additionalProperties: false,
} as const satisfies ToolSchema;
