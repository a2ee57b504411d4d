import { caseFold, collapseWhitespace, findForbiddenCharacter, findFormatCharacter, longerThan } from '@mira/core';
import { NotesErrors } from './errors.js';

/** A scope name: lower-case letters, digits, `_` and `-`, starting with a letter, at most 64 characters. */
export const SCOPE_NAME_PATTERN = '^[a-z][a-z0-9_-]{0,63}$';

/** The longest private key, and the longest search query, in characters. */
export const MAX_KEY_LENGTH = 128;
export const MAX_QUERY_LENGTH = 512;
/**
 * How many notes a search returns: the model's search_memory, and the Mind view's search, which shows what the
 * model would see.
 */
export const SEARCH_RESULTS = 10;

/**
 * Checks a private key: 1 to {@link MAX_KEY_LENGTH} characters, no control, format or bidi characters
 * (a key that cannot be typed or seen would make its note unreachable).
 * @throws MiraError MIRA_ERR_NOTES_KEY_INVALID
 */
export function checkKey(key: string): string {
  const length = [...key].length;
  if (
    length < 1 ||
    length > MAX_KEY_LENGTH ||
    findForbiddenCharacter(key) ||
    findFormatCharacter(key) ||
    /[\t\n\r]/.test(key)
  ) {
    throw NotesErrors.error('KEY_INVALID', { MAX_KEY_LENGTH });
  }
  return key;
}

/** The hard cap on a note, in characters. */
export const NOTE_CAP = 512;
/** The length the model is told, on purpose below the cap. */
export const NOTE_ADVERTISED_CAP = 450;
/** Most labels per note, and the longest label. */
export const MAX_LABELS = 8;
export const MAX_LABEL_LENGTH = 40;

/**
 * Cleans note text (NFKC, white space collapsed, no control characters) and
 * applies the hard cap: over-long text is trimmed at the last word boundary
 * at or before the cap (or at the cap when there is none) and the cut part
 * is returned.
 */
export function capNote(text: string): { content: string; cut: string } {
  if (findForbiddenCharacter(text)) throw NotesErrors.error('EMPTY.controlCharacter');
  // Kept as written (trimmed): normalisation belongs to the search index and to comparisons.
  const clean = text.trim();
  if (clean === '') throw NotesErrors.error('EMPTY.empty');
  const chars = [...clean];
  if (chars.length <= NOTE_CAP) return { content: clean, cut: '' };
  // The cap counts code points; the text is cut at the last word boundary before it, as ICU finds word
  // boundaries in every script (between dictionary words in Chinese, Japanese or Thai), and never inside a
  // grapheme cluster (an emoji sequence, a letter with its combining marks).
  const limit = chars.slice(0, NOTE_CAP).join('').length;
  const end = lastBoundary(wordSegmenter(), clean, limit) || lastBoundary(graphemeSegmenter(), clean, limit);
  const content = clean.slice(0, end).trimEnd();
  return { content, cut: boundedCut(clean.slice(end).trim()) };
}

// Built at their first use, not when the module loads: the first Intl.Segmenter costs ~15 ms of every
// start-up (`mira mcp` included), which seldom needs one.
let wordInstance: Intl.Segmenter | undefined;
let graphemeInstance: Intl.Segmenter | undefined;
const wordSegmenter = (): Intl.Segmenter => (wordInstance ??= new Intl.Segmenter('und', { granularity: 'word' }));
const graphemeSegmenter = (): Intl.Segmenter =>
  (graphemeInstance ??= new Intl.Segmenter('und', { granularity: 'grapheme' }));

/** The last segment boundary at or before `limit` (UTF-16 offset), or 0. */
function lastBoundary(segmenter: Intl.Segmenter, text: string, limit: number): number {
  let last = 0;
  for (const { index, segment } of segmenter.segment(text)) {
    if (index > limit) break;
    last = index;
    if (index + segment.length <= limit) last = index + segment.length;
  }
  return last;
}

/** The most of a cut the reply shows: the rest is counted, not echoed (a megabyte note is not sent back). */
export const MAX_CUT_SHOWN = 512;

/** The cut as the reply shows it: whole graphemes, at most {@link MAX_CUT_SHOWN} code points, then how many more. */
function boundedCut(cut: string): string {
  const chars = [...cut];
  if (chars.length <= MAX_CUT_SHOWN) return cut;
  const shown = cut.slice(0, lastBoundary(graphemeSegmenter(), cut, chars.slice(0, MAX_CUT_SHOWN).join('').length));
  return `${shown}… (${chars.length - [...shown].length} more characters)`;
}

/** Splits and normalises comma-separated labels (NFKC, case folded, white space collapsed), de-duplicated in order. */
export function parseLabels(text: string | null | undefined): string[] {
  if (text == null) return [];
  const labels: string[] = [];
  for (const part of text.split(',')) {
    const label = collapseWhitespace(caseFold(part.normalize('NFKC')));
    if (label === '') continue;
    if (findForbiddenCharacter(label) || longerThan(label, MAX_LABEL_LENGTH)) {
      throw NotesErrors.error('LABEL_INVALID.labelTooLong', { max: MAX_LABEL_LENGTH });
    }
    if (!labels.includes(label)) labels.push(label);
  }
  if (labels.length > MAX_LABELS) throw NotesErrors.error('LABEL_INVALID.tooMany', { max: MAX_LABELS });
  return labels;
}

/** `3d ago` for the last week, then the calendar day (UTC). */
export function noteAge(createdAt: string, now: Date): string {
  const ms = now.getTime() - new Date(createdAt).getTime();
  const minutes = Math.floor(ms / 60_000);
  if (ms < 7 * 24 * 3_600_000) {
    if (minutes < 1) return 'just now';
    if (minutes < 60) return `${minutes}m ago`;
    const hours = Math.floor(minutes / 60);
    if (hours < 24) return `${hours}h ago`;
    return `${Math.floor(hours / 24)}d ago`;
  }
  return createdAt.slice(0, 10);
}

/** Comparison form for duplicate detection: case folded, punctuation dropped, white space collapsed. */
export function comparable(text: string): string {
  return collapseWhitespace(caseFold(text.normalize('NFKC')).replace(/[^\p{L}\p{N}\s]/gu, ' '));
}

/** Runs of scripts written without spaces between words. */
const SPACELESS_RUN =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]+/gu;

/**
 * Text with a space between the words of every run of Chinese, Japanese, Thai, Lao, Khmer or Myanmar, as
 * ICU's dictionaries segment them (`充电座在沙发后面` → `充电 座 在 沙发 后面`), so the full-text tokenizer,
 * which splits on spaces and punctuation, indexes and finds each word. Other text is returned unchanged.
 */
export function segmentSpaceless(text: string): string {
  return text.replace(SPACELESS_RUN, (run) => Array.from(wordSegmenter().segment(run), (s) => s.segment).join(' '));
}

/**
 * Korean particles that follow a noun inside its word (`커피를`, `고양이가`, `부엌에서`), longest first so
 * `에서` is taken before `서`-less `에`.
 */
const HANGUL_PARTICLES = [
  '에서는',
  '에게서',
  '으로는',
  '에서',
  '에게',
  '한테',
  '으로',
  '부터',
  '까지',
  '처럼',
  '보다',
  '이랑',
  '께서',
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '에',
  '의',
  '와',
  '과',
  '도',
  '로',
  '만',
  '랑',
];
const HANGUL_WORD = /^\p{Script=Hangul}+$/u;

/**
 * A Korean word as search looks for it: without a trailing particle when a syllable is left before it
 * (`커피를` → `커피`, `차를` → `차`), for the search to take as a prefix, so that `커피` finds `커피를…` and
 * `커피는…` alike. Any other word is returned unchanged; `undefined` says the word is not Korean.
 */
export function hangulStem(word: string): string | undefined {
  if (!HANGUL_WORD.test(word)) return undefined;
  const syllables = [...word];
  for (const particle of HANGUL_PARTICLES) {
    if (word.endsWith(particle) && syllables.length > [...particle].length) {
      return word.slice(0, word.length - particle.length);
    }
  }
  return word;
}

/** Pictographs (emoji), one code point each; the full-text tokenizer drops them as punctuation. */
const PICTOGRAPH = /\p{Extended_Pictographic}/gu;
/** A flag: two regional indicator letters (🇬🇧 is 🇬 and 🇧), which are no pictographs. */
const FLAG = /\p{Regional_Indicator}{2}/gu;
/**
 * The word an emoji is indexed and searched as: `☕` → `emoji002615`, `🇬🇧` → `emojiflaggb` (fixed length, so
 * never a prefix of another).
 */
const EMOJI_WORD = /^emoji(?:[0-9a-f]{6}|flag[a-z]{2})$/u;
/** A regional indicator letter's own letter: 🇬 (U+1F1EC) is g. */
const regionalLetter = (indicator: string) => String.fromCharCode(0x61 + indicator.codePointAt(0)! - 0x1f1e6);

/**
 * Text with every emoji written as a word of its own (`☕` → ` emoji002615 `), so the full-text index keeps
 * it and a search for the emoji finds it. Modifiers and variation selectors stay out of the word: `👍🏽` is
 * found by `👍`.
 */
export function emojiAsWords(text: string): string {
  return text
    .replace(FLAG, (flag) => ` emojiflag${Array.from(flag, regionalLetter).join('')} `)
    .replace(PICTOGRAPH, (emoji) => ` emoji${emoji.codePointAt(0)!.toString(16).padStart(6, '0')} `);
}

/**
 * English endings a word's other forms differ by where Porter's stems differ too (charg-er / charg-ing,
 * deliver-y / deliver-ed), longest first. Not -ion or -ation: their roots are prefixes of too many words
 * (stat-ion, loc-ation).
 */
const ENDINGS = ['ings', 'ing', 'ers', 'er', 'ed'];

/**
 * The root a word's other forms share, to be sought as a prefix — `charger` and `charging` both give `charg` —
 * or undefined when the word has no such ending or its root would be shorter than five letters (a short root
 * is the prefix of too many words). Latin letters only: other scripts have their own forms (see {@link
 * hangulStem}).
 */
export function wordRoot(word: string): string | undefined {
  if (!/^[a-z]+$/u.test(word)) return undefined;
  // The longest ending that leaves a root of five letters (rout-er would find routine and route).
  const ending = ENDINGS.find((e) => word.endsWith(e) && word.length - e.length >= 5);
  return ending === undefined ? undefined : word.slice(0, word.length - ending.length);
}

/** Whether a search word is an emoji's word (matched whole, never as a prefix). */
export const isEmojiWord = (word: string): boolean => EMOJI_WORD.test(word);

/**
 * What the full-text index holds for a note's text: the compatibility form (ﬁ → fi, ＡＢＣ → ABC, ² → 2), so
 * search finds what people type (the note itself keeps the text as written); words of scripts without
 * spaces set apart, so a word inside a run of them is found; each emoji a word, which the tokenizer would
 * otherwise drop.
 */
export function indexForm(content: string): string {
  return segmentSpaceless(emojiAsWords(collapseWhitespace(content.normalize('NFKC'))));
}

/**
 * English function words and question words: they never have to match, never match alone, and never count
 * toward how much of a question a note answers ("where did we put the spare bulbs?" looks for "put spare
 * bulbs"). A generic list (articles, pronouns, auxiliary and modal verbs, prepositions, conjunctions,
 * question words, as the common English stop lists have them), never words of any one set of notes.
 */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any anybody anyone anything are as at be because been before ' +
    'being below between both but by can could did do does doing down during each either else every everything few ' +
    'for from further had has have having he her here hers herself him himself his how i if in into is it its itself ' +
    'just me might mine more most must my myself neither no nor not of off on once only or other our ours ourselves ' +
    'out over own please same shall she should so some somebody someone something such than that the their theirs ' +
    'them themselves then there these they this those through to too under until up us very was we were what ' +
    'whatever when whenever where wherever whether which while who whoever whom whose why will with would you your ' +
    'yours yourself yourselves'
  ).split(' '),
);

/**
 * Words that make a question of quantity or frequency after "how" ("how often", "how much", "how many",
 * "how long"): part of the question, not of what it asks about.
 */
const AFTER_HOW = new Set(['much', 'many', 'often', 'long']);

/** English clitics written after an apostrophe: `'s` `'re` `'ll` `'ve` `'d` `'m` (the word before them stays). */
const CLITIC = /(?<=\p{L})['’](?:s|re|ll|ve|d|m)(?![\p{L}\p{N}])/giu;
/** A negation written `n't`: the word before it, then "not" (`doesn't` → `does not`, `can't` → `can not`). */
const NEGATION = /(\p{L}+)n['’]t(?![\p{L}\p{N}])/giu;
/** The three whose stem is not the word before `n't`. */
const IRREGULAR_NEGATION: Readonly<Record<string, string>> = { ca: 'can', wo: 'will', sha: 'shall' };

/**
 * The words of a search query that a note is looked for by, in order: the query in its compatibility form,
 * emoji as words, words of scripts without spaces set apart (as {@link indexForm} indexes notes), English
 * clitics and negations taken apart from their word (`where's` → `where`, `doesn't` → `does not`, so a
 * lone "s" or "t" never matches every possessive in the notes), then {@link FUNCTION_WORDS} and the
 * quantity word of "how much / many / often / long" left out.
 * @example searchWords("Where's Tom's spare inhaler?") // ['Tom', 'spare', 'inhaler']
 */
export function searchWords(query: string): string[] {
  const text = query
    .normalize('NFKC')
    .replace(NEGATION, (_, stem: string) => `${IRREGULAR_NEGATION[stem.toLowerCase()] ?? stem} not`)
    .replace(CLITIC, '');
  const words = Array.from(segmentSpaceless(emojiAsWords(text)).matchAll(/[\p{L}\p{N}]+/gu), ([word]) => word);
  return words.filter((word, i) => {
    const folded = word.toLowerCase();
    if (FUNCTION_WORDS.has(folded)) return false;
    return !(AFTER_HOW.has(folded) && words[i - 1]?.toLowerCase() === 'how');
  });
}
