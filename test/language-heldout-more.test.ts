import { loadLanguageIdentifier } from '@mira/plugin-memory-tools';
import { expect } from 'chai';
import { MORE_HELDOUT_CORPUS, type MoreLanguage } from './fixtures/language-corpus-heldout-more.js';
import { refusal, scoreLanguages, type LanguageCase } from './fixtures/language-corpus.js';

// As admission runs: with the language identifier beside the tables (loaded by remember's first proposal).
before(() => loadLanguageIdentifier());

// Eleven languages written by an engineer who had not read the rules. Their rules (issue 62) were written from
// their grammars and a development corpus (test/fixtures/language-corpus-more.ts); this corpus was scored only
// at the end. Its first scoring wrongly admitted 3 utterances (alternative questions without a mark in Russian
// and Vietnamese, an Indonesian possessor with -nya), which the grammars' rules now read. Yield is pinned as it
// is today, and what is still refused wrongly is listed below as known limits.
const LANGUAGES: readonly MoreLanguage[] = ['ru', 'uk', 'pl', 'tr', 'id', 'vi', 'ar', 'he', 'hi', 'th', 'sv'];
const YIELD_TODAY: Readonly<Record<MoreLanguage, number>> = {
  ru: 13,
  uk: 14,
  pl: 14,
  tr: 13,
  id: 13,
  vi: 13,
  ar: 14,
  he: 14,
  hi: 14,
  th: 13,
  sv: 14,
};

const decide = (entry: (typeof MORE_HELDOUT_CORPUS)[number]) =>
  refusal(entry as unknown as LanguageCase, { heldOut: true });

describe('the held-out corpus of eleven languages without rules (written without reading the rules)', () => {
  it('has 25 or more utterances in each language, about half of them to refuse', () => {
    for (const language of LANGUAGES) {
      const entries = MORE_HELDOUT_CORPUS.filter((e) => e.language === language);
      expect(entries.length, language).to.be.at.least(25);
      expect(entries.filter((e) => !e.admit).length, language).to.be.at.least(12);
    }
  });

  it('wrongly admits nothing in any of them', () => {
    const wrong = MORE_HELDOUT_CORPUS.filter((e) => !e.admit && decide(e) === undefined).map(
      (e) => `[${e.language}] ${e.utterance} — ${e.note}`,
    );
    expect(wrong).to.deep.equal([]);
  });

  it('admits as many plain statements as today in each language', () => {
    const admitted = Object.fromEntries(
      LANGUAGES.map((language) => [
        language,
        MORE_HELDOUT_CORPUS.filter((e) => e.language === language && e.admit && decide(e) === undefined).length,
      ]),
    );
    expect(admitted).to.deep.equal(YIELD_TODAY);
  });

  it('wrongly refuses only the known limits listed here (safe-side refusals; a fix updates this list)', () => {
    const corpus = MORE_HELDOUT_CORPUS as unknown as readonly LanguageCase[];
    expect(scoreLanguages(corpus, { heldOut: true }).wronglyRefused).to.deep.equal([
      // A comma after a Turkish nominal subject.
      // ASCII Vietnamese with no Vietnamese function word is read as Romance ("o" = or); "Chi" (chị) is Italian
      // "who" one word behind. Indonesian "si" before a name is Romance "if" one word behind.
      // A Thai relative clause before the subject (สีที่มาลีชอบ).
      "[tr] plain assertion: Emre, Elif'in ağabeyi. (Emre → Elif, brother_of) — subject_not_supported",
      '[id] plain assertion: Kucing kami si Mimi takut petir. (Mimi → petir, afraid_of) — condition',
      '[vi] plain assertion: Nam sinh ra o Hue. (Nam → Hue, born_in) — subject_not_supported',
      '[vi] plain assertion: Chi Huong thich uong tra sua. (Huong → tra sua, likes) — question',
      '[th] plain assertion: สีที่มาลีชอบที่สุดคือสีชมพู (มาลี → สีชมพู, favourite_colour) — subject_not_supported',
    ]);
  });
});
