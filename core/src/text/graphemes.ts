/**
 * A code point that may join the one before or after it into one grapheme (UAX #29): those of the classes
 * every rule that keeps two code points together names — Extend (Grapheme_Extend and the emoji modifiers),
 * ZWJ, SpacingMark (the spacing marks, and Thai and Lao AM), Prepend, the Hangul jamo L, V and T,
 * Regional_Indicator — and CR (of CR LF). A wider class would only send more text to the segmenter; the
 * tests hold it to ICU's own segmentation for every assigned code point.
 */
const JOINING =
  /[\p{Grapheme_Extend}\p{Emoji_Modifier}\u200D\p{Mc}\u0E33\u0EB3\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u0D4E\u{110BD}\u{110CD}\u{111C2}\u{111C3}\u{113D1}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\u{16D63}\u{16D67}-\u{16D6A}\p{Regional_Indicator}\r]/u;

/**
 * Whether every code point of `text` is a grapheme of its own: none of them joins another, so the text can be
 * read code point by code point where graphemes are asked for, without a segmenter (ICU's grapheme
 * segmentation is by far the slowest step of reading a text).
 */
export function oneGraphemePerCodePoint(text: string): boolean {
  return !JOINING.test(text);
}

/**
 * `text` code point by code point, each with its UTF-16 index, in the shape of `Intl.Segmenter`'s segments:
 * its graphemes where each is one ({@link oneGraphemePerCodePoint}).
 */
export function* codePointSegments(text: string): Generator<{ segment: string; index: number }> {
  let index = 0;
  for (const segment of text) {
    yield { segment, index };
    index += segment.length;
  }
}
