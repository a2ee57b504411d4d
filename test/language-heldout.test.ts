import { loadLanguageIdentifier } from '@mira/plugin-memory-tools';
import { expect } from 'chai';
import { HELDOUT_CORPUS, type HeldoutLanguage } from './fixtures/language-corpus-heldout.js';
import { LANGUAGES, refusal, scoreLanguages } from './fixtures/language-corpus.js';

// As admission runs: with the language identifier beside the tables (loaded by remember's first proposal).
before(() => loadLanguageIdentifier());

// The held-out corpus was written by an engineer who had not read the language rules. Its first scoring
// (before any rule was changed for it) wrongly admitted 12 of its 284 utterances and wrongly refused 20;
// the rules were then fixed for what they should have read (see docs/memory.md), and what they still
// refuse wrongly is listed below as known limits.
const byLanguage = (language: HeldoutLanguage) => HELDOUT_CORPUS.filter((e) => e.language === language);

describe('the held-out language corpus (written without reading the rules)', () => {
  it('has 24 or more utterances in each of the nine languages, admitted and refused', () => {
    for (const language of LANGUAGES) {
      const entries = byLanguage(language);
      expect(entries.length, language).to.be.at.least(24);
      expect(entries.some((e) => e.admit) && entries.some((e) => !e.admit), language).to.equal(true);
    }
  });

  it('wrongly admits nothing in any language', () => {
    expect(scoreLanguages(HELDOUT_CORPUS, { heldOut: true }).wronglyAdmitted).to.deep.equal([]);
  });

  it('wrongly refuses only the known limits listed here (safe-side refusals; a fix updates this list)', () => {
    expect(scoreLanguages(HELDOUT_CORPUS, { heldOut: true }).wronglyRefused).to.deep.equal([
      // An apposition with a title or a relation before it: the name is read as someone else's relative.
      '[de] possessive or apposition: Unser Nachbar, Herr Özdemir, züchtet Tauben. (Herr Özdemir → Tauben, breeds) — subject_not_supported',
      // A relative clause about the subject itself, between commas: the commas end the subject's clause.
      '[de] relative clause: Paul, der in Köln wohnt, besucht uns oft. (Paul → Köln, lives_in) — subject_not_supported',
      // "not only … but also": the second conjunction opens a clause of its own.
      '[de] look-alike assertion: Frieda spricht nicht nur Deutsch, sondern auch Polnisch. (Frieda → Polnisch, speaks) — subject_not_supported',
      '[fr] possessive or apposition: Le frère de Bastien, Hugo, joue de la batterie. (Hugo → batterie, plays) — subject_not_supported',
      // ne … que ("only"): que reads as a clause word here.
      "[fr] look-alike assertion: Margaux ne boit que de l'eau. (Margaux → eau, drinks) — subject_not_supported",
      // "never misses" proposed as `attends`: a negated clause needs a not_ predicate, whatever it means.
      '[fr] look-alike assertion: Amélie ne rate jamais son cours de yoga du mardi. (Amélie → yoga, attends) — negated',
      '[es] possessive or apposition: La hermana de Álvaro, Marta, canta en un coro. (Marta → coro, sings_in) — subject_not_supported',
      '[es] look-alike assertion: Mateo no solo habla inglés, sino también alemán. (Mateo → alemán, speaks) — subject_not_supported',
      '[it] possessive or apposition: Il fratello di Tommaso, Pietro, suona la batteria. (Pietro → batteria, plays) — subject_not_supported',
      '[it] look-alike assertion: Chiara parla non solo inglese, ma anche russo. (Chiara → russo, speaks) — subject_not_supported',
      '[pt] possessive or apposition: O irmão da Leonor, o Duarte, toca bateria. (Duarte → bateria, plays) — subject_not_supported',
      '[nl] look-alike assertion: Bram speelt niet alleen piano, maar ook viool. (Bram → viool, plays) — subject_not_supported',
      // 、 after a time word (今、) ends a clause for the rules, as it does after a clause.
      '[ja] plain assertion: 覚えておいてね、大輔は今、福岡に住んでいるよ。 (大輔 → 福岡, lives_in) — subject_not_supported',
      // The subject inside a noun phrase whose modifier has its own subject (旦那さんが医者の陽菜).
      '[ja] relative clause: 旦那さんが医者の陽菜は、庭でバラを育てています。 (陽菜 → バラ, grows) — subject_not_supported',
      // ICU's dictionary makes 喝酒 one word: the model has to propose it whole.
      '[zh] negation with a not_ predicate: 小刚从来不喝酒。 (小刚 → 酒, not_drinks) — value_not_supported',
    ]);
  });

  it('refuses evidence cut inside a word, as remember does', () => {
    const cut = HELDOUT_CORPUS.find((e) => e.utterance === '지우가 다음 달에 인천으로 이사 간다고 들었어요.')!;
    expect(cut.admit).to.equal(false);
    expect(refusal(cut, { heldOut: true })).to.equal('evidence_not_in_utterance');
    expect(() => refusal(cut)).to.throw(/the evidence is not in/);
  });
});
