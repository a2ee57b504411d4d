import { expect } from 'chai';
import fc from 'fast-check';
import { CoreErrors, normalizeDisplay, normalizeKey, type MiraError } from '@mira/core';
import { MAX_NAME_LENGTH, prepareName } from '../src/validate.js';

/** What prepareName answers, as a value or the error's code and message. */
const answer = (name: string) => {
  try {
    return prepareName(name, 'alias');
  } catch (error) {
    return { code: (error as MiraError).code, message: (error as Error).message };
  }
};

/** The same, step by step: the display form, bounded, and its key (the path every text takes). */
const stepByStep = (name: string) => {
  try {
    const display = normalizeDisplay(name, 'alias');
    if ([...display].length > MAX_NAME_LENGTH)
      throw CoreErrors.error('TEXT_TOO_LONG.field', { what: 'alias', max: MAX_NAME_LENGTH });
    return { display, key: normalizeKey(display, 'alias') };
  } catch (error) {
    return { code: (error as MiraError).code, message: (error as Error).message };
  }
};

describe('names: display form and key', () => {
  it('answers plain ASCII as the general steps do: white space collapsed, lower-case key, bounded, never empty', () => {
    const names = [
      'Ada',
      '  Ada   Lovelace ',
      'ADA\tLOVELACE',
      'Ada\r\nLovelace',
      "O'Brien-Smith Jr.",
      'Entity 000123 prefers dock 2',
      '~!@#$%^&*()_+{}|:"<>?`-=[]\\;\',./',
      '',
      ' \t\n ',
      'a'.repeat(MAX_NAME_LENGTH),
      ` ${'a'.repeat(MAX_NAME_LENGTH)}  `,
      'a'.repeat(MAX_NAME_LENGTH + 1),
      `${'a '.repeat(MAX_NAME_LENGTH / 2)}b`,
    ];
    for (const name of names) {
      const expected = stepByStep(name);
      expect(answer(name), JSON.stringify(name)).to.deep.equal(expected);
    }
    expect(answer('  Ada   Lovelace ')).to.deep.equal({ display: 'Ada Lovelace', key: 'ada lovelace' });
    expect(answer(' \t ')).to.have.property('code', 'MIRA_ERR_TEXT_EMPTY');
    expect(answer('a'.repeat(MAX_NAME_LENGTH + 1))).to.have.property('code', 'MIRA_ERR_TEXT_TOO_LONG');
    expect(answer('a'.repeat(MAX_NAME_LENGTH + 1)))
      .to.have.property('message')
      .that.includes('alias');
  });

  it('answers Latin-1 letters, Hangul syllables and CJK ideographs as the general steps do, character by character', () => {
    const ranges = [
      [0x20, 0x7e],
      [0xa0, 0xff],
      [0x4e00, 0x9fff],
      [0xac00, 0xd7a3],
      // Beside the ranges: Hangul jamo (they compose with a syllable), CJK compatibility ideographs (NFKC maps them).
      [0x1100, 0x11ff],
      [0xf900, 0xfaff],
    ];
    for (const [from, to] of ranges) {
      for (let cp = from!; cp <= to!; cp += 1) {
        const c = String.fromCodePoint(cp);
        for (const name of [c, `Ab${c}`, `${c}${c.toUpperCase()} 가${c}`, `é ${c}\u0301`]) {
          const expected = stepByStep(name);
          const got = answer(name);
          if (JSON.stringify(got) !== JSON.stringify(expected))
            expect(got, JSON.stringify(name)).to.deep.equal(expected);
        }
      }
    }
    expect(answer('Éloïse  Čapek')).to.deep.equal({ display: 'Éloïse Čapek', key: 'éloïse čapek' });
    expect(answer('박가나다는 커피를')).to.deep.equal({ display: '박가나다는 커피를', key: '박가나다는 커피를' });
    expect(answer('ÀÖØÞ 张伟喜欢')).to.deep.equal({ display: 'ÀÖØÞ 张伟喜欢', key: 'àöøþ 张伟喜欢' });
    expect(answer('Maß')).to.have.property('key', 'mass');
  });

  it('answers random names in those letters as the general steps do', () => {
    const letters = [
      [0x09, 0x0d],
      [0x20, 0x7e],
      // Not the soft hyphen (U+00AD): a format character, which the steps above report at another index.
      [0xa0, 0xac],
      [0xae, 0x24f],
      [0x300, 0x36f],
      [0x1100, 0x11ff],
      [0x3000, 0x303f],
      [0x4e00, 0x9fff],
      [0xac00, 0xd7a3],
      [0xf900, 0xfaff],
      [0xff00, 0xffef],
    ] as const;
    // Only the simple letters (every name takes the quick way), and those with the others mixed in.
    const simple = [
      [0x09, 0x0d],
      [0x20, 0x7e],
      [0xc0, 0xfe],
      [0x4e00, 0x9fff],
      [0xac00, 0xd7a3],
    ] as const;
    for (const alphabet of [simple, letters]) {
      const letter = fc
        .tuple(fc.constantFrom(...alphabet), fc.nat())
        .map(([[from, to], n]) => String.fromCodePoint(from + (n % (to - from + 1))));
      fc.assert(
        fc.property(fc.array(letter, { maxLength: MAX_NAME_LENGTH + 4 }), (chars) => {
          const name = chars.join('');
          expect(answer(name), JSON.stringify(name)).to.deep.equal(stepByStep(name));
        }),
        { numRuns: 2000 },
      );
    }
  });

  it('refuses what is no text, and names the field it checks (a name unless told)', () => {
    expect(answer(42 as unknown as string)).to.have.property('code', 'MIRA_ERR_TEXT_EMPTY');
    expect(answer(42 as unknown as string))
      .to.have.property('message')
      .that.includes('alias');
    let message = '';
    try {
      prepareName('  ');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).to.match(/\bname\b/);
  });

  it('folds and normalises the rest, and refuses control and format characters', () => {
    expect(answer('  STRASSE ')).to.deep.equal({ display: 'STRASSE', key: 'strasse' });
    expect(answer('Straße')).to.have.property('key', 'strasse');
    expect(answer('ｆｕｌｌ')).to.deep.equal({ display: 'full', key: 'full' });
    expect(answer('Al\u200bice')).to.have.property('code', 'MIRA_ERR_TEXT_CONTROL_CHARACTER');
    expect(answer('Ada\u0007')).to.have.property('code', 'MIRA_ERR_TEXT_CONTROL_CHARACTER');
    expect(answer(`${'é'.repeat(MAX_NAME_LENGTH)}`)).to.have.property('display', 'é'.repeat(MAX_NAME_LENGTH));
    expect(answer(`${'é'.repeat(MAX_NAME_LENGTH + 1)}`)).to.have.property('code', 'MIRA_ERR_TEXT_TOO_LONG');
  });
});
