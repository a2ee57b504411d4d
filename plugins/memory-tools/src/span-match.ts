import {
  caseFold,
  codePointSegments,
  collapseWhitespace,
  findForbiddenCharacter,
  findFormatCharacter,
  isPlainAscii,
} from '@mira/core';
import { boundaryOk, clearWordBoundaryCache, type SpanRules } from './word-boundaries.js';

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
  clearWordBoundaryCache();
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
