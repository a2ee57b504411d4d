/**
 * Where a whole span may begin and end in a matching form: at a word boundary, as each script draws one —
 * ICU's dictionaries for scripts without spaces, Chinese and Japanese names inside runs of Han, Korean particles
 * and Hebrew prefixes inside a word, and the endings a language writes onto a name (Swedish -s, Turkish cases).
 */

// Scripts written without spaces between words: next to them a word boundary is where ICU's dictionaries
// (Intl.Segmenter's word granularity) put one.
const SPACELESS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}\p{Pc}]/u;

const HANGUL = /\p{Script=Hangul}/u;

let wordInstance: Intl.Segmenter | undefined;
const wordSegmenter = (): Intl.Segmenter => (wordInstance ??= new Intl.Segmenter('und', { granularity: 'word' }));
// Word boundaries per matching form, memoised: a form is segmented once however many spans are tried in it.
const boundaryCache = new Map<string, ReadonlySet<number>>();
/** Forgets the memoised word boundaries (tests and cold-start measurements). */
export function clearWordBoundaryCache(): void {
  boundaryCache.clear();
}

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
export interface SpanRules {
  readonly particles: boolean;
  readonly name: boolean;
  readonly endings: RegExp | undefined;
}

export function boundaryOk(form: string, at: number, side: 'start' | 'end', rules: SpanRules, length: number): boolean {
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
