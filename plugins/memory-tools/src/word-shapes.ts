/**
 * What a word as written says of its language by its letters or shape: a language with rules (Polish ł, Turkish ı,
 * Vietnamese ơ…), or one without (Czech ř, Danish ø…, and the listed words of languages without rules). Memoised
 * per word: operator text repeats the same few thousand words.
 */
import { UNREAD_LANGUAGE_WORDS } from './clause-rules.js';
import { UNREAD_LETTERS } from './clause-rules-more.js';
import { formOf, LATIN_TEXT, markerIndex } from './clause-words.js';

/**
 * Adds to `counts` the words of `text` that say their language by their letters or shape (a word in lower case:
 * a capital says a name, "Łukasz"), and the marker words found inside text written without spaces (Thai).
 */
export function addShapeCounts(
  text: string,
  counts: number[],
  written: readonly string[] = writtenWords(text),
  latin = LATIN_TEXT.test(text),
): void {
  // Marker text is a script's written without spaces (Thai), which Latin text never holds (a test holds each
  // table's marker text to that).
  if (!latin) {
    const form = text.normalize('NFKC');
    for (const [i, pattern] of markerIndex().textual) counts[i]! += form.match(pattern)?.length ?? 0;
  }
  for (const word of written) for (const i of shapeOf(word)) counts[i]! += 1;
}

/** A text's words as written ({@link WRITTEN_WORD}: letters and marks, NFKC), for their case and letters. */
export const writtenWords = (text: string): string[] => text.normalize('NFKC').match(WRITTEN_WORD) ?? [];

/**
 * The languages (by their index in the tables' order) a word as written says it is in by its letters or shape,
 * memoised: operator text repeats the same few thousand words, and a word's letters say the same every time.
 */
function shapeOf(word: string): readonly number[] {
  let shape = wordShapes.get(word);
  if (shape === undefined) {
    shape = readShape(word);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a bound on memory only
    if (wordShapes.size >= MEMO_WORDS) wordShapes.clear();
    wordShapes.set(word, shape);
  }
  return shape;
}
const NO_LANGUAGES: readonly number[] = Object.freeze([]);
function readShape(word: string): readonly number[] {
  if (CAPITALISED.test(word)) return NO_LANGUAGES;
  const lower = formOf(word);
  if (UNREAD_WORDS.has(lower) || unreadLetter(lower)) return NO_LANGUAGES;
  const { tables, byWord, lettered } = markerIndex();
  const shape = lettered.filter((i) => tables[i]!.letters!.test(lower) && !byWord.get(lower)?.includes(i));
  return shape.length === 0 ? NO_LANGUAGES : shape;
}
/** How many words each per-word memo holds before it starts again. */
const MEMO_WORDS = 10_000;
let wordShapes = new Map<string, readonly number[]>();

/** Every word of {@link UNREAD_LANGUAGE_WORDS}, with its language. */
const UNREAD_WORDS: ReadonlyMap<string, string> = new Map(
  Object.entries(UNREAD_LANGUAGE_WORDS).flatMap(([language, list]) => list.map((word) => [word, language] as const)),
);
/**
 * A Latin letter none of the languages with rules writes, in lower case: ř ě ů ø æ ő ű ț ð þ ė ž š č… (not the
 * letters of Polish, Turkish, Swedish or Vietnamese: ł ą ę ś ź ż ń ı ğ ş å ơ ư đ and the tone marks).
 */
const UNREAD_LETTER = /(?![a-zßàáâãäçèéêëìíîïñòóôõöùúûüÿœłąęśźżńığşåơưđĩũỹẽ\u1ea0-\u1ef9])\p{Script=Latin}/u;
/** The language a word's letters say is one without rules, or '' for a Latin letter of none listed. */
function unreadLetter(word: string): string | undefined {
  for (const [language, letters] of Object.entries(UNREAD_LETTERS)) if (letters.test(word)) return language;
  return UNREAD_LETTER.test(word) ? '' : undefined;
}
/** A word as written, for its letters and its case. */
const WRITTEN_WORD = /[\p{L}\p{M}]+/gu;
/** A word that begins with a capital: a name ("Łukasz likes tea" is English) or a sentence's first word. */
const CAPITALISED = /^[\p{Lu}\p{Lt}]/u;

/**
 * How many words of a text say it is in a language without rules, and which language most of them say: a word
 * of {@link UNREAD_LANGUAGE_WORDS}, or a word in lower case (a name is not: "Søren", "Ðorđe") with a letter none
 * of the languages with rules writes. `found` is the text's words ({@link words}), `written` its words as written.
 */
export function unreadWords(
  found: readonly string[],
  written: readonly string[],
  ascii: boolean,
): { count: number; language: string | undefined } {
  const languages: string[] = found.flatMap((word) => UNREAD_WORDS.get(word) ?? []);
  // Printable ASCII has no letter outside a–z (a shortcut: the words below would find none).
  // Stryker disable next-line ConditionalExpression: equivalent, as just said
  if (!ascii) {
    for (const word of written) {
      const language = unreadLetterOf(word);
      if (language !== undefined) languages.push(language);
    }
  }
  const tally = new Map<string, number>();
  for (const language of languages) if (language !== '') tally.set(language, (tally.get(language) ?? 0) + 1);
  const named = [...tally].sort((a, b) => b[1] - a[1])[0]?.[0];
  return { count: languages.length, language: named };
}

/**
 * The language without rules a word as written says by a letter ({@link unreadWords}: a word in lower case that
 * is no listed word), memoised per word as {@link shapeOf} is; undefined when it says none.
 */
function unreadLetterOf(word: string): string | undefined {
  let language = wordUnreadLetters.get(word);
  if (language === undefined) {
    language = readUnreadLetter(word) ?? NO_LANGUAGE;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: a bound on memory only
    if (wordUnreadLetters.size >= MEMO_WORDS) wordUnreadLetters.clear();
    wordUnreadLetters.set(word, language);
  }
  return language === NO_LANGUAGE ? undefined : language;
}
/** What the memo holds for a word that says no language without rules (a language code is never this). */
const NO_LANGUAGE = '-';
function readUnreadLetter(word: string): string | undefined {
  if (CAPITALISED.test(word)) return undefined;
  const lower = formOf(word);
  if (UNREAD_WORDS.has(lower) || markerIndex().byWord.has(lower)) return undefined;
  return unreadLetter(lower);
}
let wordUnreadLetters = new Map<string, string>();

/** Forgets the per-word memos ({@link shapeOf}, {@link unreadLetterOf}). */
export function clearWordShapes(): void {
  wordShapes = new Map();
  wordUnreadLetters = new Map();
}
