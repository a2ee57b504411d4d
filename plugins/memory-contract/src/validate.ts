import {
  CoreErrors,
  assertNoFormatCharacters,
  collapseWhitespace,
  longerThan,
  normalizeDisplay,
  normalizeKey,
  normalizeToken,
} from '@mira/core';
import { MemoryErrors } from './errors.js';
import type { NewMemory } from './types.js';

/** Longest canonical name or alias, in characters after normalisation. */
export const MAX_NAME_LENGTH = 256;
/** Longest memory summary (and inline payload), in characters. */
export const MAX_SUMMARY_LENGTH = 4000;
/** Longest structured value or source label, in characters. */
export const MAX_VALUE_LENGTH = 1000;

function bounded(text: string, max: number, what: string): string {
  if (longerThan(text, max)) throw CoreErrors.error('TEXT_TOO_LONG.field', { what, max });
  return text;
}

/**
 * Text in the letters most names and the longer-name candidates remember looks up are written in: printable
 * ASCII and white space, the Latin-1 letters but ß (U+00C0–U+00FE less ×, ÷ and ß), the CJK unified
 * ideographs (U+4E00–U+9FFF) and the Hangul syllables (U+AC00–U+D7A3). None is a control or format
 * character or a combining mark; NFKC leaves each as it is (the syllables and the accented letters come back
 * composed from NFD and NFKD), and its full case folding is its lower case, of the same length (the Latin-1
 * capitals, ASCII's), so the key is the display form in lower case. Checked against the general steps
 * character by character and in random names (test/names.test.ts in this package).
 */
const SIMPLE_NAME = /^[\t-\r\x20-\x7e\u00c0-\u00d6\u00d8-\u00de\u00e0-\u00f6\u00f8-\u00fe\u4e00-\u9fff\uac00-\ud7a3]*$/;

/** A name or alias: its display form and exact key. @throws MiraError */
export function prepareName(name: string, what = 'name'): { display: string; key: string } {
  if (typeof name !== 'string') throw CoreErrors.error('TEXT_EMPTY.notText', { what });
  // A simple name (plain ASCII, and the French, Korean and Chinese names and longer-name candidates remember
  // looks up, each of which is prepared) has no format character, and normalising leaves it alone but its
  // case: its display form is its white space collapsed, its key that in lower case. The same answers as the
  // steps below, each without walking, testing or normalising the text again (a non-English refusal spent as
  // long preparing its four or five candidates that way as bare statements take for the whole refusal).
  if (SIMPLE_NAME.test(name)) {
    const display = bounded(collapseWhitespace(name), MAX_NAME_LENGTH, what);
    if (display === '') throw CoreErrors.error('TEXT_EMPTY.field', { what });
    return { display, key: display.toLowerCase() };
  }
  // Before trimming: white-space trimming would silently drop a leading BOM.
  assertNoFormatCharacters(name, what);
  const display = bounded(normalizeDisplay(name, what), MAX_NAME_LENGTH, what);
  return { display, key: normalizeKey(display, what) };
}

/**
 * Words that refer to whoever speaks or is spoken to, never to one entity: to the robot "you" is the
 * robot itself (admission resolves it so), and "me" or "we" is whoever is talking.
 */
export const PRONOUNS: ReadonlySet<string> = new Set([
  'you',
  'your',
  'yours',
  'yourself',
  'yourselves',
  'i',
  'me',
  'my',
  'mine',
  'myself',
  'we',
  'us',
  'our',
  'ours',
  'ourselves',
]);

/**
 * {@link prepareName} for a name or alias about to be stored: also refuses a tab or line break, which
 * lookups collapse as white space but which has no place in a stored name, and a pronoun.
 */
export function prepareNewName(name: string, what = 'name'): { display: string; key: string } {
  if (typeof name === 'string') {
    // A line break or tab in a name is a mistake, not white space to collapse (utterances keep theirs).
    const breaking = /[\t\n\v\f\r\u0085\u2028\u2029]/u.exec(name);
    if (breaking) {
      const hex = breaking[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      throw CoreErrors.error('TEXT_CONTROL_CHARACTER.lineBreak', { what, hex, index: breaking.index });
    }
  }
  const prepared = prepareName(name, what);
  if (PRONOUNS.has(prepared.key)) {
    throw MemoryErrors.error('NAME_IS_PRONOUN', { display: prepared.display, what });
  }
  return prepared;
}

/** The source kind of memories admitted from the operator's own words by `remember`. */
export const OPERATOR_STATEMENT_SOURCE = 'operator_statement';

/** The source kind of a memory the robot's own sensors made (a snapshot): seen, not said by anyone. */
export const SENSOR_OBSERVATION_SOURCE = 'sensor_observation';

/**
 * Source kinds only the runtime writes: a memory claiming one was admitted from what the operator said.
 * Consoles and APIs refuse them, so provenance cannot be forged by hand.
 */
export const RUNTIME_SOURCE_KINDS: ReadonlySet<string> = new Set([
  OPERATOR_STATEMENT_SOURCE,
  SENSOR_OBSERVATION_SOURCE,
]);

/** @throws MiraError MIRA_ERR_MEMORY_SOURCE_KIND_RESERVED for a runtime-owned source kind given by hand. */
export function assertHandWrittenSource(sourceKind: string): void {
  let token: string;
  try {
    token = normalizeToken(sourceKind, 'source kind');
  } catch {
    return; // the store's own validation reports a malformed token
  }
  if (RUNTIME_SOURCE_KINDS.has(token)) {
    throw MemoryErrors.error('SOURCE_KIND_RESERVED', { token });
  }
}

/** A new memory, validated and normalised, as stores write it. */
export interface PreparedMemory {
  readonly kind: string;
  readonly summary: string;
  readonly predicate: string | null;
  readonly value: string | null;
  readonly sourceKind: string;
  readonly sourceLabel: string | null;
  readonly confidence: number | null;
  readonly links: ReadonlyArray<{ readonly entityId: number; readonly role: string }>;
  readonly payloadText: string;
}

/**
 * Validates and normalises a {@link NewMemory}: tokens case-folded, text in
 * display form, confidence in 0.0..1.0, links unique. Every store calls this,
 * so the console, the web view and cognition share one set of rules.
 */
export function prepareMemory(input: NewMemory): PreparedMemory {
  const kind = normalizeToken(input.kind, 'kind');
  const summary = bounded(normalizeDisplay(input.summary ?? '', 'summary'), MAX_SUMMARY_LENGTH, 'summary');
  if (summary === '') throw CoreErrors.error('TEXT_EMPTY.summary');
  const predicate = input.predicate == null ? null : normalizeToken(input.predicate, 'predicate');
  let value: string | null = null;
  if (input.value != null) {
    value = bounded(normalizeDisplay(input.value, 'value'), MAX_VALUE_LENGTH, 'value');
    if (value === '') throw CoreErrors.error('TEXT_EMPTY.value');
    if (predicate === null) throw MemoryErrors.error('VALUE_WITHOUT_PREDICATE');
  }
  const sourceKind = normalizeToken(input.sourceKind, 'source kind');
  let sourceLabel: string | null = null;
  if (input.sourceLabel != null) {
    sourceLabel = bounded(normalizeDisplay(input.sourceLabel, 'source label'), MAX_VALUE_LENGTH, 'source label');
    if (sourceLabel === '') sourceLabel = null;
  }
  const confidence = input.confidence ?? null;
  if (
    confidence !== null &&
    !(typeof confidence === 'number' && Number.isFinite(confidence) && confidence >= 0 && confidence <= 1)
  ) {
    throw MemoryErrors.error('CONFIDENCE_RANGE.value', { confidence: String(confidence) });
  }
  const links: Array<{ entityId: number; role: string }> = [];
  for (const link of input.links ?? []) {
    if (!Number.isSafeInteger(link.entityId) || link.entityId < 1) {
      throw MemoryErrors.error('INVALID_ID.entityId', { entityId: String(link.entityId) });
    }
    const role = normalizeToken(link.role, 'role');
    // One entity, one role per memory: "ENT1 owns and is owned by" is not a memory anyone said.
    const earlier = links.find((l) => l.entityId === link.entityId);
    if (earlier)
      throw earlier.role === role
        ? MemoryErrors.error('LINK_INVALID.sameRoleTwice', { entityId: link.entityId, role })
        : MemoryErrors.error('LINK_INVALID.twoRoles', { entityId: link.entityId, earlier: earlier.role, role });
    links.push({ entityId: link.entityId, role });
  }
  const payloadText =
    input.payloadText === undefined
      ? summary
      : bounded(normalizeDisplay(input.payloadText, 'payload'), MAX_SUMMARY_LENGTH, 'payload');
  return { kind, summary, predicate, value, sourceKind, sourceLabel, confidence, links, payloadText };
}
