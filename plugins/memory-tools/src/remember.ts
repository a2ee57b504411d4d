import { normalizeDisplay, type ProfileInfo, type ToolDefinition, type ToolResult } from '@mira/core';
import {
  OPERATOR_STATEMENT_SOURCE,
  type MemoryStore,
  type SlotDecision,
  type SlotMemory,
  type SlotRead,
} from '@mira/memory-contract';
import { notAssertedBlanked } from './assertion.js';
import { blankNames } from './name-blanking.js';
import { attribute } from './attribution.js';
import { loadLanguageIdentifier } from './language-identifier.js';
import { clauseRulesFor } from './language-reading.js';
import { hasDirectionMarks, markless, withoutDirectionMarks } from './direction-marks.js';
import { longerCandidates, resolved, resolveNamed } from './longer-names.js';
import { field, MAX_EVIDENCE_LENGTH, MAX_FIELD_LENGTH, token } from './proposal-fields.js';
import { describeFailure, type FailureLog } from './recall.js';
import {
  ONE_SENTENCE,
  OTHER_CLAUSE,
  reject,
  rejected,
  rejectNotAsserted,
  Rejection,
  toToolResult,
  type RememberResult,
} from './remember-reasons.js';
import { REMEMBER_PARAMETERS, type RememberProposal } from './remember-schema.js';
import { findWholeSpan, toMatchText, wholeSpans, type MatchText } from './span-match.js';

/** The `source_kind` the runtime gives every admitted memory. */
export const OPERATOR_STATEMENT = OPERATOR_STATEMENT_SOURCE;
/** Most conflicting memory IDs a result lists. */
export const MAX_CONFLICT_IDS = 5;

/** Subject references that denote the runtime self in an operator dialogue turn. */
export const SELF_REFERENCES: ReadonlySet<string> = new Set(['you', 'your', 'yours', 'yourself']);

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

/** A proposal read against the utterance: its fields in matching form, each checked for shape. */
interface ReadProposal {
  readonly utterance: string;
  readonly proposal: RememberProposal;
  readonly spoken: MatchText;
  readonly evidence: MatchText;
  readonly value: MatchText;
  readonly subject: MatchText;
  readonly predicate: string;
  readonly isRelationship: boolean;
}

/** The operator's own wording of the evidence, and where the value and the subject stand in it. */
interface Attributed {
  readonly clause: MatchText;
  readonly valueSpan: readonly [number, number];
  readonly subjectSpans: ReadonlyArray<readonly [number, number]>;
  readonly wordEndings: RegExp | undefined;
}

/** An entity a memory is linked to, in its role. */
type Link = { entityId: number; role: string };

async function decide(
  store: MemoryStore,
  profile: ProfileInfo,
  said: string | undefined,
  proposed: RememberProposal,
): Promise<RememberResult> {
  // The identifier that tells a language without rules, loaded by the first proposal (see its module).
  await loadLanguageIdentifier();
  const read = readProposal(said, proposed);
  const attributed = attributedClause(read);
  const { proposal, subject, predicate } = read;
  const { clause, subjectSpans } = attributed;
  // The subject and its slot in one read (one round trip to a fleet server): the slot is decided on below
  // (a relationship's related entity is looked up in between; a write is checked against the slot as it
  // is then, as every write is).
  const named = SELF_REFERENCES.has(subject.form)
    ? await store.findNamedSlot([profile.name], 'subject', predicate)
    : await store.findNamedSlot([proposal.subject, ...longerCandidates(clause, subjectSpans)], 'subject', predicate);
  const subjectId = resolved(named.ids, 'subject_not_found', 'subject_ambiguous');

  const links: Link[] = [{ entityId: subjectId, role: 'subject' }];
  const related = await relatedLink(store, read, attributed);
  if (related) links.push(related);
  return admitToSlot(store, read, attributed, links, named.read);
}

/** The proposal's fields in matching form, against the utterance, both without implicit direction marks. */
function readProposal(said: string | undefined, proposed: RememberProposal): ReadProposal {
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
  return { utterance, proposal, spoken, evidence, value, subject, predicate, isRelationship };
}

/**
 * The evidence as a span of the utterance the operator asserted, in the operator's own wording, with the value
 * and the subject found in it as one clause says them.
 */
function attributedClause(read: ReadProposal): Attributed {
  const { utterance, proposal, spoken, evidence, value, subject, predicate, isRelationship } = read;
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
  return { clause, valueSpan, subjectSpans, wordEndings };
}

/** A relationship's related entity in its role, checked against the evidence and the store; none otherwise. */
async function relatedLink(
  store: MemoryStore,
  { proposal, value, isRelationship }: ReadProposal,
  { clause, wordEndings }: Attributed,
): Promise<Link | undefined> {
  if (!isRelationship) {
    if (proposal.related_entity !== null || proposal.related_role !== null) reject('related_entity_invalid_for_kind');
    return undefined;
  }
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
  return { entityId: relatedId, role };
}

/** Checks the slot and writes the memory in one transaction: another process cannot admit in between. */
async function admitToSlot(
  store: MemoryStore,
  { proposal, value, predicate, isRelationship }: ReadProposal,
  { clause, valueSpan }: Attributed,
  links: readonly Link[],
  slotRead: SlotRead | undefined,
): Promise<RememberResult> {
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
  const outcome = await store.admitToSlot<SlotAnswer>(
    { entityId: links[0]!.entityId, role: 'subject', predicate },
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
    slotRead,
  );
  if ('created' in outcome) return { status: 'applied', outcome: 'created', memory_id: outcome.created.ref };
  if ('duplicate' in outcome.answer)
    return { status: 'applied', outcome: 'duplicate', memory_id: outcome.answer.duplicate };
  // Returned, not thrown: a conflict is the common refusal after a store read, and a rejection thrown out
  // of an async function travels as a rejected promise, a measurable share of the refusal's cost.
  return rejected('conflict', outcome.answer.conflict);
}

/** What the slot says when nothing is written. */
type SlotAnswer = { readonly duplicate: string } | { readonly conflict: string[] };

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
