import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Application } from './application.js';
import type { MiraError } from './errors.js';
import { CoreErrors } from './errors.js';

/**
 * Commands that packages add to the `mira` command line (`mira mcp` from `@mira/plugin-mcp-server`,
 * `mira memory copy` from `@mira/plugin-memory`). A package declares them in its package.json, so the
 * command line finds and describes them without loading any code (`mira --help` stays instant, and
 * `mira mcp` can answer its client before a profile's plugins load):
 *
 * ```json
 * "mira": {
 *   "commands": {
 *     "mcp": {
 *       "module": "./dist/command.js",
 *       "usage": "mira mcp --profile <dir|profile.toml>",
 *       "summary": "serve the profile's memory to other agents over MCP",
 *       "help": "--profile  the profile whose memory is served"
 *     }
 *   }
 * }
 * ```
 *
 * The module exports `run(context: CliCommandContext): Promise<number>` (the exit status). Packages are
 * looked for in every `node_modules` above `@mira/core` and above the working directory: the `@mira`
 * scope and any package named `mira-plugin-*` or `@scope/mira-plugin-*`.
 */
export interface CliCommandDeclaration {
  /** The first word after `mira`. */
  readonly name: string;
  /** The package that declares it. */
  readonly packageName: string;
  /** The module's file URL. */
  readonly module: string;
  /** The synopsis line for `mira --help`, e.g. `mira mcp --profile <dir|profile.toml>`. */
  readonly usage: string;
  /** What it does, for `mira --help`. */
  readonly summary: string;
  /** More, for `mira <name> --help` (its options, one a line), when the package gives it. */
  readonly help?: string;
}

/** What a package's command receives. */
export interface CliCommandContext {
  /** The arguments after the command's name (`mira memory copy --profile x` → `['copy', '--profile', 'x']`). */
  readonly argv: readonly string[];
  /** The version of `@mira/core`. */
  readonly version: string;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /**
   * Reads a profile (a directory, a profile.toml or a profile package) and sets its plugins up, as the
   * console does, without starting them (no robot is connected). `log` receives the runtime's lines.
   */
  boot(
    profile: string,
    options?: { readonly readOnly?: boolean; readonly log?: (line: string) => void },
  ): Promise<Application>;
  /** An error that ends the command as a usage error (exit status 2, the usage shown). */
  usageError(message: string): MiraError;
}

/** A command module: what its `module` exports. */
export interface CliCommandModule {
  run(context: CliCommandContext): Promise<number>;
}

/** Words `mira` itself answers; no package may take them. */
export const BUILT_IN_COMMANDS: ReadonlySet<string> = new Set(['run', 'check', 'help']);

const COMMAND_NAME = /^[a-z][a-z0-9-]{0,31}$/;
const COMMAND_PACKAGE = /^(@mira\/[^/]+|mira-plugin-[^/]+|@[^/]+\/mira-plugin-[^/]+)$/;

/** The `node_modules` directories above `dir`, nearest first. */
function nodeModulesAbove(dir: string): string[] {
  const found: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    const candidate = join(at, 'node_modules');
    if (existsSync(candidate)) found.push(candidate);
    if (dirname(at) === at) return found;
  }
}

/** The package directories under one node_modules that may declare commands. */
function candidatePackages(nodeModules: string): string[] {
  const dirs: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(nodeModules);
  } catch {
    return dirs;
  }
  for (const entry of entries) {
    if (entry.startsWith('@')) {
      let scoped: string[];
      try {
        scoped = readdirSync(join(nodeModules, entry));
      } catch {
        continue;
      }
      for (const name of scoped) {
        if (COMMAND_PACKAGE.test(`${entry}/${name}`)) dirs.push(join(nodeModules, entry, name));
      }
    } else if (COMMAND_PACKAGE.test(entry)) dirs.push(join(nodeModules, entry));
  }
  return dirs;
}

/** Reads one package's command declarations. @throws MiraError MIRA_ERR_CLI_COMMAND_INVALID */
function declarationsOf(packageDir: string): CliCommandDeclaration[] {
  const file = join(packageDir, 'package.json');
  let pkg: { name?: unknown; mira?: { commands?: unknown } };
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as typeof pkg;
  } catch {
    return [];
  }
  const commands = pkg.mira?.commands;
  if (commands === undefined) return [];
  if (typeof commands !== 'object' || commands === null || Array.isArray(commands)) {
    throw CoreErrors.error('CLI_COMMAND_INVALID.notObject', { file });
  }
  return Object.entries(commands).map(([name, value]) => {
    if (!COMMAND_NAME.test(name) || BUILT_IN_COMMANDS.has(name)) {
      throw BUILT_IN_COMMANDS.has(name)
        ? CoreErrors.error('CLI_COMMAND_INVALID.builtIn', { file, name })
        : CoreErrors.error('CLI_COMMAND_INVALID.badName', { file, name });
    }
    const { module, usage, summary, help } = (value ?? {}) as Record<string, unknown>;
    for (const [key, v] of Object.entries({ module, usage, summary })) {
      if (typeof v !== 'string' || v.trim() === '')
        throw CoreErrors.error('CLI_COMMAND_INVALID.missingField', { file, name, key });
    }
    if (help !== undefined && (typeof help !== 'string' || help.trim() === '')) {
      throw CoreErrors.error('CLI_COMMAND_INVALID.missingField', { file, name, key: 'help' });
    }
    const modulePath = resolve(packageDir, module as string);
    if (!modulePath.startsWith(`${resolve(packageDir)}/`)) {
      throw CoreErrors.error('CLI_COMMAND_INVALID.outsidePackage', { file, name, module: String(module) });
    }
    return {
      name,
      packageName: typeof pkg.name === 'string' ? pkg.name : packageDir,
      module: pathToFileURL(modulePath).href,
      usage: usage as string,
      summary: summary as string,
      ...(typeof help === 'string' ? { help } : {}),
    };
  });
}

/**
 * Every command the installed packages declare, by name: read from package.json files only (nothing is
 * imported). A package found twice (a workspace link and its target) counts once.
 * @throws MiraError MIRA_ERR_CLI_COMMAND_INVALID for a malformed declaration or two packages taking one name
 */
export function findCliCommands(
  from: readonly string[] = [fileURLToPath(new URL('../', import.meta.url)), process.cwd()],
): Map<string, CliCommandDeclaration> {
  const seen = new Set<string>();
  const commands = new Map<string, CliCommandDeclaration>();
  for (const nodeModules of [...new Set(from.flatMap(nodeModulesAbove))]) {
    for (const dir of candidatePackages(nodeModules)) {
      let real: string;
      try {
        real = realpathSync(dir);
      } catch {
        continue;
      }
      if (seen.has(real)) continue;
      seen.add(real);
      for (const declaration of declarationsOf(real)) {
        const other = commands.get(declaration.name);
        if (other && other.packageName !== declaration.packageName) {
          throw CoreErrors.error('CLI_COMMAND_INVALID.clash', {
            packageName: other.packageName,
            otherPackage: declaration.packageName,
            name: declaration.name,
          });
        }
        // The nearest copy of a package wins, as Node's resolution would pick it.
        if (!other) commands.set(declaration.name, declaration);
      }
    }
  }
  return commands;
}

/** Imports a declared command's module and checks it exports `run`. @throws MiraError MIRA_ERR_CLI_COMMAND_INVALID */
export async function loadCliCommand(declaration: CliCommandDeclaration): Promise<CliCommandModule> {
  let loaded: Partial<CliCommandModule>;
  try {
    loaded = (await import(declaration.module)) as Partial<CliCommandModule>;
  } catch (error) {
    throw CoreErrors.error('CLI_COMMAND_INVALID.loadFailed', {
      name: declaration.name,
      packageName: declaration.packageName,
      module: fileURLToPath(declaration.module),
      reason: (error as Error).message,
    });
  }
  if (typeof loaded.run !== 'function') {
    throw CoreErrors.error('CLI_COMMAND_INVALID.noRun', {
      name: declaration.name,
      packageName: declaration.packageName,
      module: fileURLToPath(declaration.module),
    });
  }
  return loaded as CliCommandModule;
}
