/** The stand-in a tool call's arguments take in the history when the model's own text is not JSON a server can read. */
export const ARGUMENTS_STAND_IN = '{}';

/**
 * A tool call's arguments as a JSON reader on a model server reads them, or `undefined` when it could not.
 * Stricter than `JSON.parse` where servers are: a number that overflows a double (`-67e3941`, which
 * `JSON.parse` reads as `-Infinity`) is refused, as llama.cpp's JSON library refuses it.
 *
 * @example
 * parseToolArguments('{"query":"Ada"}'); // { query: 'Ada' }
 * parseToolArguments('{"x": 1e999}');     // undefined
 */
export function parseToolArguments(text: string): unknown {
  let finite = true;
  let value: unknown;
  try {
    value = JSON.parse(text, (_key, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) finite = false;
      return v;
    });
  } catch {
    return undefined;
  }
  return finite ? value : undefined;
}

/**
 * The arguments to send back in the assistant turn of the history: the model's own text when a server can
 * read it, otherwise {@link ARGUMENTS_STAND_IN}. A server that reads the history (llama.cpp's parses every
 * call's arguments) refuses the whole request otherwise, and the episode could never continue.
 */
export function sendableArguments(text: string): string {
  return parseToolArguments(text) === undefined ? ARGUMENTS_STAND_IN : text;
}
