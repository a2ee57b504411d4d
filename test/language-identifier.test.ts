import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit, languageOf, likelyLanguages, loadLanguageIdentifier } from '@mira/plugin-memory-tools';
import { identifiedLanguage } from '../plugins/memory-tools/src/language-identifier.js';
import { UNREAD_LANGUAGES_HELDOUT } from './fixtures/unread-languages-heldout.js';

// The language identifier (eld) beside the clause tables: asked about Latin-script text of four words or more
// whose words the tables barely read, and heard only when it is sure of a language without rules.

/**
 * Refused as a language without rules, today, in each language of the held-out corpus (8 each): 73 of 120 (by the
 * tables alone 42). The rest is read as a language with rules (Catalan as Spanish, Swahili as English…) and
 * decided by its rules: a known limit, on the side the identifier cannot tell.
 */
const REFUSED_TODAY: Readonly<Record<string, number>> = {
  cs: 5, sk: 5, da: 6, nb: 5, fi: 6, hu: 6, ro: 7, hr: 8, sl: 4, et: 4, lt: 2, lv: 4, ca: 3, tl: 7, sw: 1,
}; // prettier-ignore

describe('the language identifier: text in a language without rules that shares none of their words', function () {
  this.timeout(60_000);
  before(() => loadLanguageIdentifier());

  it('names each language with rules as one with rules, a language without as without, and nothing on little text', () => {
    const clear: Record<string, string> = {
      en: 'The children walk to school every morning with their dog',
      de: 'Die Kinder gehen jeden Morgen mit ihrem Hund zur Schule',
      fr: "Les enfants vont à l'école tous les matins avec leur chien",
      es: 'Los niños van a la escuela todas las mañanas con su perro',
      it: 'I bambini vanno a scuola ogni mattina con il loro cane',
      pt: 'As crianças vão para a escola todas as manhãs com o cachorro',
      nl: 'De kinderen lopen elke ochtend met hun hond naar school',
      pl: 'Dzieci chodzą codziennie rano do szkoły ze swoim psem',
      tr: 'Çocuklar her sabah köpekleriyle birlikte okula yürüyorlar',
      // eld has no Indonesian: its Malay is answered as Indonesian.
      id: 'Anak-anak berjalan ke sekolah setiap pagi bersama anjing mereka',
      vi: 'Những đứa trẻ đi bộ đến trường mỗi sáng cùng con chó của chúng',
      sv: 'Barnen går till skolan varje morgon med sin hund',
      ar: 'يذهب الأطفال إلى المدرسة كل صباح مع كلبهم',
      he: 'הילדים הולכים לבית הספר כל בוקר עם הכלב שלהם',
      th: 'เด็ก ๆ เดิน ไป โรงเรียน ทุก เช้า กับ สุนัข ของ พวกเขา',
      ja: '子供たちは 毎朝 犬と 一緒に 学校へ 歩いて 行きます',
      zh: '孩子们 每天 早上 和 他们的 狗 一起 走路 去 学校',
      ko: '아이들은 매일 아침 개와 함께 학교에 걸어갑니다',
    };
    for (const [language, text] of Object.entries(clear))
      expect(identifiedLanguage(text), text).to.deep.equal({ language, rules: true });
    // Too close to tell apart for it (Russian and Ukrainian; Hindi and Marathi): not sure, so not heard.
    for (const text of ['Дети каждое утро ходят в школу со своей собакой', 'बच्चे हर सुबह अपने कुत्ते के साथ स्कूल जाते हैं'])
      expect(identifiedLanguage(text), text).to.equal(undefined);
    expect(identifiedLanguage('Petr pije kavu kazdy den')).to.deep.equal({ language: 'cs', rules: false });
    // Three words, or none of any language: not asked, or nothing to say.
    expect(identifiedLanguage('Petr pije kavu')).to.equal(undefined);
    expect(identifiedLanguage('12345 67890 13579 24680')).to.equal(undefined);
  });

  it('reads every short English statement about people from many cultures as English', () => {
    const english = UNREAD_LANGUAGES_HELDOUT.filter((c) => c.lang === 'en');
    expect(english).to.have.length(20);
    expect(english.filter((c) => languageOf(c.text) !== 'en').map((c) => c.text)).to.deep.equal([]);
  });

  it('reads no capitalised word after the first: names are no sign of a language', () => {
    // A counterexample of the admission property (plugins/memory-tools/test/admission.property.test.ts):
    // names and English words read as Albanian while the names were in.
    expect(likelyLanguages('Bob       Bob TEA art')).to.deep.equal(['en']);
    expect(likelyLanguages('Petr pije kavu kazdy den')).to.equal(undefined);
    expect(likelyLanguages('Petr Novak Jana Dvorak drinks tea')).to.deep.equal(['en']);
  });

  it('reads a language with rules whose listed words the sentence lacks, where the tables read one word or none', () => {
    // By the tables alone both read as English (no listed word; "tahun" and "bikin" are not in the table).
    expect(likelyLanguages('Ulang tahun Sari tanggal 17 Agustus.')).to.deep.equal(['id']);
    expect(likelyLanguages('Rina bikin rendang paling enak sedunia wkwk')).to.deep.equal(['id']);
    // Where the tables tie a language in, their rules together stay; English "of" statements stay English.
    expect(likelyLanguages('Ulubiony kolor Ani to niebieski.')).to.deep.equal(['en', 'pl']);
    for (const english of ['Tom is the father of Lily', 'Sam reads a lot of books', 'Ben is allergic to peanuts'])
      expect(likelyLanguages(english), english).to.deep.equal(['en']);
  });

  it('refuses as many sentences of 15 languages without rules as today (held out; the rest is read by the tables)', () => {
    const refused: Record<string, number> = {};
    for (const c of UNREAD_LANGUAGES_HELDOUT)
      if (c.lang !== 'en') refused[c.lang] = (refused[c.lang] ?? 0) + (likelyLanguages(c.text) === undefined ? 1 : 0);
    expect(refused).to.deep.equal(REFUSED_TODAY);
  });
});

describe('remember refuses text in a language without rules, naming it, on a real SQLite file', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'mira-identifier-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('Czech typed without its accents: the tables read one Polish word, the identifier Czech', async () => {
    const store = SqliteMemoryStore.open(join(dir, 'memory.sqlite3'));
    try {
      const jana = await store.createEntity({ entityType: 'person', canonicalName: 'Jana' });
      const said = 'Jana pracuje jako zdravotni sestra';
      const proposal = {
        kind: 'fact' as const,
        subject: 'Jana',
        predicate: 'works_as',
        value: 'zdravotni sestra',
        evidence: said,
        related_entity: null,
        related_role: null,
      };
      const profile = { name: 'Mira', description: 'test robot', manifestPath: '/dev/null', dir: '/' };
      const result = await admit(store, profile, said, proposal, () => {});
      expect(result).to.deep.include({ status: 'rejected', reason: 'evidence_not_asserted' });
      expect(result.status === 'rejected' && result.error).to.include('it reads as Czech');
      expect((await store.listActiveMemories(jana.id)).memories).to.deep.equal([]);
      // An English statement of the same shape is kept.
      const english = 'Jana works as a nurse at the clinic';
      const kept = await admit(store, profile, english, { ...proposal, value: 'a nurse', evidence: english }, () => {});
      expect(kept).to.deep.include({ status: 'applied' });
      expect((await store.listActiveMemories(jana.id)).memories).to.have.length(1);
    } finally {
      await store.close();
    }
  });
});
