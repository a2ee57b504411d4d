/**
 * Names blanked out of the text the rules read, offset for offset: a name is never a word of a language nor a cue
 * (Ben is not Dutch "am", Mai not Italian "never").
 */
import { toMatchText, wholeSpans, type MatchText } from './span-match.js';

/**
 * What stands in a name's place in the text the rules read ({@link blankNames}): one unit per UTF-16 unit of the
 * name (offsets stay where they were), no letter, digit, space or mark any rule reads, and its own rule form
 * (NFKC and case folding leave it alone).
 */
export const NAME_BLANK = '\u00b7';

/**
 * `text` with every whole occurrence of each of `names` (as remember finds a name: exact matching form, at word
 * boundaries, a particle after it allowed) blanked out, offset for offset, so no rule reads a name as a word of a
 * language or as a cue.
 */
export function withoutNames(text: string, names: readonly string[]): string {
  if (names.length === 0) return text;
  const spoken = toMatchText(text);
  if (spoken === undefined) return text;
  return blankNames(
    spoken,
    names.flatMap((name) => toMatchText(name) ?? []),
  );
}

/**
 * {@link withoutNames} of a text and names already in matching form (`spoken` as {@link toMatchText} gives it):
 * its original with every whole occurrence of each name blanked ({@link NAME_BLANK}), offset for offset.
 */
export function blankNames(spoken: MatchText, names: readonly MatchText[]): string {
  let out = spoken.original;
  for (const needle of names)
    for (const [start, end] of wholeSpans(spoken, needle, { particles: true, name: true }))
      out = out.slice(0, start) + NAME_BLANK.repeat(end - start) + out.slice(end);
  return out;
}
