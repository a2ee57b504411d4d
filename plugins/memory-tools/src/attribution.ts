/**
 * Whether a value belongs to the subject's own clause. The specification asks for "the shortest complete
 * evidence clause" and that the subject "must occur in the evidence clause": a subject that only occurs
 * somewhere in the evidence would take a value another clause says of someone else ("Alice likes tea and
 * Bob likes coffee" is no evidence that Alice likes coffee).
 *
 * One data-driven rule set, as the assertion rules are: a table per language of the words that open a
 * clause of their own (coordinating conjunctions, subordinators, relative pronouns), chosen by the words
 * of the evidence, beside punctuation every language shares. Nothing calls a model; the same input always
 * gives the same answer. It refuses rather than guesses: where a clause boundary may stand between the
 * subject and the value, the value is not taken for the subject.
 *
 * - The evidence is one sentence: a sentence end (`.`, `!`, `?`, `;` and their full-width forms) followed by
 *   more text inside it is two sentences (`not_one_sentence`); an abbreviation's or an initial's period
 *   (`Dr.`, `J.`) is not a sentence end.
 * - Between the subject and the value there is no clause boundary (`subject_not_supported`): no comma,
 *   semicolon, colon or dash — except a parenthesis closed before the other end (", my sister," in
 *   "Alice, my sister, likes tea") — and none of the language's clause words ("and", "who", "because"…).
 */
import { caseFold } from '@mira/core';
import { SIMPLE_TEXT, type MatchText } from './span-match.js';
import { CLAUSE_RULES, ENGLISH_CLAUSES, UNREAD_LANGUAGE_WORDS, type ClauseRules } from './clause-rules.js';
import { UNREAD_LETTERS, UNREAD_SCRIPTS } from './clause-rules-more.js';

export {
  CLAUSE_RULES,
  DUTCH_CLAUSES,
  ENGLISH_CLAUSES,
  FRENCH_CLAUSES,
  GERMAN_CLAUSES,
  ITALIAN_CLAUSES,
  JAPANESE_CLAUSES,
  CHINESE_CLAUSES,
  KOREAN_CLAUSES,
  PORTUGUESE_CLAUSES,
  SPANISH_CLAUSES,
  UNREAD_LANGUAGE_WORDS,
  type ClauseRules,
} from './clause-rules.js';
export {
  ARABIC_CLAUSES,
  HEBREW_CLAUSES,
  HINDI_CLAUSES,
  INDONESIAN_CLAUSES,
  POLISH_CLAUSES,
  RUSSIAN_CLAUSES,
  SWEDISH_CLAUSES,
  THAI_CLAUSES,
  TURKISH_CLAUSES,
  UKRAINIAN_CLAUSES,
  VIETNAMESE_CLAUSES,
} from './clause-rules-more.js';

/** Why the value is not attributed to the subject. */
export type AttributionRefusal = 'not_one_sentence' | 'subject_not_supported';

/**
 * Printable ASCII, and the name blank beside it: NFKC leaves it alone and it folds to its lower case, one unit
 * for one (text with its names blanked is read as fast as the text was).
 */
const ASCII = /^[\x20-\x7e\u00b7]*$/;
/** The matching form (NFKC, case folded) of a piece of the operator's text. */
const formOf = (text: string) =>
  // Stryker disable next-line ConditionalExpression: equivalent, the general path answers plain ASCII alike
  SIMPLE_TEXT.test(text) ? text.toLowerCase() : caseFold(text.normalize('NFKC')).normalize('NFKC');

/**
 * Text of Latin letters only (ASCII, Latin-1, Latin Extended-A and -B, Vietnamese's letters), with white space,
 * ASCII and Latin-1 punctuation and the name blank: no script of its own to read, no letter of another script to
 * count, even in NFKC (French, German, Polish, Turkish, Vietnamese text skips both). Not µ, ŉ or ẚ, whose NFKC
 * holds a Greek letter or a modifier letter of no script.
 */
export const LATIN_TEXT = /^[\t-\r\x20-\x7e\u00a0-\u00b4\u00b6-\u0148\u014a-\u024f\u1e00-\u1e99\u1e9b-\u1eff]*$/;

/** A rule set's word lists as sets, built once per rule set (they are read on every admission). */
interface ClauseWordSets {
  /** Every word that says the language is used: markers and clause words. */
  readonly markers: ReadonlySet<string>;
  /** Words that open a clause: conjunctions and relatives. */
  readonly opens: ReadonlySet<string>;
  readonly complementizers: ReadonlySet<string>;
  readonly pronouns: ReadonlySet<string>;
}
let wordSetCache = new WeakMap<ClauseRules, ClauseWordSets>();
/** Forgets the word sets made from the clause tables (tests: a memo made before a mutant hides it). */
export function clearClauseCaches(): void {
  wordSetCache = new WeakMap();
  markerIndexMemo = undefined;
  wordShapes = new Map();
  wordUnreadLetters = new Map();
}
function wordSets(rules: ClauseRules): ClauseWordSets {
  let sets = wordSetCache.get(rules);
  if (!sets) {
    sets = {
      markers: new Set(
        [...rules.markers, ...rules.conjunctions, ...rules.relatives, ...rules.complementizers].filter(
          (word) => !rules.notMarkers?.includes(word),
        ),
      ),
      opens: new Set([...rules.conjunctions, ...rules.relatives]),
      complementizers: new Set(rules.complementizers),
      pronouns: new Set(rules.pronouns),
    };
    wordSetCache.set(rules, sets);
  }
  return sets;
}

// A word keeps an apostrophe that ends it, so an elided French word stays itself: qu'il is qu' and il.
const WORD = /[\p{L}\p{M}\p{N}]+['’]?/gu;
// The same words in ASCII text (its letters and digits; ASCII has no combining mark and no ’).
const ASCII_WORD = /[a-z0-9]+'?/g;
const words = (text: string, ascii = ASCII.test(text)): string[] => {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent, the same words (or one in no table)
  if (ascii) return text.toLowerCase().match(ASCII_WORD) ?? [];
  // Stryker disable next-line ArrayDeclaration: equivalent, a word in no table is counted nowhere
  return (formOf(text).match(WORD) ?? []).map((word) => word.replace(/’/g, "'"));
};

/**
 * The language a text's script says, before its words: Hangul is Korean, kana Japanese, Han without kana
 * Chinese; Arabic script Arabic, Hebrew Hebrew, Devanagari Hindi, Thai Thai, Cyrillic Ukrainian with one of
 * і ї є ґ and Russian without; undefined for any other text. (Which of several languages of a script, and
 * whether one without rules, its words say: see {@link readLanguages}.)
 */
export function scriptLanguage(text: string): string | undefined {
  const cjk = cjkLanguage(text);
  if (cjk !== undefined) return cjk;
  if (CYRILLIC.test(text)) return /[іїєґ]/iu.test(text) ? 'uk' : 'ru';
  for (const [language, script] of SCRIPTS) if (script.test(text)) return language;
  return undefined;
}
/** Korean, Japanese or Chinese by the script, whatever else the text holds ("Aliceは紅茶が好き" is Japanese). */
function cjkLanguage(text: string): 'ko' | 'ja' | 'zh' | undefined {
  if (HANGUL.test(text)) return 'ko';
  if (KANA.test(text)) return 'ja';
  if (HAN.test(text)) return 'zh';
  return undefined;
}
const HANGUL = /\p{Script=Hangul}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /\p{Script=Han}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;
/** The scripts of one language with rules each, besides Cyrillic. */
const SCRIPTS: ReadonlyArray<readonly [string, RegExp]> = [
  ['ar', /\p{Script=Arabic}/u],
  ['he', /\p{Script=Hebrew}/u],
  ['hi', /\p{Script=Devanagari}/u],
  ['th', /\p{Script=Thai}/u],
];
/** Each script a table names ({@link ClauseRules.script}), as a global pattern of its letters. */
const SCRIPT_LETTERS: Readonly<Record<string, RegExp>> = {
  Cyrillic: /\p{Script=Cyrillic}/gu,
  Arabic: /\p{Script=Arabic}/gu,
  Hebrew: /\p{Script=Hebrew}/gu,
  Devanagari: /\p{Script=Devanagari}/gu,
  Thai: /\p{Script=Thai}/gu,
};

/**
 * The languages a text is most likely in, as admission reads it: its script (Korean, Japanese, Chinese), then
 * for text mostly in Cyrillic, Arabic, Hebrew, Devanagari or Thai letters the language of that script whose
 * words it uses most (Russian and Ukrainian share one), and for text in Latin letters the languages whose words
 * (and letters: Polish ł, Turkish ı, Vietnamese ơ…) it uses most — English when no language's words are used,
 * several when they tie ("Se o João vier": Portuguese and Spanish; "A Rita não adora chocolate": English and
 * Portuguese), English first among them. A few words of another script in Latin text count as words, so a
 * mixed sentence is read by its verb and its negation ("Oskar не пьёт coffee" is Russian), not by its letters.
 * Undefined for text mostly in a script whose rules Mira does not have (Greek, Georgian, Bengali…), and for text
 * in a language without rules: as many of its words say so (see {@link unreadWords}) as any language with rules
 * has words in it, or more ("Petr nikdy nepije kávu", "Анна не пие кафе"). With a `slack`, also the languages
 * that many words behind the most used (most used first).
 */
export function likelyLanguages(text: string, slack = 0): string[] | undefined {
  return chooseLanguages(readLanguages(text), slack);
}

/**
 * What a text's script and words say of its language, read once for any number of {@link chooseLanguages}:
 * the languages themselves when the script decides (or none when no language with rules is used, with the
 * code of the language read instead, when one is: `unread`), else how many of each language's words the text
 * uses, in the tables' order.
 */
export type LanguageReading =
  | { readonly decided: readonly string[] | undefined; readonly unread?: string }
  | { readonly counts: readonly number[]; readonly best: number; readonly found: readonly string[] };

/** Reads a text's language evidence once ({@link likelyLanguages} says what it means). */
export function readLanguages(text: string): LanguageReading {
  // Printable ASCII is Latin letters only: no script to read, no letter to count.
  const ascii = ASCII.test(text);
  const latin = ascii || LATIN_TEXT.test(text);
  // Stryker disable next-line ConditionalExpression: equivalent, ASCII holds no script and only Latin letters
  if (!latin) {
    const cjk = cjkLanguage(text);
    if (cjk !== undefined) return { decided: [cjk] };
    const form = text.normalize('NFKC');
    const letters = form.match(/\p{L}/gu)?.length ?? 0;
    const latin = form.match(/\p{Script=Latin}/gu)?.length ?? 0;
    if (letters - latin > latin) {
      const script = mainScript(form, letters - latin);
      if (script === undefined) return { decided: undefined, unread: unreadScript(form) };
      return scriptReading(text, script);
    }
  }
  const found = words(text, ascii);
  const counts = languageCounts(found);
  // The words as written, read once for their shapes and for the letters of a language without rules.
  const written = writtenWords(text);
  addShapeCounts(text, counts, written, latin);
  const best = Math.max(...counts);
  // On a tie the text is taken for the unread language: its words are the surer sign ("Ana nu bea cafea"
  // holds one Dutch word, nu, and one Romanian, cafea), and refusing is the safe side.
  const unread = unreadWords(found, written, ascii);
  if (unread.count > 0 && unread.count >= best) return { decided: undefined, unread: unread.language };
  if (best === 0) return { decided: [ENGLISH_CLAUSES.language] };
  return { counts, best, found };
}

/** The script of a table that holds most of a text's `other` letters (those not Latin), if one does. */
function mainScript(form: string, other: number): string | undefined {
  for (const [script, pattern] of Object.entries(SCRIPT_LETTERS))
    if ((form.match(pattern)?.length ?? 0) * 2 > other) return script;
  return undefined;
}

/** The language of a script none of the tables reads, for the refusal (undefined when none is known). */
function unreadScript(form: string): string | undefined {
  return Object.entries(UNREAD_SCRIPTS).find(([, pattern]) => pattern.test(form))?.[0];
}

/**
 * Text mostly in `script`: the languages written in it whose words it uses most (all of them when it uses
 * none of their words: their rules together), or none when as many words say it is in a language without rules.
 */
function scriptReading(text: string, script: string): LanguageReading {
  const found = words(text, false);
  const counts = languageCounts(found);
  const written = writtenWords(text);
  addShapeCounts(text, counts, written, false);
  const { tables } = markerIndex();
  const candidates = tables.flatMap((rules, i) => (rules.script === script ? [i] : []));
  const best = Math.max(...candidates.map((i) => counts[i]!));
  const unread = unreadWords(found, written, false);
  if (unread.count > 0 && unread.count >= best) return { decided: undefined, unread: unread.language };
  return { decided: candidates.filter((i) => counts[i] === best).map((i) => tables[i]!.language) };
}

/**
 * The languages of a {@link readLanguages} reading, as {@link likelyLanguages} answers with `slack`. English is
 * the default language: beside English, another language counts only with a word English does not have ("Tom
 * is the father of Lily" and "Lily is afraid of dogs" use two Dutch words, is and of, both English too).
 */
export function chooseLanguages(reading: LanguageReading, slack = 0): string[] | undefined {
  if ('decided' in reading) return reading.decided && [...reading.decided];
  const { languages, byWord } = markerIndex();
  const { counts, found } = reading;
  // The languages of at least one word and at most `slack` fewer than the most used (read on each
  // admission: no object per language).
  const floor = Math.max(reading.best - slack, 1);
  const english = counts[ENGLISH]! >= floor;
  // Whether the text holds a word of language `i` that is not an English word (or, for a language read by its
  // letters, any: its letters are no English word's).
  const beyondEnglish = (i: number) =>
    found.some((word) => {
      const of = byWord.get(word);
      return of !== undefined && of.includes(i) && !of.includes(ENGLISH);
    }) || counts[i]! > markerCount(found, i);
  const chosen: number[] = [];
  counts.forEach((count, i) => {
    if (count >= floor && (i === ENGLISH || !english || beyondEnglish(i))) chosen.push(i);
  });
  // Most words first; among equals in the tables' order, English first (a stable sort).
  chosen.sort((a, b) => counts[b]! - counts[a]!);
  return chosen.map((i) => languages[i]!);
}

/** How many of `found` are marker words of the language at index `i`. */
const markerCount = (found: readonly string[], i: number) =>
  found.filter((word) => markerIndex().byWord.get(word)?.includes(i)).length;

/** English's index in the tables' order: the first. */
const ENGLISH = 0;

/** Every language's marker words in one map (word → the languages, by their index in the tables' order). */
interface MarkerIndex {
  readonly tables: readonly ClauseRules[];
  readonly languages: readonly string[];
  readonly byWord: ReadonlyMap<string, readonly number[]>;
  /** The tables with letters or marker text ({@link ClauseRules.letters}, {@link ClauseRules.markerText}). */
  readonly lettered: readonly number[];
  /** Each table's marker text as a global pattern (undefined for a table without one). */
  readonly textual: ReadonlyArray<readonly [number, RegExp]>;
}
let markerIndexMemo: MarkerIndex | undefined;
function markerIndex(): MarkerIndex {
  if (markerIndexMemo === undefined) {
    const tables = Object.values(CLAUSE_RULES);
    const byWord = new Map<string, number[]>();
    tables.forEach((rules, i) => {
      for (const word of wordSets(rules).markers) byWord.set(word, [...(byWord.get(word) ?? []), i]);
    });
    const having = (key: 'letters' | 'markerText') => tables.flatMap((rules, i) => (rules[key] ? [i] : []));
    markerIndexMemo = {
      tables,
      languages: tables.map((rules) => rules.language),
      byWord,
      lettered: having('letters'),
      textual: having('markerText').map((i) => [i, new RegExp(tables[i]!.markerText!.source, 'gu')] as const),
    };
  }
  return markerIndexMemo;
}

/** How many of `found` (a text's words) are each language's marker words, in the tables' order. */
function languageCounts(found: readonly string[]): number[] {
  const { byWord, tables } = markerIndex();
  const counts = new Array<number>(tables.length).fill(0);
  for (const word of found) for (const language of byWord.get(word) ?? []) counts[language]! += 1;
  return counts;
}

/**
 * Adds to `counts` the words of `text` that say their language by their letters or shape (a word in lower case:
 * a capital says a name, "Łukasz"), and the marker words found inside text written without spaces (Thai).
 */
function addShapeCounts(
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
const writtenWords = (text: string): string[] => text.normalize('NFKC').match(WRITTEN_WORD) ?? [];

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
function unreadWords(
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

/** The language a text is most likely in ({@link likelyLanguages}: the first), or undefined. */
export function languageOf(text: string): string | undefined {
  return likelyLanguages(text)?.[0];
}

/**
 * The language of a text none of the languages with rules is, as its words, letters or script say (a code:
 * `cs`, `bg`, `el`), or undefined when the text is in a language with rules or no language is known.
 */
export function unreadLanguageOf(text: string): string | undefined {
  const reading = readLanguages(text);
  return 'decided' in reading && reading.decided === undefined ? reading.unread : undefined;
}

/**
 * The language whose words the text uses most — its marker words and its clause words — English on a tie
 * or when none is used; for text mostly in a script of its own, the language of that script it reads as.
 */
export function clauseRulesFor(text: string): ClauseRules {
  // Printable ASCII is in no script of its own.
  const ascii = ASCII.test(text);
  // Stryker disable next-line ConditionalExpression: equivalent, Latin text holds no script of its own
  if (!ascii && !LATIN_TEXT.test(text)) {
    const cjk = cjkLanguage(text);
    if (cjk !== undefined) return CLAUSE_RULES[cjk]!;
    const form = text.normalize('NFKC');
    const letters = form.match(/\p{L}/gu)?.length ?? 0;
    const latin = form.match(/\p{Script=Latin}/gu)?.length ?? 0;
    const script = letters - latin > latin ? mainScript(form, letters - latin) : undefined;
    if (script !== undefined) {
      const reading = scriptReading(text, script);
      const language = 'decided' in reading ? reading.decided?.[0] : undefined;
      if (language !== undefined) return CLAUSE_RULES[language]!;
    }
  }
  // Each word's languages from the one index of every table's markers: a look-up per word, not per table.
  const counts = languageCounts(words(text, ascii));
  addShapeCounts(text, counts);
  const { tables } = markerIndex();
  let best = ENGLISH_CLAUSES;
  let bestCount = 0;
  // The first table of the most words wins a tie, as the tables are ordered.
  // Stryker disable next-line EqualityOperator: equivalent, past the end a count is undefined, never more
  for (let i = 0; i < counts.length; i += 1)
    if (counts[i]! > bestCount) {
      best = tables[i]!;
      bestCount = counts[i]!;
    }
  return best;
}

/** Titles and abbreviations whose period ends no sentence. */
// Stryker disable StringLiteral,ArrayDeclaration: data, like the word tables
const ABBREVIATIONS = new Set([
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'st',
  'sr',
  'jr',
  'mt',
  'no',
  'vs',
  'etc',
  'e.g',
  'i.e',
  'approx',
  'ca',
  'hr',
  'fr',
  'sra',
]);
// Stryker restore StringLiteral,ArrayDeclaration

/** A sentence end followed by more of the evidence: `Alice likes tea. Bob likes coffee`. */
function spansSentences(text: string): boolean {
  const form = formOf(text);
  // A run of marks, then more text (not only more marks: "tea!?" ends one sentence).
  const end = /[.!?;。！？；؟؛।]+(?=\s*[^\s.!?;。！？；؟؛।])/gu;
  for (let found = end.exec(form); found; found = end.exec(form)) {
    if (found[0] === '.') {
      // Stryker disable next-line StringLiteral: any text neither one letter nor an abbreviation decides alike
      const before = /([\p{L}.]+)$/u.exec(form.slice(0, found.index))?.[1] ?? '';
      // An initial (J.), an abbreviation (Dr.), or a decimal point (2.5) ends no sentence.
      if (/^\p{L}$/u.test(before) || ABBREVIATIONS.has(before)) continue;
      if (/\d$/u.test(form.slice(0, found.index)) && /^\d/u.test(form.slice(found.index + 1))) continue;
    }
    return true;
  }
  return false;
}

/** Punctuation that ends a clause in every language: comma, semicolon, colon, dashes and their CJK forms. */
const CLAUSE_PUNCTUATION = /[,;:—–、，；：،؛]|\s-\s/u;
/** A parenthesis closed before the other end: `, my sister,` or `(my sister)` or `— my sister —`. */
const CLOSED_ASIDES = [
  /,[^,;:—–]*,/gu,
  /،[^،؛]*،/gu,
  /\([^()]*\)/gu,
  /—[^—]*—/gu,
  /–[^–]*–/gu,
  /、[^、]*、/gu,
  /，[^，]*，/gu,
];
/** What every closed aside opens with: text without one has none to blank. */
const ASIDE_OPENS = /[,(—–、，،]/u;

/** Whether the operator's text between the subject and the value holds a clause boundary. */
export function crossesClause(between: string, rules: ClauseRules): boolean {
  // A dash right after the subject that stands for "is" (Игорь — брат Светланы) opens no clause.
  let text = rules.copulaDash ? between.replace(/^\s*[—–-]\s/u, ' ') : between;
  // Stryker disable next-line ConditionalExpression: equivalent, text with no opening mark holds no aside to blank
  if (ASIDE_OPENS.test(text)) for (const aside of CLOSED_ASIDES) text = text.replace(aside, ' ');
  if (CLAUSE_PUNCTUATION.test(text) || /[.!?。！？؟।]/u.test(text)) return true;
  if (rules.clauseMarks?.test(formOf(text))) return true;
  const found = words(text);
  const { opens, complementizers, pronouns } = wordSets(rules);
  if (found.some((word) => opens.has(word))) return true;
  // "knows that Bob likes chess", "says that he": a complementizer before a name or a pronoun. The words
  // as written (for their capitals) only when there is a complementizer to look after.
  let original: string[] | undefined;
  // Stryker disable next-line ArrayDeclaration: equivalent, read only after a complementizer: never without words
  const written = () => (original ??= text.normalize('NFKC').match(WORD) ?? []);
  // (A complementizer last has no next word: found[i + 1] and original[i + 1] are undefined, and neither
  // is a pronoun or capitalised.)
  return found.some(
    (word, i) =>
      complementizers.has(word) &&
      (pronouns.has(found[i + 1]!) ||
        // Stryker disable next-line StringLiteral: original has as many words as found (case folding splits none)
        /^\p{Lu}/u.test(written()[i + 1] ?? '')),
  );
}

/**
 * Whether the value at `valueSpan` of the evidence belongs to the subject, found at any of `subjectSpans`
 * (offsets in the evidence's original text): the evidence is one sentence, and one occurrence of the subject
 * has no clause boundary between it and the value.
 */
export function attribute(
  evidence: MatchText,
  subjectSpans: ReadonlyArray<readonly [number, number]>,
  valueSpans: ReadonlyArray<readonly [number, number]>,
  rules: ClauseRules = clauseRulesFor(evidence.original),
): AttributionRefusal | undefined {
  if (!oneSentence(evidence)) return 'not_one_sentence';
  const text = evidence.original;
  const together = ([start, end]: readonly [number, number], [from, to]: readonly [number, number]) => {
    // The value before the subject, or overlapping it (a value inside the subject's name, or the reverse:
    // the slice is empty, nothing stands between them).
    // Stryker disable next-line EqualityOperator: touching spans (end = from) leave an empty text either way
    if (end > from) {
      const between = text.slice(to, start);
      // A value before the subject inside a relative clause of another noun: 喜欢下棋的李娜认识张伟.
      // (Right before the subject it is the subject's own: 喜欢下棋的张伟, 猫が好きな健太.)
      if (rules.relativeAfter?.test(formOf(between))) return false;
      // The value's own subject before it: 太太是医生的小刚 (the wife is the doctor).
      if (rules.ownerBefore?.test(formOf(text.slice(0, from)))) return false;
      return !crossesClause(between, rules);
    }
    if (possessor(text, [start, end], from, rules)) return false;
    if (rules.relativeAfter?.test(formOf(text.slice(to)))) return false;
    return !crossesClause(withoutCoordinatedSubject(text.slice(end, from), rules), rules);
  };
  return subjectSpans.some((subject) => valueSpans.some((value) => together(subject, value)))
    ? undefined
    : 'subject_not_supported';
}

/**
 * Whether the subject at `[start, end)` of `text` is the possessor of the one the value after it (at `from`)
 * is said of: "Alice's friend Bob likes tea", "the brother of Alice, Tom, plays golf", "张伟的姐姐会弹钢琴".
 */
const POSSESSORS_BEFORE = Object.values(CLAUSE_RULES).flatMap((rules) =>
  rules.possessorBefore ? [rules.possessorBefore] : [],
);
function possessor(text: string, [start, end]: readonly [number, number], from: number, rules: ClauseRules): boolean {
  if (rules.possessorAfter?.test(formOf(text.slice(end, from)))) return true;
  // "la filha do João", "the brother of Alice": any language's form, as a relation word before "of" is
  // never a word of another language's plain clause.
  const before = formOf(text.slice(0, start));
  return POSSESSORS_BEFORE.some((pattern) => pattern.test(before));
}

/**
 * The text after a subject without a second subject coordinated with it: " and Alice both like " is
 * " both like " (one clause, two subjects), while " and Bob likes " after "Alice likes tea" is not touched,
 * as it does not follow the subject.
 */
function withoutCoordinatedSubject(after: string, rules: ClauseRules): string {
  const text = after.normalize('NFKC');
  const found = /^\s+([\p{L}]+)\s+([\p{L}\p{M}'’-]+)(?=\s)/u.exec(text);
  if (!found || !rules.coordinators.includes(caseFold(found[1]!))) return after;
  // One more name (capitalised) or pronoun, then the clause goes on.
  const second = found[2]!;
  return /^\p{Lu}/u.test(second) || rules.pronouns.includes(caseFold(second)) ? text.slice(found[0].length) : after;
}

/**
 * Whether the evidence is one sentence at most (a sentence end may close it: a sentence end counts only
 * with more text after it).
 */
export function oneSentence(evidence: MatchText): boolean {
  return !spansSentences(evidence.original);
}
