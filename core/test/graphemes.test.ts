import { expect } from 'chai';
import { oneGraphemePerCodePoint } from '@mira/core';

const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });
const graphemes = (text: string) => Array.from(segmenter.segment(text), ({ segment }) => segment);

describe('oneGraphemePerCodePoint(): text a segmenter would cut at every code point', () => {
  it('agrees with the segmenter for every assigned code point it takes, beside a letter and beside itself', () => {
    // No two code points of none of the joining classes join (UAX #29), so each one is checked with a
    // neighbour on both sides and doubled: a code point the segmenter would join is a joining one it missed.
    const assigned = /\p{Assigned}/u;
    let taken = 0;
    const missed: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!assigned.test(c) || !oneGraphemePerCodePoint(c)) continue;
      taken += 1;
      if (graphemes(`a${c}${c}a`).length !== 4) missed.push(cp.toString(16));
    }
    expect(missed).to.deep.equal([]);
    // Nearly every assigned code point is taken (about 3,000 of ~298,000 join).
    expect(taken).to.be.above(290_000);
  });

  it('refuses text with a code point that joins another, or a CR', () => {
    for (const text of [
      'Cafe\u0301', // Extend (a combining mark)
      'a\u200db', // ZWJ
      '\u0915\u093f', // SpacingMark
      '\u0600\u0661', // Prepend
      '\u1100\u1161', // Hangul L V
      '\u1100', // L alone: it may join what follows
      '가\u11a8', // LV T
      '🇫🇷', // Regional_Indicator
      '👍🏽', // an emoji modifier (Extend)
      'a\r\nb',
      'a\r',
      'ｶﾞ', // a halfwidth voicing mark (Extend)
    ])
      expect(oneGraphemePerCodePoint(text), JSON.stringify(text)).to.equal(false);
  });

  it('takes text whose every code point stands alone', () => {
    for (const text of [
      '',
      'Ada',
      'café noir',
      'Straße',
      '박지훈은 녹차를 좋아해요',
      '田中さんは紅茶が好き',
      'a\nb',
      '😀',
      '𝒜b',
    ])
      expect(oneGraphemePerCodePoint(text), text).to.equal(true);
  });
});
