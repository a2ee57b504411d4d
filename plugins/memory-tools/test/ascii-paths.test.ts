import { expect } from 'chai';
import fc from 'fast-check';
import { formOffset, graphemeRuleForm, ruleForm } from '../src/rule-form.js';
import { CLAUSE_RULES, ENGLISH_CLAUSES, crossesClause, oneSentence } from '../src/attribution.js';
import { LATIN_TEXT } from '../src/clause-words.js';
import { clauseRulesFor } from '../src/language-reading.js';
import { blankNames, withoutNames } from '../src/name-blanking.js';
import { caseFold } from '@mira/core';
import { asciiMatchText, clearMatchFormCache, graphemeMatchText, SIMPLE_TEXT, toMatchText } from '../src/span-match.js';

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

  it("the rule form read code point by code point: the same as the segmenter's, for any text", () => {
    // Text past ASCII, with and without code points that join others (marks, joiners, jamo, flags, CR LF).
    const unit = fc.oneof(
      fc.constantFrom('a', 'B', ' ', '\n', '\r', '\r\n', '.', '?', 'é', 'ß', 'İ', 'ﬃ', 'Σ', 'ς', 'Ｎ', '？'),
      fc.constantFrom('박', '지', '훈', '\u1100', '\u1161', '\u11a8', '田', 'か', 'ｶ', 'ﾞ', '\u3099'),
      fc.constantFrom('\u0301', '\u200d', '\u200c', '\u093f', '\u0915', '\u0600', '🇫', '🇷', '👍', '🏽', '😀', '𝒜'),
    );
    const text = fc.array(unit, { maxLength: 14 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (text) => {
        const fast = ruleForm(text);
        const slow = graphemeRuleForm(text);
        expect(fast.form).to.equal(slow.form);
        for (let offset = 0; offset <= text.length; offset += 1)
          expect(formOffset(fast.at, offset, text.length)).to.equal(formOffset(slow.at, offset, text.length));
      }),
      { numRuns: 3000 },
    );
  });

  it('the clause words: the same language and the same clause boundaries as in text past ASCII', () => {
    // A word past ASCII at the end (no marker, no pronoun, lower case: ø, as é is Portuguese for "is") sends
    // the text through the Unicode path and changes nothing else; a trailing " -" is left out (with the word
    // it would make " - "), also after an aside.
    const words = fc.constantFrom('that', 'and', 'who', 'he', 'Bob', 'dass', 'er', "qu'", 'que', 'y', 'likes');
    const text = fc
      .array(fc.oneof(asciiText, words), { maxLength: 8 })
      .map((parts) => parts.join(' '))
      // (An aside closed right before the dash is blanked to a space: ", ,-" ends in " -" too.)
      .filter((t) => !/[\s,)]-\s*$/.test(t));
    fc.assert(
      fc.property(text, (t) => {
        expect(clauseRulesFor(t)).to.equal(clauseRulesFor(`${t} ø`));
        for (const rules of Object.values(CLAUSE_RULES)) {
          expect(crossesClause(t, rules)).to.equal(crossesClause(`${t} ø`, rules));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('toMatchText(): the same origins past the shared pairs, in a message a thousand times longer than most', () => {
    // Origins up to index 4,096 are shared pairs; beyond, each is its own: both must read the same.
    clearMatchFormCache(); // from cold: the pairs are made as they are first needed
    const long = `${'Ada likes tea.  '.repeat(400)}Bob  PREFERS dock 2.`;
    expect(long.length).to.be.greaterThan(4096 + 100);
    expect(asciiMatchText(long)).to.deep.equal(graphemeMatchText(long));
    const spoken = toMatchText(long)!;
    const at = spoken.form.lastIndexOf('bob');
    expect(spoken.origin[at]).to.deep.equal([long.lastIndexOf('Bob'), long.lastIndexOf('Bob') + 1]);
    // Text one space apart takes the copy of the shared pairs: from cold, after a shorter text made some,
    // at the last shared length and past it.
    for (const length of [4096, 4097, 5000]) {
      clearMatchFormCache();
      expect(asciiMatchText('Ada likes tea.').origin).to.have.length(14);
      const spaced = `${'Ada likes tea. '.repeat(400)}`.slice(0, length - 1) + 'x';
      expect(spaced).to.have.length(length);
      expect(asciiMatchText(spaced), `${length}`).to.deep.equal(graphemeMatchText(spaced));
      expect(asciiMatchText(spaced.slice(0, 100))).to.deep.equal(graphemeMatchText(spaced.slice(0, 100)));
    }
  });

  it('sentences and asides in text with no ASCII at all take the general path', () => {
    // A fullwidth full stop is a period once NFKC has read it: two sentences.
    expect(oneSentence(toMatchText('アリス．ボブ')!)).to.equal(false);
    expect(oneSentence(toMatchText('アリス。')!)).to.equal(true);
    // An aside closed at once blanks to nothing: no clause boundary is left.
    expect(crossesClause(',,', ENGLISH_CLAUSES)).to.equal(false);
    expect(crossesClause('()', ENGLISH_CLAUSES)).to.equal(false);
    expect(crossesClause(',', ENGLISH_CLAUSES)).to.equal(true);
  });

  it('the simple text of many scripts: the same matching form, rule form and fold as the grapheme paths', () => {
    // Every BMP code point the fast path takes, after a capital, doubled, and beside an accented capital.
    let taken = 0;
    for (let code = 0; code < 0x10000; code += 1) {
      const c = String.fromCharCode(code);
      if (!SIMPLE_TEXT.test(c)) continue;
      taken += 1;
      for (const text of [`A${c}${c} É`]) {
        const slow = graphemeMatchText(text);
        expect(asciiMatchText(text), text).to.deep.equal(slow);
        expect(toMatchText(text), text).to.deep.equal(slow);
        const rule = graphemeRuleForm(text);
        const fast = ruleForm(text);
        expect(fast.form, text).to.equal(rule.form);
        expect(caseFold(text.normalize('NFKC')).normalize('NFKC'), text).to.equal(text.toLowerCase());
        if (!text.includes('\r'))
          for (let offset = 0; offset <= text.length; offset += 1)
            expect(formOffset(fast.at, offset, text.length)).to.equal(formOffset(rule.at, offset, text.length));
      }
    }
    // ASCII, Latin-1 and Extended-A letters, ơ ư, Vietnamese, Cyrillic, Hebrew, Arabic, kana, CJK, Hangul, 、。·.
    expect(taken).to.equal(32_880);
    for (const odd of ['ß', 'İ', 'ĳ', 'ŀ', 'ŉ', 'ſ', 'Σ', '\u3000', '\u00a0', 'ｱ', '\u0301', '\u11a8', '\uf900'])
      expect(SIMPLE_TEXT.test(odd), odd).to.equal(false);
  });

  it('the simple text of many scripts: the same forms and origins in text of words and white space', () => {
    const unit = fc.oneof(
      fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', 'A', 'é', 'É', 'Ş', 'ı', 'Đ', 'Ơ', 'Ứ', 'Ж', 'ё', 'Ї', 'ש'),
      fc.constantFrom('ب', 'か', 'カ', '田', '박', '。', '、', '·', 'ÿ', 'Þ', '?', "'", 'x'),
    );
    const text = fc.array(unit, { maxLength: 14 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(toMatchText(t)).to.deep.equal(graphemeMatchText(t));
        const fast = ruleForm(t);
        const slow = graphemeRuleForm(t);
        expect(fast.form).to.equal(slow.form);
        for (let offset = 0; offset <= t.length; offset += 1)
          expect(formOffset(fast.at, offset, t.length)).to.equal(formOffset(slow.at, offset, t.length));
      }),
      { numRuns: 2000 },
    );
  });

  it('names blanked once: the same text as blanking them from the raw strings', () => {
    const spoken = 'Ben and ben like tea; Anna는 커피를 좋아해요 · Benny';
    const names = ['Ben', 'Anna'];
    expect(
      blankNames(
        toMatchText(spoken)!,
        names.map((n) => toMatchText(n)!),
      ),
    ).to.equal(withoutNames(spoken, names));
    expect(withoutNames(spoken, names)).to.equal('··· and ··· like tea; ····는 커피를 좋아해요 · Benny');
  });

  it("Latin text skips the script reading: no character of it is another script's letter, even in NFKC", () => {
    // The language reading counts letters of other scripts only to find text mostly in one; Latin text has none.
    let taken = 0;
    for (let code = 0; code < 0x10000; code += 1) {
      const c = String.fromCharCode(code);
      if (!LATIN_TEXT.test(c)) continue;
      taken += 1;
      const letters = c.normalize('NFKC').match(/\p{L}/gu) ?? [];
      expect(
        letters.every((letter) => /\p{Script=Latin}/u.test(letter)),
        code.toString(16),
      ).to.equal(true);
    }
    expect(taken).to.equal(0x7f - 0x20 + 5 + (0x250 - 0xa0 - 2) + (0x1f00 - 0x1e00 - 1));
    for (const odd of ['µ', 'ŉ', 'ẚ', 'Ω', 'ж', '中']) expect(LATIN_TEXT.test(odd), odd).to.equal(false);
  });

  it("Latin text holds no table's marker text: each of its words has a letter of another script", () => {
    // The language reading skips marker text (words found inside text without spaces) in Latin text.
    const textual = Object.values(CLAUSE_RULES).filter((rules) => rules.markerText);
    expect(textual.map((rules) => rules.language)).to.deep.equal(['th']);
    for (const rules of textual)
      for (const word of rules.markerText!.source.split('|')) {
        expect(word, rules.language).to.match(/^[\p{L}\p{M}]+$/u);
        expect(LATIN_TEXT.test(word), word).to.equal(false);
      }
  });
});
