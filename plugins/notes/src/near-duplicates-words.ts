import { caseFold } from '@mira/core';
import { stem } from './near-duplicates-stem.js';
import {
  AFTER_DAY,
  AMBIGUOUS_DAYS,
  BEFORE_DAY,
  DAYPARTS,
  DAY_ABBREVIATIONS,
  DAY_SET,
  IRREGULAR,
  KIN_TITLES,
  LIGHT_WORDS,
  MONTHS,
  NEGATIONS,
  NOT,
  PARTICLES,
  SUPPORT_VERBS,
  SYNONYMS,
  UNIT_LETTERS,
} from './near-duplicates-tables.js';
import { writeOut } from './near-duplicates-write-out.js';
import { segmentSpaceless } from './text.js';

export { stem } from './near-duplicates-stem.js';

/**
 * The words of a note as Find Duplicates compares them (near-duplicates.ts): contractions written out,
 * numbers, times and dates in one spelling, a small household synonym table, irregular verbs and a light
 * stem, so "Don't hoover the lounge after 7 p.m." and "Do not vacuum the living room after 19:00" read the
 * same words — and what tells two notes apart (a name, a number, a negation, a place, a colour) stays in them.
 *
 * Size: word tables (contractions, synonyms, irregular verbs, units) with the reader that applies them.
 */

/** A word of a note, as compared. */
export interface Token {
  /** The word case-folded, written out (contractions, numbers), and its synonym group's head. */
  readonly word: string;
  /** The word case-folded as written (a phrase's words together), which a typo is looked for in. */
  readonly surface: string;
  /** {@link Token.word}'s stem: what two words must share to match. */
  readonly stem: string;
  /**
   * `number` (digits, a time `19:30`, a date `24/12`: what must be equal), `negation`, `light` (a function
   * word, a filler, a pronoun: its presence does not change the fact) or `content`.
   */
  readonly kind: 'number' | 'negation' | 'light' | 'content';
  /**
   * A preposition or particle ("for", "in", "by"): a note may leave one out ("sheets for the guest room" is
   * "the guest room sheets"), but two notes with different ones ("under" / "behind" the sofa) differ.
   */
  readonly particle: boolean;
  /** Written with a capital letter. */
  readonly capital: boolean;
  /** Written with a capital letter and not first in its sentence: a name (a person, a pet, a place, a day). */
  readonly name: boolean;
}

/** Stems already worked out (words repeat from note to note), forgotten when it grows large. */
const stemCache = new Map<string, string>();

/**
 * A word's stem as compared: irregular verbs first, then the light stem, then `-our` as `-or` (colour) and
 * a noun's `-tion`/`-sion` as its verb (`collection` is `collect`, `injection` is `inject`).
 */
function stemOf(word: string): string {
  let s = stemCache.get(word);
  if (s !== undefined) return s;
  s = stem(IRREGULAR.get(word) ?? word);
  if (s.length >= 6 && s.endsWith('our')) s = `${s.slice(0, -3)}or`;
  else if (s.length >= 8 && /[ts]ion$/u.test(s)) s = stem(s.slice(0, -3));
  if (stemCache.size >= 50_000) stemCache.clear();
  stemCache.set(word, s);
  return s;
}

/** Synonym phrases (stems joined by a space, one to three words) to their group's head. */
const PHRASES: ReadonlyMap<string, string> = (() => {
  const out = new Map<string, string>();
  for (const group of SYNONYMS) {
    const head = group[0]!.replaceAll(' ', '');
    for (const member of group) out.set(member.split(' ').map(stemOf).join(' '), head);
  }
  return out;
})();
const LONGEST_PHRASE = 3;
/** The first stems of the table's phrases of two words or more. */
const PHRASE_STARTS: ReadonlySet<string> = new Set(
  [...PHRASES.keys()].filter((key) => key.includes(' ')).map((key) => key.split(' ')[0]!),
);

/** A word, a number (with a time's minutes, a date's month or decimals), in the text written out. */
const WORD = /\d+(?::\d{2}|\/\d{1,2}|\.\d+)?|[\p{L}\p{M}][\p{L}\p{M}\p{N}]*/gu;
const NUMERIC = /^\d/u;
const ASCII = /^\p{ASCII}*$/u;
/** Between two words: what ends a sentence (or a label: "Note: …"), or a dash standing alone. */
const ENDS_SENTENCE = /[.!?:;•…\n]|\s[-–—]|[-–—]\s/u;
/** Abbreviations written with a full stop that does not end the sentence ("Mr. Okafor"). */
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'e', 'g', 'i', 'etc', 'approx', 'vs']);

interface Raw {
  readonly folded: string;
  readonly capital: boolean;
  readonly initial: boolean;
}

/** The words of a note, as compared (see {@link Token}). */
export function tokens(text: string): Token[] {
  const written = segmentSpaceless(writeOut(text));
  // ASCII folds as a whole (its lower case), keeping every word where it was; other text word by word.
  const ascii = ASCII.test(written);
  const lower = ascii ? written.toLowerCase() : written;
  const raw: Raw[] = [];
  let last = 0;
  for (const match of written.matchAll(WORD)) {
    const word = match[0];
    const at = match.index;
    const first = word[0]!;
    let initial = raw.length === 0;
    if (!initial && at - last !== 1) {
      const gap = written.slice(last, at);
      initial = ENDS_SENTENCE.test(gap) && !(gap.trimEnd() === '.' && ABBREVIATIONS.has(raw[raw.length - 1]!.folded));
    } else if (!initial && written[last] !== ' ') initial = ENDS_SENTENCE.test(written[last]!);
    raw.push({
      folded: ascii ? lower.slice(at, at + word.length) : caseFold(word),
      capital: first !== first.toLowerCase(),
      initial,
    });
    last = at + word.length;
  }
  const stems = raw.map((r) => stemOf(r.folded));
  // Phrases of the synonym table, longest first, then each word's own reading.
  const words: Array<Raw & { stem: string; surface: string }> = [];
  for (let i = 0; i < raw.length;) {
    let taken = 0;
    if (PHRASE_STARTS.has(stems[i]!)) {
      for (let length = Math.min(LONGEST_PHRASE, raw.length - i); length >= 2 && taken === 0; length -= 1) {
        const head = PHRASES.get(stems.slice(i, i + length).join(' '));
        if (head !== undefined) {
          words.push({
            folded: head,
            stem: stemOf(head),
            surface: raw
              .slice(i, i + length)
              .map((r) => r.folded)
              .join(''),
            capital: raw[i]!.capital,
            initial: raw[i]!.initial,
          });
          taken = length;
        }
      }
    }
    if (taken > 0) {
      i += taken;
      continue;
    }
    const r = raw[i]!;
    const previous = raw[i - 1]?.folded;
    let folded = r.folded;
    let s = stems[i]!;
    const day =
      DAY_ABBREVIATIONS.get(folded) ??
      (AMBIGUOUS_DAYS.has(folded) && isDayHere(raw, i) ? AMBIGUOUS_DAYS.get(folded) : undefined);
    if (day !== undefined) [folded, s] = [day, day];
    else if (previous !== undefined && NUMERIC.test(previous) && UNIT_LETTERS.has(folded)) {
      folded = UNIT_LETTERS.get(folded)!;
      s = stemOf(folded);
    } else if (LIGHT_WORDS.has(folded) || NEGATIONS.has(folded) || NUMERIC.test(folded)) s = folded;
    else {
      const head = PHRASES.get(s);
      if (head !== undefined) [folded, s] = [head, stemOf(head)];
    }
    words.push({ folded, stem: s, surface: r.folded, capital: r.capital, initial: r.initial });
    i += 1;
  }
  // "not" before a word with an opposite of its own is that opposite ("doesn't like" is "dislikes").
  for (let i = 0; i < words.length; i += 1) {
    if (words[i]!.folded !== 'not') continue;
    let j = i + 1;
    while (j < words.length && LIGHT_WORDS.has(words[j]!.folded)) j += 1;
    const opposite = words[j] && NOT.get(words[j]!.stem);
    if (opposite === undefined) continue;
    const head = PHRASES.get(stemOf(opposite)) ?? opposite;
    words[j] = { ...words[j]!, folded: head, stem: stemOf(head), surface: opposite };
    words.splice(i, 1);
  }
  return words.map((w, i) => {
    const next = words[i + 1];
    let kind: Token['kind'];
    if (NUMERIC.test(w.folded)) kind = 'number';
    else if (NEGATIONS.has(w.folded)) kind = 'negation';
    else if (LIGHT_WORDS.has(w.folded)) kind = 'light';
    // "at 7", "on Monday", "every Monday", "every morning", "in March": the day or time alone says it.
    else if (
      next !== undefined &&
      (((w.folded === 'at' || w.folded === 'on') && (NUMERIC.test(next.folded) || DAY_SET.has(next.stem))) ||
        (w.folded === 'every' && (DAY_SET.has(next.stem) || DAYPARTS.has(next.stem))) ||
        (w.folded === 'in' && MONTHS.has(next.folded) && next.folded.length > 3))
    )
      kind = 'light';
    // "Grandpa Joe" is Joe.
    else if (KIN_TITLES.has(w.folded) && next !== undefined && next.capital && !LIGHT_WORDS.has(next.folded))
      kind = 'light';
    else kind = 'content';
    return {
      word: w.folded,
      surface: w.surface,
      stem: w.stem,
      kind,
      particle: kind === 'content' && (PARTICLES.has(w.folded) || SUPPORT_VERBS.has(w.stem)),
      capital: w.capital,
      name: kind === 'content' && w.capital && !w.initial,
    };
  });
}

/** Whether `wed`, `sat` or `sun` is a day where it stands: capitalised, after "on" or "every", beside a day. */
function isDayHere(raw: readonly Raw[], i: number): boolean {
  const r = raw[i]!;
  if (r.capital && !r.initial) return true;
  const near = (k: number) => {
    const word = raw[k]?.folded;
    return word !== undefined && (DAY_SET.has(word) || DAY_ABBREVIATIONS.has(word) || AMBIGUOUS_DAYS.has(word));
  };
  const previous = raw[i - 1]?.folded;
  const next = raw[i + 1]?.folded;
  return (
    (previous !== undefined && BEFORE_DAY.has(previous)) ||
    (next !== undefined && (AFTER_DAY.has(next) || NUMERIC.test(next))) ||
    near(i - 1) ||
    near(i + 1) ||
    (['and', 'or', 'to'].includes(previous ?? '') && near(i - 2)) ||
    (['and', 'or', 'to'].includes(next ?? '') && near(i + 2))
  );
}
