// The per-language table of the language corpus, shared by the assertion and attribution benchmarks.
import { LANGUAGES, scoreLanguages, type LanguageCase } from '../../test/fixtures/language-corpus.js';
import { markdownTable, type Row } from './report.js';

/** Per language: cases, how many should be admitted, wrongly admitted and wrongly refused; then the misses. */
export function languageTable(entries: readonly LanguageCase[]): { rows: Row[]; md: string[] } {
  const rows: Row[] = LANGUAGES.map((language) => {
    const mine = entries.filter((e) => e.language === language);
    const { wronglyAdmitted, wronglyRefused } = scoreLanguages(mine);
    return {
      language,
      cases: mine.length,
      'should admit': mine.filter((e) => e.admit).length,
      'wrongly admitted': wronglyAdmitted.length,
      'wrongly refused': wronglyRefused.length,
    };
  });
  const { wronglyAdmitted, wronglyRefused } = scoreLanguages(entries);
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
