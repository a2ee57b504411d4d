/**
 * Which language a text is in, as admission reads it: by its script, then by the words of each language's
 * clause table it uses (and their letters), or none with rules — as those words say, or as a language
 * identifier is sure of when the tables read few of them (`language-identifier.ts`).
 * Chooses the clause rules, and the assertion rules with them.
 */
import { CLAUSE_RULES, ENGLISH_CLAUSES, type ClauseRules } from './clause-rules.js';
import { UNREAD_SCRIPTS } from './clause-rules-more.js';
import { ASCII, clearClauseWordSets, LATIN_TEXT, languageCounts, markerIndex, words } from './clause-words.js';
import { identifiedLanguage } from './language-identifier.js';
import { addShapeCounts, clearWordShapes, unreadWords, writtenWords } from './word-shapes.js';

/** Forgets the word sets and memos made from the clause tables (tests: a memo made before a mutant hides it). */
export function clearClauseCaches(): void {
  clearClauseWordSets();
  clearWordShapes();
}

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
  // Text whose words the tables barely read (fewer than half are theirs) may be in a language without rules
  // that shares none of the listed words, or in one with rules whose words they barely saw: the identifier is
  // asked, and heard only when sure (for a language with rules, only where the tables read one word or none).
  // Not where two or more English words are read: English is the default, and most utterances are English.
  if (best * 2 < found.length && (counts[ENGLISH] ?? 0) < 2) {
    const identified = identifiedLanguage(withoutCapitalised(text.normalize('NFKC')));
    if (identified !== undefined && !identified.rules) return { decided: undefined, unread: identified.language };
    if (identified !== undefined && best <= 1 && CLAUSE_RULES[identified.language] !== undefined) {
      // Only a language the tables did not choose: where they tie it in, their rules together stay.
      const i = markerIndex().languages.indexOf(identified.language);
      const chosen = best === 0 ? identified.language === ENGLISH_CLAUSES.language : counts[i] === best;
      if (!chosen) return { decided: [identified.language] };
    }
  }
  if (best === 0) return { decided: [ENGLISH_CLAUSES.language] };
  return { counts, best, found };
}

/**
 * The text the language identifier reads: a capitalised word after the first is a name, not a word of a language
 * ("Bob Alice Bob TEA art" is no sentence of Albanian), and is left out.
 */
function withoutCapitalised(text: string): string {
  let first = true;
  return text.replace(/[\p{L}\p{M}]+/gu, (word) => {
    const keep = first || !/^\p{Lu}/u.test(word);
    first = false;
    return keep ? word : ' '.repeat(word.length);
  });
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
