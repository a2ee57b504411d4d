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
import type { MatchText } from './span-match.js';
import { CLAUSE_RULES, type ClauseRules } from './clause-rules.js';
import { formOf, WORD, words, wordSets } from './clause-words.js';
import { clauseRulesFor } from './language-reading.js';

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
