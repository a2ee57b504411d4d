/**
 * The arguments after `--ros-args`, read with rcl's grammar (rcl/src/rcl/arguments.c and its lexer), so a
 * launch file's arguments mean to Mira what they mean to every other node, and what rcl refuses Mira
 * refuses, in rcl's words:
 *
 * - `-r/--remap [node:]from:=to`: `__ns:=/fully/qualified`, `__node:=name` (or `__name:=`), and name
 *   remaps (`cmd_vel:=/base/cmd_vel`, `rostopic://…`, `rosservice://…`), optionally for one node only
 *   (`mira:cmd_vel:=…`);
 * - `-p/--param name:=value` (a dotted name);
 * - `--params-file <file>`, `--log-level [logger:=]<level>`, `--log-config-file <file>`, `-e/--enclave`;
 * - `--enable-`/`--disable-` `rosout-logs`, `stdout-logs`, `external-lib-logs`.
 *
 * Anything else is an unknown ROS argument (rcl keeps those for the node; Mira logs them).
 */

/** A name remap rule (`from:=to`), as rcl keeps it before expanding it for a node. */
export interface NameRemap {
  /** The node it is for (`mira:` before the rule), or every node. */
  readonly node?: string;
  /** `topic`, `service`, or both when the rule names no scheme. */
  readonly applies: 'topic' | 'service' | 'both';
  readonly match: string;
  readonly replacement: string;
}

/** rcl's log severities, in order. */
export const ROS_LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'fatal'] as const;
export type RosLogLevel = (typeof ROS_LOG_LEVELS)[number] | 'unset';

/** What `--ros-args` says, as rcl reads it. */
export interface RosArgs {
  /** `-r __ns:=/robot1` (the last one for this node). */
  readonly namespace?: string;
  /** `-r __node:=mira` (the last one for this node). */
  readonly nodeName?: string;
  /** Name remap rules, in the order given (the first that matches a name applies, as in rcl). */
  readonly remaps: readonly NameRemap[];
  /** `-p name:=value`, by name (the last one wins, as in rcl). */
  readonly params: Readonly<Record<string, string>>;
  /** `--params-file`, in order. */
  readonly paramsFiles: readonly string[];
  /** `--log-level <level>`: the default level of the node's loggers. */
  readonly logLevel?: RosLogLevel;
  /** `--log-level name:=level`: levels of named loggers. */
  readonly loggerLevels: Readonly<Record<string, RosLogLevel>>;
  /** `--disable-rosout-logs` / `--enable-rosout-logs` (the last one given), or undefined. */
  readonly rosoutLogs?: boolean;
  /** Arguments Mira parsed but does not act on, each as given, for one log line. */
  readonly unused: readonly string[];
}

/** An argument rcl would refuse: its message, and the warning rcl logs before it (if any). */
export class RosArgsError extends Error {
  constructor(
    message: string,
    /** What rcl logs as a warning before failing (`Namespace not remapped to a fully qualified name …`). */
    readonly warning?: string,
  ) {
    super(message);
  }
}

/** rcl's TOKEN lexeme: `(([a-zA-Z](_)?)|_)([0-9a-zA-Z](_)?)*` (no leading digit, no `__`). */
const TOKEN = /^(?:[A-Za-z]_?|_)(?:[0-9A-Za-z]_?)*/;

type Lexeme =
  | 'tilde_slash'
  | 'url_service'
  | 'url_topic'
  | 'separator'
  | 'colon'
  | 'node'
  | 'ns'
  | 'backreference'
  | 'wild_multi'
  | 'wild_one'
  | 'forward_slash'
  | 'dot'
  | 'token'
  | 'eof'
  | 'none';

/** The lexeme at the start of `text` and its length, as rcl's lexer finds it. */
function lex(text: string): [Lexeme, number] {
  if (text === '') return ['eof', 0];
  const fixed: Array<[string, Lexeme]> = [
    ['~/', 'tilde_slash'],
    ['rosservice://', 'url_service'],
    ['rostopic://', 'url_topic'],
    [':=', 'separator'],
    [':', 'colon'],
    ['**', 'wild_multi'],
    ['*', 'wild_one'],
    ['/', 'forward_slash'],
    ['.', 'dot'],
  ];
  for (const [literal, lexeme] of fixed) if (text.startsWith(literal)) return [lexeme, literal.length];
  // `__node`, `__name` and `__ns` are lexemes of their own where a token cannot go on after them.
  for (const [literal, lexeme] of [
    ['__node', 'node'],
    ['__name', 'node'],
    ['__ns', 'ns'],
  ] as const) {
    if (text.startsWith(literal) && !/^[0-9A-Za-z_]/.test(text.slice(literal.length))) return [lexeme, literal.length];
  }
  if (/^\\[1-9]/.test(text)) return ['backreference', 2];
  const token = TOKEN.exec(text);
  if (token && token[0].length > 0) return ['token', token[0].length];
  return ['none', 1];
}

/** A lookahead over a rule's lexemes. */
class Lexer {
  #at = 0;
  constructor(readonly text: string) {}
  peek(skip = 0): Lexeme {
    let at = this.#at;
    let lexeme: Lexeme = 'eof';
    for (let i = 0; i <= skip; i += 1) {
      const [found, length] = lex(this.text.slice(at));
      lexeme = found;
      at += length;
    }
    return lexeme;
  }
  get rest(): string {
    return this.text.slice(this.#at);
  }
  /** Takes the next lexeme if it is `lexeme`; its text, or undefined. */
  accept(lexeme: Lexeme): string | undefined {
    const [found, length] = lex(this.rest);
    if (found !== lexeme) return undefined;
    const text = this.rest.slice(0, length);
    this.#at += length;
    return text;
  }
}

/** `~/`, `/` or nothing, then `token ( '/' token )*` up to `end`: a name, as rcl's remap rules take it. */
function name(lexer: Lexer, end: Lexeme, what: 'match' | 'replacement'): string | undefined {
  const start = lexer.rest;
  if (!lexer.accept('tilde_slash')) lexer.accept('forward_slash');
  for (;;) {
    const next = lexer.peek();
    if (next === 'backreference') throw new RosArgsError('Backreferences are not implemented');
    if (what === 'match' && next === 'wild_one') throw new RosArgsError("Wildcard '*' is not implemented");
    if (what === 'match' && next === 'wild_multi') throw new RosArgsError("Wildcard '**' is not implemented");
    if (!lexer.accept('token')) return undefined;
    if (lexer.peek() === end) return start.slice(0, start.length - lexer.rest.length);
    if (!lexer.accept('forward_slash')) return undefined;
  }
}

type Remap =
  | { readonly kind: 'ns'; readonly node?: string; readonly namespace: string }
  | { readonly kind: 'node'; readonly node?: string; readonly name: string }
  | ({ readonly kind: 'name' } & NameRemap);

/** One remap rule, or why rcl refuses it. */
export function parseRemapRule(rule: string): Remap {
  const lexer = new Lexer(rule);
  const invalid = (warning?: string): never => {
    throw new RosArgsError('not a valid remap rule', warning);
  };
  let node: string | undefined;
  if (lexer.peek() === 'token' && lexer.peek(1) === 'colon') {
    node = lexer.accept('token');
    lexer.accept('colon');
  }
  const prefix = node === undefined ? {} : { node };
  if (lexer.peek() === 'node') {
    lexer.accept('node');
    if (!lexer.accept('separator')) return invalid();
    const replacement = lexer.accept('token');
    if (replacement === undefined) return invalid(`Node name not remapped to invalid name: '${lexer.rest}'`);
    if (lexer.peek() !== 'eof') return invalid();
    return { kind: 'node', ...prefix, name: replacement };
  }
  if (lexer.peek() === 'ns') {
    lexer.accept('ns');
    if (!lexer.accept('separator')) return invalid();
    const found = lexer.rest;
    const warning = `Namespace not remapped to a fully qualified name (found: ${found})`;
    if (!lexer.accept('forward_slash')) return invalid(warning);
    while (lexer.accept('token') && lexer.accept('forward_slash'));
    if (lexer.peek() !== 'eof') return invalid(warning);
    // A trailing slash is allowed and means nothing ("/robot1/" is "/robot1").
    return { kind: 'ns', ...prefix, namespace: found.length > 1 ? found.replace(/\/$/, '') : found };
  }
  let applies: NameRemap['applies'] = 'both';
  if (lexer.accept('url_service')) applies = 'service';
  else if (lexer.accept('url_topic')) applies = 'topic';
  const match = name(lexer, 'separator', 'match');
  if (match === undefined || !lexer.accept('separator')) return invalid();
  const replacement = name(lexer, 'eof', 'replacement');
  if (replacement === undefined) return invalid();
  return { kind: 'name', ...prefix, applies, match, replacement };
}

/** A parameter override rule `name:=value`: the dotted name and the value as written. */
export function parseParamRule(rule: string): { name: string; value: string } {
  const lexer = new Lexer(rule);
  const start = lexer.rest;
  for (;;) {
    if (!lexer.accept('token')) throw new RosArgsError('Expecting token or wildcard');
    if (lexer.peek() === 'separator') break;
    if (!lexer.accept('dot')) throw new RosArgsError('not a valid parameter rule');
  }
  const paramName = start.slice(0, start.length - lexer.rest.length);
  lexer.accept('separator');
  return { name: paramName, value: lexer.rest };
}

/** `level` or `logger:=level`, as `--log-level` takes it (levels case-insensitive, as in rcutils). */
function parseLogLevel(rule: string): { logger?: string; level: RosLogLevel } {
  const at = rule.lastIndexOf(':=');
  const logger = at >= 0 ? rule.slice(0, at) : undefined;
  const level = (at >= 0 ? rule.slice(at + 2) : rule).toLowerCase();
  if (![...ROS_LOG_LEVELS, 'unset'].includes(level))
    throw new RosArgsError(`Argument does not use a valid severity level: '${rule}'`);
  if (logger === '') throw new RosArgsError(`Argument has an invalid logger item that name is empty: '${rule}'`);
  return { ...(logger === undefined ? {} : { logger }), level: level as RosLogLevel };
}

/** Flags that take the next argument, besides `-r` and `-p`. */
const VALUE_FLAGS = new Set(['--params-file', '--log-level', '--log-config-file', '-e', '--enclave']);
const LOG_SWITCHES = ['rosout-logs', 'stdout-logs', 'external-lib-logs'];

/**
 * Parses the arguments after `--ros-args` for the node `nodeName` (the name the profile gives it, before
 * any `__node` remap: what node-targeted rules name).
 *
 * @throws RosArgsError with rcl's message (`Couldn't parse remap rule: '-r __ns:=robot1'. Error: …`) for an
 *   argument rcl refuses
 */
export function parseRosArgs(args: readonly string[], nodeName?: string): RosArgs {
  let namespace: string | undefined;
  let renamed: string | undefined;
  let logLevel: RosLogLevel | undefined;
  let rosoutLogs: boolean | undefined;
  const remaps: NameRemap[] = [];
  const params: Record<string, string> = {};
  const paramsFiles: string[] = [];
  const loggerLevels: Record<string, RosLogLevel> = {};
  const unused: string[] = [];
  const forThisNode = (node: string | undefined) => node === undefined || nodeName === undefined || node === nodeName;
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i]!;
    const value = args[i + 1];
    if (flag === '--ros-args') continue;
    if (flag === '-r' || flag === '--remap' || flag === '-p' || flag === '--param' || VALUE_FLAGS.has(flag)) {
      const remap = flag === '-r' || flag === '--remap';
      const param = flag === '-p' || flag === '--param';
      if (value === undefined) {
        throw new RosArgsError(
          remap
            ? `Couldn't parse trailing ${flag} flag. No remap rule found.`
            : param
              ? `Couldn't parse trailing ${flag} flag. No parameter override rule found.`
              : `Couldn't parse trailing ${flag} flag. No value found.`,
        );
      }
      i += 1;
      try {
        if (remap) {
          const rule = parseRemapRule(value);
          if (!forThisNode(rule.node)) continue;
          if (rule.kind === 'ns') namespace = rule.namespace;
          else if (rule.kind === 'node') renamed = rule.name;
          else {
            const { kind: _kind, ...remap } = rule;
            remaps.push(remap);
          }
        } else if (param) {
          const rule = parseParamRule(value);
          params[rule.name] = rule.value;
        } else if (flag === '--params-file') {
          paramsFiles.push(value);
        } else if (flag === '--log-level') {
          const rule = parseLogLevel(value);
          if (rule.logger === undefined) logLevel = rule.level;
          else loggerLevels[rule.logger] = rule.level;
        } else unused.push(`${flag} ${value}`);
      } catch (error) {
        if (!(error instanceof RosArgsError)) throw error;
        const what = remap ? 'remap rule' : param ? 'parameter override rule' : 'log level rule';
        throw new RosArgsError(
          `Couldn't parse ${what}: '${flag} ${value}'. Error: ${error.warning ?? error.message}`,
          error.warning,
        );
      }
      continue;
    }
    const toggle = /^--(enable|disable)-(.+)$/.exec(flag);
    if (toggle && LOG_SWITCHES.includes(toggle[2]!)) {
      if (toggle[2] === 'rosout-logs') rosoutLogs = toggle[1] === 'enable';
      else unused.push(flag);
      continue;
    }
    unused.push(flag);
  }
  return {
    ...(namespace === undefined ? {} : { namespace }),
    ...(renamed === undefined ? {} : { nodeName: renamed }),
    remaps,
    params,
    paramsFiles,
    ...(logLevel === undefined ? {} : { logLevel }),
    loggerLevels,
    ...(rosoutLogs === undefined ? {} : { rosoutLogs }),
    unused,
  };
}

/**
 * A fully qualified name after the remap rules, as rcl applies them: each rule's match and replacement are
 * expanded for the node (relative under the namespace, `~/` under the node), and the first rule whose match
 * is the name replaces it.
 */
export function remapName(
  resolved: string,
  remaps: readonly NameRemap[],
  kind: 'topic' | 'service',
  expand: (name: string) => string,
): string {
  for (const rule of remaps) {
    if (rule.applies !== 'both' && rule.applies !== kind) continue;
    if (expand(rule.match) === resolved) return expand(rule.replacement);
  }
  return resolved;
}

/**
 * The parameters a `--params-file` gives the node, as rcl reads the file: a map of node names (`/**`,
 * `mira`, `/robot1/mira`, `/**` and `*` wildcards) to `ros__parameters`; the entries that match the
 * node, in file order, the later winning. Nested maps are flattened with dots (`a.b`).
 *
 * @throws RosArgsError (rcl's wording) when the file cannot be read or is not such a map
 */
export function readParamsFile(
  file: string,
  text: string | undefined,
  node: string,
  parse: (text: string) => unknown,
): Record<string, unknown> {
  const fail = (why: string): never => {
    throw new RosArgsError(`Couldn't parse params file: '--params-file ${file}'. Error: ${why}`);
  };
  if (text === undefined) return fail('Error opening YAML file');
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    return fail((error as Error).message.split('\n')[0]!);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) return fail('the file is not a map of node names');
  const params: Record<string, unknown> = {};
  const flatten = (value: unknown, prefix: string) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key);
    } else params[prefix] = value;
  };
  for (const [pattern, entry] of Object.entries(data as Record<string, unknown>)) {
    if (!nodeMatches(pattern, node)) continue;
    const parameters = (entry as { ros__parameters?: unknown } | null)?.ros__parameters;
    if (parameters === undefined) continue;
    if (!parameters || typeof parameters !== 'object' || Array.isArray(parameters))
      return fail(`ros__parameters of ${pattern} is not a map`);
    flatten(parameters, '');
  }
  return params;
}

/** Whether a params file's node name (`/**`, `*`, relative or fully qualified) names the node `/ns/name`. */
function nodeMatches(pattern: string, node: string): boolean {
  // A relative name is the node's name in any namespace, as rcl reads it.
  const want = (pattern.startsWith('/') ? pattern : `/**/${pattern}`).split('/').filter(Boolean);
  const have = node.split('/').filter(Boolean);
  const match = (w: number, h: number): boolean => {
    if (w === want.length) return h === have.length;
    // `**`: any number of segments (none included); `*`: one segment.
    if (want[w] === '**') return match(w + 1, h) || (h < have.length && match(w, h + 1));
    return h < have.length && (want[w] === '*' || want[w] === have[h]) && match(w + 1, h + 1);
  };
  return match(0, 0);
}
