import { CoreErrors } from '../errors.js';

/** One word of a console line. */
export interface Token {
  readonly text: string;
  /** True when any part of the word was in double quotes; quoted words are never flags or command words. */
  readonly quoted: boolean;
}

/**
 * Splits a console line into words. Double quotes group text with spaces;
 * inside them `\"` is a quote and `\\` a backslash. Quotes may join with
 * unquoted text (`ENT1:"owner"` is one word).
 *
 * @throws MiraError MIRA_ERR_CONSOLE_UNTERMINATED_QUOTE
 */
export function tokenize(line: string): Token[] {
  const tokens: Token[] = [];
  let text = '';
  let quoted = false;
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === '"') {
      const start = i;
      i += 1;
      let closed = false;
      while (i < line.length) {
        const c = line[i]!;
        if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) {
          text += line[i + 1];
          i += 2;
        } else if (c === '"') {
          closed = true;
          i += 1;
          break;
        } else {
          text += c;
          i += 1;
        }
      }
      if (!closed) {
        throw CoreErrors.error('CONSOLE_UNTERMINATED_QUOTE', { column: start + 1 });
      }
      quoted = true;
      inWord = true;
    } else if (/\s/u.test(ch)) {
      if (inWord) tokens.push({ text, quoted });
      text = '';
      quoted = false;
      inWord = false;
      i += 1;
    } else {
      text += ch;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) tokens.push({ text, quoted });
  return tokens;
}
