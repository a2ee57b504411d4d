/**
 * The form the assertion rules read text in (each grapheme NFKC-normalised and case folded, with where each
 * offset of the original lands), and how a pattern list is read in it.
 */
import { caseFold, codePointSegments, oneGraphemePerCodePoint } from '@mira/core';
import { SIMPLE_TEXT } from './span-match.js';

export const any = (patterns: readonly RegExp[], text: string) => patterns.some((pattern) => pattern.test(text));
/**
 * What a scrubbed match leaves. Equivalent to nothing: every scrubbed pattern is bounded by a non-letter on
 * each side, and the patterns read after scrubbing separate words by `\s+` and bound them by non-letters, so
 * the neighbours of a match read the same whether a space stands between them or not.
 */
// Stryker disable next-line StringLiteral: equivalent, as said above
const BLANK = ' ';
/** `text` with every match of `patterns` blanked out. */
export const scrub = (patterns: readonly RegExp[], text: string) =>
  patterns.reduce((out, pattern) => out.replace(globalOf(pattern), BLANK), text);
/** Each pattern's global form, compiled once. */
let globalForms = new WeakMap<RegExp, RegExp>();
/** Forgets the global forms of the patterns (a test reads them from cold). */
export function clearGlobalForms(): void {
  globalForms = new WeakMap();
}
function globalOf(pattern: RegExp): RegExp {
  let global = globalForms.get(pattern);
  if (!global) globalForms.set(pattern, (global = new RegExp(pattern, 'giu')));
  return global;
}

// Built at its first use: the first Intl.Segmenter costs ~15 ms of a start-up that may never need it.
let graphemeInstance: Intl.Segmenter | undefined;
const graphemeSegmenter = (): Intl.Segmenter =>
  // Stryker disable next-line ObjectLiteral: equivalent, grapheme is the Segmenter's default granularity
  (graphemeInstance ??= new Intl.Segmenter('und', { granularity: 'grapheme' }));

/**
 * Whether `text`'s rule form is its lower case, offset for offset: {@link SIMPLE_TEXT} (the name blank among it)
 * without a CR (CR LF is one grapheme).
 */
const plainText = (text: string) => SIMPLE_TEXT.test(text) && !text.includes('\r');

/**
 * `text` in the form the rules read — each grapheme NFKC-normalised and case-folded, as evidence
 * matching reads it, so every compatibility form of a cue counts as the cue (`ＮＯＴ`, `doesn＇t`,
 * `tea﹖`, `？`, `！`) — with where each grapheme boundary of the original lands in it (undefined when
 * every offset lands on itself: plain ASCII, one grapheme per character, which NFKC leaves alone and
 * case folding lowers). Line breaks stay (they end sentences).
 */
export function ruleForm(text: string): { form: string; at: Map<number, number> | undefined } {
  if (plainText(text)) return { form: text.toLowerCase(), at: undefined };
  // Most other text (accents, CJK, Hangul syllables) is a grapheme per code point: no segmenter is needed.
  // Stryker disable next-line ConditionalExpression: equivalent, the segmenter finds the same graphemes there
  if (oneGraphemePerCodePoint(text)) return graphemeRuleForm(text, codePointSegments(text));
  return graphemeRuleForm(text);
}

/** {@link ruleForm} grapheme by grapheme, for any text (its `graphemes`: the segmenter's, unless given). */
export function graphemeRuleForm(
  text: string,
  graphemes: Iterable<{ segment: string; index: number }> = graphemeSegmenter().segment(text),
): { form: string; at: Map<number, number> } {
  // Stryker disable next-line StringLiteral: equivalent, a prefix shifts every offset in `at` alike and ends in no cue
  let form = '';
  const at = new Map<number, number>();
  for (const { segment, index } of graphemes) {
    at.set(index, form.length);
    form += caseFold(segment.normalize('NFKC')).normalize('NFKC');
  }
  at.set(text.length, form.length);
  return { form, at };
}

/** The form's offset of an original offset (the grapheme boundary at or after it). */
export function formOffset(at: Map<number, number> | undefined, offset: number, length: number): number {
  if (at === undefined) return offset;
  // Stryker disable next-line EqualityOperator: equivalent, at.get(length) is the return below
  for (let i = offset; i <= length; i += 1) {
    const mapped = at.get(i);
    if (mapped !== undefined) return mapped;
  }
  return at.get(length)!;
}
