import { expect } from 'chai';
import { ASSERTION_RULES, CLAUSE_RULES, loadLanguageIdentifier } from '@mira/plugin-memory-tools';
import { MORE_LANGUAGE_CORPUS, MORE_LANGUAGES } from './fixtures/language-corpus-more.js';
import { scoreLanguages, type LanguageCase } from './fixtures/language-corpus.js';

// As admission runs: with the language identifier beside the tables (loaded by remember's first proposal).
before(() => loadLanguageIdentifier());

// The development corpus of the eleven languages of issue 62 (written with the rules, from their grammars; the
// held-out corpus, test/language-heldout-more.test.ts, was scored only at the end).
const corpus = MORE_LANGUAGE_CORPUS as unknown as readonly LanguageCase[];

describe('the development corpus of eleven more languages: remember’s text rules', () => {
  it('has 20 or more utterances per language, admitted and refused', () => {
    for (const language of MORE_LANGUAGES) {
      const entries = MORE_LANGUAGE_CORPUS.filter((e) => e.language === language);
      expect(entries.length, language).to.be.at.least(20);
      expect(entries.filter((e) => e.admit).length, language).to.be.at.least(10);
      expect(entries.filter((e) => !e.admit).length, language).to.be.at.least(10);
    }
  });

  it('has assertion and clause rules for each of them', () => {
    for (const language of MORE_LANGUAGES) {
      expect(ASSERTION_RULES[language], language).to.not.equal(undefined);
      expect(CLAUSE_RULES[language]?.language, language).to.equal(language);
    }
  });

  it('wrongly admits nothing and wrongly refuses nothing in any of them', () => {
    expect(scoreLanguages(corpus)).to.deep.equal({ wronglyAdmitted: [], wronglyRefused: [] });
  });
});
