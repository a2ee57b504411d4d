/**
 * The implicit direction marks a Hebrew or Arabic keyboard types around a name (LRM, RLM, ALM): they say only which
 * way the text runs, so admission sets them aside in the operator's words and the proposal alike.
 */
import type { RememberProposal } from './remember-schema.js';

/** An implicit direction mark: LEFT-TO-RIGHT MARK, RIGHT-TO-LEFT MARK, ARABIC LETTER MARK. */
export const DIRECTION_MARK = /[\u200e\u200f\u061c]/u;
/**
 * `text` without its implicit direction marks ({@link DIRECTION_MARK}): they carry no letter, only which way the
 * text around them is shown. Marks between two letters or digits (Dani‏אוהב) stand where the direction changes,
 * between two words: a space there; anywhere else nothing. Embeddings, overrides and isolates stay (and are
 * refused wherever text is matched).
 */
export function withoutDirectionMarks(text: string): string {
  if (!DIRECTION_MARK.test(text)) return text;
  return text.replace(BETWEEN_WORD_CHARACTERS, ' ').replace(DIRECTION_MARKS, '');
}
const DIRECTION_MARKS = /[\u200e\u200f\u061c]+/gu;
const BETWEEN_WORD_CHARACTERS = /(?<=[\p{L}\p{M}\p{N}])[\u200e\u200f\u061c]+(?=[\p{L}\p{M}\p{N}])/gu;

/** Whether a proposal's text holds an implicit direction mark ({@link withoutDirectionMarks}). */
export const hasDirectionMarks = (p: RememberProposal) =>
  [p.evidence, p.value, p.subject, p.related_entity ?? ''].some((text) => DIRECTION_MARK.test(text));
/** The proposal with its names, value and evidence without implicit direction marks. */
export const markless = (p: RememberProposal): RememberProposal => ({
  ...p,
  evidence: withoutDirectionMarks(p.evidence),
  value: withoutDirectionMarks(p.value),
  subject: withoutDirectionMarks(p.subject),
  related_entity: p.related_entity === null ? null : withoutDirectionMarks(p.related_entity),
});
