/**
 * Whether the operator asserted the evidence, or only mentioned it: a question
 * ("Is it true that Alice prefers coffee?") or an utterance that tells the
 * robot not to keep what it says ("Never store this: …") is not a statement to
 * remember. English first; the word list is the documented one below.
 */

/** Sentence ends; a question ends with one of `?`, `？`, `؟`. */
const SENTENCE_END = /[.!?。！？؟\n]/u;
const QUESTION_END = /[?？؟]/u;
/** A sentence that opens with an inverted question mark is a question (Spanish). */
const QUESTION_START = /^[\s"'“‘«(]*¿/u;

/**
 * Phrases that tell the robot not to keep what is said, matched case-insensitively anywhere in the
 * utterance: a negation (don't, do not, never) followed within two words by a keeping verb (remember,
 * store, save, note, keep, record, memorize/memorise, write down) and what is not to be kept (it, this,
 * that, any of it, anything); "forget it/that/this" (but not "don't forget that…", which asks the
 * opposite); and "off the record". "We don't keep cats" is a statement, not such an instruction.
 */
export const DO_NOT_KEEP = [
  /\b(?:don['’]?t|do\s+not|never)\s+(?:\w+\s+){0,2}?(?:remember|store|save|note|keep|record|memori[sz]e|write)(?:\s+down)?\s+(?:it|this|that|any|anything)\b/iu,
  /(?<!\b(?:don['’]?t|do\s+not|never)\s+)\bforget\s+(?:it|that|this)\b/iu,
  /\boff\s+the\s+record\b/iu,
] as const;

/** The [start, end) of the sentence holding `span` in `text`. */
function sentenceAround(text: string, span: readonly [number, number]): readonly [number, number] {
  let start = span[0];
  while (start > 0 && !SENTENCE_END.test(text[start - 1]!)) start -= 1;
  let end = span[1];
  while (end < text.length && !SENTENCE_END.test(text[end]!)) end += 1;
  // Take the run of terminators ("?!", "...") with the sentence.
  while (end < text.length && SENTENCE_END.test(text[end]!) && text[end] !== '\n') end += 1;
  return [start, end];
}

/**
 * Why the evidence at `span` of `utterance` is not an assertion the operator made, or undefined when it
 * is one: its sentence is a question, or the utterance tells the robot not to keep it.
 */
export function notAsserted(
  utterance: string,
  span: readonly [number, number],
): 'question' | 'do_not_keep' | undefined {
  if (DO_NOT_KEEP.some((pattern) => pattern.test(utterance))) return 'do_not_keep';
  const [start, end] = sentenceAround(utterance, span);
  const sentence = utterance.slice(start, end).trimEnd();
  if (QUESTION_END.test(sentence.slice(-1)) || QUESTION_START.test(sentence)) return 'question';
  // A question mark right after the span's sentence end inside the same sentence ("… coffee?!")
  return /[?？؟]/u.test(utterance.slice(span[1], end)) ? 'question' : undefined;
}
