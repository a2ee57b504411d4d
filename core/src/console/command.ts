/** A `--flag` a command accepts. */
export interface CommandOption {
  /** False for a switch (`--force`); true when a value follows (`--link ENT1:owner`). */
  readonly takesValue: boolean;
  /** May the flag be given more than once? Values are kept in order. */
  readonly repeatable?: boolean;
  /** Shown by `help`, e.g. `ENT<n>:<role>`. */
  readonly valueName?: string;
  readonly description?: string;
}

/** The parsed input of one console line, for the command that owns it. */
export interface CommandInput {
  /** Positional arguments after the command words, quotes removed. */
  readonly args: readonly string[];
  /** Values per flag name (without `--`), in the order given; a switch has `['']`. */
  readonly options: ReadonlyMap<string, readonly string[]>;
  /** The line as typed. */
  readonly line: string;
  /**
   * When the line was read (`crossThreadNow()`), where known: a command that moves the robot passes it
   * on as its episode's `askedAt`, so a stop typed after the line fences the motion off.
   */
  readonly askedAt?: number;
}

/** A long operation's progress, as it goes. */
export interface Progress {
  /** `done` of the total so far. */
  update(done: number): void;
  /** Removes the bar (the operation prints its own result line after). */
  stop(): void;
}

/** A line that says the runtime is waiting, until it is stopped. */
export interface Waiting {
  /** Clears the line (when it was shown); safe to call more than once. */
  stop(): void;
}

/** Where a command prints. Each call is one line on stdout. */
export interface ConsoleOutput {
  print(line: string): void;
  /**
   * Writes part of a line, with no newline: text streamed as it arrives (the line is ended by a later
   * write of `\n`, before any `print`). Absent where output is whole lines only; then a reply is printed whole.
   */
  write?(text: string): void;
  /**
   * A line that says the runtime is waiting (`Mira is thinking… 3s`), shown on a terminal after about a second
   * and cleared by `stop()`; absent, or showing nothing, elsewhere.
   */
  waiting?(label: string): Waiting;
  /**
   * A progress bar for a long operation of `total` steps, when the output is a terminal; absent
   * otherwise (use `progressOf`, which shows nothing then).
   */
  progress?(label: string, total: number): Progress;
}

/**
 * A console command. `name` is one or more words: plugins extend the command
 * tree, e.g. the memory plugin's `memory entity add` beside core's `memory`.
 * The longest registered word sequence that prefixes a line wins.
 *
 * @example
 * api.commands.register({
 *   name: 'battery', summary: 'Print the battery level', args: { min: 0, max: 0 },
 *   run: (_input, out) => out.print('battery 81%'),
 * });
 */
export interface CommandDefinition {
  readonly name: string;
  /** One line for `help`. */
  readonly summary: string;
  /** Argument synopsis after the name, e.g. `<entity_type> "<canonical name>"`. */
  readonly usage?: string;
  /** Longer text for `help <command>`. */
  readonly details?: string;
  /** Positional argument count; a line outside it fails with MIRA_ERR_CONSOLE_USAGE. Default: none allowed. */
  readonly args?: { readonly min: number; readonly max: number };
  readonly options?: Readonly<Record<string, CommandOption>>;
  /** Throw a `MiraError` to fail the line; the console prints `error: CODE: message`. */
  run(input: CommandInput, out: ConsoleOutput): void | Promise<void>;
}
