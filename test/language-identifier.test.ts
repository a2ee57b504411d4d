import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit, languageOf, likelyLanguages, loadLanguageIdentifier } from '@mira/plugin-memory-tools';
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
