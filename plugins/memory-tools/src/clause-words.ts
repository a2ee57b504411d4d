/**
 * The words of a piece of the operator's text as the clause tables read them (matching form, an elided word's
 * apostrophe kept), each table's word lists as sets, and every table's marker words in one index.
 */
import { caseFold } from '@mira/core';
import { CLAUSE_RULES, type ClauseRules } from './clause-rules.js';
import { SIMPLE_TEXT } from './span-match.js';

/**
 * Printable ASCII, and the name blank beside it: NFKC leaves it alone and it folds to its lower case, one unit
 * for one (text with its names blanked is read as fast as the text was).
 */
export const ASCII = /^[\x20-\x7e\u00b7]*$/;
/** The matching form (NFKC, case folded) of a piece of the operator's text. */
export const formOf = (text: string) =>
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
/** Forgets the word sets and the marker index (tests: `clearClauseCaches` in language-reading.ts). */
export function clearClauseWordSets(): void {
  wordSetCache = new WeakMap();
  markerIndexMemo = undefined;
}
export function wordSets(rules: ClauseRules): ClauseWordSets {
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
export const WORD = /[\p{L}\p{M}\p{N}]+['’]?/gu;
// The same words in ASCII text (its letters and digits; ASCII has no combining mark and no ’).
const ASCII_WORD = /[a-z0-9]+'?/g;
export const words = (text: string, ascii = ASCII.test(text)): string[] => {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: equivalent, the same words (or one in no table)
  if (ascii) return text.toLowerCase().match(ASCII_WORD) ?? [];
  // Stryker disable next-line ArrayDeclaration: equivalent, a word in no table is counted nowhere
  return (formOf(text).match(WORD) ?? []).map((word) => word.replace(/’/g, "'"));
};

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
export function markerIndex(): MarkerIndex {
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
export function languageCounts(found: readonly string[]): number[] {
  const { byWord, tables } = markerIndex();
  const counts = new Array<number>(tables.length).fill(0);
  for (const word of found) for (const language of byWord.get(word) ?? []) counts[language]! += 1;
  return counts;
}
