/**
 * Whether the operator asserted the evidence, or only mentioned it. One data-driven rule set, English
 * first: each language is a table of word lists and patterns; nothing calls a model or the network,
 * and the same input always gives the same answer.
 *
 * Not an assertion (`evidence_not_asserted`):
 * - a question: the evidence's sentence ends with `?`, `？`, `؟` or opens with `¿`;
 * - a "do not keep this" instruction anywhere in the utterance;
 * - a hedge in the evidence's sentence (maybe, perhaps, probably, possibly, might, I wonder if/whether,
 *   I guess, I think, not sure…);
 * - a condition or supposition in the sentence (if, unless, suppose, imagine, pretend, what if, in case…);
 * - reported speech: someone else's claim before the evidence (Bruno says/said/thinks/claims/heard that…),
 *   or "according to …" anywhere in the sentence;
 * - a negated clause (not, n't, never, no longer…) unless the predicate says so with the `not_` prefix
 *   (`not_eats`), which keeps a negated fact in a slot of its own; and a `not_` predicate for a clause
 *   that is not negated.
 */

import {
  CHINESE,
  DUTCH,
  forgetBuiltRules,
  FRENCH,
  GERMAN,
  ITALIAN,
  JAPANESE,
  KOREAN,
  lazily,
  PORTUGUESE,
  SPANISH,
  type AssertionRules,
} from './assertion-rules.js';

import {
  ARABIC,
  HEBREW,
  HINDI,
  INDONESIAN,
  POLISH,
  RUSSIAN,
  SWEDISH,
  THAI,
  TURKISH,
  UKRAINIAN,
  VIETNAMESE,
} from './assertion-rules-more.js';

export type { AssertionRules } from './assertion-rules.js';
import { chooseLanguages, clearClauseCaches, readLanguages, unreadLanguageOf } from './language-reading.js';
import { withoutNames } from './name-blanking.js';
import { evidenceSentence } from './remember-request.js';
import { any, clearGlobalForms, formOffset, ruleForm, scrub } from './rule-form.js';
import { clauseEnd, markedQuestion, QUESTION_MARK, QUESTION_START } from './sentence-reading.js';
import { clearMatchFormCache } from './span-match.js';

/** Whole words, as every language's tables match them (see `AssertionRules`: folded text, no `i` flag). */
const w = (words: string) => new RegExp(`(?<![\\p{L}\\p{N}'’])(?:${words})(?![\\p{L}\\p{N}])`, 'u');

// Stryker disable StringLiteral,Regex: the table is data, as every other language's (assertion-rules.ts); the
// corpora (test/fixtures/assertion-corpus.ts, language-corpus.ts) hold it to account by the cases they decide.
/** English. */
export const ENGLISH: AssertionRules = lazily(() => ({
  doNotKeep: [
    /\b(?:don['’]?t|do\s+not|never)\s+(?:\w+\s+){0,2}?(?:remember|store|save|note|keep|record|memori[sz]e|write)(?:\s+down)?\s+(?:it|this|that|any|anything)\b/u,
    /(?<!\b(?:don['’]?t|do\s+not|never)\s+)\bforget\s+(?:it|that|this|(?:what\s+)?i\s+(?:said|told\s+you))\b/u,
    /\boff\s+the\s+record\b/u,
    /\bno\s+need\s+to\s+(?:remember|store|save|note|keep|record|memori[sz]e|write)\b/u,
    /\b(?:you\s+)?(?:don['’]?t|do\s+not)\s+(?:need|have)\s+to\s+(?:remember|store|save|note|keep|record|memori[sz]e|write)\b/u,
  ],
  hedges: [
    w(
      'maybe|perhaps|probably|possibly|presumably|might|may\\s+be|could\\s+be|i\\s+guess|i\\s+suppose|i\\s+think|i\\s+believe',
    ),
    w("i\\s+wonder(?:\\s+(?:if|whether))?|(?:i['’]?m|i\\s+am)?\\s*not\\s+(?:sure|certain)|i\\s+doubt|i\\s+reckon"),
    // Less than sure, in everyday words: "pretty sure … but not 100%", "I have a feeling", "as far as I know".
    w(
      "(?:pretty|fairly|quite|almost|nearly)\\s+(?:sure|certain)|not\\s+100\\s*%|i\\s+(?:have|had|get|got)\\s+(?:a|the)\\s+feeling|i\\s+feel\\s+like|(?:i\\s+)?(?:kind|sort)\\s+of\\s+(?:think|feel)|as\\s+far\\s+as\\s+i\\s+(?:know|can\\s+tell|remember)|afaik|iirc|if\\s+i\\s+(?:remember|recall)(?:\\s+(?:right|rightly|correctly))?|i\\s+(?:suspect|assume|imagine|gather|bet)|(?:sounds|seems|looks)\\s+like|(?:is|are|was|['’]s)\\s+supposed\\s+to|supposed\\s+to\\s+be|(?:could|might|may)\\s+have|probs|prolly|whether|any\\s+idea|do\\s+you\\s+know\\s+(?:if|whether)",
    ),
  ],
  conditions: [w('if|unless|suppose|supposing|imagine|pretend|assuming|in\\s+case|what\\s+if|were\\s+to')],
  reportedBefore: [
    // X says/said/thinks/claims/heard (that) … — someone reports, the operator does not assert.
    w(
      '(?:says|said|thinks|thought|claims|claimed|claim|believes|believed|heard|hears|insists|insisted|told\\s+me|tells\\s+me|reckons|reported|mentioned|swears|swore)(?:\\s+that)?',
    ),
    w('rumou?r\\s+has\\s+it|apparently|allegedly|supposedly|reportedly|it\\s+seems|it\\s+is\\s+said|they\\s+say'),
    w(
      "rumou?rs?\\s+(?:is|are|says?)|(?:the\\s+)?word\\s+is|(?:someone|somebody|people|everyone|everybody)\\s+(?:told\\s+me|says?|said)|i\\s+(?:was|['’]ve\\s+been|have\\s+been)\\s+told|i['’]m\\s+told|i\\s+hear",
    ),
  ],
  reportedAnywhere: [
    w(
      "according\\s+to|or\\s+so\\s+(?:\\w+\\s+)?(?:says?|said|claims?|claimed|tells?\\s+me|told\\s+me|i\\s+(?:hear|heard|['’]m\\s+told))",
    ),
  ],
  ownWords: [w('(?:as|like)\\s+i\\s+(?:said|mentioned|told\\s+you)|i\\s+(?:said|told\\s+you|mentioned)(?:\\s+that)?')],
  negation: [w("not|never|no\\s+longer|no\\s+more|nobody|nothing|neither|nor|cannot|\\w+n['’]t")],
  notNegating: [w("(?:don['’]?t|do\\s+not|never)\\s+forget|not\\s+only|can['’]t\\s+wait")],
  questions: [
    // An auxiliary first: "does Ben like tea", "can Dan drive a forklift", "is it true that…" — not "do
    // remember…", an emphatic request.
    /^(?:is|are|am|was|were|do|does|did|can|could|will|would|shall|should|has|have|had|may|might|must|isn['’]t|aren['’]t|doesn['’]t|don['’]t|didn['’]t|can['’]t|won['’]t|wasn['’]t|haven['’]t|hasn['’]t)\s+(?!\s|(?:remember|note|keep|write|bear|save|store|record|forget|tell|let|please|not\s+forget)\b)/u,
    // A question word before an auxiliary: "where does Anna live", "who is Lily's father".
    /^(?:who|whom|whose|what|which|where|when|why|how(?:\s+(?:many|much|long|often|old|come))?)\s+(?:[^\s]+\s+)?(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had|should)\b/u,
    /^(?:who|how\s+come)\s/u,
    // A tag, with or without its comma: "…, doesn't she", "…right", "…, or not".
    /(?:^|[\s,])(?:is|are|was|were|do|does|did|can|could|will|would|has|have|had|should)n['’]?t\s+(?:he|she|it|they|you|we|i|there)$/u,
    /,\s*(?:right|correct|true|eh|innit|no|or\s+not|isn['’]t\s+it)$/u,
    // Without the comma, only what no statement ends with ("is always right" and "turns right" are statements).
    /\s(?<!(?:the|always|all|turn|turns|turned|exactly|just|quite|is|was|are|were)\s)(?:right|or\s+not)$/u,
    /^(?:quick\s+)?question\b/u,
  ],
  requests: [
    /^(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?(?:(?:remember|note|save|store|record|memori[sz]e)|keep\s+in\s+mind|bear\s+in\s+mind|make\s+a\s+note(?:\s+of)?|write\s+down|jot\s+down)|would\s+you\s+mind\s+(?:remembering|noting|saving|storing|recording|writing\s+down|keeping\s+in\s+mind))(?:\s+for\s+me)?(?:\s+that)?\s+(?!(?:if|whether|when|where|who|what|why|how)\b)/u,
  ],
  retractions: [
    /^[^\p{L}\p{N}]*(?:[,.!?;:—–-]\s*|\s+)(?:(?:well|oh|or|and|but|actually|wait)[,\s]+)*(?:not(?:\s+(?:really|anymore|any\s+more|at\s+all|true|any\s+longer))?(?:\s+actually)?\s*(?:[.!?,]|$)|no(?:\s+wait)?\s*[,.!]|just\s+kidding|jk\b|kidding\b|scratch\s+that|never\s*mind)/u,
    /(?:^|[.!?]\s*)(?:actually|wait)[,\s]+(?:no|not)\b/u,
  ],
}));
// Stryker restore StringLiteral,Regex

/**
 * The rule sets by language, English first. The utterance's language chooses one ({@link assertionRulesFor});
 * text in a script none of them reads, or in a language none of them is (Czech, Danish, Bulgarian, Persian…:
 * see `likelyLanguages`), is refused, saying so (`language`).
 */
export const ASSERTION_RULES: Readonly<Record<string, AssertionRules>> = {
  en: ENGLISH,
  de: GERMAN,
  fr: FRENCH,
  es: SPANISH,
  it: ITALIAN,
  pt: PORTUGUESE,
  nl: DUTCH,
  ja: JAPANESE,
  zh: CHINESE,
  ko: KOREAN,
  ru: RUSSIAN,
  uk: UKRAINIAN,
  pl: POLISH,
  tr: TURKISH,
  id: INDONESIAN,
  vi: VIETNAMESE,
  ar: ARABIC,
  he: HEBREW,
  hi: HINDI,
  th: THAI,
  sv: SWEDISH,
};

/**
 * The assertion rules of the utterance's language, chosen as the clause rules are (by its script, then by its
 * words; English when no language's words are used), or undefined for text in a script none of them reads
 * or in a language without rules (`utterance` as written: a capital says a word is a name).
 * When the words of several languages tie ("Se o João vier, toma café" reads as Portuguese and Spanish), the
 * rules of all of them together: each cue of any of them counts.
 */
export function assertionRulesFor(utterance: string): AssertionRules | undefined {
  const reading = readLanguages(utterance);
  // A short sentence shows few of its language's words, and neighbours share many ("Se piove, Lorenzo va al
  // lavoro" has as many Spanish ones as Italian): the cues of a language one word behind count too. Not
  // its negation: a negation word of one language is a plain word of another (Spanish "no", Portuguese
  // "no" = in the), and a false negation would admit a `not_` predicate.
  const near = chooseLanguages(reading, 1);
  if (near === undefined) return undefined;
  // One language near the top is the one at the top.
  if (near.length === 1) return ASSERTION_RULES[near[0]!];
  const languages = chooseLanguages(reading)!;
  const key = `${languages.join(',')}/${near.join(',')}`;
  let merged = mergedRules.get(key);
  if (!merged) {
    const negating = mergeRules(languages.map((language) => ASSERTION_RULES[language]!));
    merged = {
      ...mergeRules(near.map((language) => ASSERTION_RULES[language]!)),
      negation: negating.negation,
      notNegating: negating.notNegating,
      negationAfter: negating.negationAfter,
    };
    mergedRules.set(key, merged);
  }
  return merged;
}
const mergedRules = new Map<string, AssertionRules>();

/**
 * Forgets every memo of the text rules — the built tables, merged rule sets, global patterns, clause word
 * sets, matching forms — so a test reads them from cold (a memo made by an earlier test would hide a change).
 */
export function clearRuleCaches(): void {
  forgetBuiltRules();
  mergedRules.clear();
  clearGlobalForms();
  clearClauseCaches();
  clearMatchFormCache();
}

/** Several rule sets as one: every list holds the patterns of all of them. */
function mergeRules(all: readonly AssertionRules[]): AssertionRules {
  const lists = (
    key:
      | 'doNotKeep'
      | 'hedges'
      | 'conditions'
      | 'reportedBefore'
      | 'reportedAnywhere'
      | 'ownWords'
      | 'negation'
      | 'notNegating'
      | 'questions'
      | 'requests'
      | 'requestEnds'
      | 'requestsAfter'
      | 'retractions',
  ) => all.flatMap((rules) => rules[key] ?? []);
  return {
    doNotKeep: lists('doNotKeep'),
    hedges: lists('hedges'),
    conditions: lists('conditions'),
    reportedBefore: lists('reportedBefore'),
    reportedAnywhere: lists('reportedAnywhere'),
    ownWords: lists('ownWords'),
    negation: lists('negation'),
    notNegating: lists('notNegating'),
    questions: lists('questions'),
    requests: lists('requests'),
    requestEnds: lists('requestEnds'),
    requestsAfter: lists('requestsAfter'),
    retractions: lists('retractions'),
    negationAfter: all.some((rules) => rules.negationAfter === true),
  };
}

/** Why the evidence is not an assertion the operator made. */
export type NotAsserted =
  'question' | 'do_not_keep' | 'hedge' | 'condition' | 'reported' | 'negated' | 'not_negated' | 'language';

/** The languages the assertion rules read, by their codes (the refusal stays short: at most 280 characters). */
const READ_LANGUAGES = Object.keys(ASSERTION_RULES).join(', ');

/** Each cue in words, for the refusal the model reads. */
export const NOT_ASSERTED_WHY: Readonly<Record<NotAsserted, string>> = {
  question: 'the evidence is in a question',
  do_not_keep: 'the operator asked not to keep it',
  hedge: 'the evidence is hedged (maybe, probably, I think…): the operator is not sure of it',
  condition: 'the evidence is a condition or a supposition (if, unless, imagine…)',
  reported: "the evidence is someone else's claim (X says…, according to…), not the operator's",
  negated: 'the evidence is negated; a negated fact takes a predicate with the not_ prefix (not_eats)',
  not_negated: 'the predicate has the not_ prefix, but the evidence is not negated',
  language: `the utterance is in a language the assertion rules do not read (they read ${READ_LANGUAGES})`,
};

/**
 * The refusal of `cue` in words, for the evidence in `utterance`: for a language the rules do not read, the
 * language it reads as, when it reads as one (Czech, Bulgarian, Greek…). `names` are never words of a language.
 */
export function notAssertedWhy(cue: NotAsserted, utterance: string, names: readonly string[] = []): string {
  if (cue !== 'language') return NOT_ASSERTED_WHY[cue];
  const code = unreadLanguageOf(withoutNames(utterance, names));
  if (code === undefined) return NOT_ASSERTED_WHY.language;
  const name = languageNames().of(code) ?? code;
  return `the utterance is in a language the assertion rules do not read (it reads as ${name}; they read ${READ_LANGUAGES})`;
}
let namesInstance: Intl.DisplayNames | undefined;
const languageNames = () => (namesInstance ??= new Intl.DisplayNames(['en'], { type: 'language' }));

/**
 * Why the evidence at `span` of `utterance` is not an assertion, or undefined when it is one. With a
 * predicate, a negated clause is an assertion only when the predicate carries the `not_` prefix. The
 * rules read the utterance in its matching form (NFKC, case folded), the form evidence is matched in.
 */
export function notAsserted(
  utterance: string,
  span: readonly [number, number],
  predicate?: string,
  rules?: AssertionRules,
  names: readonly string[] = [],
): NotAsserted | undefined {
  // A name is never a word of a language nor a cue: Ben is not Dutch "am", Mai not Italian "never".
  return notAssertedBlanked(withoutNames(utterance, names), span, predicate, rules);
}

/**
 * {@link notAsserted} of an utterance whose names are blanked already ({@link blankNames}): what admission calls,
 * having read the utterance and the names in matching form once for every rule.
 */
export function notAssertedBlanked(
  text: string,
  span: readonly [number, number],
  predicate?: string,
  rules?: AssertionRules,
): NotAsserted | undefined {
  const { form, at } = ruleForm(text);
  const formSpan = [formOffset(at, span[0], text.length), formOffset(at, span[1], text.length)] as const;
  // The language from the utterance as written: a capital says a word is a name (Łukasz), not Polish.
  const chosen = rules ?? assertionRulesFor(text);
  if (chosen === undefined) return markedQuestion(form, formSpan) ? 'question' : 'language';
  return decide(form, formSpan, predicate, chosen);
}

function decide(
  utterance: string,
  span: readonly [number, number],
  predicate: string | undefined,
  rules: AssertionRules,
): NotAsserted | undefined {
  if (any(rules.doNotKeep, utterance)) return 'do_not_keep';
  const { start, end, requested, sentence, core } = evidenceSentence(utterance, span, rules);
  // The sentence decides: a question mark inside the evidence or between it and its sentence's end (its
  // last mark) makes it a question, whatever follows ("Alice likes tea? Let me know."); so does an
  // inverted one at its start.
  if (!requested && (QUESTION_MARK.test(utterance.slice(span[0], end)) || QUESTION_START.test(sentence)))
    return 'question';
  // The sentence as people write it: what stands around it (emoji, laughter, a lead-in) is set aside, so a
  // cue that opens or closes a sentence is read where the sentence opens and closes.
  if (rules.questions && any(rules.questions, core)) return 'question';
  if (any(rules.hedges, sentence)) return 'hedge';
  if (any(rules.conditions, sentence) || any(rules.conditions, core)) return 'condition';
  // A report counts before the evidence and inside it ("Bruno claims Ada sings"), not after it
  // ("Ada lives in Lyon, she said so twice" asserts).
  const upToEvidence = utterance.slice(start, span[1]);
  const othersWords = scrub(rules.ownWords, upToEvidence);
  if (any(rules.reportedBefore, othersWords) || any(rules.reportedAnywhere, sentence)) return 'reported';
  // Negation counts inside the evidence and before it in its sentence ("Ada eats fish, not meat" asserts).
  // Where the negation may come last, it counts up to the end of the evidence's clause too.
  const negationEnd = rules.negationAfter ? clauseEnd(utterance, span[1], end) : span[1];
  const scrubbed = scrub(rules.notNegating, utterance.slice(start, negationEnd));
  const negated = any(rules.negation, scrubbed);
  // Taken back after it ("Tom drinks coffee — not!", "… Actually no, he doesn't."): no predicate keeps that.
  if (rules.retractions && any(rules.retractions, utterance.slice(span[1]))) return 'negated';
  const negativePredicate = predicate !== undefined && /^not_/.test(predicate);
  if (negated && !negativePredicate) return 'negated';
  if (!negated && negativePredicate) return 'not_negated';
  return undefined;
}
