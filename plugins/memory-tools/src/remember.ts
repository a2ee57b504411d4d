import {
  isPlainAscii,
  longerThan,
  normalizeDisplay,
  normalizeToken,
  type ProfileInfo,
  type ToolArgs,
  type ToolDefinition,
  type ToolSchema,
  type ToolResult,
} from '@mira/core';
import { OPERATOR_STATEMENT_SOURCE, type MemoryStore, type SlotDecision, type SlotMemory } from '@mira/memory-contract';
import { blankNames, notAssertedBlanked, notAssertedWhy, type NotAsserted } from './assertion.js';
import { attribute, clauseRulesFor } from './attribution.js';
import {
  DIRECTION_MARK,
  findWholeSpan,
  toMatchText,
  wholeSpans,
  withoutDirectionMarks,
  type MatchText,
} from './span-match.js';
import { describeFailure, type FailureLog } from './recall.js';

/** The `source_kind` the runtime gives every admitted memory. */
export const OPERATOR_STATEMENT = OPERATOR_STATEMENT_SOURCE;
/** Longest evidence clause, in characters. */
export const MAX_EVIDENCE_LENGTH = 280;
/** Longest subject, value or related-entity query, in characters. */
export const MAX_FIELD_LENGTH = 256;
/** Most conflicting memory IDs a result lists. */
export const MAX_CONFLICT_IDS = 5;

/** Subject references that denote the runtime self in an operator dialogue turn. */
export const SELF_REFERENCES: ReadonlySet<string> = new Set(['you', 'your', 'yours', 'yourself']);

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

/** The proposal the model makes: what {@link REMEMBER_PARAMETERS} admits (every property required). */
export type RememberProposal = ToolArgs<typeof REMEMBER_PARAMETERS>;

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
 * A refusal on its way out of {@link decide}: a plain value, not an `Error` (a refusal is an answer, not a
 * failure; it needs no stack trace, whose capture was a measurable share of a refusal's cost).
 */
class Rejection {
  constructor(
    readonly reason: RememberReason,
    readonly conflicting: readonly string[] = [],
    /** What decided, when the reason has more than one cause (which assertion cue). */
    readonly detail?: string,
  ) {}
}

function reject(reason: RememberReason, conflicting?: readonly string[], detail?: string): never {
  throw new Rejection(reason, conflicting, detail);
}

/** The rejected result of `reason`: its fixed explanation (or `detail`), and the conflicting IDs if any. */
function rejected(reason: RememberReason, conflicting: readonly string[], detail?: string): RememberResult {
  return {
    status: 'rejected',
    reason,
    error: detail ?? EXPLANATIONS[reason],
    ...(conflicting.length > 0 ? { conflicting_memory_ids: conflicting } : {}),
  };
}

/** Evidence of more than one sentence. */
const ONE_SENTENCE =
  'the evidence holds more than one sentence; copy the one clause that states it, verbatim; nothing was written';
/** A value of another clause than the subject's. */
const OTHER_CLAUSE =
  "the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written";

/** Refuses evidence the operator did not assert, naming the cue that decided. */
function rejectNotAsserted(cue: NotAsserted, utterance: string, names: readonly string[]): never {
  return reject(
    'evidence_not_asserted',
    [],
    `${notAssertedWhy(cue, utterance, names)}; only what the operator states is remembered; nothing was written`,
  );
}

/** A name that another entity's longer name holds at the same place. */
const LONGER_NAME =
  "another known entity's name starts with this one at the same place in the evidence, so the evidence may be about that one; nothing was written";
/** How far past a name's end a longer name is looked for: words after it, and characters in scripts without spaces. */
const LONGER_NAME_WORDS = 3;
const LONGER_NAME_CHARACTERS = 8;
/** Letters joined to a name's end. */
const JOINED_LETTERS = /^[\p{L}\p{M}\p{N}]+/u;
/** The next few words after a name: each a run of separators (space, middle dots, hyphen), then letters. */
const NEXT_WORDS = new RegExp(`^(?:[\\s·・-]+[\\p{L}\\p{M}\\p{N}'’.-]+){1,${LONGER_NAME_WORDS}}`, 'u');
/** One of those words. */
const NEXT_WORD = /[\s·・-]+[\p{L}\p{M}\p{N}'’.-]+/gu;

/**
 * The longer names that begin where the name at `[start, end)` of the clause begins: the name with each of the
 * next few words (Anna → Anna Maria), and with each of the next few letters of the word it ends inside or
 * before (박지 → 박지훈, 张 → 张伟, 田中 → 田中太郎). Each is longer than the one before.
 */
export function longerNames(clause: MatchText, [start, end]: readonly [number, number]): string[] {
  const text = clause.original;
  const names: string[] = [];
  // Letters joined to the name (no space between): each prefix of that run.
  const joined = JOINED_LETTERS.exec(text.slice(end))?.[0] ?? '';
  let at = end;
  for (const character of Array.from(joined).slice(0, LONGER_NAME_CHARACTERS)) {
    at += character.length;
    names.push(text.slice(start, at));
  }
  // Whole words after it.
  let next = end + joined.length;
  for (const word of NEXT_WORDS.exec(text.slice(next))?.[0].match(NEXT_WORD) ?? []) {
    next += word.length;
    names.push(text.slice(start, next));
  }
  return names;
}

/**
 * The longer names that begin where the name begins at each of `spans` ({@link longerNames}), up to the first
 * that is longer than any name can be (the store refuses to look such a text up).
 */
function longerCandidates(clause: MatchText, spans: ReadonlyArray<readonly [number, number]>): string[] {
  const longer: string[] = [];
  for (const span of spans) {
    const names = longerNames(clause, span);
    // Each name holds the one before it, and a text's matching form never shrinks as text is added to it
    // (what NFKC composes stays one character): when the longest fits, all do.
    // Stryker disable next-line ConditionalExpression: equivalent, one by one they fit alike
    if (names.length > 0 && fitsField(names[names.length - 1]!)) longer.push(...names);
    else
      for (const candidate of names) {
        if (!fitsField(candidate)) break;
        longer.push(candidate);
      }
  }
  return longer;
}

/**
 * The one entity of a name from what the store found for it (`found`) and for its longer names (`others`):
 * refused when none or several have it, or when it is the beginning of another known entity's name at the
 * same place in the evidence (entities 박지 and 박지훈, "박지훈은 녹차를 좋아해요" proposed for 박지): the
 * shorter name never silently takes what is said of the longer one. A longer name of the same entity (an
 * alias) is no ambiguity.
 */
function resolved(ids: readonly (readonly number[])[], notFound: RememberReason, ambiguous: RememberReason): number {
  const found = ids[0]!;
  if (found.length === 0) reject(notFound);
  if (found.length > 1) reject(ambiguous);
  const id = found[0]!;
  for (let i = 1; i < ids.length; i += 1) if (ids[i]!.some((other) => other !== id)) reject(ambiguous, [], LONGER_NAME);
  return id;
}

/**
 * Resolves `name` ({@link resolved}) with its longer names at `spans` in one store call: one round trip to a
 * fleet server, as the name alone took. With no spans (the robot's own name for "you") only the name counts.
 */
async function resolveNamed(
  store: MemoryStore,
  name: string,
  clause: MatchText,
  spans: ReadonlyArray<readonly [number, number]>,
  notFound: RememberReason,
  ambiguous: RememberReason,
): Promise<number> {
  return resolved(await store.findEntityIdsOfEach([name, ...longerCandidates(clause, spans)]), notFound, ambiguous);
}

/** Renders a result for the model (JSON) and the operator (one short line). */
export function toToolResult(result: RememberResult): ToolResult {
  const display =
    result.status === 'applied' ? `applied/${result.outcome} ${result.memory_id}` : `rejected ${result.reason}`;
  return { content: JSON.stringify(result), display };
}

/** A proposal field in matching form, or undefined when it is empty, too long or holds a forbidden character. */
export function matchField(text: string, max: number): MatchText | undefined {
  const match = toMatchText(text);
  return !match || match.form === '' || longerThan(match.form, max) ? undefined : match;
}

/**
 * Whether {@link matchField} takes `text` as a field: plain ASCII no longer than a field, and not all white
 * space, is one (its matching form is never longer than itself), answered without building the form.
 */
function fitsField(text: string): boolean {
  return (
    // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: equivalent, names are never blank
    (isPlainAscii(text) && text.trim() !== '' && text.length <= MAX_FIELD_LENGTH) ||
    matchField(text, MAX_FIELD_LENGTH) !== undefined
  );
}

function field(text: string, max: number): MatchText {
  return matchField(text, max) ?? reject('invalid_proposal');
}

function token(text: string): string {
  try {
    return normalizeToken(text);
  } catch {
    return reject('invalid_proposal');
  }
}

const linkSet = (links: ReadonlyArray<{ entityId: number; role: string }>) =>
  links
    .map((l) => `${l.entityId}:${l.role}`)
    .sort()
    .join(',');

/**
 * Decides one remember proposal against the current operator utterance and
 * the store. Writes at most one memory (one transaction) and never updates,
 * deletes or reconciles anything.
 */
export async function admit(
  store: MemoryStore,
  profile: ProfileInfo,
  utterance: string | undefined,
  proposal: RememberProposal,
  log: FailureLog = (message) => process.stderr.write(`mira: ${message}\n`),
): Promise<RememberResult> {
  try {
    return await decide(store, profile, utterance, proposal);
  } catch (error) {
    if (error instanceof Rejection) return rejected(error.reason, error.conflicting, error.detail);
    log(`remember: persistent memory could not be written: ${describeFailure(error)}`);
    return rejected('backend_failure', []);
  }
}

async function decide(
  store: MemoryStore,
  profile: ProfileInfo,
  said: string | undefined,
  proposed: RememberProposal,
): Promise<RememberResult> {
  if (said === undefined) reject('invalid_proposal');
  // The implicit direction marks a Hebrew or Arabic keyboard types around a name (LRM, RLM, ALM) say only which
  // way the text runs: they are set aside in the operator's words and the proposal alike, so a name beside one is
  // the name (דני‏ is דני). Every other bidi control is still refused below.
  const utterance = withoutDirectionMarks(said);
  const proposal = hasDirectionMarks(proposed) ? markless(proposed) : proposed;
  const spoken = toMatchText(utterance);
  if (!spoken) reject('invalid_proposal');
  const evidence = field(proposal.evidence, MAX_EVIDENCE_LENGTH);
  const value = field(proposal.value, MAX_FIELD_LENGTH);
  const subject = field(proposal.subject, MAX_FIELD_LENGTH);
  const predicate = token(proposal.predicate);
  const isRelationship = proposal.kind === 'relationship';

  const span = findWholeSpan(spoken, evidence);
  if (!span) reject('evidence_not_in_utterance');
  // The names the proposal gives are names, never words the rules read (the robot's own "you" is a word). Each
  // is read in matching form once, and blanked in the utterance once, for every rule that reads it.
  const names: string[] = [];
  const nameForms: MatchText[] = [];
  for (const [name, form] of [
    [proposal.subject, subject],
    [proposal.related_entity ?? '', undefined],
  ] as const) {
    if (name.trim() === '') continue;
    const match = form ?? toMatchText(name);
    if (match !== undefined && SELF_REFERENCES.has(match.form)) continue;
    names.push(name);
    if (match !== undefined) nameForms.push(match);
  }
  const cue = notAssertedBlanked(blankNames(spoken, nameForms), span, predicate);
  if (cue) rejectNotAsserted(cue, utterance, names);
  // From here on the evidence is the operator's own wording of that span (most often the evidence itself).
  const wording = utterance.slice(span[0], span[1]);
  // Stryker disable next-line ConditionalExpression: equivalent, the same text gives the same matching form
  const clause = wording === evidence.original ? evidence : toMatchText(wording)!;
  // A relationship's value is its related entity's name: found by the one rule for a name wherever it stands
  // (a Chinese name between Han characters, a name with a Korean particle), as the related entity is below.
  // The clause's language (its names blanked, never words) says what it writes onto a name or value inside a
  // word (Swedish Elsas, Turkish mantıya).
  const clauseRules = clauseRulesFor(blankNames(clause, nameForms));
  const { wordEndings } = clauseRules;
  const valueSpans = wholeSpans(clause, value, { particles: true, name: isRelationship, wordEndings });
  const valueSpan = valueSpans[0];
  if (!valueSpan) reject('value_not_supported');
  const subjectSpans = wholeSpans(clause, subject, { particles: true, name: true, wordEndings });
  if (subjectSpans.length === 0) reject('subject_not_supported');
  const attribution = attribute(clause, subjectSpans, valueSpans, clauseRules);
  if (attribution === 'not_one_sentence') reject('invalid_proposal', [], ONE_SENTENCE);
  if (attribution) reject('subject_not_supported', [], OTHER_CLAUSE);
  // The subject and its slot in one read (one round trip to a fleet server): the slot is decided on below
  // (a relationship's related entity is looked up in between; a write is checked against the slot as it
  // is then, as every write is).
  const named = SELF_REFERENCES.has(subject.form)
    ? await store.findNamedSlot([profile.name], 'subject', predicate)
    : await store.findNamedSlot([proposal.subject, ...longerCandidates(clause, subjectSpans)], 'subject', predicate);
  const subjectId = resolved(named.ids, 'subject_not_found', 'subject_ambiguous');

  const links = [{ entityId: subjectId, role: 'subject' }];
  if (isRelationship) {
    const given = (v: string | null) => v !== null && v.trim() !== '';
    if (!given(proposal.related_entity) || !given(proposal.related_role)) reject('related_fields_incomplete');
    const related = field(proposal.related_entity!, MAX_FIELD_LENGTH);
    const role = token(proposal.related_role!);
    if (role === 'subject') reject('invalid_proposal');
    const relatedSpans = wholeSpans(clause, related, { particles: true, name: true, wordEndings });
    if (relatedSpans.length === 0) reject('related_entity_not_supported');
    if (related.form !== value.form) reject('relationship_value_mismatch');
    const relatedId = await resolveNamed(
      store,
      proposal.related_entity!,
      clause,
      relatedSpans,
      'related_entity_not_found',
      'related_entity_ambiguous',
    );
    links.push({ entityId: relatedId, role });
  } else if (proposal.related_entity !== null || proposal.related_role !== null) {
    reject('related_entity_invalid_for_kind');
  }

  // Built at the first comparison: a conflict compares no links.
  let wanted: string | undefined;
  const sameLinks = (m: SlotMemory) => linkSet(m.links) === (wanted ??= linkSet(links));
  // Built only for a write: most decisions are answered from the slot.
  const toCreate = () => {
    const summary = normalizeDisplay(clause.original);
    return {
      kind: proposal.kind,
      summary,
      predicate,
      value: normalizeDisplay(clause.original.slice(valueSpan[0], valueSpan[1])),
      sourceKind: OPERATOR_STATEMENT,
      sourceLabel: null,
      confidence: null,
      links,
      payloadText: summary,
    };
  };
  // The slot check and the write are one transaction: another process cannot admit in between.
  const outcome = await store.admitToSlot<SlotAnswer>(
    { entityId: subjectId, role: 'subject', predicate },
    (existing): SlotDecision<SlotAnswer> => {
      if (isRelationship) {
        const duplicate = existing.find((m) => m.kind === 'relationship' && sameLinks(m));
        return duplicate ? { answer: { duplicate: duplicate.ref } } : { create: toCreate() };
      }
      // Facts and preferences share one slot per subject and predicate.
      const slot = existing.filter((m) => m.kind === 'fact' || m.kind === 'preference');
      const sameValue = slot.map((m) => m.value !== null && toMatchText(m.value)?.form === value.form);
      const duplicate = slot.find((m, i) => sameValue[i] && sameLinks(m));
      if (duplicate) return { answer: { duplicate: duplicate.ref } };
      const conflicting = slot.filter((_, i) => !sameValue[i]);
      if (conflicting.length > 0)
        return { answer: { conflict: conflicting.slice(0, MAX_CONFLICT_IDS).map((m) => m.ref) } };
      return { create: toCreate() };
    },
    named.read,
  );
  if ('created' in outcome) return { status: 'applied', outcome: 'created', memory_id: outcome.created.ref };
  if ('duplicate' in outcome.answer)
    return { status: 'applied', outcome: 'duplicate', memory_id: outcome.answer.duplicate };
  // Returned, not thrown: a conflict is the common refusal after a store read, and a rejection thrown out
  // of an async function travels as a rejected promise, a measurable share of the refusal's cost.
  return rejected('conflict', outcome.answer.conflict);
}

/** Whether a proposal's text holds an implicit direction mark ({@link withoutDirectionMarks}). */
const hasDirectionMarks = (p: RememberProposal) =>
  [p.evidence, p.value, p.subject, p.related_entity ?? ''].some((text) => DIRECTION_MARK.test(text));
/** The proposal with its names, value and evidence without implicit direction marks. */
const markless = (p: RememberProposal): RememberProposal => ({
  ...p,
  evidence: withoutDirectionMarks(p.evidence),
  value: withoutDirectionMarks(p.value),
  subject: withoutDirectionMarks(p.subject),
  related_entity: p.related_entity === null ? null : withoutDirectionMarks(p.related_entity),
});

/** What the slot says when nothing is written. */
type SlotAnswer = { readonly duplicate: string } | { readonly conflict: string[] };

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

/** The `remember` effect tool: offered only in operator dialogue episodes, at most once per episode. */
export function rememberTool(
  getStore: () => MemoryStore,
  profile: ProfileInfo,
  log: FailureLog,
): ToolDefinition<RememberProposal> {
  return {
    name: 'remember',
    description:
      'Propose one durable fact, preference, or simple relationship that the operator states in the current message about an entity that already exists. ' +
      'The runtime admits it only if the evidence is in the current message, and its result is the only confirmation of a write. ' +
      'Only what the operator asserts counts: not a question, not a hedge (maybe, perhaps, probably, might, I think, I wonder), ' +
      'not a condition (if, unless, suppose, imagine), not what someone else says or claims, not what the operator asks you not to keep. ' +
      'For a negated statement ("Ada does not eat fish") use a predicate with the not_ prefix (not_eats). ' +
      'If the operator only hints, ask them to state the fact plainly instead of proposing it.',
    kind: 'effect',
    origins: ['operator'],
    maxCallsPerEpisode: 1,
    refusalReason: 'invalid_proposal',
    parameters: REMEMBER_PARAMETERS,
    async run(proposal, { episode }): Promise<ToolResult> {
      if (episode.origin !== 'operator') return toToolResult(rejected('invalid_proposal', []));
      let store: MemoryStore;
      try {
        store = getStore();
      } catch (error) {
        log(`remember: persistent memory is not available: ${describeFailure(error)}`);
        return toToolResult(rejected('backend_failure', []));
      }
      return toToolResult(await admit(store, profile, episode.utterance, proposal, log));
    },
  };
}
