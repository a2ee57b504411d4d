import { expect } from 'chai';
import fc from 'fast-check';
import type { MiraError } from '@mira/core';
import { caseFold, findForbiddenCharacter, normalizeDisplay, normalizeKey, normalizeToken } from '@mira/core';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return (error as MiraError).code;
  }
  return undefined;
}

describe('normalizeKey()', () => {
  it('uses full case folding, not toLowerCase()', () => {
    expect(normalizeKey('STRASSE')).to.equal(normalizeKey('straße'));
    expect(normalizeKey('ΣΊΣΥΦΟΣ')).to.equal(normalizeKey('σίσυφος'));
    expect(caseFold('ß')).to.equal('ss');
    expect('ß'.toLowerCase()).to.equal('ß'); // the reason toLowerCase() is not enough
  });

  it('applies NFKC, trims and collapses inner white space', () => {
    expect(normalizeKey('  Ａｄａ\u00a0\t Lovelace \n')).to.equal('ada lovelace');
    expect(normalizeKey('ﬁre')).to.equal('fire');
    expect(normalizeKey('Cafe\u0301')).to.equal(normalizeKey('Café'));
  });

  it('rejects control and bidirectional override characters', () => {
    expect(codeOf(() => normalizeKey('Ada\u0000'))).to.equal('MIRA_ERR_TEXT_CONTROL_CHARACTER');
    expect(codeOf(() => normalizeKey('Ada\u0085'))).to.equal('MIRA_ERR_TEXT_CONTROL_CHARACTER');
    expect(codeOf(() => normalizeKey('\u202eAda'))).to.equal('MIRA_ERR_TEXT_CONTROL_CHARACTER');
    expect(codeOf(() => normalizeKey('Ada\u2066x'))).to.equal('MIRA_ERR_TEXT_CONTROL_CHARACTER');
  });

  it('rejects empty and all-white-space names', () => {
    expect(codeOf(() => normalizeKey(''))).to.equal('MIRA_ERR_TEXT_EMPTY');
    expect(codeOf(() => normalizeKey(' \t\n '))).to.equal('MIRA_ERR_TEXT_EMPTY');
  });

  it('keeps the display form apart from the key', () => {
    expect(normalizeDisplay('  Ada   LOVELACE ')).to.equal('Ada LOVELACE');
  });

  describe('properties', () => {
    // Text without C0/C1 control characters other than white space (those are tested separately).
    const text = fc.string({ unit: 'grapheme', maxLength: 24 }).filter((s) => findForbiddenCharacter(s) === undefined);
    const safeKey = (s: string) => {
      try {
        return normalizeKey(s);
      } catch {
        return undefined;
      }
    };

    it('is idempotent', () => {
      fc.assert(
        fc.property(text, (s) => {
          const key = safeKey(s);
          if (key !== undefined) expect(normalizeKey(key)).to.equal(key);
        }),
        { numRuns: 500 },
      );
    });

    // Caseless-equivalence classes: every code point grouped with those that fold to the same text.
    const foldClasses = new Map<string, string[]>();
    for (let cp = 0; cp <= 0x1ffff; cp += 1) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      const folded = caseFold(ch);
      if (folded === ch && !foldClasses.has(folded)) continue;
      foldClasses.set(folded, [...(foldClasses.get(folded) ?? [folded.length === ch.length ? folded : ch]), ch]);
    }
    // A combining mark is not a case variant of a base letter (U+0345 folds to ι but combines), so keep marks apart.
    const isMark = (ch: string) => /\p{M}/u.test(ch);
    const variantsOf = (ch: string) => (foldClasses.get(caseFold(ch)) ?? [ch]).filter((v) => isMark(v) === isMark(ch));

    it('is invariant under NFKC, NFD, white space and case variants', () => {
      fc.assert(
        fc.property(text, fc.array(fc.nat(), { minLength: 200, maxLength: 200 }), (s, picks) => {
          const key = safeKey(s);
          if (key === undefined) return;
          const chars = [...s];
          // Replace each character by a random member of its caseless-equivalence class.
          const caseVariant = chars
            .map((ch, i) => {
              const options = variantsOf(ch);
              return options[picks[i % picks.length]! % options.length];
            })
            .join('');
          for (const variant of [s.normalize('NFKC'), s.normalize('NFD'), caseVariant, ` ${s}\t `]) {
            expect(safeKey(variant)).to.equal(key, `variant ${JSON.stringify(variant)} of ${JSON.stringify(s)}`);
          }
        }),
        { numRuns: 1000 },
      );
    });

    it('keeps distinct keys for characters Unicode does not fold together', () => {
      // Dotless ı upper-cases to I, but default case folding keeps them apart: no locale tricks.
      expect(normalizeKey('ı')).not.to.equal(normalizeKey('I'));
    });

    it('rejects any text holding a control character other than white space', () => {
      const control = fc
        .integer({ min: 0, max: 0x9f })
        .filter((cp) => (cp < 0x20 || cp >= 0x7f) && ![9, 10, 11, 12, 13].includes(cp));
      fc.assert(
        fc.property(fc.string({ maxLength: 8 }), control, fc.string({ maxLength: 8 }), (a, cp, b) => {
          expect(codeOf(() => normalizeKey(`${a}${String.fromCodePoint(cp)}${b}`))).to.equal(
            'MIRA_ERR_TEXT_CONTROL_CHARACTER',
          );
        }),
        { numRuns: 300 },
      );
    });
  });
});

describe('normalizeToken()', () => {
  it('folds case and NFKC so capitalisation cannot make a second token', () => {
    expect(normalizeToken('Likes_Tea')).to.equal('likes_tea');
    expect(normalizeToken('ＯＷＮＥＲ')).to.equal('owner');
  });

  it('rejects non-tokens', () => {
    for (const bad of ['', '1abc', 'has space', 'dash-ed', 'a'.repeat(65), 'x\u0000']) {
      expect(
        codeOf(() => normalizeToken(bad)),
        bad,
      ).to.equal('MIRA_ERR_TOKEN_INVALID');
    }
  });
});
