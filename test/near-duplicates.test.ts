import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteNotesStore } from '@mira/plugin-notes';
import { HELDOUT_DUPLICATE_PAIRS } from '../bench/lib/duplicates-heldout.js';
import { PARAPHRASE_PAIRS } from '../bench/lib/duplicates-paraphrases.js';
import { nearDuplicatePairs } from '../plugins/notes/src/near-duplicates.js';

describe('SqliteNotesStore#duplicates() on paraphrases', () => {
  let dir: string;
  let store: SqliteNotesStore;
  let scopes = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mira-near-duplicates-'));
    store = SqliteNotesStore.open(join(dir, 'notes.sqlite3'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Whether Find Duplicates pairs the two notes, each pair in a scope of its own. */
  const paired = async (a: string, b: string) => {
    const scope = `pair-${(scopes += 1)}`;
    await store.save(scope, a, null, null);
    await store.save(scope, b, null, null);
    return (await store.duplicates({ scopes: [scope], key: null, operator: true })).length > 0;
  };

  it('reads a sentence-initial contraction as its words, never as a name ("Don\'t" is "do not")', async () => {
    expect(
      await paired(
        "Don't vacuum the living room while the baby naps",
        'Do not vacuum the living room while the baby naps',
      ),
    ).to.equal(true);
    expect(
      await paired("Won't need a lift to the station on Friday", 'Will not need a lift to the station on Friday'),
    ).to.equal(true);
    expect(await paired("Alice's charger is in the hall", 'Alice’s charger is in the hall')).to.equal(true);
    // Names still tell notes apart, and so does the negation the contraction carries.
    expect(await paired("Don't let Rex out after dark", "Don't let Biscuit out after dark")).to.equal(false);
    expect(
      await paired("Don't vacuum the living room while the baby naps", 'Vacuum the living room while the baby naps'),
    ).to.equal(false);
  });

  it('pairs no near miss of the hand-written set, and finds at least the paraphrases it finds today', async () => {
    const judged: Array<{ a: string; b: string; same: boolean; found: boolean }> = [];
    for (const p of PARAPHRASE_PAIRS) judged.push({ ...p, found: await paired(p.a, p.b) });
    expect(judged.filter((p) => p.found && !p.same).map((p) => `${p.a} / ${p.b}`)).to.deep.equal([]);
    // A floor against regressions (22 of 40 when the set was written, 32 with the written-out words of
    // issue 51; `npm run bench -- --only=duplicates` reports the figure), not the target of 0.9.
    expect(judged.filter((p) => p.found && p.same).length).to.be.at.least(32);
    expect(judged.length).to.be.at.least(70);
  });
});

describe('near-duplicate rules: how two notes are read (issue 51)', () => {
  /** Whether the scan pairs the two notes, as Find Duplicates judges a pair on its own. */
  const paired = (a: string, b: string) => nearDuplicatePairs([a, b]).length > 0;
  const expectPaired = (pairs: ReadonlyArray<readonly [string, string]>) => {
    for (const [a, b] of pairs) expect(paired(a, b), `${a} / ${b}`).to.equal(true);
  };
  const expectApart = (pairs: ReadonlyArray<readonly [string, string]>) => {
    for (const [a, b] of pairs) expect(paired(a, b), `${a} / ${b}`).to.equal(false);
  };

  it('writes out a contraction that starts the sentence, curly or straight, and never reads it as a name', () => {
    expectPaired([
      ["You'll need to reset the router if the wifi drops", 'You will need to reset the router if the wifi drops'],
      ['Won’t be home for dinner on Friday', 'Will not be home for dinner on Friday'],
      ["They're coming to read the meter on Friday", 'They are coming to read the meter on Friday'],
      ["Can't find the TV remote? check under the sofa", 'Cannot find the TV remote? check under the sofa'],
      ['Dont feed Biscuit from the table', 'Do not feed Biscuit from the table'],
    ]);
    // The negation it carries still counts.
    expectApart([["Don't feed Biscuit from the table", 'Feed Biscuit from the table']]);
  });

  it('reads a time on the 24-hour clock, whichever way it is written', () => {
    expectPaired([
      ['Bins out Wednesday 7 p.m.', 'Bins out Wednesday 19:00'],
      ['Insulin at 12:30 p.m.', 'Insulin at 12.30pm'],
      ['Call Mum at 7 in the evening', 'Call Mum at 7pm'],
      ['Heating comes on at half six', 'Heating comes on at 6:30'],
      ['Lunch at noon', 'Lunch at 12pm'],
    ]);
    expectApart([
      ['Bins out Wednesday 7pm', 'Bins out Wednesday 7am'],
      ['Quiet hours start at 21:00', 'Quiet hours start at 22:00'],
      ['Dinner at half six', 'Dinner at half seven'],
    ]);
  });

  it('reads numbers in words as digits, and a date as its day and month', () => {
    expectPaired([
      ['Biscuit gets 3 scoops of kibble a day', 'Biscuit gets three scoops of kibble a day'],
      ['Take 2 paracetamol every 4 hours', 'Take two paracetamol every four hours'],
      ['Rent is due on the 1st of the month', 'Rent is due on the first of the month'],
      ['Feed the fish twice a day', 'Feed the fish 2 times daily'],
      ['Book club meets on 3 March', 'Book club meets on March 3rd'],
      ['Aunt Linda arrives 24/12', 'Aunt Linda arrives Dec 24th'],
    ]);
    expectApart([
      ['Biscuit gets three scoops of kibble a day', 'Biscuit gets four scoops of kibble a day'],
      ['Book club meets on 3 March', 'Book club meets on 3 April'],
      ['Aunt Linda arrives 24/12', 'Aunt Linda arrives on the 23rd Dec'],
    ]);
  });

  it('reads abbreviated days and units as the words, and "sun" as the sun where no day is meant', () => {
    expectPaired([
      ['Pharmacy closes at 6 pm on Sat', 'Pharmacy closes at 6pm on Saturday'],
      ['Physio on Mon, Wed and Fri', 'Physio on Monday, Wednesday and Friday'],
      ['Robot charging dock: 1 m from the wall', 'Robot charging dock: 1 metre from the wall'],
      ['Give the oven 10 mins to warm', 'Give the oven 10 minutes to warm'],
    ]);
    expectApart([
      ['Bins go out Tues night', 'Bins go out Thurs night'],
      ['The painting must not get direct sun', 'The painting must not get direct Sunday'],
    ]);
  });

  it('reads household synonyms as one word, and other things stay other things', () => {
    expectPaired([
      ['Biscuit sleeps on the sofa', 'Biscuit sleeps on the couch'],
      ['Leftover lasagne is in the fridge', 'Leftover lasagne is in the refrigerator'],
      ['Put the rubbish in the bin by the cooker', 'Put the trash in the garbage can by the stove'],
      [
        "Mum's tablets are in the cupboard next to the fridge",
        "Mom's pills are in the cabinet beside the refrigerator",
      ],
      ['Hoover the hallway on Saturdays', 'Vacuum the hallway on Saturdays'],
    ]);
    expectApart([
      ['Biscuit sleeps on the sofa', 'Biscuit sleeps on the bed'],
      ['Leftover lasagne is in the fridge', 'Leftover lasagne is in the freezer'],
      ['Put the pan on the cooker', 'Put the pan in the oven'],
    ]);
  });

  it('pairs another word order, irregular verbs and a left-out particle, never another particle', () => {
    expectPaired([
      ['Every morning at 7:30 open the curtains', 'Open the curtains at 7:30 every morning'],
      ['Biscuit gets fed twice a day', 'Feed Biscuit twice a day'],
      ['Sheets for the guest room are in the top cupboard', 'The guest room sheets are in the top cupboard'],
      ['Before school, Milo takes the dog for a walk', 'Milo walks the dog before school'],
      ['Check the fish tank filter every month', 'check the fishtank filter every month'],
    ]);
    expectApart([
      ['The torch is under the sofa', 'The torch is behind the sofa'],
      ['The cat goes out at night', 'The cat goes in at night'],
      ['Tom goes to school by bus', 'Tom goes to school'],
    ]);
  });

  it('pairs a note with a detail added to the same thing, never a fact added or changed (issue 66)', () => {
    expectPaired([
      ['The spare keys are behind the bikes', 'The spare keys are behind the old bikes on the left'],
      ['Water the tomatoes every evening', 'Water the tomatoes in the greenhouse every evening'],
      ['The fuse box is under the stairs', 'The fuse box is in the cupboard under the stairs'],
      ['Recycling goes out on Thursday', 'The recycling box goes out on Thursday night'],
      ['The spare key is under the pot', 'The spare key is under the blue pot'],
    ]);
    expectApart([
      // A fact of another kind (how), without a determiner: not a place phrase.
      ['Tom goes to school', 'Tom goes to school by bus'],
      ['Grandma takes her tea', 'Grandma takes her tea with milk'],
      // How often, how much, a condition, a variant.
      ['Water the tomatoes every evening', 'Water the tomatoes every other evening'],
      ['Biscuit can have a treat', 'Biscuit can have only a treat'],
      ['Water the tomatoes in the evening', 'Water the tomatoes in the evening if it is dry'],
      ['Order the skimmed milk', 'Order the semi-skimmed milk'],
      // A name added, a word changed as well as one added, more than four words added.
      ["Ellie's piano lesson is on Wednesday", "Ellie's piano lesson with Mrs Clark is on Wednesday"],
      ['The spare key is under the blue pot', 'The spare key is under the old red pot'],
      ['The keys are in the drawer', 'The keys are in the drawer by the big old brown wooden desk'],
      // A name is matched as written: "Ines" (stem "in") does not stand for "in" while "priya" is added.
      ['Remind Ines to water the plants in the attic', 'remind priya to water the plants in the attic'],
      // Two words written together only where the stem keeps the second word: "under red" is not "under".
      ['The spare key is under the blue pot', 'The spare key is under the red pot'],
    ]);
  });

  it('reads a temperature and a distance in one spelling, and keeps Celsius from Fahrenheit, km from miles', () => {
    expectPaired([
      ['Set the heating to 20 degrees', 'Set the heating to 20°C'],
      ['The fridge should stay at 4 degrees Celsius', 'The fridge should stay at 4 °C'],
      ['Set the heating to 20 degrees C', 'Set the heating to 20℃'],
      ['The park run is 5 km', 'The park run is 5 kilometres'],
      ['Drive at 20 mph on our street', 'Drive at 20 miles per hour on our street'],
    ]);
    expectApart([
      ['Set the heating to 20 degrees', 'Set the heating to 20°F'],
      ['Set the heating to 20°C', 'Set the heating to 22°C'],
      ['The park run is 5 km', 'The park run is 5 miles'],
      ['Drive at 20 mph on our street', 'Drive at 20 km per hour on our street'],
    ]);
  });

  it('keeps a negation or an opposite apart, and reads "not" before a word with an opposite as the opposite', () => {
    expectApart([
      ['Pepper is allowed in the bedroom', 'Pepper is not allowed in the bedroom'],
      ['The back door is locked', 'The back door is unlocked'],
      ['Leave the hallway light on at night', 'Leave the hallway light off at night'],
      ['Mr Okafor likes the door to his room kept open', 'Mr Okafor likes the door to his room kept closed'],
    ]);
    expectPaired([
      ["Tom doesn't like mushrooms", 'Tom dislikes mushrooms'],
      ["The back door isn't locked", 'The back door is unlocked'],
    ]);
  });

  it('keeps notes about another person, pet or title apart, and reads a title of kin before a name as the name', () => {
    expectApart([
      ['Feed Pepper at 7am', 'Feed Biscuit at 7am'],
      ['Zoë’s piano teacher is Mr Brown', 'Zoë’s piano teacher is Mrs Brown'],
      ['Tom is allergic to peanuts', 'Ellie is allergic to peanuts'],
      // One typo away, but a name: Maria is not Mario.
      ['Maria feeds the cat at noon', 'Mario feeds the cat at noon'],
    ]);
    expectPaired([
      ['Grandpa Joe is diabetic', 'Joe has diabetes'],
      ['Tom has a peanut allergy', 'Tom is allergic to peanuts'],
    ]);
  });

  it('holds its floor on the held-out set (each pair on its own): precision and recall as reached', () => {
    const judged = HELDOUT_DUPLICATE_PAIRS.map((p) => ({ ...p, found: paired(p.a, p.b) }));
    const found = judged.filter((p) => p.found);
    const correct = found.filter((p) => p.same).length;
    const duplicates = judged.filter((p) => p.same).length;
    expect(judged).to.have.length(316);
    // Reached when the rules were written (`npm run bench -- --only=duplicates` reports them, per kind and
    // on each half): recall 100/164 = 0.61, precision 100/101 = 0.99; 102/164 with issue 66's insertions and
    // temperatures. Raise these with the rules.
    expect(correct / duplicates, 'recall').to.be.at.least(102 / 164);
    expect(correct / found.length, 'precision').to.be.at.least(0.98);
  });
});
