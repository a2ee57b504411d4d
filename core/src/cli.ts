import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { Worker, type MessagePort } from 'node:worker_threads';
import type { Application } from './application.js';
import type { LineReaderData, LineReaderMessage } from './console/line-reader.js';
import type { Repl } from './console/repl.js';
import { CoreErrorCodes, MiraError, toMiraError } from './errors.js';
import type { Progress } from './console/command.js';
import type { MemoryStore } from './memory/types.js';

// The runtime (the kernel, the manifest reader, the MCP server, the console) is imported by the commands
// that need it: `mira --version`, `mira --help` and a usage error load none of it.
const runtime = () => import('./application.js');
const manifests = () => import('./manifest.js');

const USAGE = `Usage:
  mira --profile <dir|profile.toml>          open the console on a robot profile
  mira check --profile <dir|profile.toml|package> [--explain]
                                             validate the manifest and print the plugin order;
                                             --explain prints the merged layers, key by key
  mira run --profile <dir|profile.toml>      run headless, as a service: no console, stdin ignored,
                                             logs on stderr; SIGINT or SIGTERM stops it in order
  mira mcp --profile <dir|profile.toml>      serve the profile's memory to other agents over MCP
                                             (stdio, read-only tools)
  mira memory copy --profile <from> --to <to>
                                             copy a robot's persistent memory (SQLite) into an
                                             empty fleet space (PostgreSQL), keeping its IDs
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
  | {
      readonly kind: 'run' | 'check' | 'mcp';
      readonly profile: string;
      readonly rosArgs: readonly string[];
      /** run: no console (`mira run`); inputs come from ROS topics, MCP and the Mind view. */
      readonly headless?: boolean;
      /** check: print the merged manifest with each key's file. */
      readonly explain?: boolean;
    }
  | { readonly kind: 'memory-copy'; readonly profile: string; readonly to: string };

/** Parses `mira` arguments. @throws MiraError MIRA_ERR_CLI_USAGE */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  if (argv[0] === 'memory' && argv[1] === 'copy') return parseMemoryCopy(argv.slice(2));
  let mode: 'run' | 'check' | 'mcp' = 'run';
  let explain = false;
  let headless = false;
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
    if ((arg === 'check' || arg === 'mcp') && i === 0) {
      mode = arg;
    } else if (arg === 'run' && i === 0) {
      headless = true;
    } else if (arg === '--explain' && mode === 'check') {
      explain = true;
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
  return { kind: mode, profile, rosArgs, ...(explain ? { explain } : {}), ...(headless ? { headless } : {}) };
}

function parseMemoryCopy(argv: readonly string[]): CliCommand {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s) : [arg, undefined];
    if (flag !== '--profile' && flag !== '--to') {
      throw new MiraError(CoreErrorCodes.CLI_USAGE, `unexpected argument "${arg}"; see mira --help`);
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('-'))
      throw new MiraError(CoreErrorCodes.CLI_USAGE, `${flag} needs a profile directory or profile.toml`);
    values.set(flag, value);
  }
  const profile = values.get('--profile');
  const to = values.get('--to');
  if (!profile || !to) {
    throw new MiraError(
      CoreErrorCodes.CLI_USAGE,
      'mira memory copy needs --profile <the robot profile (SQLite)> and --to <the fleet profile (PostgreSQL)>',
    );
  }
  return { kind: 'memory-copy', profile, to };
}

/**
 * Copies one profile's persistent memory into another's: both profiles are set up and their stores
 * opened (nothing else starts), then the source's snapshot is written into the target in one
 * transaction, keeping IDs. A progress bar shows on a terminal.
 */
async function copyMemory(command: { profile: string; to: string }): Promise<number> {
  const quiet = { print: () => {} };
  const apps: Application[] = [];
  const [{ Application }, { locateManifest }, { terminalProgress }, { MEMORY_STORE }] = await Promise.all([
    runtime(),
    manifests(),
    import('./console/progress.js'),
    import('./memory/key.js'),
  ]);
  try {
    const open = async (profile: string) => {
      const app = await Application.boot({ manifestPath: locateManifest(profile), output: quiet });
      apps.push(app);
      await app.kernel.openStores();
      let store: MemoryStore;
      try {
        store = app.kernel.store(MEMORY_STORE);
      } catch {
        throw new MiraError(
          CoreErrorCodes.CLI_USAGE,
          `${app.manifest.path}: persistent memory is not enabled there ([memory] enabled = true)`,
        );
      }
      return store;
    };
    const from = await open(command.profile);
    const into = await open(command.to);
    if (!from.exportSnapshot || !into.importSnapshot) {
      throw new MiraError(
        CoreErrorCodes.CLI_USAGE,
        `memory copies from a ${from.backend} store into a fleet store; ${from.backend} → ${into.backend} is not supported`,
      );
    }
    const snapshot = await from.exportSnapshot();
    let bar: Progress | undefined;
    let copied;
    try {
      copied = await into.importSnapshot(snapshot, (done, total) => {
        bar ??= terminalProgress(process.stderr, 'copying memory', total);
        bar.update(done);
      });
    } finally {
      bar?.stop();
    }
    const [source, target] = await Promise.all([from.info(), into.info()]);
    process.stdout.write(
      `copied ${copied.entities} entities, ${copied.aliases} aliases and ${copied.memories} memories from ${source.location} into ${target.location}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`mira: ${toMiraError(error).message}\n`);
    return 1;
  } finally {
    for (const app of apps) await app.kernel.closeStores();
  }
}
/**
 * `mira mcp`: the profile's stores opened (its robot is not connected), its read-only tools served over
 * MCP on stdio. Everything but protocol messages goes to stderr.
 */
async function mcp(profile: string): Promise<number> {
  // The MCP SDK first, then the profile boots while the client's handshake is answered (its answer needs
  // nothing from the profile): requests for tools wait for the boot, and a boot that fails ends the server.
  const { serveMcp } = await import('./mcp-server.js');
  const booting = (async () => {
    const [{ Application }, { locateManifest }] = await Promise.all([runtime(), manifests()]);
    const app = await Application.boot({
      manifestPath: locateManifest(profile),
      output: { print: (line) => process.stderr.write(`${line}\n`) },
      readOnly: true,
    });
    try {
      await app.kernel.openStores();
    } catch (error) {
      await app.kernel.closeStores().catch(() => undefined);
      throw error;
    }
    return app;
  })();
  booting.catch(() => undefined);
  try {
    await serveMcp(booting, version());
    return 0;
  } catch (error) {
    process.stderr.write(`mira: ${toMiraError(error).message}\n`);
    return 1;
  } finally {
    const app = await booting.catch(() => undefined);
    await app?.kernel.closeStores();
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
): { lines: PassThrough; stop: () => Promise<void> } {
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
    logger.error(`the console line reader failed: ${error.message}`);
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
  if (command.kind === 'memory-copy') return copyMemory(command);
  if (command.kind === 'version') {
    process.stdout.write(`mira ${version()}\n`);
    return 0;
  }
  if (command.kind === 'mcp') return mcp(command.profile);
  // The console's modules too, now: nothing may be awaited between the check for a signal that came
  // during start-up and the console starting, or a signal in that moment would be lost.
  const [{ Application, stderrLogger }, { locateManifest }, { startRepl }] = await Promise.all([
    runtime(),
    manifests(),
    import('./console/repl.js'),
  ]);
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
    if (command.explain) {
      process.stdout.write(`merged manifest (each key with the file it came from; \${VARIABLES} as written):\n`);
      const { explainManifest } = await import('./layers.js');
      for (const line of explainManifest(app.manifest.layers)) process.stdout.write(`${line}\n`);
    }
    return 0;
  }
  // Signals are handled from before start-up so one arriving early still takes the orderly path.
  let interrupted = false;
  let repl: Repl | undefined;
  let stopReader: (() => Promise<void>) | undefined;
  let endHeadless: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      stderrLogger.error(`${signal} received again; exiting without finishing shutdown`);
      process.exit(130);
    }
    interrupted = true;
    stderrLogger.info(`${signal} received; stopping`);
    repl?.close();
    endHeadless?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await app.start();
  } catch (error) {
    process.stderr.write(`mira: ${toMiraError(error).message}\n`);
    return 1;
  }
  if (command.headless) {
    // A service: no console and nothing read from stdin (systemd and launch give it /dev/null); it runs
    // until a signal, then stops in order (drives zeroed, stores closed) and exits 0.
    if (!interrupted) {
      stderrLogger.info(
        `running headless on profile "${app.manifest.name}" (${app.manifest.path}); SIGINT or SIGTERM stops it`,
      );
      // Nothing else may hold the event loop (a profile without timers): this keeps the process up.
      const alive = setInterval(() => undefined, 2 ** 30);
      await new Promise<void>((resolve) => (endHeadless = resolve));
      clearInterval(alive);
    }
    await app.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    return 0;
  }
  const interactive = Boolean(process.stdin.isTTY);
  let allOk = true;
  if (!interrupted) {
    if (interactive)
      stderrLogger.info(
        `console on profile "${app.manifest.name}" (${app.manifest.path}); type "help" for commands, "quit" to leave`,
      );
    const reader = startLineReader(app.kernel.openConsoleStopPorts(), stderrLogger);
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
