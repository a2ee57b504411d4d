import { expect } from 'chai';
import { nearDuplicatePairs } from '../src/near-duplicates.js';
import { comparable } from '../src/text.js';

const pairsOf = (texts: string[]) => nearDuplicatePairs(texts.map(comparable)).map(({ i, j }) => [i, j]);

describe('near-duplicate notes', () => {
  it('finds reworded and repunctuated pairs, and nothing else', () => {
    expect(
      pairsOf([
        'Alice takes coffee every morning, no sugar',
        'The dock code is 4711',
        'Alice takes coffee every morning without sugar',
        'Alice prefers green tea in the morning',
        'alice prefers green tea, in the morning!',
        'The charger is behind the lab door',
        'The charger is behind the kitchen door',
      ]),
    ).to.deep.equal([
      [0, 2],
      [3, 4],
    ]);
  });

  it('never pairs notes that name different numbers', () => {
    expect(pairsOf(['The spare battery is in drawer 3', 'The spare battery is in drawer 4'])).to.deep.equal([]);
    expect(pairsOf(['The spare battery is in drawer 3', 'the spare battery is in drawer 3.'])).to.deep.equal([[0, 1]]);
  });

  it('is deterministic', () => {
    const texts = Array.from(
      { length: 200 },
      (_, i) => `note ${i % 50} about the dock and the ${['lab', 'kitchen'][i % 2]}`,
    );
    expect(pairsOf(texts)).to.deep.equal(pairsOf(texts));
  });
});
