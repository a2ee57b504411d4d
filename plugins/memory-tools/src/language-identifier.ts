/**
 * A maintained language identifier beside the clause tables: eld (Efficient Language Detector, n-grams of 60
 * languages, its `small` database), asked about Latin-script text whose words the tables barely read, and
 * heard only when it is sure: of a language none of the rules is written for (Czech typed without its accents,
 * Danish, Catalan, Tagalog…), and the text is refused as `language`, naming it; or, where the tables read one
 * word or none, of a language with rules they did not choose ("Ulubiony kolor Ani to niebieski" holds one
 * English-looking word, `to`). On fewer than four words it is not asked: it reads short German as Estonian,
 * and the tables' function words decide those better (see docs/memory.md for the figures).
 *
 * Loaded once, when admission first needs it ({@link loadLanguageIdentifier}: about 0.5 s and 80 MB, so not at
 * start-up); until then it is not asked, and admission reads the language by the tables alone.
 */

/** The fewest words the identifier is asked about. */
const FEWEST_WORDS = 4;
const WORDS = /[\p{L}\p{M}\p{N}]+/gu;

/** The part of eld's result read here (its `index.d.ts`). */
interface Detection {
  readonly language: string;
  getScores(): Record<string, number>;
  isReliable(): boolean;
}
type Detect = (text: string) => Detection;

let detect: Detect | undefined;
let loading: Promise<void> | undefined;

/** Loads the identifier once (every call after the first answers the same promise). */
export function loadLanguageIdentifier(): Promise<void> {
  loading ??= import('eld/small').then(({ eld }) => {
    detect = (text) => eld.detect(text);
  });
  return loading;
}

/**
 * The languages with rules, as eld names them: Indonesian as `ms`, eld's Malay (it has no `id`), which shares
 * its words.
 */
const WITH_RULES = new Set([
  'en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'ja', 'zh', 'ko', 'ru', 'uk', 'pl', 'tr', 'ms', 'vi', 'ar', 'he', 'hi',
  'th', 'sv',
]); // prettier-ignore

/**
 * How far eld's score for a language without rules must lead every language with rules. Measured on every
 * corpus of the project (1,613 cases, none wrongly refused at 0.05 with the `small` database; the
 * `extrasmall` one needs 0.15) and on 120 held-out sentences in 15 languages without rules.
 */
export const IDENTIFIER_MARGIN = 0.05;

/**
 * The language `text` is in, when the identifier is loaded and sure of it (reliable by its own measure, and ahead
 * of every other language by {@link IDENTIFIER_MARGIN}; for a language without rules, ahead of every language
 * with rules), with whether rules are written for it; undefined otherwise. eld's Malay is answered as
 * Indonesian. `text` has its names blanked already (the proposal's, and every capitalised word after the first):
 * a name is not a word of any language.
 */
export function identifiedLanguage(text: string): { readonly language: string; readonly rules: boolean } | undefined {
  // Not of fewer than four words: on three it reads German "Anna trinkt Tee" as Estonian.
  if (detect === undefined || (text.match(WORDS) ?? []).length < FEWEST_WORDS) return undefined;
  const result = detect(text);
  const language = result.language;
  if (language === '' || !result.isReliable()) return undefined;
  const rules = WITH_RULES.has(language);
  const scores = result.getScores();
  const lead = scores[language] ?? 0;
  for (const [other, score] of Object.entries(scores))
    if (other !== language && (rules || WITH_RULES.has(other)) && lead - score <= IDENTIFIER_MARGIN) return undefined;
  return { language: language === 'ms' ? 'id' : language, rules };
}
