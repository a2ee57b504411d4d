/** A remember proposal's fields read in matching form: bounded, without forbidden characters. */
import { isPlainAscii, longerThan, normalizeToken } from '@mira/core';
import { reject } from './remember-reasons.js';
import { toMatchText, type MatchText } from './span-match.js';

/** Longest evidence clause, in characters. */
export const MAX_EVIDENCE_LENGTH = 280;
/** Longest subject, value or related-entity query, in characters. */
export const MAX_FIELD_LENGTH = 256;

/** A proposal field in matching form, or undefined when it is empty, too long or holds a forbidden character. */
export function matchField(text: string, max: number): MatchText | undefined {
  const match = toMatchText(text);
  return !match || match.form === '' || longerThan(match.form, max) ? undefined : match;
}

/**
 * Whether {@link matchField} takes `text` as a field: plain ASCII no longer than a field, and not all white
 * space, is one (its matching form is never longer than itself), answered without building the form.
 */
export function fitsField(text: string): boolean {
  return (
    // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: equivalent, names are never blank
    (isPlainAscii(text) && text.trim() !== '' && text.length <= MAX_FIELD_LENGTH) ||
    matchField(text, MAX_FIELD_LENGTH) !== undefined
  );
}

/** A proposal field in matching form ({@link matchField}), or a refusal of the proposal. */
export function field(text: string, max: number): MatchText {
  return matchField(text, max) ?? reject('invalid_proposal');
}

/** A proposal token (predicate, role) in normal form, or a refusal of the proposal. */
export function token(text: string): string {
  try {
    return normalizeToken(text);
  } catch {
    return reject('invalid_proposal');
  }
}
