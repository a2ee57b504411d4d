/**
 * The sentence around the evidence as the assertion rules read it: where it begins and ends, its opening and close
 * without what stands around it (emoji, laughter, a lead-in), the clause that goes on after the evidence, and a
 * question mark that marks it.
 */

/** Sentence ends; a question ends with one of `?`, `？`, `؟` (the matching form has made `﹖` and `？` a `?`). */
const SENTENCE_ENDS = '.!?。！？؟;؛।\n';
/**
 * Whether the UTF-16 unit at `index` of `text` ends a sentence: each sentence end is one unit, so a unit is
 * one when the list holds it (and past the end of the text, `undefined`, is none).
 */
const endsSentence = (text: string, index: number) => SENTENCE_ENDS.includes(text[index]!);
export const QUESTION_MARK = /[?？؟]/u;
/** A sentence that opens with an inverted question mark is a question (Spanish). */
export const QUESTION_START = /^[\s"'“‘«(]*¿/u;

/**
 * What stands around a sentence and is not part of it, at its end: white space and closing marks, emoji (with
 * their modifiers and joiners), laughter (lol, haha, ㅋㅋ, 笑, 555…), a closed bracket after some text. The rule
 * form is case folded and NFKC (ㅋ and ㅎ are the conjoining jamo U+110F and U+1112 there).
 */
const AROUND_END =
  /(?:[\s.!?。！？؟;؛।…,،~]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f|(?<=\S\s*)(?:\([^()]*\)|\[[^[\]]*\]|（[^（）]*）)|(?<![\p{L}\p{N}])(?:lol|lmao|rofl|a?ha(?:ha)+|he(?:he)+|hihi|xd|ja(?:ja)+|je(?:je)+|mdr|kkk+|rsrs|wkwk\w*|5555*)(?![\p{L}\p{N}])|[ㅋㅎ\u110f\u1112]+|笑|哈哈+|呵呵|嘿嘿|[:;]-?[)(dp])+$/u;
/**
 * What stands around a sentence at its start: white space, quotes, emoji, a lead-in that ends in a colon or a
 * dash ("Quick question:", "Kurze Frage:", "Note —"), or one or two words before a comma ("hey robot,", "btw,").
 */
export const AROUND_START =
  /^(?:[\s"'“”‘’„«»(]|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\u200d|\ufe0f)*(?:[^:：—–\n]{0,40}?[:：—–]\s*|(?:[\p{L}\p{M}'’]+\s*){1,2}[,，、،]\s*)?/u;

/**
 * A sentence as the rules read its opening and its close: without what stands around it ({@link AROUND_START},
 * {@link AROUND_END}). The whole sentence when nothing else is left.
 */
export function sentenceCore(sentence: string): string {
  const inner = sentence.replace(AROUND_END, '');
  const core = inner.replace(AROUND_START, '').trim();
  return core === '' ? inner.trim() : core;
}

/** The end of the clause that goes on at `from`: the next comma, colon or dash, or the sentence's end. */
export function clauseEnd(text: string, from: number, sentenceEnd: number): number {
  const found = text.slice(from, sentenceEnd).search(/[,;:、，；：—–،؛]/u);
  return found < 0 ? sentenceEnd : from + found;
}

/** The [start, end) of the sentence holding `span` in `text`. */
export function sentenceAround(text: string, span: readonly [number, number]): readonly [number, number] {
  let start = span[0];
  while (start > 0 && !endsSentence(text, start - 1)) start -= 1;
  let end = span[1];
  // Stryker disable next-line EqualityOperator: equivalent, a step past the end (no terminator there) slices alike
  while (end < text.length && !endsSentence(text, end)) end += 1;
  // Take the run of terminators ("?!", "...") with the sentence.
  while (end < text.length && endsSentence(text, end) && text[end] !== '\n') end += 1;
  return [start, end];
}

/** Whether the evidence's sentence is marked a question (a question mark after the evidence, or ¿ before it). */
export function markedQuestion(utterance: string, span: readonly [number, number]): boolean {
  const [start, end] = sentenceAround(utterance, span);
  return QUESTION_MARK.test(utterance.slice(span[0], end)) || QUESTION_START.test(utterance.slice(start, end));
}
