import { expect } from 'chai';
import { clearMatchFormCache, findWholeSpan, toMatchText, wholeSpans, type MatchText } from '@mira/plugin-memory-tools';
import { withoutDirectionMarks } from '../src/direction-marks.js';

const text = (s: string): MatchText => toMatchText(s)!;

describe('toMatchText(): the matching form, mapped back to whole original characters', () => {
  beforeEach(() => clearMatchFormCache());

  const cases: Array<[string, string, string, Array<[number, number]>]> = [
    [
      'trims, and collapses a run of white space to one space mapped to its first character',
      '  Ada  Lovelace ',
      'ada lovelace',
      [
        [2, 3],
        [3, 4],
        [4, 5],
        [5, 6],
        [7, 8],
        [8, 9],
        [9, 10],
        [10, 11],
        [11, 12],
        [12, 13],
        [13, 14],
        [14, 15],
      ],
    ],
    [
      'keeps a decomposed letter and a CR LF whole (grapheme segmentation)',
      'Cafe\u0301\r\nBar',
      'café bar',
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 5],
        [5, 7],
        [7, 8],
        [8, 9],
        [9, 10],
      ],
    ],
    [
      'composes halfwidth kana with its voicing mark',
      'ｶﾞｽ',
      'ガス',
      [
        [0, 2],
        [2, 3],
      ],
    ],
    ['composes compatibility jamo as NFKC does for the whole text (ㄱ + ㅏ → 가)', 'ㄱㅏ', '가', [[0, 2]]],
    ['composes a compatibility initial with a conjoining vowel and final', 'ㄱ\u1161\u11a8', '각', [[0, 3]]],
    ['composes halfwidth jamo', '\uffa1\uffc2', '가', [[0, 2]]],
    [
      'keeps a letter and a following compatibility vowel apart when NFKC does not join them',
      'aㅏ',
      'aᅡ',
      [
        [0, 1],
        [1, 2],
      ],
    ],
    [
      'keeps the space under a stray combining mark as a word boundary',
      'a \u0301b',
      'a \u0301b',
      [
        [0, 1],
        [1, 3],
        [1, 3],
        [3, 4],
      ],
    ],
    [
      'drops a leading space that carries a stray mark, as trimming the whole text does',
      ' \u0301a',
      '\u0301a',
      [
        [0, 2],
        [2, 3],
      ],
    ],
    [
      'expands ß to ss, both from the one original character',
      'ß',
      'ss',
      [
        [0, 1],
        [0, 1],
      ],
    ],
    [
      'expands ½ to 1⁄2, all from the one original character',
      '½',
      '1⁄2',
      [
        [0, 1],
        [0, 1],
        [0, 1],
      ],
    ],
    [
      'keeps a flag (two regional indicators) one character',
      '🇫🇷',
      '🇫🇷',
      [
        [0, 4],
        [0, 4],
        [0, 4],
        [0, 4],
      ],
    ],
    [
      'maps a character outside the Basic Multilingual Plane to both its code units',
      '𝒜da',
      'ada',
      [
        [0, 2],
        [2, 3],
        [3, 4],
      ],
    ],
    [
      'keeps Latin next to Japanese as written',
      'Aliceは紅茶',
      'aliceは紅茶',
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 4],
        [4, 5],
        [5, 6],
        [6, 7],
        [7, 8],
      ],
    ],
    [
      'folds full-width and case',
      'ＡＤＡ',
      'ada',
      [
        [0, 1],
        [1, 2],
        [2, 3],
      ],
    ],
    ['gives nothing for white space only', ' \t\n ', '', []],
    [
      'keeps the space after a prepended sign (U+0D4E), which the segmenter joins to it, as NFKC of the whole text does',
      'x\u0D4E y\u0301',
      'x\u0D4E \u00FD',
      [
        [0, 1],
        [1, 2],
        [2, 3],
        [3, 5],
      ],
    ],
    [
      'reads CR LF and the space after it as one space, in the segmenter too',
      'a\r\n b\u0301',
      'a b\u0301', // no precomposed b with acute
      [
        [0, 1],
        [1, 3],
        [4, 6],
        [4, 6],
      ],
    ],
  ];
  for (const [what, input, form, origin] of cases) {
    it(what, () => {
      expect(toMatchText(input)).to.deep.equal({ form, origin, original: input });
      // The same again, from the memoised forms.
      expect(toMatchText(input)).to.deep.equal({ form, origin, original: input });
    });
  }

  it('refuses text with a control, bidi or invisible format character', () => {
    for (const bad of ['Ada\u0000', 'Ada\u202e', 'Al\u200bice', '\ufeffAda'])
      expect(toMatchText(bad)).to.equal(undefined);
  });
});

describe('findWholeSpan(): a whole span, never part of a word or of a character', () => {
  beforeEach(() => clearMatchFormCache());

  const cases: Array<[string, string, string, boolean, readonly [number, number] | undefined]> = [
    ['a word inside another word is not a span', 'cartography', 'art', false, undefined],
    ['the first whole occurrence wins', 'an apple a day', 'a', false, [9, 10]],
    ['case and width do not matter', 'Alice and ＢＯＢ', 'bob', false, [10, 13]],
    ['a match is mapped back to the original wording', '  Alice   prefers TEA ', 'alice prefers tea', false, [2, 21]],
    ['an empty needle matches nothing', 'art', '', false, undefined],
    ['2 is not a whole character of ½', 'Alice owns ½ acre', '2', false, undefined],
    ['1 is not a whole character of ½', 'Alice owns ½ acre', '1', false, undefined],
    ['½ itself is', 'Alice owns ½ acre', '½', false, [11, 12]],
    ['ss is not a whole character of ß', 'Straße', 'ss', false, undefined],
    ['one regional indicator is not a flag', 'I am from 🇫🇷', '🇫', false, undefined],
    ['the flag is', 'I am from 🇫🇷.', '🇫🇷', false, [10, 14]],
    ['no word boundary is needed next to Japanese', 'Aliceは紅茶が好き', '紅茶', false, [6, 8]],
    ['Latin right before Japanese', 'Aliceは紅茶が好き', 'alice', false, [0, 5]],
    ['no word boundary is needed next to Thai', 'ชาเขียวอร่อย', 'เขียว', false, [2, 7]],
    ['a Hangul value may end inside a word with particles', '커피를 좋아해', '커피', true, [0, 2]],
    ['but not without particles (evidence)', '커피를 좋아해', '커피', false, undefined],
    ['and never begin inside one', '커피를 좋아해', '피를', true, undefined],
    ['particles do not let Latin end inside a word', 'Alicea likes tea', 'alice', true, undefined],
    ['a character outside the BMP at the end of a word', 'x𝒜 y', '𝒜', false, undefined],
    ['a character outside the BMP as a word', 'I met 𝒜 today', '𝒜', false, [6, 8]],
    ['a surrogate pair before the match is one character', '𝒜b c', 'b', false, undefined],
    ['a letter outside the BMP right before the match is part of the word', '𐌰b', 'b', false, undefined],
    ['so is one whose low surrogate is U+DC00', '𐀀b', 'b', false, undefined],
    ['and one whose low surrogate is U+DFFF', '𓏿b', 'b', false, undefined],
    ['an emoji outside the BMP right before the match is a boundary', '😀b', 'b', false, [2, 3]],
    ['a private-use character before the match is a boundary, not half of a pair', 'a\ue000b', 'b', false, [2, 3]],
    ['compatibility jamo match their composed syllable', 'ㄱㅏ 나', '가', false, [0, 2]],
    ['NFD in the haystack, NFC in the needle', 'Cafe\u0301 noir', 'café', false, [0, 5]],
    ['NFC in the haystack, NFD in the needle', 'Café noir', 'Cafe\u0301', false, [0, 4]],
    ['digits are word characters', 'room 101', '10', false, undefined],
    ['punctuation is a boundary', '(Alice)', 'alice', false, [1, 6]],
    // U+0D4E is a prepended sign: the segmenter puts the space after it in its grapheme.
    ['the space after a prepended sign is a boundary', 'Bob\u0D4E Alice\u0301 x', 'alicé', false, [5, 11]],
    ['also when nothing sends the text through the segmenter', 'Bob\u0D4E Alice x', 'alice', false, [5, 10]],
  ];
  for (const [what, haystack, needle, particles, expected] of cases) {
    it(what, () => {
      expect(findWholeSpan(text(haystack), text(needle), { particles })).to.deep.equal(expected);
    });
  }

  it('does not allow particles unless asked', () => {
    expect(findWholeSpan(text('커피를 좋아해'), text('커피'))).to.equal(undefined);
  });

  it('reads the boundary between any two ASCII characters as between any others: none between word characters', () => {
    const word = /[\p{L}\p{N}\p{M}\p{Pc}]/u;
    const printable = Array.from({ length: 0x7e - 0x20 }, (_, i) => String.fromCharCode(0x21 + i));
    let boundaries = 0;
    for (const before of printable)
      for (const after of printable) {
        const pair = text(before + after);
        const expected = !(word.test(before) && word.test(after));
        const spans = (needle: string) => [...wholeSpans(pair, text(needle))].map(([start, end]) => `${start}-${end}`);
        expect(spans(before).includes('0-1'), `${before}|${after} as an end`).to.equal(expected);
        expect(spans(after).includes('1-2'), `${before}|${after} as a start`).to.equal(expected);
        if (expected) boundaries += 1;
      }
    // Letters, digits and _ are 63 of the 94: 63 × 63 pairs have no boundary between them.
    expect(boundaries).to.equal(94 * 94 - 63 * 63);
    // Beside a character outside ASCII the script rules decide as before.
    expect(findWholeSpan(text('cafék'), text('caf'))).to.equal(undefined);
    expect(findWholeSpan(text('a·b'), text('a'))).to.deep.equal([0, 1]);
    expect(findWholeSpan(text('_ä'), text('_'))).to.equal(undefined);
    expect(findWholeSpan(text('Aliceは'), text('alice'))).to.deep.equal([0, 5]);
  });

  it('reads an ASCII letter or digit beside Han or kana as ICU does: always a boundary, but _ beside katakana', () => {
    // The span rules answer this pair without ICU's dictionaries: hold ICU to it, for a sample of every Han and
    // kana letter (every 101st, both planes), after and before each letter and digit, in runs of one to three
    // and beside one to three ASCII characters.
    const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
    const cjk: string[] = [];
    for (let code = 0x2e80; code <= 0x3ffff; code += 1) {
      const c = String.fromCodePoint(code);
      if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(c) && /\p{L}/u.test(c)) cjk.push(c);
    }
    expect(cjk.length).to.be.greaterThan(100_000);
    const sample = cjk.filter((_, i) => i % 101 === 0);
    for (const [n, a] of [...'abcdefghijklmnopqrstuvwxyz0123456789'].entries()) {
      const run = 1 + (n % 3);
      const ascii = a.repeat(1 + (n % 3));
      let joined = ascii;
      const junctions: number[] = [];
      for (let i = 0; i < sample.length; i += run) {
        junctions.push(joined.length);
        joined += sample.slice(i, i + run).join('');
        junctions.push(joined.length);
        joined += ascii;
      }
      const boundaries = new Set([...segmenter.segment(joined)].map((s) => s.index));
      expect(junctions.filter((at) => !boundaries.has(at)).map((at) => joined.slice(at - 2, at + 2))).to.deep.equal([]);
    }
    // The spans themselves: a name in ASCII right before or after Han and kana ends and begins there.
    expect(findWholeSpan(text('Entity 000123喜欢咖啡'), text('entity 000123'), { name: true })).to.deep.equal([0, 13]);
    expect(findWholeSpan(text('我认识Tom'), text('tom'), { name: true })).to.deep.equal([3, 6]);
    expect(findWholeSpan(text('AliceはTomが好き'), text('tom'), { name: true })).to.deep.equal([6, 9]);
    expect(findWholeSpan(text('a_カナ'), text('a_'))).to.equal(undefined);
  });
});

describe('findWholeSpan(): where a name or value may end in Korean, Japanese and Chinese', () => {
  beforeEach(() => clearMatchFormCache());
  const find = (haystack: string, needle: string, options: { particles?: boolean; name?: boolean }) =>
    findWholeSpan(text(haystack), text(needle), options);
  const name = { particles: true, name: true };

  const cases: Array<[string, string, string, readonly [number, number] | undefined]> = [
    // Korean: a name ends inside a word only where the rest of the word is particles.
    ['before a topic particle', '민수는 커피를 좋아해', '민수', [0, 2]],
    ['before a particle and another', '민수에게는 커피를 줘', '민수', [0, 2]],
    ['before the copula', '제 친구는 민수예요', '민수', [6, 8]],
    ['before a vocative', '민수야 커피 마실래', '민수', [0, 2]],
    ['never inside a longer name', '박지훈은 녹차를 좋아해요', '박지', undefined],
    ['never before the same particle twice (지 is not in 지은은)', '지은은 녹차를 좋아해요', '지', undefined],
    ['never before a vocative and more', '민아가 왔어', '민', undefined],
    ['nor before a verb', '민수는 축구하는 걸 좋아해', '축구', undefined],
    // Chinese: a name is not cut into the characters ICU's dictionary splits it into.
    ['a one-character name never ends inside a longer name', '张伟喜欢绿茶', '张', undefined],
    ['the whole name is one', '张伟喜欢绿茶', '张伟', [0, 2]],
    ['a one-character name ends before a word that follows a name', '张是老师', '张', [0, 1]],
    ['nor begins inside one (王 + 小明)', '王小明住在上海', '小明', undefined],
    ['a given name ICU knows is no name of its own', '王小明住在上海', '王', undefined],
    ['a name of two characters ends before a word of two', '王芳怀孕了', '王芳', [0, 2]],
    ['a name begins after a word of two characters', '我的朋友王芳喜欢咖啡', '王芳', [4, 6]],
    ['and after 和', '李娜和王芳喜欢咖啡', '王芳', [3, 5]],
    // 我|和|王|小明: 和 stands before 王, not before 小明, and 王 may be the surname of 王小明.
    [
      'but not after a one-character word that follows 和 (小明 is not in 我和王小明)',
      '我和王小明住在上海',
      '小明',
      undefined,
    ],
    ['never inside a word ICU knows, even after 和 and before 很 (平 is not in 和平)', '和平很好', '平', undefined],
    ['a one-character name ends before a month of two numerals', '张十二月结婚', '张', [0, 1]],
    ['a name of two characters ends before a word of two that ends the text', '王芳怀孕', '王芳', [0, 2]],
    // Japanese: between Han characters a name ends only before a title.
    ['before a title', '田中部長は紅茶が好き', '田中', [0, 2]],
    ['never inside a full name', '田中太郎は紅茶が好き', '田中', undefined],
    ['before an honorific in kana', '田中さんは紅茶が好き', '田中', [0, 2]],
    ['never begins inside a word ICU knows (中 is not in 田中さん)', '田中さんは紅茶が好き', '中', undefined],
    ['begins right after a word in Han (昨日田中さん)', '昨日田中さんが来た', '田中', [2, 4]],
    ['the title must follow the name at once (田中 is not in 田中太郎様)', '田中太郎様は紅茶が好き', '田中', undefined],
    // Korean: a value never begins inside a word, not even where the rest of the word is a particle.
    ['nor begins at a particle inside a word (를 is not in 커피를)', '커피를 좋아해', '를', undefined],
  ];
  for (const [what, haystack, needle, expected] of cases) {
    it(what, () => {
      expect(find(haystack, needle, name)).to.deep.equal(expected);
    });
  }

  it('reads the Han name rule for names only: a value keeps ICU’s boundaries', () => {
    expect(find('张伟喜欢绿茶', '张', { particles: true })).to.deep.equal([0, 1]);
    expect(find('田中太郎は紅茶が好き', '田中', { particles: true })).to.deep.equal([0, 2]);
  });

  it('reads particles for values too, and never for evidence', () => {
    expect(find('박지훈은 녹차를 좋아해요', '녹차', { particles: true })).to.deep.equal([5, 7]);
    expect(find('박지훈은 녹차를 좋아해요', '박지', { particles: true })).to.equal(undefined);
    expect(find('민수는 커피를 좋아해', '민수', {})).to.equal(undefined);
  });
});

describe('withoutDirectionMarks(): the implicit direction marks set aside, nothing else', () => {
  it('drops LRM, RLM and ALM beside white space or punctuation, and reads one between two words as a space', () => {
    expect(withoutDirectionMarks('דני\u200f אוהב קפה.\u200e')).to.equal('דני אוהב קפה.');
    expect(withoutDirectionMarks('\u061cسامي\u061c يحب')).to.equal('سامي يحب');
    expect(withoutDirectionMarks('Anna\u200f\u200fשותה')).to.equal('Anna שותה');
    expect(withoutDirectionMarks('3\u200e4')).to.equal('3 4');
    // Embeddings, overrides and isolates stay, for the matching form to refuse.
    expect(withoutDirectionMarks('a\u202eb\u2067c')).to.equal('a\u202eb\u2067c');
    expect(toMatchText(withoutDirectionMarks('a\u202eb'))).to.equal(undefined);
    const plain = 'Ada likes tea';
    expect(withoutDirectionMarks(plain)).to.equal(plain);
  });
});
