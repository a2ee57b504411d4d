/**
 * Text from outside the runtime (the model's replies, tool names it made up) as it may be printed on
 * the console: control characters, the escape character and bidirectional and other invisible format
 * characters are shown escaped (`\x1b`, `\u202e`), so no model text can colour the terminal, reorder
 * what is shown, or hide characters.
 */
export function printable(text: string): string {
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp === 0x0a) out += '\n';
    else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (/[\p{Cf}\u2028\u2029]/u.test(char) && cp !== 0x200c && cp !== 0x200d) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else out += char;
  }
  return out;
}

/**
 * Text from outside the runtime on one line: {@link printable}, with newlines escaped as well (`\n`), for
 * words that are printed inside a line of the runtime's own (`mcp tickets: down (…)`) and so must never
 * start a line of their own.
 */
export function printableLine(text: string): string {
  return printable(text).replace(/\n/g, '\\n');
}

/**
 * A reply printed under its speaker: `Mira: first line`, then every further line indented, so a reply
 * can never print a line that reads like the runtime's own (`[remember] applied/created MEM42`).
 */
export function speakerLines(speaker: string, text: string): string {
  const lines = printable(text).split('\n');
  return [`${speaker}: ${lines[0]}`, ...lines.slice(1).map((line) => `  ${line}`)].join('\n');
}
