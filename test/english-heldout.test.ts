import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteMemoryStore } from '@mira/plugin-memory';
import { admit } from '@mira/plugin-memory-tools';
import { ENGLISH_EVERYDAY_HELDOUT, type EnglishHeldoutCase } from './fixtures/english-everyday-heldout.js';

const profile = { name: 'Mira', description: 'test robot', manifestPath: '/dev/null', dir: '/' };

/**
 * Each case through `remember`'s own admission on a real SQLite file: the subject exists (and the value, as an
 * entity, for a relationship's related entity is not asked here: every case is a fact), and the result is read as
 * the model reads it. Returns the cases decided wrongly, one line each.
 */
async function score(cases: readonly EnglishHeldoutCase[]): Promise<{ admitted: string[]; refused: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'mira-english-heldout-'));
  const admitted: string[] = [];
  const refused: string[] = [];
  try {
    let n = 0;
    for (const entry of cases) {
      // A store per case: one case's memory never conflicts with the next's.
      const store = SqliteMemoryStore.open(join(dir, `memory-${(n += 1)}.sqlite3`));
      try {
        await store.createEntity({ entityType: 'person', canonicalName: entry.subject });
        const result = await admit(
          store,
          profile,
          entry.utterance,
          {
            kind: 'fact',
            subject: entry.subject,
            predicate: entry.predicate,
            value: entry.value,
            evidence: entry.evidence,
            related_entity: null,
            related_role: null,
          },
          () => {},
        );
        const line = `${entry.construction}: ${entry.utterance} (${entry.subject} → ${entry.value}, ${entry.predicate})`;
        if (result.status === 'applied' && !entry.admit) admitted.push(line);
        if (result.status !== 'applied' && entry.admit)
          refused.push(`${line} — ${result.reason}: ${result.error ?? ''}`);
      } finally {
        await store.close();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { admitted, refused };
}

describe('the held-out everyday English corpus (written without reading the rules), through remember', function () {
  this.timeout(60_000);
  let result: { admitted: string[]; refused: string[] };
  before(async () => {
    result = await score(ENGLISH_EVERYDAY_HELDOUT);
  });

  it('has 200 or more cases, admitted and refused, in every construction', () => {
    expect(ENGLISH_EVERYDAY_HELDOUT.length).to.be.at.least(200);
  });

  it('wrongly admits only the known misses listed here (each fix shortens the list)', () => {
    expect(result.admitted).to.deep.equal(KNOWN_WRONGLY_ADMITTED);
  });

  it('admits every everyday statement with "of" and every name that is also a word', () => {
    const missed = result.refused.filter((line) => /^(?:of phrase|name that is also a word):/.test(line));
    expect(missed).to.deep.equal([]);
    expect(ENGLISH_EVERYDAY_HELDOUT.filter((e) => e.construction === 'of phrase').length).to.be.at.least(45);
  });

  it('wrongly refuses only the known limits listed here', () => {
    expect(result.refused).to.deep.equal(KNOWN_WRONGLY_REFUSED);
  });
});

/** Held-out cases the rules still admit though they must not. */
const KNOWN_WRONGLY_ADMITTED: readonly string[] = [
  'question without a mark: Quick question: does Ben like tea (Ben → tea, likes)',
  'question without a mark: Can Dan drive a forklift (Dan → a forklift, can_drive)',
  'question without a mark: is Lily afraid of dogs (Lily → dogs, afraid_of)',
  'question without a mark: Does Anna live in Lisbon or Porto (Anna → Lisbon, lives_in)',
  "question without a mark: Ana lives in Lisbon, doesn't she (Ana → Lisbon, lives_in)",
  'question without a mark: Sam is vegan right (Sam → vegan, diet)',
  'question without a mark: Is Eva part of the choir or not (Eva → the choir, member_of)',
  "question without a mark: Priya's allergic to nuts, isn't she (Priya → nuts, allergic_to)",
  'question without a mark: Has Raj got a dog lol (Raj → dog, has_dog)',
  "question without a mark: Is Dr Patel Mia's dentist (Dr Patel → Mia, dentist_of)",
  'question without a mark: Did Omar grow up in Cairo (Omar → Cairo, grew_up_in)',
  "question without a mark: Tom drinks coffee, doesn't he 🙂 (Tom → coffee, drinks)",
  "question without a mark: Ken works at the bank doesn't he (Ken → the bank, works_at)",
  'question without a mark: Remind me, does Kofi take sugar (Kofi → sugar, takes)',
  'question without a mark: Is it true that Lena speaks Russian (Lena → Russian, speaks)',
  'question without a mark: Mateo speaks French, right (Mateo → French, speaks)',
  'question without a mark: Any idea whether Hamid drinks alcohol (Hamid → alcohol, drinks)',
  "question without a mark: Will's a nurse, isn't he (Will → nurse, works_as)",
  'hedge or report: Pretty sure Paz likes salsa but not 100% (Paz → salsa, likes)',
  'hedge or report: Rumour is that Dan bought a boat (Dan → a boat, owns)',
  'hedge or report: I have a feeling Ken is allergic to cats (Ken → cats, allergic_to)',
  'hedge or report: Word is that Mia got a job at Google (Mia → Google, works_at)',
  'hedge or report: I kind of think Nora is lactose intolerant (Nora → lactose intolerant, has_condition)',
  'hedge or report: Lucas is Brazilian, as far as I know (Lucas → Brazilian, nationality)',
  'hedge or report: Sounds like Farid is a doctor (Farid → doctor, works_as)',
  "hedge or report: Ben's supposed to be allergic to wasps (Ben → wasps, allergic_to)",
  'hedge or report: I suspect Carmen is left-handed (Carmen → left-handed, handedness)',
  'hedge or report: Sipho works nights, or so he says (Sipho → nights, works_shift)',
  'negation: Tom drinks coffee — not! (Tom → coffee, drinks)',
  'negation: Tom likes jazz. Not really. (Tom → jazz, likes)',
  'negation: Ben eats meat, or not anymore actually (Ben → meat, eats)',
  'negation: Ahmed works at the hospital — well, not anymore. (Ahmed → the hospital, works_at)',
  "negation: Ravi plays the guitar. Actually no, he doesn't. (Ravi → the guitar, plays)",
  "someone else's value: The man Hana works with is from Chile. (Hana → Chile, from)",
  'do not keep: just between us, Lily failed her driving test, no need to remember that (Lily → her driving test, failed)',
  'do not keep: Forget I said this: Mia is seeing a therapist. (Mia → a therapist, sees)',
  'do not keep: No need to note it, but Jess is on a diet. (Jess → a diet, is_on)',
];

/** Held-out cases the rules still refuse (the safe side). */
const KNOWN_WRONGLY_REFUSED: readonly string[] = [
  "possessive or relationship: Tom and Lily are siblings. (Tom → Lily, sibling_of) — subject_not_supported: the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written",
  "possessive or relationship: Kenji's brother is called Taro. (Kenji → Taro, has_brother) — subject_not_supported: the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written",
  "possessive or relationship: Ana's husband is called Rui. (Ana → Rui, married_to) — subject_not_supported: the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written",
  "possessive or relationship: Liam and Zoe are twins. (Liam → Zoe, twin_of) — subject_not_supported: the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written",
  "possessive or relationship: Hamid and Sara are neighbours. (Hamid → Sara, neighbour_of) — subject_not_supported: the value is in another clause than the subject (a comma, 'and', 'who'… stands between them), so it may be someone else's; nothing was written",
  'request to remember: Can you remember that Hope is a nurse? (Hope → nurse, works_as) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written',
  "request to remember: Could you note that Dan's birthday is in May? (Dan → May, birthday_in) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written",
  'request to remember: Would you keep in mind that Sam is vegan? (Sam → vegan, diet) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written',
  'request to remember: Could you make a note that Rohan is allergic to bees? (Rohan → bees, allergic_to) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written',
  "request to remember: Can you save that Lucy goes to St Anne's? (Lucy → St Anne's, attends) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written",
  'request to remember: Would you mind remembering that Marta takes her tea with lemon? (Marta → lemon, takes_tea_with) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written',
  "request to remember: Can you please remember that Kwame is Ama's uncle? (Kwame → Ama, uncle_of) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written",
  'request to remember: Could you remember for me that Bongani works late on Thursdays? (Bongani → Thursdays, works_late_on) — evidence_not_asserted: the evidence is in a question; only what the operator states is remembered; nothing was written',
];
