import { CoreErrors, toMiraError, type MiraError } from '../errors.js';
import type { CommandDefinition, CommandInput, ConsoleOutput } from './command.js';
import { tokenize, type Token } from './tokenize.js';

/** Handles a line that is not a command: an operator utterance. */
export type UtteranceHandler = (utterance: string, out: ConsoleOutput, line?: LineContext) => Promise<void>;

/** What is known of a line besides its text. */
export interface LineContext {
  /** When the line was read (`crossThreadNow()`, comparable across threads). */
  readonly askedAt?: number;
}

/** The outcome of one console line. */
export interface LineResult {
  readonly ok: boolean;
  /** True when the line asked the console to end (`quit`). */
  readonly quit: boolean;
  /** Why the line failed, when it did (already printed as `error: CODE: message`). */
  readonly error?: MiraError;
}

interface Registered {
  readonly command: CommandDefinition;
  readonly words: readonly string[];
  readonly owner: string;
}

const COMMAND_WORD = /^[a-z][a-z0-9-]*$/;

/**
 * The command registry and line dispatcher. Knows nothing of readline: the
 * REPL and the testing kit feed it lines.
 */
export class CommandConsole {
  readonly #commands = new Map<string, Registered>();
  #utteranceHandler: UtteranceHandler | undefined;
  #quitRequested = false;

  /**
   * Registers a command for `owner`.
   *
   * @throws MiraError MIRA_ERR_DUPLICATE_REGISTRATION naming both plugins,
   *   MIRA_ERR_REGISTRATION_INVALID for a malformed name.
   */
  register(command: CommandDefinition, owner: string): void {
    const words = typeof command?.name === 'string' ? command.name.trim().split(/\s+/) : [];
    if (words.length === 0 || !words.every((w) => COMMAND_WORD.test(w)) || typeof command.run !== 'function') {
      throw CoreErrors.error('REGISTRATION_INVALID.consoleCommand', { owner, given: JSON.stringify(command?.name) });
    }
    const key = words.join(' ');
    const existing = this.#commands.get(key);
    if (existing) {
      throw CoreErrors.error('DUPLICATE_REGISTRATION.consoleCommand', { key, owner, owner2: existing.owner });
    }
    this.#commands.set(key, { command, words, owner });
  }

  /** Sets who receives operator utterances (the cognition engine). */
  setUtteranceHandler(handler: UtteranceHandler | undefined): void {
    this.#utteranceHandler = handler;
  }

  /** All commands, sorted by name. */
  list(): readonly CommandDefinition[] {
    return [...this.#commands.values()]
      .sort((a, b) => a.command.name.localeCompare(b.command.name))
      .map((r) => r.command);
  }

  /** True once `quit` ran. */
  get quitRequested(): boolean {
    return this.#quitRequested;
  }

  /** Marks the console as finished; the REPL stops reading. */
  requestQuit(): void {
    this.#quitRequested = true;
  }

  /**
   * Runs one line. Errors are printed as `error: CODE: message` and never
   * thrown: the console always continues.
   */
  async execute(line: string, out: ConsoleOutput, context: LineContext = {}): Promise<LineResult> {
    try {
      await this.#dispatch(line, out, context);
      return { ok: true, quit: this.#quitRequested };
    } catch (error) {
      const failure = toMiraError(error);
      out.print(`error: ${failure.code}: ${failure.detail}`);
      return { ok: false, quit: this.#quitRequested, error: failure };
    }
  }

  async #dispatch(line: string, out: ConsoleOutput, context: LineContext): Promise<void> {
    const trimmed = line.trim();
    if (trimmed === '') return;
    const forced = /^say(\s+|$)/.exec(trimmed);
    if (forced) {
      const text = trimmed.slice(forced[0].length);
      if (text === '') throw CoreErrors.error('CONSOLE_USAGE.say');
      return this.#utter(text, out, context);
    }
    const tokens = tokenize(trimmed);
    const match = this.#match(tokens);
    if (!match) {
      this.#refuseTypo(tokens);
      return this.#utter(trimmed, out, context);
    }
    const hasSubcommands = [...this.#commands.values()].some(
      (r) => r.words.length > match.words.length && match.words.every((w, i) => r.words[i] === w),
    );
    const input = parseInput(match.command, tokens.slice(match.words.length), line, hasSubcommands, context.askedAt);
    await match.command.run(input, out);
  }

  /**
   * A line whose first word resembles a command word, and which is shaped like a command rather than
   * speech, is a typo: saying it would send it, options and keys included, to the model and keep it in
   * working memory. Resembles: one edit away (Damerau-Levenshtein 1; for a command word under four
   * letters only two swapped letters, as "map" or "mop" are one edit from "mcp"), or its first four or
   * more letters. Shaped like a command: the word alone, a second word that follows the command word
   * (`memroy show MEM1`), or `--options`. A word with a capital or punctuation ("Hello", "Thanks!") is
   * never taken for a command word, and `note that the door sticks` is still speech.
   */
  #refuseTypo(tokens: readonly Token[]): void {
    const [first, second] = tokens;
    if (!first || first.quoted || !COMMAND_WORD.test(first.text)) return;
    const registered = [...this.#commands.values()];
    const near = [...new Set(registered.map((r) => r.words[0]!))].filter((word) => resembles(first.text, word)).sort();
    const follows = (word: string): boolean =>
      second !== undefined &&
      !second.quoted &&
      registered.some((r) => r.words[0] === word && r.words[1] === second.text);
    const flagged = tokens.some((t) => !t.quoted && t.text.startsWith('--'));
    const suggestion = near.find(follows) ?? (tokens.length === 1 || flagged ? near[0] : undefined);
    if (suggestion === undefined) return;
    throw CoreErrors.error('CONSOLE_UNKNOWN_COMMAND.nearMiss', { text: first.text, suggestion });
  }

  #match(tokens: readonly Token[]): Registered | undefined {
    let best: Registered | undefined;
    for (const registered of this.#commands.values()) {
      const { words } = registered;
      if (words.length > tokens.length) continue;
      if (!words.every((w, i) => !tokens[i]!.quoted && tokens[i]!.text === w)) continue;
      if (!best || words.length > best.words.length) best = registered;
    }
    return best;
  }

  async #utter(text: string, out: ConsoleOutput, context: LineContext): Promise<void> {
    if (!this.#utteranceHandler) {
      throw CoreErrors.error('COGNITION_NOT_CONFIGURED.line');
    }
    await this.#utteranceHandler(text, out, context);
  }

  /** The `help` text: every command, or the commands under `prefix`. */
  help(prefix: readonly string[]): string[] {
    const all = [...this.#commands.values()].sort((a, b) => a.words.join(' ').localeCompare(b.words.join(' ')));
    if (prefix.length === 0) {
      const lines = ['Commands:'];
      for (const { command } of all) lines.push(`  ${synopsis(command)}`, `      ${command.summary}`);
      lines.push('Any other line is said to the robot (an operator utterance); "say <text>" forces that.');
      return lines;
    }
    const chosen = all.filter((r) => prefix.every((w, i) => r.words[i] === w));
    if (chosen.length === 0) {
      throw CoreErrors.error('CONSOLE_UNKNOWN_COMMAND.prefix', { prefix: prefix.join(' ') });
    }
    const lines: string[] = [];
    for (const { command } of chosen) {
      lines.push(`${synopsis(command)}`, `  ${command.summary}`);
      if (command.details) for (const l of command.details.split('\n')) lines.push(`  ${l}`);
      for (const [flag, option] of Object.entries(command.options ?? {})) {
        const value = option.takesValue ? ` ${option.valueName ?? '<value>'}` : '';
        const repeat = option.repeatable ? ' (repeatable)' : '';
        lines.push(`  --${flag}${value}${repeat}${option.description ? `  ${option.description}` : ''}`);
      }
    }
    return lines;
  }
}

/** True when a typed first word may be a mistyped `command` word (see the console's typo rule). */
function resembles(typed: string, command: string): boolean {
  if (command.length < 4) {
    const diff = [...typed].flatMap((ch, i) => (ch === command[i] ? [] : [i]));
    return typed.length === command.length && diff.length === 2 && oneEditApart(typed, command);
  }
  return oneEditApart(typed, command) || (typed.length >= 4 && command.startsWith(typed) && typed !== command);
}

/** True when `a` becomes `b` by one insertion, deletion, substitution or swap of adjacent letters. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  if (a.length === b.length) {
    const diff = [...a].flatMap((ch, i) => (ch === b[i] ? [] : [i]));
    if (diff.length === 1) return true;
    return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
  }
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  let i = 0;
  while (i < short.length && short[i] === long[i]) i += 1;
  return short.slice(i) === long.slice(i + 1);
}

/** `name usage [--flag <value>]...` for help and usage errors. */
export function synopsis(command: CommandDefinition): string {
  const parts = [command.name];
  if (command.usage) parts.push(command.usage);
  for (const [flag, option] of Object.entries(command.options ?? {})) {
    const value = option.takesValue ? ` ${option.valueName ?? '<value>'}` : '';
    parts.push(`[--${flag}${value}]${option.repeatable ? '...' : ''}`);
  }
  return parts.join(' ');
}

function parseInput(
  command: CommandDefinition,
  tokens: readonly Token[],
  line: string,
  hasSubcommands: boolean,
  askedAt: number | undefined,
): CommandInput {
  const args: string[] = [];
  const options = new Map<string, string[]>();
  const known = command.options ?? {};
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.quoted || !token.text.startsWith('--')) {
      args.push(token.text);
      continue;
    }
    const flag = token.text.slice(2);
    const option = Object.hasOwn(known, flag) ? known[flag] : undefined;
    if (!option) {
      const accepted =
        Object.keys(known)
          .map((f) => `--${f}`)
          .join(', ') || 'none';
      throw CoreErrors.error('CONSOLE_UNKNOWN_FLAG', { name: command.name, text: token.text, accepted });
    }
    const values = options.get(flag) ?? [];
    if (values.length > 0 && !option.repeatable) {
      throw CoreErrors.error('CONSOLE_FLAG_REPEATED', { flag, name: command.name });
    }
    if (option.takesValue) {
      const value = tokens[i + 1];
      if (value === undefined || (!value.quoted && value.text.startsWith('--'))) {
        throw option.valueName
          ? CoreErrors.error('CONSOLE_FLAG_VALUE_MISSING.named', {
              flag,
              valueName: option.valueName,
              name: command.name,
            })
          : CoreErrors.error('CONSOLE_FLAG_VALUE_MISSING.unnamed', { flag, name: command.name });
      }
      values.push(value.text);
      i += 1;
    } else {
      values.push('');
    }
    options.set(flag, values);
  }
  const { min, max } = command.args ?? { min: 0, max: 0 };
  if (args.length < min || args.length > max) {
    const more = hasSubcommands ? `; "help ${command.name}" lists its sub-commands` : '';
    throw CoreErrors.error('CONSOLE_USAGE.synopsis', { synopsis: synopsis(command), more });
  }
  return { args, options, line, ...(askedAt === undefined ? {} : { askedAt }) };
}
