import { expect } from 'chai';
// The tokenizer is internal to core: its tests import the sources.
import { MiraError } from '../src/errors.js';
import { tokenize } from '../src/console/tokenize.js';

describe('tokenize()', () => {
  it('splits on white space and keeps quoted text whole', () => {
    expect(tokenize('memory entity add person  "Ada  Lovelace"')).to.deep.equal([
      { text: 'memory', quoted: false },
      { text: 'entity', quoted: false },
      { text: 'add', quoted: false },
      { text: 'person', quoted: false },
      { text: 'Ada  Lovelace', quoted: true },
    ]);
  });

  it('unescapes \\" and \\\\ inside quotes and keeps other backslashes', () => {
    expect(tokenize('"say \\"hi\\" \\\\ \\n"')).to.deep.equal([{ text: 'say "hi" \\ \\n', quoted: true }]);
  });

  it('joins quoted and unquoted parts of one word', () => {
    expect(tokenize('--link ENT1:"owner"')).to.deep.equal([
      { text: '--link', quoted: false },
      { text: 'ENT1:owner', quoted: true },
    ]);
  });

  it('keeps an empty quoted string as a word', () => {
    expect(tokenize('find ""')).to.deep.equal([
      { text: 'find', quoted: false },
      { text: '', quoted: true },
    ]);
  });

  it('rejects an unterminated quote with a stable code and the column', () => {
    let caught: unknown;
    try {
      tokenize('memory find "Ada');
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(MiraError);
    expect((caught as MiraError).code).to.equal('MIRA_ERR_CONSOLE_UNTERMINATED_QUOTE');
    expect((caught as MiraError).message).to.contain('column 13');
  });
});
