import { expect } from 'chai';
import { HOUSEHOLD_DUPLICATE_PAIRS } from './fixtures/duplicates-household.js';
import { nearDuplicatePairs } from '../plugins/notes/src/near-duplicates.js';

describe('near-duplicate rules on the household set of issue 66 (insertions, units, near misses)', () => {
  const judged = HOUSEHOLD_DUPLICATE_PAIRS.map((p) => ({ ...p, found: nearDuplicatePairs([p.a, p.b]).length > 0 }));
  const same = judged.filter((p) => p.same);
  const found = judged.filter((p) => p.found);

  it('is a set of at least 40 pairs, about half of them duplicates', () => {
    expect(judged).to.have.length(51);
    expect(same).to.have.length(25);
  });

  it('pairs no near miss: precision 1.00, recall at least 0.8', () => {
    expect(found.filter((p) => !p.same).map((p) => `${p.kind}: ${p.a} / ${p.b}`)).to.deep.equal([]);
    expect(found.length / same.length).to.equal(23 / 25);
  });

  it('finds the duplicates it found when the rules last changed, per kind', () => {
    const recall = (kind: string) => {
      const ofKind = same.filter((p) => p.kind === kind);
      return `${ofKind.filter((p) => p.found).length}/${ofKind.length}`;
    };
    const missed = same.filter((p) => !p.found).map((p) => `${p.kind}: ${p.a} / ${p.b}`);
    // Printed so a run shows what is still missed; the figures below are pinned (raise them with the rules).
    // Before issue 66's rules: insertion 0/11, unit 4/10, time 2/3, resave 1/1 (recall 0.28). Still missed: an
    // added name ("with Mrs Clark": names must be shared) and a time without am/pm ("half past four" / "4:30pm").
    console.log(`      recall ${found.length}/${same.length}; missed:\n        ${missed.join('\n        ')}`);
    expect({
      insertion: recall('insertion'),
      unit: recall('unit'),
      time: recall('time'),
      resave: recall('resave'),
    }).to.deep.equal({ insertion: '10/11', unit: '10/10', time: '2/3', resave: '1/1' });
  });
});
