import { expect } from 'chai';
import { lazily, type AssertionRules } from '../src/assertion-rules.js';
import { ASSERTION_RULES } from '@mira/plugin-memory-tools';

const KEYS = [
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
  'requestEnds',
  'requestsAfter',
  'retractions',
  'negationAfter',
];

describe('lazily(): rule tables built at their first read', () => {
  it('builds nothing when made, then once at the first read of any key, and reads every key as built', () => {
    let builds = 0;
    const hedges = [/maybe/u];
    const rules = lazily(() => {
      builds += 1;
      return {
        doNotKeep: [],
        hedges,
        conditions: [],
        reportedBefore: [],
        reportedAnywhere: [],
        ownWords: [],
        negation: [/not/u],
        notNegating: [],
      } satisfies AssertionRules;
    });
    expect(builds).to.equal(0);
    expect(Object.keys(rules)).to.deep.equal(KEYS);
    expect(builds, 'listing the keys builds nothing').to.equal(0);
    expect(rules.hedges).to.equal(hedges);
    expect(rules.negation.map(String)).to.deep.equal(['/not/u']);
    // Keys the language has no rules for read undefined, as a plain table's absent keys do.
    expect(rules.questions).to.equal(undefined);
    expect(rules.negationAfter).to.equal(undefined);
    expect(builds).to.equal(1);
    expect(Object.isFrozen(rules)).to.equal(true);
  });

  it("keeps every language's rule set the same object, each of its lists the same on every read", () => {
    for (const [language, rules] of Object.entries(ASSERTION_RULES)) {
      expect(Object.keys(rules), language).to.deep.equal(KEYS);
      for (const key of ['doNotKeep', 'hedges', 'negation'] as const) {
        expect(rules[key], `${language} ${key}`).to.have.length.greaterThan(0);
        expect(rules[key], `${language} ${key}`).to.equal(rules[key]);
      }
    }
  });
});
