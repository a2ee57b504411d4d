// The per-language table of the language corpus, shared by the assertion and attribution benchmarks.
import {
  ATTRIBUTION_CONSTRUCTIONS,
  LANGUAGES,
  scoreLanguages,
  type LanguageCase,
} from '../../test/fixtures/language-corpus.js';
import { markdownTable, type Row } from './report.js';

/** The held-out corpus's constructions decided by attribution and whole names (the attribution benchmark's). */
export const HELDOUT_ATTRIBUTION: ReadonlySet<string> = new Set([...ATTRIBUTION_CONSTRUCTIONS, 'name boundary']);

/** Per language: cases, how many should be admitted, wrongly admitted and wrongly refused; then the misses. */
export function languageTable(
  entries: readonly LanguageCase[],
  options: { heldOut?: boolean } = {},
): { rows: Row[]; md: string[] } {
  const rows: Row[] = LANGUAGES.map((language) => {
    const mine = entries.filter((e) => e.language === language);
    const { wronglyAdmitted, wronglyRefused } = scoreLanguages(mine, options);
    return {
      language,
      cases: mine.length,
      'should admit': mine.filter((e) => e.admit).length,
      'wrongly admitted': wronglyAdmitted.length,
      'wrongly refused': wronglyRefused.length,
    };
  });
  const { wronglyAdmitted, wronglyRefused } = scoreLanguages(entries, options);
  rows.push({
    language: 'all',
    cases: entries.length,
    'should admit': entries.filter((e) => e.admit).length,
    'wrongly admitted': wronglyAdmitted.length,
    'wrongly refused': wronglyRefused.length,
  });
  return {
    rows,
    md: [
      markdownTable(rows),
      '',
      ...(wronglyRefused.length > 0 ? ['Wrongly refused:', '', ...wronglyRefused.map((line) => `- ${line}`), ''] : []),
      ...(wronglyAdmitted.length > 0
        ? ['Wrongly admitted:', '', ...wronglyAdmitted.map((line) => `- ${line}`), '']
        : []),
    ],
  };
}
