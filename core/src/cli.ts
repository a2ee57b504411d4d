import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { Application } from './application.js';
import type { LineReaderData, LineReaderMessage } from './console/line-reader.js';
import type { Repl } from './console/repl.js';
import { ExitStatus, ProcessGuard, STOP_DEADLINE_MS } from './lifecycle.js';
import type { StartUpGuard } from './start-up-guard.js';
import { CoreErrorCodes, CoreErrors, MiraError, failureText, toMiraError } from './errors.js';
import {
  BUILT_IN_COMMANDS,
  findCliCommands,
  loadCliCommand,
  type CliCommandContext,
  type CliCommandDeclaration,
} from './cli-commands.js';

// The runtime (the kernel, the manifest reader, the console) is imported by the commands that need it:
// `mira --version`, `mira --help` and a usage error load none of it.
const runtime = () => import('./application.js');
const manifests = () => import('./manifest.js');

const USAGE_HEAD = `Usage:
  mira --profile <dir|profile.toml>          open the console on a robot profile
  mira check --profile <dir|profile.toml|package> [--explain]
                                             validate the manifest and print the plugin order;
                                             --explain prints the merged layers, key by key
  mira run --profile <dir|profile.toml>      run headless, as a service: no console, stdin ignored,
                                             logs on stderr; SIGINT or SIGTERM stops it in order
  … --ros-args [-r __ns:=/ns] [-r __node:=name] [-p name:=value] [--]
                                             ROS 2 arguments, as launch files pass them
  mira --help                                this text
  mira --version                             the version of @mira/core`;

const USAGE_TAIL = `Console: type "help" for commands. A line that is not a command is said to the
robot. Without a terminal, lines are read from stdin in order and the exit status
is 0 when every line succeeded, 1 otherwise.

Every way of ending (quit, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR2, the parent process dying,
standard output or error closing, an internal error) stops the robot first: zero velocity on
every drive and every navigation goal cancelled, then the orderly shutdown, within ${STOP_DEADLINE_MS / 1000} s.
A second signal does not skip the stop. SIGUSR1 is ignored (no inspector unless node --inspect).
Signals are Mira's from its first line: one during start-up ends it before anything is opened,
with the same status (before that line, in Node's own start, Node's default applies).

Exit status: ${ExitStatus.OK} success (also after SIGINT or SIGTERM), ${ExitStatus.FAILED} failed start-up or a failed line,
${ExitStatus.USAGE} usage error, ${ExitStatus.PARENT_DIED} the parent process died, ${ExitStatus.OUTPUT_CLOSED} standard output or error closed,
${ExitStatus.STOP_OVERDUE} the orderly stop overran its deadline, ${ExitStatus.INTERNAL} an internal error, 128+N ended by
signal N (SIGHUP 129, SIGQUIT 131, SIGUSR2 140).`;

/**
 * The usage text: mira's own commands, then those the installed packages declare (read from their
 * package.json files; nothing is loaded). A package's malformed declaration is said, not fatal here.
 */
function usage(): string {
  let added = '';
  try {
    const commands = [...findCliCommands().values()].sort((a, b) => a.name.localeCompare(b.name));
    if (commands.length > 0) {
      added = `\n\nCommands of installed packages:\n${commands
        .map((c) => `  ${c.usage}\n${wrap(`${c.summary} (${c.packageName})`, 45)}`)
        .join('\n')}`;
    }
  } catch (error) {
    added = `\n\n(${(error as Error).message})`;
  }
  return `${USAGE_HEAD}${added}\n\n${USAGE_TAIL}`;
}

/**
 * `mira <name> --help`: the command's usage, what it does and its package's further help. Answered from
 * the declaration alone, so every package command has it and its module is not loaded.
 */
function commandHelp(declaration: CliCommandDeclaration): string {
  const more = declaration.help === undefined ? '' : `\n\n${declaration.help.trimEnd()}`;
  return `Usage:\n  ${declaration.usage}\n${wrap(`${declaration.summary} (${declaration.packageName})`, 45)}${more}\n\nmira --help lists every command.`;
}

/** True when `argv` asks for help (`--help` or `-h` before a `--`). */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** `text` wrapped to lines of at most 100 characters (as the lines above), each indented by `indent`. */
function wrap(text: string, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent + line.length + 1 + word.length > 100) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines.map((l) => `${' '.repeat(indent)}${l}`).join('\n');
}

/** What `mira` was asked to do. */
export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'run' | 'check';
      readonly profile: string;
      readonly rosArgs: readonly string[];
      /** run: no console (`mira run`); inputs come from ROS topics, MCP and the Mind view. */
      readonly headless?: boolean;
      /** check: print the merged manifest with each key's file. */
      readonly explain?: boolean;
    }
  /** A command a package declares (see cli-commands.ts): its name and the arguments after it. */
  | { readonly kind: 'package'; readonly name: string; readonly argv: readonly string[] };

/** The options `mira` itself takes, for `node:util` parseArgs. */
const OPTIONS = {
  profile: { type: 'string', short: 'p' },
  explain: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const;

/**
 * Splits the ROS 2 arguments off: each `--ros-args` up to `--` (or the end) is for ROS, as rcl reads
 * it; everything else is Mira's.
 */
function splitRosArgs(argv: readonly string[]): { own: string[]; rosArgs: string[] } {
  const own: string[] = [];
  const rosArgs: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] !== '--ros-args') {
      own.push(argv[i]!);
      continue;
    }
    let j = i + 1;
    while (j < argv.length && argv[j] !== '--') rosArgs.push(argv[j++]!);
    i = j;
  }
  return { own, rosArgs };
}

/** Parses `mira` arguments (node:util parseArgs). @throws MiraError MIRA_ERR_CLI_USAGE */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  const first = argv[0];
  if (first !== undefined && !first.startsWith('-') && !BUILT_IN_COMMANDS.has(first)) {
    return { kind: 'package', name: first, argv: argv.slice(1) };
  }
  const { own, rosArgs } = splitRosArgs(argv);
  const { values, positionals, tokens } = parseArgs({
    args: own,
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const [mode, ...extra] = positionals;
  if (mode === 'help') return { kind: 'help' };
  // Anything parseArgs does not know, or a value where none belongs, is refused by name.
  for (const token of tokens) {
    if (token.kind === 'option' && !(token.name in OPTIONS)) {
      throw CoreErrors.error('CLI_USAGE.unexpected', { arg: token.rawName });
    }
    if (token.kind === 'option' && token.name !== 'profile' && token.value !== undefined) {
      throw CoreErrors.error('CLI_USAGE.takesNoValue', { arg: token.rawName });
    }
  }
  if (mode !== undefined && mode !== 'check' && mode !== 'run')
    throw CoreErrors.error('CLI_USAGE.unexpected', { arg: mode });
  if (extra.length > 0) throw CoreErrors.error('CLI_USAGE.unexpected', { arg: extra[0]! });
  if (values.explain === true && mode !== 'check') throw CoreErrors.error('CLI_USAGE.explainOnlyCheck');
  const profile = values.profile;
  // `--profile --explain`: the next word is an option, not a profile (written `--profile=-x`, it is one).
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name !== 'profile') continue;
    if (token.value === undefined || (token.value.startsWith('-') && !token.inlineValue)) {
      throw CoreErrors.error('CLI_USAGE.profileNeedsValue');
    }
  }
  if (typeof profile !== 'string' || profile === '') {
    throw CoreErrors.error('CLI_USAGE.profileMissing');
  }
  return {
    kind: mode === 'check' ? 'check' : 'run',
    profile,
    rosArgs,
    ...(values.explain === true ? { explain: true } : {}),
    ...(mode === 'run' ? { headless: true } : {}),
  };
}

/**
 * Runs a command a package declares: found by its package.json, then its module imported alone (no
 * profile is read before the command asks for one).
 */
async function runPackageCommand(name: string, argv: readonly string[]): Promise<number> {
  let command;
  try {
    const declaration = findCliCommands().get(name);
    if (!declaration) {
      process.stderr.write(
        `mira: unknown command "${name}"; installed packages add commands (see mira --help), and a profile is opened with mira --profile <dir>\n\n${usage()}\n`,
      );
      return 2;
    }
    if (asksForHelp(argv)) {
      process.stdout.write(`${commandHelp(declaration)}\n`);
      return 0;
    }
    command = await loadCliCommand(declaration);
  } catch (error) {
    process.stderr.write(failureText(error));
    return 1;
  }
  const context: CliCommandContext = {
    argv,
    version: version(),
    stdout: process.stdout,
    stderr: process.stderr,
    boot: async (profile, options = {}) => {
      const [{ Application }, { locateManifest }] = await Promise.all([runtime(), manifests()]);
      const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
      return Application.boot({
        manifestPath: locateManifest(profile),
        output: { print: log },
        ...(options.readOnly ? { readOnly: true } : {}),
      });
    },
    // A package command's own usage text: its code is core's, its wording the command's.
    usageError: (message) => new MiraError(CoreErrorCodes.CLI_USAGE, message),
  };
  try {
    return await command.run(context);
  } catch (error) {
    const failure = toMiraError(error);
    if (failure.code === CoreErrorCodes.CLI_USAGE) {
      process.stderr.write(`mira: ${failure.message}\n\n${usage()}\n`);
      return 2;
    }
    process.stderr.write(failureText(failure));
    return 1;
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Starts the console's line reader thread: standard input is read there, every
 * line comes back as `lines`, and `stop`/`quit` also go straight to `ports`.
 */
function startLineReader(
  ports: MessagePort[],
  logger: { error(message: string): void },
  stamps: number[],
): { lines: PassThrough; stop: () => Promise<void> } {
  const lines = new PassThrough();
  const data: LineReaderData = { ports };
  const worker = new Worker(new URL('./console/line-reader.js', import.meta.url), {
    workerData: data,
    transferList: ports,
  });
  worker.on('message', (message: LineReaderMessage) => {
    if (message.type === 'line') {
      stamps.push(message.at);
      lines.write(`${message.line}\n`);
    } else lines.end();
  });
  worker.on('error', (error) => {
    logger.error(`the console line reader failed: ${error.message}`);
    lines.end();
  });
  return { lines, stop: async () => void (await worker.terminate()) };
}

/**
 * Runs the `mira` command line and resolves to the exit status. `startUp` is the guard the bin installed
 * on its first line: an ending signal it caught ends the start-up, before anything is opened.
 */
export async function main(argv: readonly string[], startUp?: StartUpGuard): Promise<number> {
  // A signal that came during start-up ends it with that signal's status; nothing was opened yet.
  const unlessEnded = (status: number) => startUp?.ending?.status ?? status;
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`mira: ${(error as Error).message}\n\n${usage()}\n`);
    return unlessEnded(2);
  }
  if (command.kind === 'help') {
    process.stdout.write(`${usage()}\n`);
    return unlessEnded(0);
  }
  if (command.kind === 'version') {
    process.stdout.write(`mira ${version()}\n`);
    return unlessEnded(0);
  }
  if (command.kind === 'package') {
    // A package's command ends as Node's default has it (a signal that came already ends it now).
    startUp?.release();
    return runPackageCommand(command.name, command.argv);
  }
  // The console's modules too, now: nothing may be awaited between the check for a signal that came
  // during start-up and the console starting, or a signal in that moment would be lost.
  const [{ Application, stderrLogger }, { locateManifest }, { startRepl }] = await Promise.all([
    runtime(),
    manifests(),
    import('./console/repl.js'),
  ]);
  if (startUp?.ending) return startUp.ending.status;
  let app: Application;
  try {
    app = await Application.boot({
      manifestPath: locateManifest(command.profile),
      rosArgs: command.rosArgs,
      output: { print: (line) => process.stdout.write(`${line}\n`) },
    });
  } catch (error) {
    process.stderr.write(failureText(error));
    return 1;
  }
  // Booting reads the profile and sets the plugins up; it opens nothing (I/O waits for start), so a
  // signal that came meanwhile ends here, with nothing to close.
  if (startUp?.ending) return startUp.ending.status;
  // Loaded only here, as the runtime is: --version and --help load none of it.
  if (command.kind === 'check') return (await import('./cli-check.js')).printCheck(app, command.explain);
  // Every way of ending is watched from before start-up, so one arriving early still takes the orderly path:
  // the robot is stopped first (zero velocity, goals cancelled), then everything shuts down in order.
  let repl: Repl | undefined;
  let stopReader: (() => Promise<void>) | undefined;
  let endHeadless: (() => void) | undefined;
  const guard = new ProcessGuard({
    haltRobot: () => app.kernel.emergencyStop(),
    end: () => {
      repl?.close();
      endHeadless?.();
    },
    log: (line) => stderrLogger.error(line),
    exit: (status) => process.exit(status),
  });
  // No await between the check above and here: the process guard takes over every signal from the
  // start-up guard at once.
  guard.install();
  startUp?.handOver();
  const finish = async (status: number): Promise<number> => {
    await app.stop();
    await stopReader?.();
    guard.dispose();
    return guard.ending?.status ?? status;
  };
  try {
    await app.start();
  } catch (error) {
    guard.dispose();
    process.stderr.write(failureText(error));
    return 1;
  }
  if (command.headless) {
    // A service: no console and nothing read from stdin (systemd and launch give it /dev/null); it runs
    // until a signal (or its parent dies), then stops in order (drives zeroed, stores closed).
    if (!guard.ending) {
      stderrLogger.info(
        `running headless on profile "${app.manifest.name}" (${app.manifest.path}); SIGINT or SIGTERM stops it`,
      );
      // Nothing else may hold the event loop (a profile without timers): this keeps the process up.
      const alive = setInterval(() => undefined, 2 ** 30);
      await new Promise<void>((resolve) => (endHeadless = resolve));
      clearInterval(alive);
    }
    return finish(0);
  }
  const interactive = Boolean(process.stdin.isTTY);
  let allOk = true;
  if (!guard.ending) {
    if (interactive)
      stderrLogger.info(
        `console on profile "${app.manifest.name}" (${app.manifest.path}); type "help" for commands, "quit" to leave`,
      );
    const stamps: number[] = [];
    const reader = startLineReader(app.kernel.openConsoleStopPorts(), stderrLogger, stamps);
    stopReader = reader.stop;
    repl = startRepl(app.kernel.console, {
      input: reader.lines,
      output: process.stdout,
      interactive,
      prompt: `${app.manifest.name}> `,
      onInterrupt: () => guard.trigger({ why: 'SIGINT received', status: 0 }),
      immediate: new Set(['stop']),
      // Every ending stops the robot first, as a signal does (the safety path heard the quit already).
      onQuit: () => void app.kernel.emergencyStop(),
      readAt: () => stamps.shift(),
    });
    allOk = await repl.done;
  }
  return finish(interactive || allOk ? 0 : 1);
}
