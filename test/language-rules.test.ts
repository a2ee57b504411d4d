import { expect } from 'chai';
import { caseFold } from '@mira/core';
import {
  ASSERTION_RULES,
  CLAUSE_RULES,
  ENGLISH,
  assertionRulesFor,
  attribute,
  clauseRulesFor,
  findWholeSpan,
  languageOf,
  likelyLanguages,
  notAsserted,
  toMatchText,
  wholeSpans,
  UNREAD_LANGUAGE_WORDS,
  type NotAsserted,
  loadLanguageIdentifier,
} from '@mira/plugin-memory-tools';
import { ASSERTION_CORPUS } from './fixtures/assertion-corpus.js';
import { ATTRIBUTION_CORPUS } from './fixtures/attribution-corpus.js';
import { HELDOUT_CORPUS } from './fixtures/language-corpus-heldout.js';
import {
  ATTRIBUTION_CONSTRUCTIONS,
  LANGUAGES,
  LANGUAGE_CORPUS,
  scoreLanguages,
  type Language,
} from './fixtures/language-corpus.js';

// As admission runs: with the language identifier beside the tables (loaded by remember's first proposal).
before(() => loadLanguageIdentifier());

/** The cue that decides `evidence` (its first occurrence) inside `utterance`. */
const cue = (utterance: string, evidence: string, predicate = 'p') => {
  const at = utterance.indexOf(evidence);
  if (at < 0) throw new Error(`"${evidence}" is not in "${utterance}"`);
  return notAsserted(utterance, [at, at + evidence.length], predicate);
};

/** Whether the attribution rules give `value` to `subject` in `evidence`. */
const belongs = (evidence: string, subject: string, value: string) => {
  const clause = toMatchText(evidence)!;
  const spans = (text: string, name: boolean) => [...wholeSpans(clause, toMatchText(text)!, { particles: true, name })];
  const subjects = spans(subject, true);
  const values = spans(value, false);
  if (subjects.length === 0 || values.length === 0) throw new Error(`not in ${evidence}: ${subject}, ${value}`);
  return attribute(clause, subjects, values) === undefined;
};

describe('the language corpus: remember’s text rules in nine languages besides English', () => {
  it('has 25 or more utterances per language, with every construction, admitted and refused', () => {
    for (const language of LANGUAGES) {
      const entries = LANGUAGE_CORPUS.filter((e) => e.language === language);
      expect(entries.length, language).to.be.at.least(25);
      expect(entries.filter((e) => e.admit).length, language).to.be.at.least(8);
      const constructions = new Set(entries.map((e) => e.construction));
      for (const construction of [
        'plain assertion',
        'question with a mark',
        'question without a mark',
        'hedge',
        'negation with a not_ predicate',
        'negation with a positive predicate',
        'reported speech',
        'conditional',
        'do-not-keep request',
        'possessive or apposition',
        'contrast clause',
      ])
        expect(constructions, `${language}: ${construction}`).to.include(construction);
    }
  });

  it('wrongly admits nothing in any language', () => {
    expect(scoreLanguages().wronglyAdmitted).to.deep.equal([]);
  });

  it('wrongly refuses only the values ICU joins to a verb in Chinese (吃肉, 喝酒), listed here as known limits', () => {
    // ICU's dictionary makes 吃肉 ("eat meat") and 喝酒 ("drink alcohol") one word each, and a value may
    // not begin inside a word: the model has to propose 吃肉, not 肉. A fix updates this list.
    expect(scoreLanguages().wronglyRefused).to.deep.equal([
      '[zh] negation with a not_ predicate: 张伟不吃肉 (张伟 → 肉, not_eats) — value_not_supported',
      '[zh] negation with a not_ predicate: 王芳从来不喝酒 (王芳 → 酒, not_drinks) — value_not_supported',
    ]);
  });

  it('scores attribution constructions by the attribution rules, not by an assertion cue', () => {
    for (const entry of LANGUAGE_CORPUS.filter((e) => ATTRIBUTION_CONSTRUCTIONS.has(e.construction))) {
      const at = entry.utterance.indexOf(entry.evidence);
      expect(notAsserted(entry.utterance, [at, at + entry.evidence.length], entry.predicate), entry.utterance).to.equal(
        undefined,
      );
    }
  });
});

describe('choosing the language of the rules', () => {
  it('reads the script first, then the words, English when no language’s words are used', () => {
    const cases: Array<[string, string | undefined]> = [
      ['佐藤さんは紅茶が好き', 'ja'],
      ['张伟喜欢绿茶', 'zh'],
      ['민수는 커피를 좋아한다', 'ko'],
      ['Aliceは紅茶が好き', 'ja'],
      ['Ich glaube, Anna trinkt keinen Kaffee', 'de'],
      ['Paul ne mange pas de viande', 'fr'],
      ['Carlos no come carne', 'es'],
      ['Marco non mangia carne', 'it'],
      ['O João não come carne', 'pt'],
      ['Pieter eet geen vlees', 'nl'],
      ['Misschien is Pieter glutenintolerant', 'nl'],
      ['Ada collects stamps', 'en'],
      ['DO NOT STORE THIS: Ada collects stamps', 'en'],
      ['Анна любит чай', 'ru'],
      ['Оксана любить каву', 'uk'],
      ['Ірина п’є чай', 'uk'],
      ['أحمد يحب الشاي', 'ar'],
      ['דנה אוהבת תה', 'he'],
      ['राहुल चाय पीता है', 'hi'],
      ['ชาเขียวอร่อย', 'th'],
      ['Tomek mieszka w Krakowie', 'pl'],
      ['Mehmet her sabah çay içiyor', 'tr'],
      ['Budi tidak suka kopi', 'id'],
      ['Lan không uống cà phê', 'vi'],
      ['Lan khong uong ca phe', 'vi'],
      ['Anna gillar inte kaffe', 'sv'],
      // A mixed sentence by its verb and its negation, not by its letters; a foreign noun in English is English.
      ['Oskar не пьёт coffee', 'ru'],
      ['Alice likes чай and tea', 'en'],
      ['Η Άννα πίνει τσάι', undefined],
      ['آنا چای دوست دارد', undefined],
      ['Анна не пие кафе', undefined],
    ];
    for (const [text, language] of cases) expect(languageOf(text), text).to.equal(language);
    expect(assertionRulesFor('Anna trinkt Tee')).to.equal(ASSERTION_RULES.de);
    expect(assertionRulesFor('Ada collects stamps')).to.equal(ENGLISH);
    expect(assertionRulesFor('Анна любит чай')).to.equal(ASSERTION_RULES.ru);
    expect(assertionRulesFor('Η Άννα πίνει τσάι')).to.equal(undefined);
    expect(CLAUSE_RULES.it!.language).to.equal('it');
    // Ties: English first, then the others; English alone only when it leads.
    expect(likelyLanguages('A Rita não adora chocolate')).to.deep.equal(['en', 'pt']);
    expect(likelyLanguages('Se o João vier, toma café')).to.deep.equal(['pt']);
    expect(likelyLanguages('Ana toma café')).to.deep.equal(['es', 'pt']);
    expect(likelyLanguages('Ada lives in Lyon')).to.deep.equal(['en']);
    expect(likelyLanguages('Ada collects stamps')).to.deep.equal(['en']);
    // With a slack, the languages a word behind too, the most used first (Portuguese leads Spanish here,
    // though Spanish comes first in the tables).
    expect(likelyLanguages('Se o João vier, toma café', 1)).to.deep.equal(['pt', 'es']);
    expect(likelyLanguages('Ana toma café', 1)).to.deep.equal(['es', 'pt']);
  });

  it('refuses text in a script the rules do not read, unless its question mark already says why', () => {
    expect(cue('Η Άννα πίνει τσάι', 'Η Άννα πίνει τσάι')).to.equal('language');
    expect(cue('Η Άννα πίνει τσάι;', 'Η Άννα πίνει τσάι')).to.equal('language');
    expect(cue('Η Άννα πίνει τσάι?', 'Η Άννα πίνει τσάι')).to.equal('question');
    expect(cue('Анна любит чай', 'Анна любит чай')).to.equal(undefined);
    expect(cue('Анна любит чай?', 'Анна любит чай')).to.equal('question');
    expect(cue('هل يحب Bob الشاي؟', 'يحب Bob الشاي')).to.equal('question');
    expect(cue('Oskar не пьёт coffee', 'Oskar не пьёт coffee', 'drinks')).to.equal('negated');
    // A few letters of another script in Latin text do not make it another language.
    expect(cue('Alice likes чай and tea', 'Alice likes чай and tea')).to.equal(undefined);
  });

  describe('Latin text in a language without rules', () => {
    // Written as people say these things (negations, hedges, plain statements). Before these rules, most were
    // read with the English rules (some with German, Portuguese, Dutch or French ones, for a shared word) and
    // stored as asserted facts, the negations as the opposite of what was said.
    const unread: Array<[language: string, utterance: string, evidence: string, predicate: string]> = [
      ['Czech, a negation', 'Petr nikdy nepije kávu', 'Petr nikdy nepije kávu', 'drinks'],
      ['Czech, a plain statement', 'Jana bydlí v Brně', 'Jana bydlí v Brně', 'lives_in'],
      ['Danish, a negation', 'Mette drikker ikke kaffe', 'Mette drikker ikke kaffe', 'drinks'],
      ['Norwegian, a negation', 'Kari liker ikke fisk', 'Kari liker ikke fisk', 'likes'],
      ['Finnish, a negation', 'Matti ei juo kahvia', 'Matti ei juo kahvia', 'drinks'],
      ['Finnish, a plain statement', 'Liisa asuu Tampereella', 'Liisa asuu Tampereella', 'lives_in'],
      ['Hungarian, a negation', 'Anna nem iszik kávét', 'Anna nem iszik kávét', 'drinks'],
      ['Hungarian, a hedge', 'Péter talán Budapesten lakik', 'Péter talán Budapesten lakik', 'lives_in'],
      ['Romanian, a negation (nu is also Dutch)', 'Ana nu bea cafea', 'Ana nu bea cafea', 'drinks'],
      ['Romanian, a plain statement', 'Mihai locuiește în Cluj', 'Mihai locuiește în Cluj', 'lives_in'],
      ['Croatian, a negation (ne is also French)', 'Ivana ne voli kavu', 'Ivana ne voli kavu', 'likes'],
      ['Bulgarian, a negation (Cyrillic, no letter of its own)', 'Анна не пие кафе', 'Анна не пие кафе', 'drinks'],
      ['Persian, in Arabic script', 'آنا چای دوست دارد', 'آنا چای دوست دارد', 'likes'],
      ['Danish beside Swedish words', 'Mette drikker ikke kaffe', 'Mette drikker ikke kaffe', 'drinks'],
    ];
    for (const [language, utterance, evidence, predicate] of unread) {
      it(`refuses it, saying the rules do not read it: ${language} (${utterance})`, () => {
        expect(likelyLanguages(utterance)).to.equal(undefined);
        expect(cue(utterance, evidence, predicate)).to.equal('language');
      });
    }

    it('still reads a question mark first', () => {
      expect(cue('Petr nikdy nepije kávu?', 'Petr nikdy nepije kávu', 'drinks')).to.equal('question');
    });

    // Before issue 62 these were refused as languages without rules; they now have rules of their own.
    const read: Array<[utterance: string, evidence: string, predicate: string, expected: NotAsserted | undefined]> = [
      ['Anna nie lubi kawy, woli herbatę', 'Anna nie lubi kawy', 'likes', 'negated'],
      ['Chyba Tomek mieszka teraz w Krakowie', 'Tomek mieszka teraz w Krakowie', 'lives_in', 'hedge'],
      ['ola nie pije kawy', 'ola nie pije kawy', 'drinks', 'negated'],
      ['Łukasz lubi herbatę', 'Łukasz lubi herbatę', 'likes', undefined],
      ['Anna gillar inte kaffe', 'Anna gillar inte kaffe', 'likes', 'negated'],
      ['Erik bor i Göteborg', 'Erik bor i Göteborg', 'lives_in', undefined],
      ['Ayşe kahve sevmiyor', 'Ayşe kahve sevmiyor', 'likes', 'negated'],
      ['Ayşe kahve sevmiyor', 'Ayşe kahve sevmiyor', 'not_likes', undefined],
      ['Mehmet her sabah çay içiyor', 'Mehmet her sabah çay içiyor', 'drinks', undefined],
      ['Budi tidak suka kopi', 'Budi tidak suka kopi', 'likes', 'negated'],
      ['Lan không uống cà phê', 'Lan không uống cà phê', 'drinks', 'negated'],
      ['Lan khong uong ca phe', 'Lan khong uong ca phe', 'not_drinks', undefined],
    ];
    for (const [utterance, evidence, predicate, expected] of read) {
      it(`reads Polish, Swedish, Turkish, Indonesian and Vietnamese with their own rules: ${utterance} (${predicate})`, () => {
        expect(cue(utterance, evidence, predicate)).to.equal(expected);
      });
    }

    it('keeps a name written in those letters in a language with rules (a capital says a name)', () => {
      expect(languageOf('Łukasz likes tea')).to.equal('en');
      expect(cue('Łukasz likes tea', 'Łukasz likes tea', 'likes')).to.equal(undefined);
      expect(cue('Søren drinks coffee every morning', 'Søren drinks coffee every morning', 'drinks')).to.equal(
        undefined,
      );
      expect(cue('Ayşe lives in İzmir', 'Ayşe lives in İzmir', 'lives_in')).to.equal(undefined);
      expect(cue('Łukasz trinkt keinen Kaffee', 'Łukasz trinkt keinen Kaffee', 'not_drinks')).to.equal(undefined);
      expect(cue('Søren aime le thé', 'Søren aime le thé', 'likes')).to.equal(undefined);
      // The language with rules still decides its cues.
      expect(cue('Łukasz does not like tea', 'Łukasz does not like tea', 'likes')).to.equal('negated');
      // A word in those letters counts once, listed or not: one against English's two is English.
      expect(languageOf('Tea is herbatę in Polish')).to.equal('en');
      // Only a first capital says a name: one further in (a slip of the shift key) does not.
      expect(languageOf('Ada eats smørreBrød')).to.equal(undefined);
    });

    it('refuses on a tie: also English with a lower-case word in those letters and no more English words (a known limit)', () => {
      // One Dutch word (nu) and one Romanian (cafea): the safe side.
      expect(likelyLanguages('Ana nu bea cafea', 1)).to.equal(undefined);
      // A known limit: English with a lower-case word in such letters and as many English marker words.
      expect(languageOf('Ada eats smørrebrød')).to.equal(undefined);
      // A lower-case word in Polish letters is Polish beside as much English: both rule sets read it.
      expect(likelyLanguages('łukasz likes tea')).to.deep.equal(['en', 'pl']);
    });

    it('lists only words that no language with rules uses, nor any utterance of the corpora', () => {
      const listed = new Set(Object.values(UNREAD_LANGUAGE_WORDS).flat());
      for (const rules of Object.values(CLAUSE_RULES)) {
        for (const word of [...rules.markers, ...rules.conjunctions, ...rules.relatives, ...rules.complementizers])
          expect(listed.has(word), `${rules.language}: ${word}`).to.equal(false);
      }
      const texts = [
        ...ASSERTION_CORPUS.map((e) => e.utterance),
        ...ATTRIBUTION_CORPUS.map((e) => e.evidence),
        ...LANGUAGE_CORPUS.map((e) => e.utterance),
        ...HELDOUT_CORPUS.map((e) => e.utterance),
      ];
      for (const text of texts) {
        for (const [word] of text
          .normalize('NFKC')
          .toLowerCase()
          .matchAll(/[\p{L}\p{M}]+/gu))
          expect(listed.has(word), `${word} in ${text}`).to.equal(false);
        // And none of them reads as a language without rules.
        expect(likelyLanguages(text), text).not.to.equal(undefined);
      }
    });
  });

  it('takes given rules over the chosen ones', () => {
    expect(notAsserted('Anna mag Tee nicht', [0, 12], 'likes', ENGLISH)).to.equal(undefined);
    expect(notAsserted('Anna mag Tee nicht', [0, 12], 'likes')).to.equal('negated');
  });
});

/** Per language: [utterance, evidence, predicate, the cue expected (undefined: asserted)]. */
const CUES: Record<Language, Array<[string, string, string, NotAsserted | undefined]>> = {
  de: [
    ['Anna trinkt Tee', 'Anna trinkt Tee', 'drinks', undefined],
    ['Trinkt Anna Tee?', 'Trinkt Anna Tee', 'drinks', 'question'],
    ['Trinkt Anna Tee', 'Trinkt Anna Tee', 'drinks', 'question'],
    ['Wo wohnt Anna jetzt', 'wohnt Anna jetzt', 'lives', 'question'],
    ['Anna trinkt Tee, oder', 'Anna trinkt Tee', 'drinks', 'question'],
    ['Wie gesagt, Anna trinkt Tee', 'Anna trinkt Tee', 'drinks', undefined],
    ['Vielleicht trinkt Anna Tee', 'trinkt Anna Tee', 'drinks', 'hedge'],
    ['Anna trinkt Tee, glaube ich', 'Anna trinkt Tee', 'drinks', 'hedge'],
    ['Wenn Anna kommt, trinkt sie Tee', 'trinkt sie Tee', 'drinks', 'condition'],
    ['Ben sagt, Anna trinkt Tee', 'Anna trinkt Tee', 'drinks', 'reported'],
    ['Anna trinkt Tee, sagt Ben', 'Anna trinkt Tee', 'drinks', 'reported'],
    ['Laut Ben trinkt Anna Tee', 'trinkt Anna Tee', 'drinks', 'reported'],
    ['Anna trinkt keinen Tee', 'Anna trinkt keinen Tee', 'drinks', 'negated'],
    ['Anna trinkt keinen Tee', 'Anna trinkt keinen Tee', 'not_drinks', undefined],
    ['Anna mag Tee nicht', 'Anna mag Tee', 'likes', 'negated'],
    ['Anna mag Tee, nicht Kaffee', 'Anna mag Tee', 'likes', undefined],
    ['Anna trinkt Tee', 'Anna trinkt Tee', 'not_drinks', 'not_negated'],
    ['Vergiss nicht: Anna trinkt Tee', 'Anna trinkt Tee', 'drinks', undefined],
    ['Merk dir das nicht: Anna trinkt Tee', 'Anna trinkt Tee', 'drinks', 'do_not_keep'],
    ['Anna trinkt Tee. Vergiss es.', 'Anna trinkt Tee', 'drinks', 'do_not_keep'],
    ['Merk dir: Anna trinkt nicht gern Tee', 'Anna trinkt nicht gern Tee', 'not_likes', undefined],
    ['Das bleibt unter uns: Anna trinkt Tee', 'Anna trinkt Tee', 'drinks', 'do_not_keep'],
    ['Anna raucht nicht mehr', 'Anna raucht nicht mehr', 'smokes', 'negated'],
  ],
  fr: [
    ['Paul aime le thé', 'Paul aime le thé', 'likes', undefined],
    ['Est-ce que Paul aime le thé', 'Paul aime le thé', 'likes', 'question'],
    ['Paul aime-t-il le thé', 'Paul aime-t-il le thé', 'likes', 'question'],
    ['Pourquoi Paul aime le thé', 'Paul aime le thé', 'likes', 'question'],
    ['Paul aime le thé, non', 'Paul aime le thé', 'likes', 'question'],
    ['Paul aime peut-être le thé', 'Paul aime peut-être le thé', 'likes', 'hedge'],
    ['Je crois que Paul aime le thé', 'Paul aime le thé', 'likes', 'hedge'],
    ["S'il pleut, Paul aime le thé", 'Paul aime le thé', 'likes', 'condition'],
    ['Marie dit que Paul aime le thé', 'Paul aime le thé', 'likes', 'reported'],
    ["D'après Marie, Paul aime le thé", 'Paul aime le thé', 'likes', 'reported'],
    ["Paul n'aime pas le thé", "Paul n'aime pas le thé", 'likes', 'negated'],
    ["Paul n'aime pas le thé", "Paul n'aime pas le thé", 'not_likes', undefined],
    ['Paul aime pas le thé', 'Paul aime pas le thé', 'likes', 'negated'],
    ['Paul ne boit que du thé', 'Paul ne boit que du thé', 'drinks', undefined],
    ["N'oublie pas que Paul aime le thé", 'Paul aime le thé', 'likes', undefined],
    ["Comme je l'ai dit, Paul aime le thé", 'Paul aime le thé', 'likes', undefined],
    ['Ne note pas ça : Paul aime le thé', 'Paul aime le thé', 'likes', 'do_not_keep'],
    ['Paul aime le thé. Oublie ça.', 'Paul aime le thé', 'likes', 'do_not_keep'],
    ['Paul fume sûrement', 'Paul fume sûrement', 'smokes', 'hedge'],
    ['Marie a un chat, paraît-il', 'Marie a un chat', 'has', 'reported'],
  ],
  es: [
    ['Lucía toma té', 'Lucía toma té', 'drinks', undefined],
    ['¿Lucía toma té?', 'Lucía toma té', 'drinks', 'question'],
    ['Qué toma Lucía por la mañana', 'toma Lucía por la mañana', 'drinks', 'question'],
    ['Lucía toma té, verdad', 'Lucía toma té', 'drinks', 'question'],
    ['Quizás Lucía toma té', 'Lucía toma té', 'drinks', 'hedge'],
    ['Si Lucía viene, toma té', 'toma té', 'drinks', 'condition'],
    ['Carlos dice que Lucía toma té', 'Lucía toma té', 'drinks', 'reported'],
    ['Según Carlos, Lucía toma té', 'Lucía toma té', 'drinks', 'reported'],
    ['Lucía no toma té', 'Lucía no toma té', 'drinks', 'negated'],
    ['Lucía no toma té', 'Lucía no toma té', 'not_drinks', undefined],
    ['No olvides que Lucía toma té', 'Lucía toma té', 'drinks', undefined],
    ['Como te dije, Lucía toma té', 'Lucía toma té', 'drinks', undefined],
    ['No lo apuntes: Lucía toma té', 'Lucía toma té', 'drinks', 'do_not_keep'],
    ['Lucía toma té. Olvídalo.', 'Lucía toma té', 'drinks', 'do_not_keep'],
    ['Sergio se casa en junio', 'Sergio se casa en junio', 'marries_in', undefined],
    ['Igual Pedro toca la batería', 'Pedro toca la batería', 'plays', 'hedge'],
    ['Dicen que Pedro toca la batería', 'Pedro toca la batería', 'plays', 'reported'],
  ],
  it: [
    ['Marco beve il tè', 'Marco beve il tè', 'drinks', undefined],
    ['Marco beve il tè?', 'Marco beve il tè', 'drinks', 'question'],
    ['Dove lavora Marco adesso', 'lavora Marco adesso', 'works', 'question'],
    ['Marco beve il tè, vero', 'Marco beve il tè', 'drinks', 'question'],
    ['Forse Marco beve il tè', 'Marco beve il tè', 'drinks', 'hedge'],
    ['Se Marco viene, beve il tè', 'beve il tè', 'drinks', 'condition'],
    ['Giulia dice che Marco beve il tè', 'Marco beve il tè', 'drinks', 'reported'],
    ['Secondo Giulia, Marco beve il tè', 'Marco beve il tè', 'drinks', 'reported'],
    ['Marco non beve il tè', 'Marco non beve il tè', 'drinks', 'negated'],
    ['Marco non beve il tè', 'Marco non beve il tè', 'not_drinks', undefined],
    ['Non dimenticare che Marco beve il tè', 'Marco beve il tè', 'drinks', undefined],
    ['Come ti ho detto, Marco beve il tè', 'Marco beve il tè', 'drinks', undefined],
    ['Non segnartelo: Marco beve il tè', 'Marco beve il tè', 'drinks', 'do_not_keep'],
    ['Marco beve il tè. Dimenticalo.', 'Marco beve il tè', 'drinks', 'do_not_keep'],
  ],
  pt: [
    ['O João toma café', 'O João toma café', 'drinks', undefined],
    ['O João toma café?', 'O João toma café', 'drinks', 'question'],
    ['Onde trabalha o João agora', 'trabalha o João agora', 'works', 'question'],
    ['O João toma café, né', 'O João toma café', 'drinks', 'question'],
    ['Talvez o João tome café', 'o João tome café', 'drinks', 'hedge'],
    ['Se o João vier, toma café', 'toma café', 'drinks', 'condition'],
    ['A Ana disse que o João toma café', 'o João toma café', 'drinks', 'reported'],
    ['Segundo a Ana, o João toma café', 'o João toma café', 'drinks', 'reported'],
    ['O João não toma café', 'O João não toma café', 'drinks', 'negated'],
    ['O João não toma café', 'O João não toma café', 'not_drinks', undefined],
    ['Não esqueça que o João toma café', 'o João toma café', 'drinks', undefined],
    ['Como eu disse, o João toma café', 'o João toma café', 'drinks', undefined],
    ['Não anote isso: o João toma café', 'o João toma café', 'drinks', 'do_not_keep'],
    ['A Ana se chama Ana Paula', 'A Ana se chama Ana Paula', 'is_called', undefined],
    // Tied with English ("a"): the rules of both read it.
    ['A Rita não adora chocolate', 'A Rita não adora chocolate', 'loves', 'negated'],
    ['A Rita não adora chocolate', 'A Rita não adora chocolate', 'not_loves', undefined],
  ],
  nl: [
    ['Sanne drinkt thee', 'Sanne drinkt thee', 'drinks', undefined],
    ['Drinkt Sanne thee?', 'Drinkt Sanne thee', 'drinks', 'question'],
    ['Drinkt Sanne thee', 'Drinkt Sanne thee', 'drinks', 'question'],
    ['Sanne drinkt thee, toch', 'Sanne drinkt thee', 'drinks', 'question'],
    ['Misschien drinkt Sanne thee', 'drinkt Sanne thee', 'drinks', 'hedge'],
    ['Als Sanne komt, drinkt ze thee', 'drinkt ze thee', 'drinks', 'condition'],
    ['Daan werkt als verpleger', 'Daan werkt als verpleger', 'works_as', undefined],
    ['Pieter zegt dat Sanne thee drinkt', 'Sanne thee drinkt', 'drinks', 'reported'],
    ['Volgens Pieter drinkt Sanne thee', 'drinkt Sanne thee', 'drinks', 'reported'],
    ['Sanne drinkt geen thee', 'Sanne drinkt geen thee', 'drinks', 'negated'],
    ['Sanne drinkt geen thee', 'Sanne drinkt geen thee', 'not_drinks', undefined],
    ['Sanne drinkt thee niet', 'Sanne drinkt thee', 'drinks', 'negated'],
    ['Vergeet niet dat Sanne thee drinkt', 'Sanne thee drinkt', 'drinks', undefined],
    ['Onthoud dit niet: Sanne drinkt thee', 'Sanne drinkt thee', 'drinks', 'do_not_keep'],
  ],
  ja: [
    ['佐藤さんは紅茶が好きです', '佐藤さんは紅茶が好き', 'likes', undefined],
    ['佐藤さんは紅茶が好きですか？', '佐藤さんは紅茶が好き', 'likes', 'question'],
    ['佐藤さんは紅茶が好きですか', '佐藤さんは紅茶が好きですか', 'likes', 'question'],
    ['佐藤さんは紅茶が好きだっけ', '佐藤さんは紅茶が好き', 'likes', 'question'],
    ['佐藤さんは静か', '佐藤さんは静か', 'is', undefined],
    ['佐藤さんはたぶん紅茶が好き', '佐藤さんはたぶん紅茶が好き', 'likes', 'hedge'],
    ['佐藤さんは紅茶が好きだと思う', '佐藤さんは紅茶が好き', 'likes', 'hedge'],
    ['もし佐藤さんが来たら、紅茶を出して', '佐藤さんが来たら、紅茶を出して', 'drinks', 'condition'],
    ['佐藤さんは紅茶が好きらしい', '佐藤さんは紅茶が好き', 'likes', 'reported'],
    ['佐藤さんは紅茶が好きじゃない', '佐藤さんは紅茶が好き', 'likes', 'negated'],
    ['佐藤さんは紅茶が好きじゃない', '佐藤さんは紅茶が好きじゃない', 'not_likes', undefined],
    ['忘れないでね、佐藤さんは紅茶が好き', '佐藤さんは紅茶が好き', 'likes', undefined],
    ['記録しないで。佐藤さんは紅茶が好き', '佐藤さんは紅茶が好き', 'likes', 'do_not_keep'],
  ],
  zh: [
    ['张伟喜欢绿茶', '张伟喜欢绿茶', 'likes', undefined],
    ['张伟喜欢绿茶吗？', '张伟喜欢绿茶', 'likes', 'question'],
    ['张伟喜欢绿茶吗', '张伟喜欢绿茶吗', 'likes', 'question'],
    ['张伟喜不喜欢绿茶', '张伟喜不喜欢绿茶', 'likes', 'question'],
    ['张伟喜欢什么茶', '张伟喜欢什么茶', 'likes', 'question'],
    ['张伟什么都吃', '张伟什么都吃', 'eats', undefined],
    ['张伟可能喜欢绿茶', '张伟可能喜欢绿茶', 'likes', 'hedge'],
    ['如果张伟来了，给他绿茶', '给他绿茶', 'drinks', 'condition'],
    ['李娜说张伟喜欢绿茶', '张伟喜欢绿茶', 'likes', 'reported'],
    ['张伟说英语', '张伟说英语', 'speaks', undefined],
    ['听说张伟喜欢绿茶', '张伟喜欢绿茶', 'likes', 'reported'],
    ['张伟不喜欢绿茶', '张伟不喜欢绿茶', 'likes', 'negated'],
    ['张伟不喜欢绿茶', '张伟不喜欢绿茶', 'not_likes', undefined],
    ['张伟的字写得不错', '张伟的字写得不错', 'writes', undefined],
    ['别忘了，张伟喜欢绿茶', '张伟喜欢绿茶', 'likes', undefined],
    ['别记这个：张伟喜欢绿茶', '张伟喜欢绿茶', 'likes', 'do_not_keep'],
  ],
  ko: [
    ['민수는 커피를 좋아해요', '민수는 커피를 좋아해요', 'likes', undefined],
    ['민호가 커피를 좋아한대', '민호가 커피를 좋아한대', 'likes', 'reported'],
    ['민수는 커피를 좋아해요?', '민수는 커피를 좋아해요', 'likes', 'question'],
    ['민수는 커피를 좋아하나요', '민수는 커피를 좋아하나요', 'likes', 'question'],
    ['민수는 커피를 좋아합니까', '민수는 커피를 좋아합니까', 'likes', 'question'],
    ['민수는 학교에 가요', '민수는 학교에 가요', 'goes_to', undefined],
    ['민수는 아마 커피를 좋아할 거예요', '민수는 아마 커피를 좋아할 거예요', 'likes', 'hedge'],
    ['민수는 커피를 좋아하는 것 같아요', '민수는 커피를 좋아하는 것 같아요', 'likes', 'hedge'],
    ['민수가 오면 커피를 줘', '민수가 오면 커피를 줘', 'drinks', 'condition'],
    ['민수는 라면을 좋아해요', '민수는 라면을 좋아해요', 'likes', undefined],
    ['민수는 커피를 좋아한다고 들었어요', '민수는 커피를 좋아한다', 'likes', 'reported'],
    ['민수는 커피를 안 마셔요', '민수는 커피를 안 마셔요', 'drinks', 'negated'],
    ['민수는 커피를 마시지 않아요', '민수는 커피를 마시', 'drinks', 'negated'],
    ['민수는 커피를 안 마셔요', '민수는 커피를 안 마셔요', 'not_drinks', undefined],
    ['안나는 커피를 좋아해요', '안나는 커피를 좋아해요', 'likes', undefined],
    ['잊지 마, 민수는 커피를 좋아해', '민수는 커피를 좋아해', 'likes', undefined],
    ['이건 기억하지 마: 민수는 커피를 좋아해', '민수는 커피를 좋아해', 'likes', 'do_not_keep'],
  ],
};

describe('assertion rules per language and construction', () => {
  for (const language of LANGUAGES) {
    it(`${language}: questions, hedges, conditions, reports, negation (not_), do-not-keep, and their look-alikes`, () => {
      const wrong = CUES[language]
        .map(([utterance, evidence, predicate, expected]) => [utterance, cue(utterance, evidence, predicate), expected])
        .filter(([, got, expected]) => got !== expected)
        .map(([utterance, got, expected]) => `${utterance}: ${got} (expected ${expected})`);
      expect(wrong).to.deep.equal([]);
    });
  }
});

describe('attribution per language: clause words, relative pronouns, possessives and appositions', () => {
  const cases: Array<[string, string, string, boolean]> = [
    // English possessives: the relative's verb, not the possessor's.
    ["Alice's friend Bob likes tea", 'Alice', 'tea', false],
    ["Alice's friend Bob likes tea", 'Bob', 'tea', true],
    ["Alice's older brother plays golf", 'Alice', 'golf', false],
    ["Alice's mother is Carol", 'Alice', 'Carol', true],
    ["Alice's favourite drink is tea", 'Alice', 'tea', true],
    ['The brother of Alice, Tom, plays golf', 'Alice', 'golf', false],
    // German, French, Spanish, Italian, Portuguese, Dutch: "the friend of X, Y, …".
    ['Der Freund von Anna, Ben, trinkt Tee', 'Anna', 'Tee', false],
    ["L'ami de Marie, Paul, aime le rugby", 'Marie', 'le rugby', false],
    ['La hermana de Lucía, Ana, toca el piano', 'Lucía', 'el piano', false],
    ["L'amico di Marco, Paolo, ama il calcio", 'Marco', 'il calcio', false],
    ['O irmão da Ana, Rui, joga futebol', 'Ana', 'futebol', false],
    ['De broer van Sanne, Bram, speelt voetbal', 'Sanne', 'voetbal', false],
    // Relatives and clause words of the new tables.
    ['Marco conosce Paolo che gioca a scacchi', 'Marco', 'scacchi', false],
    ['Giulia beve vino ma Marco preferisce la birra', 'Giulia', 'la birra', false],
    ['O João conhece o Rui que joga xadrez', 'João', 'xadrez', false],
    ['A Ana bebe vinho mas o João prefere cerveja', 'Ana', 'cerveja', false],
    ['Sanne heeft een collega die kippen houdt', 'Sanne', 'kippen', false],
    ['Sanne drinkt wijn maar Pieter drinkt bier', 'Sanne', 'bier', false],
    ['Marco e Paolo giocano a scacchi', 'Marco', 'scacchi', true],
    ['Sanne en Pieter drinken thee', 'Sanne', 'thee', true],
    // Japanese: の with a relation noun; a second topic は; connectives.
    ['山田さんの友達の鈴木さんはコーヒーが好きです', '山田', 'コーヒー', false],
    ['山田さんの友達の鈴木さんはコーヒーが好きです', '鈴木', 'コーヒー', true],
    ['健太のお姉さんはピアノを弾きます', '健太', 'ピアノ', false],
    ['健太の趣味は将棋です', '健太', '将棋', true],
    ['美咲さんは犬が好きで健太は猫が好き', '美咲', '猫', false],
    ['佐藤さんは紅茶が好きだけどコーヒーも飲む', '佐藤', 'コーヒー', false],
    ['田中部長は紅茶が好きです', '田中', '紅茶', true],
    // Chinese: 的 with a relation noun; conjunctions.
    ['李娜的朋友王芳喜欢咖啡', '李娜', '咖啡', false],
    ['李娜的朋友王芳喜欢咖啡', '王芳', '咖啡', true],
    ['张伟的姐姐会弹钢琴', '张伟', '钢琴', false],
    ['张伟的爱好是钓鱼', '张伟', '钓鱼', true],
    ['王芳喜欢狗而陈静喜欢猫', '王芳', '猫', false],
    ['张伟喜欢茶但是李娜喜欢咖啡', '张伟', '咖啡', false],
    // Korean: 의 or nothing before a relation noun; connective endings; a second topic.
    ['민호의 친구 지훈이는 축구를 좋아해', '민호', '축구', false],
    ['민호의 친구 지훈이는 축구를 좋아해', '지훈', '축구', true],
    ['수진이 동생은 피아노를 쳐요', '수진', '피아노', false],
    ['지민 씨는 차를 좋아하지만 민호는 커피를 좋아해요', '지민', '커피', false],
    ['수진이는 개를 좋아하고 민호는 고양이를 좋아해', '수진', '고양이', false],
    ['지민 씨는 매일 아침 커피를 마셔요', '지민', '커피', true],
    ['민수는 서울에서 커피를 마셔요', '민수', '커피', true],
    ['민호한테 커피를 줬어', '민호', '커피', true],
    // A relative clause before its noun (Japanese, Chinese, Korean): the value is that noun's.
    ['健太は猫が好きな美咲さんと住んでいる', '健太', '猫', false],
    ['健太は猫を飼っている', '健太', '猫', true],
    ['健太は寿司が好きなんです', '健太', '寿司', true],
    ['张伟认识喜欢下棋的李娜', '张伟', '下棋', false],
    ['张伟是李娜的朋友', '张伟', '李娜', true],
    ['张伟和李娜都喜欢喝咖啡', '张伟', '喝咖啡', true],
    ['민호는 커피를 좋아하는 지훈이를 안다', '민호', '커피', false],
    ["Sanne's vriend Bram houdt van jazz", 'Sanne', 'jazz', false],
  ];
  for (const [evidence, subject, value, admit] of cases) {
    it(`${admit ? 'gives' : 'does not give'} ${value} to ${subject} in ${JSON.stringify(evidence)}`, () => {
      expect(belongs(evidence, subject, value)).to.equal(admit);
    });
  }
});

describe('language rules, rule by rule (what the corpus does not pin down)', () => {
  it('writes every pattern of every table folded, without the i flag, as the folded text it reads', () => {
    // A pattern's letters outside its escapes (\p{…}, \u{…}, \b, \s…) and its groups' syntax.
    const literals = (source: string) =>
      source
        .replace(/\\(?:[pPu]\{[^}]*\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/gsu, '')
        .replace(/\(\?(?:<[=!]|[:=!])/g, '');
    const tables: Array<[string, Record<string, unknown>]> = [
      ...Object.entries(ASSERTION_RULES).map(([language, rules]): [string, Record<string, unknown>] => [
        `assertion ${language}`,
        { ...rules },
      ]),
      ...Object.entries(CLAUSE_RULES).map(([language, rules]): [string, Record<string, unknown>] => [
        `clause ${language}`,
        { ...rules },
      ]),
    ];
    let patterns = 0;
    for (const [table, rules] of tables)
      for (const [key, value] of Object.entries(rules))
        for (const pattern of [value].flat().filter((v): v is RegExp => v instanceof RegExp)) {
          patterns += 1;
          const where = `${table} ${key} /${pattern.source}/${pattern.flags}`;
          expect(pattern.flags, where).to.equal('u');
          expect(caseFold(literals(pattern.source)), where).to.equal(literals(pattern.source));
          // A case property (\p{Lu}, \p{Ll}…) would read folded text otherwise than it reads.
          expect(pattern.source, where).to.not.match(/\\[pP]\{(?!L\}|M\}|N\}|Script=)/u);
        }
    expect(patterns).to.be.above(100);
    // The check reads a pattern as the tables write it: a capital, a case property or the i flag fails it.
    expect(literals(String.raw`(?<![\p{L}'])(?:maybe|i\s+think)\b`)).to.equal("['])maybe|i+think)");
    expect(caseFold(literals('Maybe'))).to.not.equal(literals('Maybe'));
  });

  it('reads cues in capitals and compatibility forms, the text being folded before any pattern', () => {
    expect(notAsserted('MAYBE Ada likes tea', [6, 19], 'likes')).to.equal('hedge');
    expect(notAsserted("DON'T STORE THIS: Ada likes tea", [18, 31], 'likes')).to.equal('do_not_keep');
    expect(notAsserted('Ada does NOT eat fish', [0, 21], 'eats')).to.equal('negated');
    expect(notAsserted('Ada DOESN’T eat fish', [0, 20], 'eats')).to.equal('negated');
    expect(notAsserted('Bruno SAYS Ada likes tea', [11, 24], 'likes')).to.equal('reported');
    expect(notAsserted('IF Ada likes tea, buy some', [3, 16], 'likes')).to.equal('condition');
    // ſ (long s) and K (Kelvin sign) fold to s and k.
    expect(notAsserted('Ada doeſn’t eat fish', [0, 20], 'eats')).to.equal('negated');
    expect(notAsserted('Ada li\u212Aes tea', [0, 14], 'likes')).to.equal(undefined);
    expect(notAsserted('Ada likes tea', [0, 13], 'likes')).to.equal(undefined);
    // ß folds to ss: German cues written with it are read in folded text, as are those written with ss.
    expect(notAsserted('Anna mag Tee, heißt es', [0, 12], 'likes')).to.equal('reported');
    expect(notAsserted('Anna mag Tee, heisst es', [0, 12], 'likes')).to.equal('reported');
    expect(notAsserted('Wie du weißt, mag Anna Tee', [14, 26], 'likes')).to.equal(undefined);
    expect(notAsserted('Wie immer, mag Anna Tee', [11, 23], 'likes')).to.equal('question');
    expect(notAsserted('Heißt sie Anna Maria', [0, 20], 'is_called')).to.equal('question');
    expect(notAsserted('Weißt du ob Anna Tee mag', [12, 24], 'likes')).to.equal('question');
    // "Weißt du, …" opens a statement ("you know, …"); a question word after the comma still asks.
    expect(notAsserted('Weißt du, Anna trinkt gern Tee.', [10, 30], 'drinks')).to.equal(undefined);
    expect(notAsserted('Weißt du, wo Anna wohnt', [13, 23], 'lives')).to.equal('question');
    expect(notAsserted('Weißt du das', [0, 12], 'knows')).to.equal('question');
  });

  it('reads tied languages with one merged rule set, built once per tie', () => {
    const merged = assertionRulesFor('Ana toma café')!;
    expect(assertionRulesFor('Ana toma café')).to.equal(merged);
    expect(merged).to.not.equal(ASSERTION_RULES.es);
    for (const key of [
      'doNotKeep',
      'hedges',
      'conditions',
      'reportedBefore',
      'reportedAnywhere',
      'ownWords',
      'negation',
      'notNegating',
      'questions',
      'requests',
      'retractions',
    ] as const)
      expect(merged[key], key).to.deep.equal([
        ...(ASSERTION_RULES.es![key] ?? []),
        ...(ASSERTION_RULES.pt![key] ?? []),
      ]);
    expect(merged.negationAfter).to.equal(true);
    // English tied with another language: English's rules and the other's.
    const withEnglish = assertionRulesFor('A Rita não adora chocolate')!;
    expect(withEnglish.hedges).to.deep.equal([...ENGLISH.hedges, ...ASSERTION_RULES.pt!.hedges]);
    expect(withEnglish.questions).to.deep.equal([...ENGLISH.questions!, ...ASSERTION_RULES.pt!.questions!]);
  });

  it('adds the cues of a language one word behind, but not its negation', () => {
    // Italian "se" and Spanish "al": one word each of Italian and Spanish, and the Italian condition counts.
    expect(likelyLanguages('se piove, lorenzo va al lavoro')).to.deep.equal(['es', 'it']);
    // Two Spanish words ("se", "al") to one Italian ("se"): Spanish leads, Italian is one behind.
    expect(likelyLanguages('se piove, lorenzo va al lavoro in autobus con')).to.deep.equal(['es']);
    expect(likelyLanguages('se piove, lorenzo va al lavoro in autobus con', 1)).to.deep.equal(['es', 'it']);
    const near = assertionRulesFor('se piove, lorenzo va al lavoro in autobus con')!;
    expect(near.conditions).to.deep.equal([...ASSERTION_RULES.es!.conditions, ...ASSERTION_RULES.it!.conditions]);
    // The leader's negation only: Spanish "no" is Portuguese "in the".
    expect(near.negation).to.deep.equal(ASSERTION_RULES.es!.negation);
    expect(near.notNegating).to.deep.equal(ASSERTION_RULES.es!.notNegating);
    expect(near.negationAfter).to.equal(ASSERTION_RULES.es!.negationAfter ?? false);
    expect(assertionRulesFor('se piove, lorenzo va al lavoro in autobus con')).to.equal(near);
    expect(cue('Se piove, Lorenzo va al lavoro in autobus con Marta', 'Lorenzo va al lavoro in autobus')).to.equal(
      'condition',
    );
    expect(cue('Lembra-te: a Mariana agora mora no Porto.', 'a Mariana agora mora no Porto', 'lives_in')).to.equal(
      undefined,
    );
    // Two words behind is not near.
    expect(likelyLanguages('Ada lives in Lyon with her cat', 1)).to.deep.equal(['en']);
  });

  it('counts a negation after the evidence only up to the end of its clause', () => {
    expect(cue('佐藤さんは紅茶が好き、コーヒーは好きじゃない', '佐藤さんは紅茶が好き', 'likes')).to.equal(undefined);
    expect(cue('佐藤さんは紅茶が好きじゃない、コーヒーが好き', '佐藤さんは紅茶が好き', 'likes')).to.equal('negated');
    expect(cue('Anna mag Tee; Ben mag ihn nicht', 'Anna mag Tee', 'likes')).to.equal(undefined);
    expect(cue('Anna mag Tee nicht. Ben schon', 'Anna mag Tee', 'likes')).to.equal('negated');
    // English keeps its rule: a negation after the evidence does not count.
    expect(cue('Ada eats fish and never meat', 'Ada eats fish', 'eats')).to.equal(undefined);
  });

  it('reads a question without a mark in the sentence without its closing marks', () => {
    expect(cue('佐藤さんは紅茶が好きですか。', '佐藤さんは紅茶が好き', 'likes')).to.equal('question');
    expect(cue('张伟喜欢绿茶吗。', '张伟喜欢绿茶', 'likes')).to.equal('question');
    expect(cue('민수는 커피를 좋아하나요.', '민수는 커피를 좋아하', 'likes')).to.equal('question');
    expect(cue('  Trinkt Anna Tee …', 'Trinkt Anna Tee', 'drinks')).to.equal('question');
    // Only the evidence's sentence counts.
    expect(cue('Trinkt Anna Tee. Ben trinkt Kaffee.', 'Ben trinkt Kaffee', 'drinks')).to.equal(undefined);
  });

  it('refuses an inverted question mark before text in a script the rules do not read as a question', () => {
    expect(cue('¿Анна любит чай', 'Анна любит чай')).to.equal('question');
    expect(cue('Η Άννα πίνει τσάι. Μπόρις?', 'Η Άννα πίνει τσάι')).to.equal('language');
  });

  it('takes a text as another script only when more of its letters are in it than in Latin', () => {
    expect(languageOf('ab аб')).to.equal('en');
    expect(languageOf('ab абв')).to.equal('ru');
    expect(languageOf('ab αβγ')).to.equal(undefined);
    expect(languageOf('')).to.equal('en');
    expect(languageOf('123')).to.equal('en');
    // Hangul before kana before Han.
    expect(languageOf('민수는 アリス 張')).to.equal('ko');
    expect(languageOf('アリス 張')).to.equal('ja');
  });

  it('reads a possessor before the subject only when the value follows the subject', () => {
    expect(belongs('Carmen es la hermana de Bruno', 'Bruno', 'Carmen')).to.equal(true);
    expect(belongs('La hermana de Bruno es Carmen', 'Bruno', 'Carmen')).to.equal(false);
    expect(belongs('Grace is the manager of Ada', 'Ada', 'Grace')).to.equal(true);
    expect(belongs('The manager of Ada is Grace', 'Ada', 'Grace')).to.equal(true);
    expect(belongs('The friend of Ada likes Grace', 'Ada', 'Grace')).to.equal(false);
  });

  it('reads a relative clause before its noun only after a value that follows the subject', () => {
    expect(belongs('张伟喜欢红茶的味道', '张伟', '红茶')).to.equal(false);
    // A value before the subject: the subject's own when the clause modifies the subject itself.
    expect(belongs('喜欢下棋的张伟住在上海', '张伟', '下棋')).to.equal(true);
    expect(belongs('喜欢下棋的李娜认识张伟', '张伟', '下棋')).to.equal(false);
    expect(belongs('猫が好きな健太は東京に住んでいる', '健太', '猫')).to.equal(true);
    expect(belongs('猫が好きな美咲さんと健太は住んでいる', '健太', '猫')).to.equal(false);
    expect(belongs('커피를 좋아하는 지훈이와 민호는 친구다', '민호', '커피')).to.equal(false);
    expect(belongs('张伟喜欢红茶', '张伟', '红茶')).to.equal(true);
  });
});

describe("wholeSpans(): Hebrew's one-letter prefixes", () => {
  const spans = (text: string, needle: string) =>
    wholeSpans(toMatchText(text)!, toMatchText(needle)!, { particles: true, name: true });

  it('finds a name or value after one to three prefix letters (ב ה ו כ ל מ ש), and nowhere else inside a word', () => {
    expect(spans('ההורים שלי גרים בחיפה', 'חיפה')).to.deep.equal([[17, 21]]);
    expect(spans('לדוד יש שלושה ילדים', 'דוד')).to.deep.equal([[1, 4]]);
    expect(spans('ובבית גר דן', 'בית')).to.deep.equal([[2, 5]]);
    // Not after a letter that is no prefix, nor before more of a word, nor after four prefix letters.
    expect(spans('אבדוד', 'דוד')).to.deep.equal([]);
    expect(spans('בדודו', 'דוד')).to.deep.equal([]);
    expect(spans('ובבהדוד', 'דוד')).to.deep.equal([]);
  });
});

describe('wholeSpans(): endings a language writes onto a name or value inside a word (Swedish -s, Turkish cases)', () => {
  const spans = (text: string, needle: string, language: string) =>
    wholeSpans(toMatchText(text)!, toMatchText(needle)!, {
      particles: true,
      name: true,
      wordEndings: CLAUSE_RULES[language]!.wordEndings,
    });

  it('finds a Swedish name before its genitive -s, and nowhere else inside a word', () => {
    expect(clauseRulesFor('Elsas favoritfärg är gul.').language).to.equal('sv');
    expect(spans('Elsas favoritfärg är gul.', 'Elsa', 'sv')).to.deep.equal([[0, 4]]);
    expect(spans('Erik är Saras bror.', 'Sara', 'sv')).to.deep.equal([[8, 12]]);
    expect(spans('Elsabet är gul.', 'Elsa', 'sv')).to.deep.equal([]);
    expect(spans('Elsass är gul.', 'Elsa', 'sv')).to.deep.equal([]);
    expect(spans('Elsas2 är gul.', 'Elsa', 'sv')).to.deep.equal([]);
    // Only in Swedish: English "Bills" is no genitive of Bill, nor a value without particles.
    expect(spans('Bills are due.', 'Bill', 'en')).to.deep.equal([]);
    expect(
      wholeSpans(toMatchText('Elsas bror')!, toMatchText('Elsa')!, { wordEndings: CLAUSE_RULES.sv!.wordEndings }),
    ).to.deep.equal([]);
  });

  it('finds a Turkish noun before its case and possessive endings, and not before other letters', () => {
    expect(clauseRulesFor('Burak mantıya bayılır.').language).to.equal('tr');
    expect(spans('Burak mantıya bayılır.', 'mantı', 'tr')).to.deep.equal([[6, 11]]);
    expect(spans('Deniz üçüncü sınıfa gidiyor.', 'üçüncü sınıf', 'tr')).to.deep.equal([[6, 18]]);
    expect(spans('en güzel baklavasını yapar', 'baklava', 'tr')).to.deep.equal([[9, 16]]);
    expect(spans('çayları içti', 'çay', 'tr')).to.deep.equal([[0, 3]]);
    expect(spans('annemde kaldı', 'anne', 'tr')).to.deep.equal([[0, 4]]);
    // A derivation is another word: tuzlu (salty) is not tuz (salt), kahveci (coffee seller) not kahve.
    expect(spans('çorba tuzlu', 'tuz', 'tr')).to.deep.equal([]);
    expect(spans('kahveci geldi', 'kahve', 'tr')).to.deep.equal([]);
  });
});

describe('notAsserted(): a request to remember, in every language with rules that writes one before what it keeps', () => {
  const read = (utterance: string, evidence: string, name: string) => {
    const at = utterance.indexOf(evidence);
    return notAsserted(utterance, [at, at + evidence.length], 'p', undefined, [name]);
  };
  // [language, the request, the same request around a hedge, around a whether-question, the name]
  const cases: ReadonlyArray<readonly [string, string, string, string | undefined, string]> = [
    ['de', 'Kannst du dir merken, dass Anna gern Tee trinkt?', 'Anna vielleicht Tee mag', 'ob', 'Anna'],
    ['de', 'Könnten Sie bitte notieren, dass Anna in Köln wohnt?', 'Anna wohl in Köln wohnt', undefined, 'Anna'],
    ['fr', 'Tu peux retenir que Paul aime le café ?', 'Paul aime peut-être le café', 'si', 'Paul'],
    ['fr', "Pourrais-tu noter qu'Anna habite à Lyon ?", 'Anna habite probablement à Lyon', undefined, 'Anna'],
    ['es', '¿Puedes recordar que Lucía vive en Sevilla?', 'Lucía quizás vive en Sevilla', 'si', 'Lucía'],
    ['it', 'Puoi ricordare che Marco beve il caffè?', 'Marco forse beve il caffè', 'se', 'Marco'],
    ['pt', 'Você pode lembrar que a Rita mora em Lisboa?', 'a Rita talvez mora em Lisboa', 'se', 'Rita'],
    ['nl', 'Kun je onthouden dat Sanne in Utrecht woont?', 'Sanne misschien in Utrecht woont', 'of', 'Sanne'],
    ['ar', 'هل يمكنك أن تتذكر أن سامي يحب القهوة؟', 'سامي ربما يحب القهوة', undefined, 'سامي'],
    ['hi', 'क्या आप याद रख सकते हैं कि राज चाय पीता है?', 'राज शायद चाय पीता है', undefined, 'राज'],
    ['ru', 'Можешь запомнить, что Анна пьёт чай?', 'Анна, наверное, пьёт чай', 'ли', 'Анна'],
    ['sv', 'Kan du komma ihåg att Elsa gillar te?', 'Elsa kanske gillar te', 'om', 'Elsa'],
    ['zh', '你能帮我记住张伟喜欢咖啡吗？', '张伟可能喜欢咖啡', undefined, '张伟'],
    ['zh', '请记住，张伟住在上海，好吗？', '张伟也许住在上海', undefined, '张伟'],
  ];

  for (const [language, utterance, hedged, whether, name] of cases) {
    it(`${language}: keeps what is asked to be kept, and still reads it: ${utterance}`, () => {
      // What is to be kept: from the name to the end of the sentence, without its mark and the request's close.
      const evidence = utterance.slice(utterance.indexOf(name)).replace(/(?:[，,]?好吗|吗)?\s*[?？؟]$/u, '');
      expect(read(utterance, evidence, name), evidence).to.equal(undefined);
      const unsure = utterance.replace(evidence, hedged);
      expect(read(unsure, hedged, name), unsure).to.equal('hedge');
      if (whether !== undefined) {
        // "Can you remember whether…" asks; the whether-word takes the complementizer's place.
        const asked = utterance.replace(/(?<=[\s,])(?:dass|que|qu'|che|dat|что|att)(?=[\s'])\s?/u, `${whether} `);
        expect(asked, 'a whether-question').to.not.equal(utterance);
        expect(read(asked, evidence, name), asked).to.not.equal(undefined);
      }
    });
  }

  it('tr: a request before or after what it keeps, in the imperative (hatırla, not al, aklında tut) or asking (hatırlar mısın)', () => {
    expect(read('Şunu hatırla: Ayşe hemşire.', 'Ayşe hemşire', 'Ayşe')).to.equal(undefined);
    expect(read('Unutma, Ayşe hemşire.', 'Ayşe hemşire', 'Ayşe')).to.equal(undefined);
    expect(read('Hatırlar mısın, Mehmet her sabah çay içiyor.', 'Mehmet her sabah çay içiyor', 'Mehmet')).to.equal(
      undefined,
    );
    expect(read('Mehmet her sabah çay içiyor, bunu not al.', 'Mehmet her sabah çay içiyor', 'Mehmet')).to.equal(
      undefined,
    );
    expect(read('Aklında tutar mısın? Elif kahve seviyor.', 'Elif kahve seviyor', 'Elif')).to.equal(undefined);
    // What is kept is still read: a negation, a question, a request not to keep.
    expect(read('Aklında tut: Elif kahve sevmez.', 'Elif kahve sevmez', 'Elif')).to.equal('negated');
    expect(read('Mehmet çay içmiyor, bunu not al.', 'Mehmet çay içmiyor', 'Mehmet')).to.equal('negated');
    expect(read('Mehmet çay içiyor, bunu not etme.', 'Mehmet çay içiyor', 'Mehmet')).to.equal('do_not_keep');
    expect(read('Not al: Mehmet her sabah çay içiyor mu?', 'Mehmet her sabah çay içiyor', 'Mehmet')).to.equal(
      'question',
    );
    // The request that makes what it keeps a noun (…olduğunu hatırlar mısın?) is refused: its clause is no
    // statement the rules read (a known limit, on the safe side).
    expect(read("Ayşe'nin hemşire olduğunu hatırlar mısın?", "Ayşe'nin hemşire olduğunu", 'Ayşe')).to.not.equal(
      undefined,
    );
  });

  it('ja: a request after what it keeps (…だって覚えておいてくれる？); "覚えてる？", do you remember, still asks', () => {
    const asks = (utterance: string, evidence: string) => {
      // The evidence is whole words of the utterance, as remember finds it.
      expect(findWholeSpan(toMatchText(utterance)!, toMatchText(evidence)!), utterance).to.not.equal(undefined);
      return read(utterance, evidence, '美咲');
    };
    expect(asks('美咲はコーヒーが好きだって覚えておいてくれる？', '美咲はコーヒーが好き')).to.equal(undefined);
    expect(asks('美咲は東京に住んでいると覚えておいてください。', '美咲は東京に住んでいる')).to.equal(undefined);
    expect(asks('美咲はたぶんコーヒーが好きだって覚えておいてくれる？', '美咲はたぶんコーヒーが好き')).to.equal(
      'hedge',
    );
    expect(asks('美咲はコーヒーが好きだって覚えてる？', '美咲はコーヒーが好き')).to.equal('question');
    expect(asks('美咲はコーヒーが好きって言ってた', '美咲はコーヒーが好き')).to.equal('reported');
  });

  it('ko: a request after what it keeps, quoted with 고 (…다고 기억해 줄래요?); a report with 다고 still refuses', () => {
    const asks = (utterance: string, evidence: string) => {
      expect(findWholeSpan(toMatchText(utterance)!, toMatchText(evidence)!), utterance).to.not.equal(undefined);
      return read(utterance, evidence, '민수');
    };
    expect(asks('민수가 커피를 좋아한다고 기억해 줄래요?', '민수가 커피를 좋아한다고')).to.equal(undefined);
    expect(asks('민수는 서울에 산다고 기억해 줘.', '민수는 서울에 산다고')).to.equal(undefined);
    expect(asks('민수가 아마 커피를 좋아한다고 기억해 줄래요?', '민수가 아마 커피를 좋아한다고')).to.equal('hedge');
    expect(asks('민수가 커피를 안 좋아한다고 기억해 줘', '민수가 커피를 안 좋아한다고')).to.equal('negated');
    expect(asks('민수가 커피를 좋아한다고 했다고 기억해 줘', '민수가 커피를 좋아한다고 했다고')).to.equal('reported');
    expect(asks('민수가 커피를 좋아한다고 들었어요', '민수가 커피를 좋아한다고')).to.equal('reported');
    expect(asks('민수가 커피를 좋아한다고 기억해요?', '민수가 커피를 좋아한다고')).to.not.equal(undefined);
  });

  it('th: a request before what it keeps (ช่วยจำไว้ว่า…), its close after it (ได้ไหม, นะคะ); a question still asks', () => {
    const asks = (utterance: string, evidence: string) => {
      expect(findWholeSpan(toMatchText(utterance)!, toMatchText(evidence)!), utterance).to.not.equal(undefined);
      return read(utterance, evidence, 'มาลี');
    };
    expect(asks('ช่วยจำไว้ว่ามาลีชอบกาแฟได้ไหม', 'มาลีชอบกาแฟ')).to.equal(undefined);
    expect(asks('จดไว้หน่อยว่ามาลีอยู่เชียงใหม่นะคะ', 'มาลีอยู่เชียงใหม่')).to.equal(undefined);
    expect(asks('ช่วยจำไว้ว่ามาลีอาจจะชอบกาแฟได้ไหม', 'มาลีอาจจะชอบกาแฟ')).to.equal('hedge');
    expect(asks('ช่วยจำไว้ว่ามาลีไม่ชอบกาแฟได้ไหม', 'มาลีไม่ชอบกาแฟ')).to.equal('negated');
    expect(asks('ช่วยจำไว้ว่ามาลีชอบกาแฟหรือเปล่า', 'มาลีชอบกาแฟ')).to.equal('question');
    expect(asks('มาลีชอบกาแฟไหม', 'มาลีชอบกาแฟ')).to.equal('question');
  });

  it('he: a request before what it keeps, whose complementizer ש is written onto it; אם (whether) still refuses', () => {
    expect(read('תוכל לזכור שדני אוהב קפה?', 'שדני אוהב קפה', 'דני')).to.equal(undefined);
    expect(read('תוכל לזכור שדני אולי אוהב קפה?', 'שדני אולי אוהב קפה', 'דני')).to.equal('hedge');
    expect(read('תוכל לזכור אם דני אוהב קפה?', 'דני אוהב קפה', 'דני')).to.not.equal(undefined);
  });

  it('zh: "do you remember…?" without a modal or please is a question, and an A-not-A inside it too', () => {
    expect(read('你记得张伟喜欢咖啡吗？', '张伟喜欢咖啡', '张伟')).to.equal('question');
    expect(read('你能帮我记住张伟喜不喜欢咖啡吗？', '张伟喜不喜欢咖啡', '张伟')).to.equal('question');
  });
});
