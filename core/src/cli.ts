import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Worker, type MessagePort } from 'node:worker_threads';
import { Application, stderrLogger } from './application.js';
import type { LineReaderData, LineReaderMessage } from './console/line-reader.js';
import { startRepl, type Repl } from './console/repl.js';
import { CoreErrorCodes, MiraError, toMiraError } from './errors.js';
import { locateManifest } from './manifest.js';

const USAGE = `Usage:
  mira --profile <dir|profile.toml>          open the console on a robot profile
  mira check --profile <dir|profile.toml>    validate the manifest and print the plugin order
  … --ros-args [-r __ns:=/ns] [-r __node:=name] [-p name:=value] [--]
                                             ROS 2 arguments, as launch files pass them
  mira --help                                this text
  mira --version                             the version of @mira/core

Console: type "help" for commands. A line that is not a command is said to the
robot. Without a terminal, lines are read from stdin in order and the exit status
is 0 when every line succeeded, 1 otherwise.

Exit status: 0 success, 1 failed start-up or a failed line, 2 usage error.`;

/** What `mira` was asked to do. */
export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run' | 'check'; readonly profile: string; readonly rosArgs: readonly string[] };

/** Parses `mira` arguments. @throws MiraError MIRA_ERR_CLI_USAGE */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let mode: 'run' | 'check' = 'run';
  let profile: string | undefined;
  const rosArgs: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--ros-args') {
      // Everything up to "--" (or the end) is for ROS, as rcl reads it.
      let j = i + 1;
      while (j < argv.length && argv[j] !== '--') rosArgs.push(argv[j++]!);
      i = j;
      continue;
    }
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version' || arg === '-V') return { kind: 'version' };
    if (arg === 'check' && i === 0) {
      mode = 'check';
    } else if (arg === '--profile' || arg === '-p') {
      profile = argv[i + 1];
      if (profile === undefined || profile.startsWith('-'))
        throw new MiraError(CoreErrorCodes.CLI_USAGE, '--profile needs a profile directory or profile.toml');
      i += 1;
    } else if (arg.startsWith('--profile=')) {
      profile = arg.slice('--profile='.length);
    } else {
      throw new MiraError(CoreErrorCodes.CLI_USAGE, `unexpected argument "${arg}"; see mira --help`);
    }
  }
  if (!profile)
    throw new MiraError(
      CoreErrorCodes.CLI_USAGE,
      'missing --profile <dir|profile.toml>, e.g. mira --profile profiles/mira-sim',
    );
  return { kind: mode, profile, rosArgs };
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Starts the console's line reader thread: standard input is read there, every
 * line comes back as `lines`, and `stop`/`quit` also go straight to `ports`.
 */
function startLineReader(ports: MessagePort[]): { lines: PassThrough; stop: () => Promise<void> } {
  const lines = new PassThrough();
  const data: LineReaderData = { ports };
  const worker = new Worker(new URL('./console/line-reader.js', import.meta.url), {
    workerData: data,
    transferList: ports,
  });
  worker.on('message', (message: LineReaderMessage) => {
    if (message.type === 'line') lines.write(`${message.line}\n`);
    else lines.end();
  });
  worker.on('error', (error) => {
    stderrLogger.error(`the console line reader failed: ${error.message}`);
    lines.end();
  });
  return { lines, stop: async () => void (await worker.terminate()) };
}

/** Runs the `mira` command line and resolves to the exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`mira: ${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command.kind === 'version') {
    process.stdout.write(`mira ${version()}\n`);
    return 0;
  }
  let app: Application;
  try {
    app = await Application.boot({
      manifestPath: locateManifest(command.profile),
      rosArgs: command.rosArgs,
      output: { print: (line) => process.stdout.write(`${line}\n`) },
    });
  } catch (error) {
    process.stderr.write(`mira: ${toMiraError(error).message}\n`);
    return 1;
  }
  if (command.kind === 'check') {
    process.stdout.write(`${app.manifest.path}: ok\nprofile: ${app.manifest.name}\nplugins in order:\n`);
    app.pluginOrder.forEach((name, i) => process.stdout.write(`  ${i + 1}. ${name}\n`));
    return 0;
  }
  // Signals are handled from before start-up so one arriving early still takes the orderly path.
  let interrupted = false;
  let repl: Repl | undefined;
  let stopReader: (() => Promise<void>) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      stderrLogger.error(`${signal} received again; exiting without finishing shutdown`);
      process.exit(130);
    }
    interrupted = true;
    stderrLogger.info(`${signal} received; stopping`);
    repl?.close();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await app.start();
  } catch (error) {
    process.stderr.write(`mira: ${toMiraError(error).message}\n`);
    return 1;
  }
  const interactive = Boolean(process.stdin.isTTY);
  let allOk = true;
  if (!interrupted) {
    if (interactive)
      stderrLogger.info(
        `console on profile "${app.manifest.name}" (${app.manifest.path}); type "help" for commands, "quit" to leave`,
      );
    const reader = startLineReader(app.kernel.openConsoleStopPorts());
    stopReader = reader.stop;
    repl = startRepl(app.kernel.console, {
      input: reader.lines,
      output: process.stdout,
      interactive,
      prompt: `${app.manifest.name}> `,
      onInterrupt: () => onSignal('SIGINT'),
      immediate: new Set(['stop']),
    });
    allOk = await repl.done;
  }
  await app.stop();
  await stopReader?.();
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return interactive || allOk ? 0 : 1;
}
