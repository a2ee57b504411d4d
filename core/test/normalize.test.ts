import { expect } from 'chai';
import fc from 'fast-check';
import type { MiraError } from '@mira/core';
import {
  assertNoForbiddenCharacters,
  assertNoFormatCharacters,
  caseFold,
  collapseWhitespace,
  findForbiddenCharacter,
  findFormatCharacter,
  longerThan,
  normalizeDisplay,
  normalizeKey,
  normalizeToken,
} from '@mira/core';

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

  it('folds ASCII text (its fast path) exactly as the tables fold it inside other text', () => {
    // Text with a character past ASCII goes through the tables; its ASCII part must fold the same.
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (ascii) => {
        expect(caseFold(ascii)).to.equal(caseFold(`${ascii}é`).slice(0, -1));
      }),
      { numRuns: 500 },
    );
    expect(caseFold('ABC xyz [\\]^_`@{|}~')).to.equal('abc xyz [\\]^_`@{|}~');
  });

  it('answers plain ASCII (its fast paths) as it answers the same text through NFKC and the tables', () => {
    // The fullwidth twin of an ASCII character (U+FF01–U+FF5E) is NFKC's way back to it, so text with one
    // takes the general path and must come out as the plain text does, whatever else it holds.
    const twin = (text: string, at: number) => {
      const i = [...text].findIndex((c, j) => j >= at && c >= '!' && c <= '~');
      return i < 0
        ? undefined
        : text.slice(0, i) + String.fromCharCode(text.charCodeAt(i) + 0xfee0) + text.slice(i + 1);
    };
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), fc.nat(40), (ascii, at) => {
        const wide = twin(ascii, at);
        if (wide === undefined) return;
        expect(codeOf(() => normalizeKey(ascii))).to.equal(codeOf(() => normalizeKey(wide)));
        if (codeOf(() => normalizeKey(ascii)) === undefined) expect(normalizeKey(ascii)).to.equal(normalizeKey(wide));
        expect(codeOf(() => normalizeDisplay(ascii))).to.equal(codeOf(() => normalizeDisplay(wide)));
        if (codeOf(() => normalizeDisplay(ascii)) === undefined)
          expect(normalizeDisplay(ascii)).to.equal(normalizeDisplay(wide));
        // A letter past ASCII that is neither forbidden nor a format character changes neither finding.
        expect(findForbiddenCharacter(ascii)).to.deep.equal(findForbiddenCharacter(`${ascii}é`));
        expect(findFormatCharacter(ascii)).to.deep.equal(findFormatCharacter(`${ascii}é`));
      }),
      { numRuns: 2000 },
    );
    // The fast paths' edges: DEL and the controls beside the white-space ones are refused, not folded.
    for (const control of ['\x7f', '\x08', '\x0e', '\x1f', '\x00'])
      expect(codeOf(() => normalizeKey(`a${control}b`))).to.equal('MIRA_ERR_TEXT_CONTROL_CHARACTER');
    expect(normalizeKey(' \tAda\v\f\r\nLOVELACE~ ')).to.equal('ada lovelace~');
    expect(normalizeDisplay(' \tAda\v\f\r\nLOVELACE~ ')).to.equal('Ada LOVELACE~');
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

  it('takes a token as it is, up to its longest, and trims one with white space around it', () => {
    expect(normalizeToken('likes_tea_2')).to.equal('likes_tea_2');
    expect(normalizeToken('a'.repeat(64))).to.equal('a'.repeat(64));
    expect(normalizeToken(' likes\n')).to.equal('likes');
    expect(normalizeToken('likes\u00a0')).to.equal('likes');
    // What is not text is never taken as a token, even when it reads as one.
    expect(() => normalizeToken(['likes'] as unknown as string)).to.throw();
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

describe('the character rules, exactly', () => {
  it('forbids C0 and C1 controls but not white space, reporting the code point and UTF-16 index', () => {
    const cases: Array<[string, { codePoint: number; index: number } | undefined]> = [
      ['a\u001fb', { codePoint: 0x1f, index: 1 }],
      ['a b~', undefined],
      ['a\u007f', { codePoint: 0x7f, index: 1 }],
      ['a\u0080', { codePoint: 0x80, index: 1 }],
      ['a\u009f', { codePoint: 0x9f, index: 1 }],
      ['a\u00a0b', undefined],
      ['\t\n\u000b\u000c\r', undefined],
      ['\u0008', { codePoint: 0x08, index: 0 }],
      ['\u000e', { codePoint: 0x0e, index: 0 }],
      ['𝒜\u0000', { codePoint: 0, index: 2 }],
      ['x\u200e', { codePoint: 0x200e, index: 1 }],
      ['x\u061c', { codePoint: 0x61c, index: 1 }],
      ['x\u2069', { codePoint: 0x2069, index: 1 }],
    ];
    for (const [text, found] of cases) expect(findForbiddenCharacter(text), JSON.stringify(text)).to.deep.equal(found);
  });

  it('finds invisible format characters, allowing the joiners only after a letter of a script that needs them', () => {
    const cases: Array<[string, { codePoint: number; index: number } | undefined]> = [
      ['Al\u200bice', { codePoint: 0x200b, index: 2 }],
      ['𝒜\u00ad', { codePoint: 0xad, index: 2 }],
      ['\u200dx', { codePoint: 0x200d, index: 0 }],
      ['a\u200cb', { codePoint: 0x200c, index: 1 }],
      ['1\u200cb', { codePoint: 0x200c, index: 1 }],
      ['ب a\u200c', { codePoint: 0x200c, index: 3 }],
      ['می\u200cخواهم', undefined],
      ['a ب\u200c', undefined],
      ['👩\u200d💻', undefined],
      ['👩🏽\u200d💻', undefined],
      ['❤\ufe0f\u200d🔥', undefined],
      ['#\u200d', { codePoint: 0x200d, index: 1 }],
      ['क्\u200dष', undefined],
      ['\ufeffAda', { codePoint: 0xfeff, index: 0 }],
      ['plain text', undefined],
    ];
    for (const [text, found] of cases) expect(findFormatCharacter(text), JSON.stringify(text)).to.deep.equal(found);
  });

  it('names the field, the character and its position in the refusal', () => {
    expect(() => assertNoFormatCharacters('x\u00ady', 'alias')).to.throw(
      'MIRA_ERR_TEXT_CONTROL_CHARACTER: alias contains the invisible format character U+00AD at position 1; remove it and try again',
    );
    expect(() => assertNoFormatCharacters('ok', 'alias')).not.to.throw();
    expect(() => assertNoForbiddenCharacters('abc\u0007', 'summary')).to.throw(
      'MIRA_ERR_TEXT_CONTROL_CHARACTER: summary contains the control character U+0007 at position 3; remove it and try again',
    );
    expect(() => assertNoForbiddenCharacters('ok\tfine', 'summary')).not.to.throw();
    expect(() => assertNoForbiddenCharacters('a\u001f')).to.throw(
      'MIRA_ERR_TEXT_CONTROL_CHARACTER: text contains the control character U+001F at position 1; remove it and try again',
    );
    expect(() => assertNoFormatCharacters('a\u200b')).to.throw(
      /^MIRA_ERR_TEXT_CONTROL_CHARACTER: text contains the invisible format character U\+200B at position 1;/,
    );
    expect(() => normalizeDisplay('a\u0007')).to.throw(/^MIRA_ERR_TEXT_CONTROL_CHARACTER: text contains the control/);
    expect(() => normalizeKey(' ')).to.throw('MIRA_ERR_TEXT_EMPTY: name is empty; give a non-empty name');
    expect(() => normalizeKey('a\u0007')).to.throw(/^MIRA_ERR_TEXT_CONTROL_CHARACTER: name contains the control/);
    expect(() => normalizeToken('9')).to.throw(/^MIRA_ERR_TOKEN_INVALID: token must be a token of letters/);
    expect(() => normalizeDisplay('a\u0007', 'evidence')).to.throw(
      /^MIRA_ERR_TEXT_CONTROL_CHARACTER: evidence contains/,
    );
    expect(() => normalizeKey('a\u200b', 'alias')).to.throw(
      /^MIRA_ERR_TEXT_CONTROL_CHARACTER: alias contains the invisible/,
    );
    expect(() => normalizeKey('   ', 'alias')).to.throw('MIRA_ERR_TEXT_EMPTY: alias is empty; give a non-empty alias');
  });

  it('collapses every kind of white space run and trims', () => {
    expect(collapseWhitespace('  a \t\n b\u00a0\u3000c  ')).to.equal('a b c');
    expect(collapseWhitespace('')).to.equal('');
    // Text collapsed already is itself; any other white space, or a space at either end or beside another,
    // is collapsed.
    for (const [text, collapsed] of [
      ['a b', 'a b'],
      ['ab', 'ab'],
      ['a b c', 'a b c'],
      [' a', 'a'],
      ['a ', 'a'],
      ['a  b', 'a b'],
      ['a\tb', 'a b'],
      ['a\u00a0b', 'a b'],
      ['a\u2028b', 'a b'],
      ['a\nb', 'a b'],
      [' ', ''],
      ['\u3000', ''],
    ])
      expect(collapseWhitespace(text), JSON.stringify(text)).to.equal(collapsed);
    expect(normalizeDisplay('  Ｃafé\u00a0 Noir ')).to.equal('Café Noir');
  });

  it('accepts tokens of up to 64 characters of a-z, digits and underscores, starting with a letter', () => {
    expect(normalizeToken('a'.repeat(64))).to.have.length(64);
    expect(codeOf(() => normalizeToken('a'.repeat(65)))).to.equal('MIRA_ERR_TOKEN_INVALID');
    expect(normalizeToken(' Works_With9 ')).to.equal('works_with9');
    expect(normalizeToken('ｋｉｎｄ')).to.equal('kind');
    expect(normalizeToken('\u212a')).to.equal('k');
    for (const bad of ['9a', '_a', 'a-b', 'a b', '', 'a\u0000', 'é', 'a.b'])
      expect(
        codeOf(() => normalizeToken(bad)),
        JSON.stringify(bad),
      ).to.equal('MIRA_ERR_TOKEN_INVALID');
    expect(() => normalizeToken('9a', 'role')).to.throw(
      'MIRA_ERR_TOKEN_INVALID: role must be a token of letters a-z, digits and underscores, starting with a letter, at most 64 characters',
    );
  });
});

describe('longerThan()', () => {
  it('counts code points, as a person counts characters, at the boundary', () => {
    expect(longerThan('a'.repeat(256), 256)).to.equal(false);
    expect(longerThan('a'.repeat(257), 256)).to.equal(true);
    // 256 emoji are 512 UTF-16 units but 256 characters.
    expect(longerThan('😀'.repeat(256), 256)).to.equal(false);
    expect(longerThan('😀'.repeat(257), 256)).to.equal(true);
    expect(longerThan('', 0)).to.equal(false);
    expect(longerThan('é', 0)).to.equal(true);
  });
});
