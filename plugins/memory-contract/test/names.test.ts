import { expect } from 'chai';
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
