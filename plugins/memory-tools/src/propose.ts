import { loadLanguageIdentifier } from './language-identifier.js';
import {
  isMiraError,
  normalizeDisplay,
  normalizeKey,
  normalizeToken,
  type ProfileInfo,
  type ToolArgs,
  type ToolDefinition,
  type ToolResult,
  type ToolSchema,
} from '@mira/core';
import {
  MAX_UTTERANCE_LENGTH,
  MemoryErrorCodes,
  PRONOUNS,
  parseMemoryRef,
  supersedableSlot,
  type Entity,
  type MemoryStore,
} from '@mira/memory-contract';
import { notAsserted, notAssertedWhy } from './assertion.js';
import { describeFailure, type FailureLog } from './recall.js';
import { MAX_EVIDENCE_LENGTH, MAX_FIELD_LENGTH, matchField } from './proposal-fields.js';
import { SELF_REFERENCES } from './remember.js';
import { attribute, oneSentence } from './attribution.js';
import { findWholeSpan, toMatchText, wholeSpans, type MatchText } from './span-match.js';

/** Every stable reason a rejected proposal carries. */
export const PROPOSE_REASONS = [
  'invalid_tool_arguments',
  'invalid_proposal',
  'evidence_not_in_utterance',
  'evidence_not_asserted',
  'name_not_supported',
  'value_not_supported',
  'subject_not_supported',
  'entity_exists',
  'memory_not_found',
  'memory_not_supersedable',
  'value_unchanged',
  'backend_failure',
] as const;

/** One of {@link PROPOSE_REASONS}. */
export type ProposeReason = (typeof PROPOSE_REASONS)[number];

/** What `propose_entity` receives: what its schema admits. */
export type EntityProposalArgs = ToolArgs<typeof PROPOSE_ENTITY_PARAMETERS>;

/** What `propose_supersede` receives: what its schema admits. */
export type SupersedeProposalArgs = ToolArgs<typeof PROPOSE_SUPERSEDE_PARAMETERS>;

/** What the model receives. Nothing from the proposal or the utterance is echoed. */
export type ProposeResult =
  | { readonly status: 'pending'; readonly proposal_id: string; readonly note: string }
  | {
      readonly status: 'rejected';
      readonly reason: ProposeReason;
      readonly error: string;
      /** entity_exists only: the entity that already has the name. */
      readonly entity_id?: string;
    };

/** Told to the model with every pending result: nothing is applied until the operator accepts. */
export const PENDING_NOTE =
  'not applied: the proposal awaits the operator, who accepts or rejects it in the console or the Mind view; do not say it is remembered';

const EXPLANATIONS: Record<ProposeReason, string> = {
  invalid_tool_arguments: 'the arguments do not match the schema; nothing was proposed',
  invalid_proposal:
    'the proposal is malformed (empty, too long, control characters, a bad token or memory ID, or not an operator dialogue turn); nothing was proposed',
  evidence_not_in_utterance:
    'the evidence is not a whole span of the current operator message; copy the shortest complete clause verbatim from it; nothing was proposed',
  evidence_not_asserted:
    'the evidence is in a question, or the operator asked not to keep it; only what the operator states can be proposed; nothing was proposed',
  name_not_supported: 'the name does not occur as a whole span in the evidence; nothing was proposed',
  value_not_supported: 'the value does not occur as a whole span in the evidence; nothing was proposed',
  subject_not_supported:
    "the evidence does not name the memory's subject (its name, an alias, or you for yourself); nothing was proposed",
  entity_exists: 'an entity already has exactly this name or alias; use it instead; nothing was proposed',
  memory_not_found: 'there is no memory with that ID; nothing was proposed',
  memory_not_supersedable: 'only an active fact or preference can be superseded; nothing was proposed',
  value_unchanged: 'the memory already holds this value; nothing was proposed',
  backend_failure: 'persistent memory could not be written; nothing was proposed',
};

class Rejection extends Error {
  constructor(
    readonly reason: ProposeReason,
    readonly entityId?: string,
    /** What decided, when the reason has more than one cause (which assertion cue). */
    readonly detail?: string,
  ) {
    super(reason);
  }
}

function reject(reason: ProposeReason, entityId?: string, detail?: string): never {
  throw new Rejection(reason, entityId, detail);
}

/** Renders a result for the model (JSON) and the operator (one short line). */
export function toProposeResult(result: ProposeResult): ToolResult {
  const display =
    result.status === 'pending'
      ? `pending ${result.proposal_id}: accept with "memory accept ${result.proposal_id}"`
      : `rejected ${result.reason}${result.entity_id ? ` ${result.entity_id}` : ''}`;
  return { content: JSON.stringify(result), display };
}

function field(text: string, max: number): MatchText {
  return matchField(text, max) ?? reject('invalid_proposal');
}

/** The evidence as a whole, asserted span of the utterance, in the operator's own wording. */
function groundedClause(utterance: string | undefined, evidenceText: string, predicate?: string): MatchText {
  if (utterance === undefined) reject('invalid_proposal');
  const spoken = toMatchText(utterance);
  if (!spoken) reject('invalid_proposal');
  // Measured as the store measures it (white space collapsed).
  if ([...normalizeDisplay(utterance, 'utterance')].length > MAX_UTTERANCE_LENGTH) {
    reject(
      'invalid_proposal',
      undefined,
      `the operator's message is over ${MAX_UTTERANCE_LENGTH.toLocaleString('en')} characters, more than a proposal keeps; ask the operator to state it in a shorter message; nothing was proposed`,
    );
  }
  const evidence = field(evidenceText, MAX_EVIDENCE_LENGTH);
  const span = findWholeSpan(spoken, evidence);
  if (!span) reject('evidence_not_in_utterance');
  const cue = notAsserted(utterance, span, predicate);
  if (cue)
    reject(
      'evidence_not_asserted',
      undefined,
      `${notAssertedWhy(cue, utterance)}; only what the operator states can be proposed; nothing was proposed`,
    );
  const clause = toMatchText(utterance.slice(span[0], span[1]))!;
  if (!oneSentence(clause)) {
    reject(
      'invalid_proposal',
      undefined,
      'the evidence holds more than one sentence; copy the one clause that states it, verbatim; nothing was proposed',
    );
  }
  return clause;
}

async function settle(run: () => Promise<ProposeResult>, log: FailureLog, tool: string): Promise<ProposeResult> {
  try {
    // The identifier that tells a language without rules, loaded by the first proposal (see its module).
    await loadLanguageIdentifier();
    return await run();
  } catch (error) {
    if (error instanceof Rejection) {
      return {
        status: 'rejected',
        reason: error.reason,
        error: error.detail ?? EXPLANATIONS[error.reason],
        ...(error.entityId ? { entity_id: error.entityId } : {}),
      };
    }
    log(`${tool}: persistent memory could not be written: ${describeFailure(error)}`);
    return { status: 'rejected', reason: 'backend_failure', error: EXPLANATIONS.backend_failure };
  }
}

const pending = (ref: string): ProposeResult => ({ status: 'pending', proposal_id: ref, note: PENDING_NOTE });

/** Decides a `propose_entity` call against the current operator utterance and the store. */
export function proposeEntity(
  store: MemoryStore,
  utterance: string | undefined,
  args: EntityProposalArgs,
  log: FailureLog,
): Promise<ProposeResult> {
  return settle(
    async () => {
      const clause = groundedClause(utterance, args.evidence);
      const name = field(args.name, MAX_FIELD_LENGTH);
      let entityType: string;
      try {
        entityType = normalizeToken(args.entity_type);
      } catch {
        return reject('invalid_proposal');
      }
      const nameSpan = findWholeSpan(clause, name, { particles: true, name: true });
      if (!nameSpan) reject('name_not_supported');
      if (PRONOUNS.has(normalizeKey(args.name))) {
        reject(
          'invalid_proposal',
          undefined,
          'the name is a pronoun (you, me, we…), which means whoever speaks or is spoken to, not one entity (you is the robot itself); nothing was proposed',
        );
      }
      const existing = await store.findEntityIds(args.name);
      if (existing.length > 0) reject('entity_exists', `ENT${existing[0]}`);
      try {
        const proposal = await store.createProposal({
          kind: 'entity',
          entityType,
          // The operator's own wording of the name, not the model's.
          name: normalizeDisplay(clause.original.slice(nameSpan[0], nameSpan[1])),
          evidence: normalizeDisplay(clause.original),
          utterance: utterance!,
        });
        return pending(proposal.ref);
      } catch (error) {
        // Another process added the entity since the lookup.
        if (isMiraError(error, MemoryErrorCodes.ENTITY_EXISTS)) {
          const [id] = await store.findEntityIds(args.name);
          return reject('entity_exists', id === undefined ? undefined : `ENT${id}`);
        }
        throw error;
      }
    },
    log,
    'propose_entity',
  );
}

/**
 * Where the clause names `entity`: by its name, an alias, or, when it is the robot itself, a
 * self-reference: the robot is the one entity the profile's name resolves to (as a name or an alias),
 * exactly as `remember` resolves `you`.
 */
async function subjectSpans(
  store: MemoryStore,
  clause: MatchText,
  entity: Entity,
  profile: ProfileInfo,
): Promise<Array<readonly [number, number]>> {
  const spansOf = (words: readonly string[]) =>
    words.flatMap((word) => wholeSpans(clause, toMatchText(word)!, { particles: true, name: true }));
  const named = spansOf([entity.canonicalName, ...entity.aliases.map((a) => a.alias)]);
  const selfWords = spansOf([...SELF_REFERENCES]);
  if (selfWords.length === 0) return named;
  const self = await store.findEntityIds(profile.name);
  return self.length === 1 && self[0] === entity.id ? [...named, ...selfWords] : named;
}

/** Decides a `propose_supersede` call against the current operator utterance and the store. */
export function proposeSupersede(
  store: MemoryStore,
  profile: ProfileInfo,
  utterance: string | undefined,
  args: SupersedeProposalArgs,
  log: FailureLog,
): Promise<ProposeResult> {
  return settle(
    async () => {
      let memoryId: number;
      try {
        memoryId = parseMemoryRef(args.memory_id);
      } catch {
        return reject('invalid_proposal');
      }
      const value = field(args.value, MAX_FIELD_LENGTH);
      const memory = await store.getMemory(memoryId);
      const clause = groundedClause(utterance, args.evidence, memory?.predicate ?? undefined);
      const valueSpans = wholeSpans(clause, value, { particles: true });
      const valueSpan = valueSpans[0];
      if (!valueSpan) reject('value_not_supported');
      if (!memory) reject('memory_not_found');
      // The stores' own rule for what can be superseded (an active fact or preference with a slot).
      let subjectId: number;
      try {
        subjectId = supersedableSlot(memory, memoryId).slot.entityId;
      } catch {
        return reject('memory_not_supersedable');
      }
      const entity = await store.getEntity(subjectId);
      const named = entity ? await subjectSpans(store, clause, entity, profile) : [];
      if (named.length === 0) reject('subject_not_supported');
      if (attribute(clause, named, valueSpans)) {
        reject(
          'subject_not_supported',
          undefined,
          "the new value is in another clause than the memory's subject (a comma, 'and', 'who'… stands between them); nothing was proposed",
        );
      }
      if (memory.value !== null && toMatchText(memory.value)?.form === value.form) reject('value_unchanged');
      try {
        const proposal = await store.createProposal({
          kind: 'supersede',
          memoryId,
          value: normalizeDisplay(clause.original.slice(valueSpan[0], valueSpan[1])),
          evidence: normalizeDisplay(clause.original),
          utterance: utterance!,
        });
        return pending(proposal.ref);
      } catch (error) {
        // Superseded or changed by another process since it was read.
        if (isMiraError(error, MemoryErrorCodes.NOT_SUPERSEDABLE)) return reject('memory_not_supersedable');
        throw error;
      }
    },
    log,
    'propose_supersede',
  );
}

const TEXT = (description: string) => ({ type: 'string', description }) as const;

/** The strict parameter schema of `propose_entity`. */
export const PROPOSE_ENTITY_PARAMETERS = {
  type: 'object',
  properties: {
    entity_type: TEXT('A simple type identifier: person, place, object, organisation, animal, …'),
    name: TEXT('The name exactly as written in the evidence.'),
    evidence: TEXT('The shortest complete clause, copied verbatim from the current operator message.'),
  },
  required: ['entity_type', 'name', 'evidence'],
  additionalProperties: false,
} as const satisfies ToolSchema;

/** The strict parameter schema of `propose_supersede`. */
export const PROPOSE_SUPERSEDE_PARAMETERS = {
  type: 'object',
  properties: {
    memory_id: TEXT('The MEM<n> of the active fact or preference the operator says has changed.'),
    value: TEXT('The new value exactly as written in the evidence.'),
    evidence: TEXT(
      "The shortest complete clause, copied verbatim from the current operator message, naming the memory's subject and the new value.",
    ),
  },
  required: ['memory_id', 'value', 'evidence'],
  additionalProperties: false,
} as const satisfies ToolSchema;

function effectTool<A>(
  name: string,
  description: string,
  parameters: ToolSchema,
  getStore: () => MemoryStore,
  log: FailureLog,
  decide: (store: MemoryStore, utterance: string | undefined, args: A) => Promise<ProposeResult>,
): ToolDefinition<A> {
  const refused = (reason: 'invalid_proposal' | 'backend_failure') =>
    toProposeResult({ status: 'rejected', reason, error: EXPLANATIONS[reason] });
  return {
    name,
    description,
    kind: 'effect',
    origins: ['operator'],
    maxCallsPerEpisode: 1,
    refusalReason: 'invalid_proposal',
    parameters,
    async run(args, { episode }): Promise<ToolResult> {
      if (episode.origin !== 'operator') return refused('invalid_proposal');
      let store: MemoryStore;
      try {
        store = getStore();
      } catch (error) {
        log(`${name}: persistent memory is not available: ${describeFailure(error)}`);
        return refused('backend_failure');
      }
      return toProposeResult(await decide(store, episode.utterance, args));
    },
  };
}

/** `propose_entity`: offered only in operator dialogue episodes, at most once per episode. */
export function proposeEntityTool(getStore: () => MemoryStore, log: FailureLog): ToolDefinition<EntityProposalArgs> {
  return effectTool<EntityProposalArgs>(
    'propose_entity',
    'Propose a new entity (a person, place or thing the operator introduces in the current message) that persistent memory does not know yet. ' +
      'The operator must accept it before it exists: the result is pending, never applied, so do not say it is remembered; tell the operator it awaits their accept. ' +
      'Only what the operator states counts, not a question, hedge or condition.',
    PROPOSE_ENTITY_PARAMETERS,
    getStore,
    log,
    (store, utterance, args) => proposeEntity(store, utterance, args, log),
  );
}

/** `propose_supersede`: offered only in operator dialogue episodes, at most once per episode. */
export function proposeSupersedeTool(
  getStore: () => MemoryStore,
  profile: ProfileInfo,
  log: FailureLog,
): ToolDefinition<SupersedeProposalArgs> {
  return effectTool<SupersedeProposalArgs>(
    'propose_supersede',
    'When the operator says in the current message that a remembered fact or preference has changed (remember answered conflict), propose the new value in place of that memory (its MEM<n> from recall_memory or the conflict). ' +
      'The operator must accept it: the result is pending, never applied, so do not say it is remembered; tell the operator it awaits their accept.',
    PROPOSE_SUPERSEDE_PARAMETERS,
    getStore,
    log,
    (store, utterance, args) => proposeSupersede(store, profile, utterance, args, log),
  );
}
