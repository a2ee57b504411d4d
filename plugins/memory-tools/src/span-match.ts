import {
  caseFold,
  codePointSegments,
  collapseWhitespace,
  findForbiddenCharacter,
  findFormatCharacter,
  isPlainAscii,
} from '@mira/core';

/**
 * Text in the matching form of admission (NFKC, case folded, white space
 * collapsed), remembering which original characters each part came from so
 * a match can be mapped back to the operator's own wording.
 */
export interface MatchText {
  /** The matching form. */
  readonly form: string;
  /** For each UTF-16 index of `form`, the [start, end) of the original grapheme it came from. */
  readonly origin: ReadonlyArray<readonly [number, number]>;
  /** The original text. */
  readonly original: string;
}

// The segmenters are built at their first use, not when the module loads: the first Intl.Segmenter costs
// ~15 ms (ICU's data), and every start-up (`mira mcp` included) loads this module.
let graphemeInstance: Intl.Segmenter | undefined;
const segmenter = (): Intl.Segmenter => (graphemeInstance ??= new Intl.Segmenter('und', { granularity: 'grapheme' }));
// Text without these has one grapheme per code point for matching (CR LF is white space either way, and a
// prepended sign keeps no space: see graphemes()), so the segmenter, by far the slowest step, can be skipped.
const MULTI_CODE_POINT_GRAPHEMES =
  /[\p{M}\u200C\u200D\p{Regional_Indicator}\p{Extended_Pictographic}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\uFF9E\uFF9F]/u;
// A character that NFKC may compose with what precedes it across a grapheme boundary: combining marks,
// the kana voicing marks (combining and halfwidth), and Hangul vowel and final jamo, conjoining,
// compatibility (ㅏ) or halfwidth, which NFKC joins to a preceding initial (ㄱ + ㅏ → 가).
const COMPOSES_BACKWARD = /^[\p{M}\u3099\u309A\u1160-\u11FF\u314F-\u3163\uFF9E\uFF9F\uFFC2-\uFFDC]/u;
// Matching form per grapheme, memoised: operator text repeats the same few hundred characters.
const unitCache = new Map<string, string>();

function unitForm(grapheme: string): string {
  let unit = unitCache.get(grapheme);
  if (unit === undefined) {
    unit = collapseWhitespace(caseFold(grapheme.normalize('NFKC')).normalize('NFKC'));
    if (unitCache.size > 10_000) unitCache.clear();
    unitCache.set(grapheme, unit);
  }
  return unit;
}

/** Forgets the memoised matching forms and word boundaries (tests and cold-start measurements). */
export function clearMatchFormCache(): void {
  unitCache.clear();
  UNIT_RANGES.length = 0;
  boundaryCache.clear();
}

const WHITESPACE = /^\s+$/u;
const STARTS_WITH_SPACE = /^\s/u;

function* graphemes(text: string): Generator<{ segment: string; index: number }> {
  if (MULTI_CODE_POINT_GRAPHEMES.test(text)) {
    for (const { segment, index } of segmenter().segment(text)) {
      // A prepended sign (Malayalam dot reph U+0D4E, Sharada, Masaram Gondi …) takes the space after it
      // into its grapheme; that space still ends the word, as it does in the whole text's NFKC form.
      const space = STARTS_WITH_SPACE.test(segment) ? 0 : segment.slice(1).search(/\s/u) + 1;
      if (space > 0) {
        yield { segment: segment.slice(0, space), index };
        yield { segment: segment.slice(space), index: index + space };
      } else yield { segment, index };
    }
    return;
  }
  yield* codePointSegments(text);
}
// Scripts written without spaces between words: next to them a word boundary is where ICU's dictionaries
// (Intl.Segmenter's word granularity) put one.
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}\p{Pc}]/u;

/**
 * Builds the matching form grapheme by grapheme, so every part of the form
 * maps back to whole original characters.
 *
 * @returns undefined when the text holds a control or bidi character (such
 *   text is never admission evidence).
 */
export function toMatchText(text: string): MatchText | undefined {
  // Plain ASCII, and the simple letters of many scripts beside it: nothing forbidden, one grapheme per
  // character, NFKC leaves it alone and case folding is its lower case, one unit for one.
  if (isPlainAscii(text) || SIMPLE_TEXT.test(text)) return asciiMatchText(text);
  return graphemeMatchText(text);
}

/**
 * Text whose matching form is its lower case, character for character, as {@link graphemeMatchText} reads it:
 * plain ASCII, and the letters of the scripts admission reads most that NFKC leaves alone, case folding lowers
 * to one character and no neighbour joins into one grapheme — Latin-1's and Latin Extended-A's letters (not ß,
 * İ, ĳ, ŀ, ŉ or ſ), ơ ư, Vietnamese's precomposed letters, basic Cyrillic, Hebrew and Arabic letters (no
 * point, no vowel sign), hiragana, katakana, the CJK ideographs of the main block, Hangul syllables, 、 and 。 —
 * and the name blank (·). A test holds each of them to the grapheme path, alone and beside others.
 */
export const SIMPLE_TEXT =
  /^[\t-\r\x20-\x7e\u00b7\u00c0-\u00d6\u00d8-\u00de\u00e0-\u00f6\u00f8-\u00ff\u0100-\u012f\u0131\u0134-\u013e\u0141-\u0148\u014a-\u017e\u01a0\u01a1\u01af\u01b0\u0400-\u045f\u0490\u0491\u05d0-\u05ea\u0621-\u063a\u0641-\u064a\u1ea0-\u1ef9\u3001\u3002\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff\uac00-\ud7a3]*$/;

/**
 * {@link toMatchText} for printable ASCII (and {@link SIMPLE_TEXT}), character by character: the same form and
 * origins as the grapheme path (which {@link graphemeMatchText} is), with no segmenter, normalisation or cache
 * (a CR LF pair, one grapheme there, is white space either way).
 */
export function asciiMatchText(text: string): MatchText {
  // Most text: words one space apart, nothing to trim. Its form is its lower case, offset for offset.
  if (!ROUGH_SPACE.test(text)) {
    return { form: text.toLowerCase(), origin: unitRanges(text.length), original: text };
  }
  let form = '';
  const origin: Array<readonly [number, number]> = [];
  let pendingSpace = -1;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
      if (form !== '' && pendingSpace < 0) pendingSpace = i;
      continue;
    }
    if (pendingSpace >= 0) {
      form += ' ';
      origin.push(unitRange(pendingSpace));
      pendingSpace = -1;
    }
    // An ASCII capital is its small letter 0x20 further; past ASCII, the character's lower case.
    if (code >= 0x80) form += text[i]!.toLowerCase();
    else form += code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 0x20) : text[i];
    origin.push(unitRange(i));
  }
  return { form, origin, original: text };
}

/** White space the matching form changes: a space first or last, two together, a tab or a line break. */
const ROUGH_SPACE = /^ | $| {2}|[\t-\r]/;

/** `[i, i + 1]`, one frozen pair per index shared by every ASCII text (origins are read, never changed). */
const UNIT_RANGES: Array<readonly [number, number]> = [];
/** How many pairs are shared; a longer text's are its own. */
const SHARED_UNIT_RANGES = 4096;
/** Makes the shared pairs up to `length` (in order: the list has no holes). */
function shareUnitRanges(length: number): void {
  // Stryker disable next-line EqualityOperator: equivalent, a pair more than asked for reads the same
  for (let i = UNIT_RANGES.length; i < length; i += 1) UNIT_RANGES.push(Object.freeze([i, i + 1] as const));
}
function unitRange(i: number): readonly [number, number] {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, a new pair reads the same
  if (i >= SHARED_UNIT_RANGES) return [i, i + 1];
  shareUnitRanges(i + 1);
  return UNIT_RANGES[i]!;
}
/** `[[0, 1], [1, 2], …]` up to `length`: a copy of the shared pairs, then pairs of its own. */
function unitRanges(length: number): Array<readonly [number, number]> {
  const shared = Math.min(length, SHARED_UNIT_RANGES);
  shareUnitRanges(shared);
  const ranges = UNIT_RANGES.slice(0, shared);
  for (let i = shared; i < length; i += 1) ranges.push([i, i + 1]);
  return ranges;
}

/** {@link toMatchText} grapheme by grapheme, for any text. */
export function graphemeMatchText(text: string): MatchText | undefined {
  if (findForbiddenCharacter(text) || findFormatCharacter(text)) return undefined;
  let form = '';
  const origin: Array<readonly [number, number]> = [];
  let pendingSpace: readonly [number, number] | undefined;
  // Graphemes that NFKC composes together (ｶ + ﾞ → ガ) form one chunk, so the matching form is the same
  // as normalising the whole text at once, whatever else the text holds.
  let chunk = '';
  let chunkStart = 0;
  const flush = () => {
    if (chunk === '') return;
    if (pendingSpace) {
      form += ' ';
      origin.push(pendingSpace);
      pendingSpace = undefined;
    }
    const unit = unitForm(chunk);
    const range = [chunkStart, chunkStart + chunk.length] as const;
    for (let i = 0; i < unit.length; i += 1) origin.push(range);
    form += unit;
    chunk = '';
  };
  for (const { segment, index } of graphemes(text)) {
    if (WHITESPACE.test(segment)) {
      flush();
      if (form !== '') pendingSpace ??= [index, index + segment.length];
      continue;
    }
    // A space carrying a combining mark is a word boundary too, as in the whole text's NFKC form.
    if (STARTS_WITH_SPACE.test(segment)) {
      flush();
      if (form !== '') pendingSpace ??= [index, index + segment.length];
    }
    if (
      chunk !== '' &&
      COMPOSES_BACKWARD.test(segment) &&
      (chunk + segment).normalize('NFKC') !== chunk.normalize('NFKC') + segment.normalize('NFKC')
    ) {
      chunk += segment;
      continue;
    }
    flush();
    chunk = segment;
    chunkStart = index;
  }
  flush();
  return { form, origin, original: text };
}

const HANGUL = /\p{Script=Hangul}/u;

let wordInstance: Intl.Segmenter | undefined;
const wordSegmenter = (): Intl.Segmenter => (wordInstance ??= new Intl.Segmenter('und', { granularity: 'word' }));
// Word boundaries per matching form, memoised: a form is segmented once however many spans are tried in it.
const boundaryCache = new Map<string, ReadonlySet<number>>();

/** Whether `at` is a word boundary of `form` as ICU finds them (dictionaries for Han, Kana, Thai, …). */
function wordBoundary(form: string, at: number): boolean {
  let boundaries = boundaryCache.get(form);
  if (!boundaries) {
    // (The form's ends are never asked: boundaryOk takes them as boundaries itself.)
    const found = new Set<number>();
    for (const { index } of wordSegmenter().segment(form)) found.add(index);
    boundaries = found;
    if (boundaryCache.size > 1000) boundaryCache.clear();
    boundaryCache.set(form, boundaries);
  }
  return boundaries.has(at);
}

/**
 * How a span may end and begin: `particles` for names and values, `name` for entity names, `endings` what the
 * language writes onto them inside a word ({@link SpanOptions.wordEndings}).
 */
interface SpanRules {
  readonly particles: boolean;
  readonly name: boolean;
  readonly endings: RegExp | undefined;
}

function boundaryOk(form: string, at: number, side: 'start' | 'end', rules: SpanRules, length: number): boolean {
  if (at <= 0 || at >= form.length) return true;
  // A name or value with an ending of its language in the same word: Elsa in Elsas, mantı in mantıya.
  if (side === 'end' && rules.endings && LETTER.test(form[at - 1]!) && rules.endings.test(lettersFrom(form, at)))
    return true;
  // Two ASCII characters: a boundary unless both are word characters (no script rule reads ASCII).
  const unitBefore = form.charCodeAt(at - 1);
  const unitAfter = form.charCodeAt(at);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the general path agrees
  if (unitBefore < 0x80 && unitAfter < 0x80) return !(asciiWordUnit(unitBefore) && asciiWordUnit(unitAfter));
  const before = String.fromCodePoint(form.codePointAt(at - 1 - (isLowSurrogate(form, at - 1) ? 1 : 0))!);
  const after = String.fromCodePoint(form.codePointAt(at)!);
  if (!WORD_CHAR.test(before) || !WORD_CHAR.test(after)) return true;
  // A name inside a run of Han characters: ICU's dictionaries cut a Chinese personal name into characters
  // (张|伟), so its boundary there is no evidence that a name ends (张 is not in 张伟喜欢绿茶).
  if (rules.name && HAN.test(before) && HAN.test(after)) return hanNameBoundary(form, at, side, length);
  // An ASCII letter or digit beside Han or kana: ICU always puts a boundary there (its word rules join no
  // letter or digit with an ideograph or kana; a test holds that), so its dictionaries need not be asked.
  if (asciiAlphanumeric(unitBefore) ? CJK.test(after) : asciiAlphanumeric(unitAfter) && CJK.test(before)) return true;
  // Without spaces, ICU's word boundaries decide: アリ is not in アリス, nor 紅 in 紅茶, but ガス is in 田中はガスが好き.
  if (SPACELESS.test(before) || SPACELESS.test(after)) return wordBoundary(form, at);
  // Hebrew writes its prepositions, article and conjunctions as one-letter prefixes (ב ה ו כ ל מ ש, up to
  // three: ובבית): a name or value may begin inside a Hebrew word after prefixes only (חיפה in בחיפה, דוד in
  // לדוד, קוגל in הקוגל; Glinert, Modern Hebrew: An Essential Grammar, ch. 5), and end only where it ends.
  if (side === 'start' && HEBREW.test(before) && HEBREW.test(after)) return onlyHebrewPrefixes(form, at);
  // Korean attaches particles to nouns: a name or value may end inside a Hangul word (커피 in 커피를) only
  // where the rest of the word is particles (박지 is not in 박지훈은), and never begin inside one (피 in 커피를).
  // The same rule wherever the name is written in another script: Anna in Anna는, Tom in Tom이.
  return rules.particles && side === 'end' && HANGUL.test(after) && onlyParticles(restOfWord(form, at));
}

/**
 * Whether an ASCII code unit of a matching form is a {@link WORD_CHAR}: a letter (lower case: the form is
 * folded), a digit or the low line (ASCII's one \p{Pc}).
 */
function asciiWordUnit(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x5f;
}

const HAN = /\p{Script=Han}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Han or kana: scripts whose words ICU finds with its dictionaries. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Whether a code unit is an ASCII letter (small: the form is folded) or digit; not the low line, which joins kana. */
const asciiAlphanumeric = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);

/** The Hangul letters from `at` to the end of their word. */
const HEBREW = /\p{Script=Hebrew}/u;
/** One to three of Hebrew's one-letter prefixes, as the whole of a word's start. */
const HEBREW_PREFIXES = /(?:^|[^\p{L}\p{M}])[ובכלמהש]{1,3}$/u;
/** Whether the Hebrew word that goes on at `at` holds only prefix letters before it. */
function onlyHebrewPrefixes(form: string, at: number): boolean {
  return HEBREW_PREFIXES.test(form.slice(Math.max(0, at - 4), at));
}

/** A letter or a mark, as one UTF-16 unit (the endings are in scripts of the main plane). */
const LETTER = /[\p{L}\p{M}]/u;
/** The letters of `form` from `at` to the end of their word (empty when a digit, `_` or `'` follows them). */
function lettersFrom(form: string, at: number): string {
  const found = /^[\p{L}\p{M}]+(?![\p{N}_'’])/u.exec(form.slice(at));
  return found ? found[0] : '';
}

function restOfWord(form: string, at: number): string {
  return /^\p{Script=Hangul}+/u.exec(form.slice(at))![0];
}

// Stryker disable StringLiteral,ArrayDeclaration: the particle and name-word tables are data; the language
// corpus (test/fixtures/language-corpus.ts) and the span tests hold them to account by the cases they decide.
/**
 * Korean particles and copula endings that follow a noun in the same word: case and topic particles, and
 * the copula (민수예요). A second particle may follow the first (에게는, 에서도).
 */
const KOREAN_PARTICLES = [
  '에게서',
  '한테서',
  '께서',
  '에게',
  '한테',
  '에서',
  '으로',
  '이랑',
  '하고',
  '처럼',
  '보다',
  '까지',
  '부터',
  '마저',
  '조차',
  '이나',
  '이라고',
  '라고',
  '이에요',
  '예요',
  '입니다',
  '이야',
  '이다',
  '이었',
  '였',
  '이랑',
  '씨',
  '님',
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '의',
  '와',
  '과',
  '도',
  '만',
  '에',
  '로',
  '랑',
  '께',
  '들',
];
/** What may follow a first particle in the same word. */
const KOREAN_SECOND = ['은', '는', '도', '만', '요', '의', '을', '를', '이', '가', '에', '에게', '에서', '한테'];
/** Korean vocative endings: a word of their own after a name, never combined with another particle. */
const KOREAN_VOCATIVE = ['아', '야'];

/** Whether `rest` (the end of a Hangul word after a name or value) is particles only. */
function onlyParticles(rest: string): boolean {
  if (KOREAN_VOCATIVE.includes(rest)) return true;
  return KOREAN_PARTICLES.some(
    (first) =>
      rest.startsWith(first) &&
      (rest.length === first.length ||
        KOREAN_SECOND.some((second) => second !== first && rest.slice(first.length) === second)),
  );
}

/** Japanese titles and suffixes written in Han that may follow a name (田中部長, 山田様). */
const JAPANESE_NAME_SUFFIXES =
  /^(?:様|氏|君|殿|先生|先輩|部長|課長|社長|会長|店長|係長|院長|教授|博士|選手|監督|夫妻|一家|家|達|医師|主任)/u;
/**
 * Chinese words that may follow a name directly: verbs and adverbs frequent right after a subject, the
 * particles and prepositions, titles, and times. A one-character name (a surname) may end only before one
 * of these: 张 is not in 张伟.
 */
const CHINESE_NAME_FOLLOWERS =
  /^(?:[是说在有和跟与也都就很不没的爱喝吃住去来会要想把被给对从叫姓用买做让请已才又还只先总常养学打看听玩开骑穿戴带欠最每]|[一二三四五六七八九十]+月|先生|女士|老师|小姐|医生|同学|经常|平时|一直|特别|非常|比较|总是|常常|现在|以前|曾经|正在|认识|知道|觉得|认为|工作|上班|喜欢|讨厌|好像|可能|应该|从来|已经|今天|昨天|明天|前天|后天|今年|明年|去年|每天|晚上|早上|上午|下午|最近)/u;
/** Chinese words that may stand right before a name when they are one character (和张伟, 据陈静说). */
const CHINESE_NAME_PRECEDERS = /(?:[和跟与同是叫的给对把被让请问找见像比说据我你他她们，、：]|告诉)$/u;
// Stryker restore StringLiteral,ArrayDeclaration

/**
 * Whether a name of `length` (UTF-16 units) may end (or begin) at `at`, between two Han characters. Japanese:
 * ICU's boundary, and only before a title (田中部長). Chinese: a name of two characters or more ends where ICU
 * ends a word of two or more after it, or before a word of {@link CHINESE_NAME_FOLLOWERS}; a one-character
 * name only before one of those. A name begins where ICU begins a word after a word of two or more
 * characters, or after one of {@link CHINESE_NAME_PRECEDERS}.
 */
function hanNameBoundary(form: string, at: number, side: 'start' | 'end', length: number): boolean {
  if (!wordBoundary(form, at)) return false;
  const after = form.slice(at);
  if (KANA.test(form)) return side === 'start' || JAPANESE_NAME_SUFFIXES.test(after);
  if (side === 'start') return CHINESE_NAME_PRECEDERS.test(form.slice(0, at)) || wordBefore(form, at).length >= 2;
  return CHINESE_NAME_FOLLOWERS.test(after) || (length >= 2 && wordAfter(form, at).length >= 2);
}

/** The ICU word of `form` that ends at `at`, and the one that begins there. */
function wordBefore(form: string, at: number): string {
  let start = at - 1;
  while (start > 0 && !wordBoundary(form, start)) start -= 1;
  return form.slice(start, at);
}
function wordAfter(form: string, at: number): string {
  let end = at + 1;
  while (end < form.length && !wordBoundary(form, end)) end += 1;
  return form.slice(at, end);
}

function isLowSurrogate(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * How {@link findWholeSpan} reads a span's ends. `particles` (names and values, never evidence): it may end
 * inside a Hangul word where the rest of the word is particles. `name` (an entity's name): inside a run of
 * Han characters it ends and begins only where a name can (see the Chinese and Japanese name words).
 */
export interface SpanOptions {
  readonly particles?: boolean;
  readonly name?: boolean;
  /**
   * What the language writes onto a name or value inside its word (a clause table's `wordEndings`: Swedish -s,
   * Turkish case endings): with `particles`, a span may end inside a word whose rest matches it whole.
   */
  readonly wordEndings?: RegExp;
}

/**
 * Finds `needle` in `haystack` as a whole span: it may not begin or end
 * inside a word ("art" does not occur in "cartography"; in scripts written
 * without spaces, a word as ICU's dictionaries segment it: "アリ" does not
 * occur in "アリス"), and it must cover whole original characters. With `particles` (names and values, never evidence)
 * it may end inside a Hangul word, where Korean attaches its particles.
 *
 * @returns the [start, end) range in the original haystack text, or undefined.
 */
export function findWholeSpan(
  haystack: MatchText,
  needle: MatchText,
  options: SpanOptions = {},
): readonly [number, number] | undefined {
  return spansOf(haystack, needle, options, 1)[0];
}

/** Every whole span of `needle` in `haystack` (see {@link findWholeSpan}), in order. */
export function wholeSpans(
  haystack: MatchText,
  needle: MatchText,
  options: SpanOptions = {},
): Array<readonly [number, number]> {
  return spansOf(haystack, needle, options, Infinity);
}

/** The first `limit` whole spans of `needle` in `haystack`, in order. */
function spansOf(
  haystack: MatchText,
  needle: MatchText,
  options: SpanOptions,
  limit: number,
): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  const { form } = haystack;
  const target = needle.form;
  if (target === '') return spans;
  const rules: SpanRules = {
    particles: options.particles ?? false,
    name: options.name ?? false,
    endings: options.particles ? options.wordEndings : undefined,
  };
  for (let at = form.indexOf(target); at !== -1; at = form.indexOf(target, at + 1)) {
    const end = at + target.length;
    if (!boundaryOk(form, at, 'start', rules, target.length) || !boundaryOk(form, end, 'end', rules, target.length))
      continue;
    const [start] = haystack.origin[at]!;
    const [, stop] = haystack.origin[end - 1]!;
    // The match must start and end on whole original graphemes (not inside "ß" → "ss").
    if (at > 0 && haystack.origin[at - 1]![0] === start) continue;
    if (end < form.length && haystack.origin[end]![1] === stop) continue;
    if (spans.push([start, stop]) === limit) break;
  }
  return spans;
}
