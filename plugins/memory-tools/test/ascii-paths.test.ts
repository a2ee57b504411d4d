import { expect } from 'chai';
import fc from 'fast-check';
import { formOffset, graphemeRuleForm, ruleForm } from '../src/assertion.js';
import { CLAUSE_RULES, clauseRulesFor, crossesClause } from '../src/attribution.js';
import { asciiMatchText, graphemeMatchText, toMatchText } from '../src/span-match.js';

// Printable ASCII and white space, with the characters that decide: capitals, every white space, CR LF.
const asciiText = fc
  .array(
    fc.oneof(
      fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 6 }),
      fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\v', '\f', '\r', 'ABC', "Don't", 'NOT', '?'),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('the ASCII fast paths of admission decide as the grapheme paths do', () => {
  it('toMatchText(): the same form and origins for any printable ASCII text', () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        const slow = graphemeMatchText(text);
        expect(asciiMatchText(text)).to.deep.equal(slow);
        expect(toMatchText(text)).to.deep.equal(slow);
      }),
      { numRuns: 2000 },
    );
  });

  it('toMatchText(): text with a character past ASCII or a control character takes the grapheme path', () => {
    expect(toMatchText('Ada\u0000')).to.equal(undefined);
    expect(toMatchText('ＡＤＡ  likes')!.form).to.equal('ada likes');
    expect(toMatchText('Cafe\u0301 X')!.origin[3]).to.deep.equal([3, 5]);
  });

  it('the rule form: the same text and the same offset of every original offset', () => {
    fc.assert(
      fc.property(asciiText, (text) => {
        const fast = ruleForm(text);
        const slow = graphemeRuleForm(text);
        expect(fast.form).to.equal(slow.form);
        for (let offset = 0; offset <= text.length; offset += 1) {
          // A CR LF pair is one grapheme: the fast path never takes text with a CR.
          expect(formOffset(fast.at, offset, text.length)).to.equal(formOffset(slow.at, offset, text.length));
        }
      }),
      { numRuns: 2000 },
    );
    expect(ruleForm('a\r\nb').at).not.to.equal(undefined);
    expect(ruleForm('Ｂ').form).to.equal('b');
  });

  it('the clause words: the same language and the same clause boundaries as in text past ASCII', () => {
    // A word past ASCII at the end (no marker, no pronoun, lower case) sends the text through the Unicode
    // path and changes nothing else; a trailing " -" is left out (with the word it would make " - ").
    const words = fc.constantFrom('that', 'and', 'who', 'he', 'Bob', 'dass', 'er', "qu'", 'que', 'y', 'likes');
    const text = fc
      .array(fc.oneof(asciiText, words), { maxLength: 8 })
      .map((parts) => parts.join(' '))
      .filter((t) => !/\s-\s*$/.test(t));
    fc.assert(
      fc.property(text, (t) => {
        expect(clauseRulesFor(t)).to.equal(clauseRulesFor(`${t} é`));
        for (const rules of Object.values(CLAUSE_RULES)) {
          expect(crossesClause(t, rules)).to.equal(crossesClause(`${t} é`, rules));
        }
      }),
      { numRuns: 1000 },
    );
  });
});
