/**
 * `@mira/core/testing`: boot a Mira runtime with your plugin in a temporary
 * folder, run console lines, read the output, and inject a clock.
 *
 * @example
 * import { createTestRuntime } from '@mira/core/testing';
 * const rt = await createTestRuntime({ plugins: [myPlugin], tables: { battery: { topic: '/battery' } } });
 * const { ok, output } = await rt.run('battery');
 * await rt.dispose();
 *
 * @packageDocumentation
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'smol-toml';
import { Application } from '../application.js';
import { ManualClock, type Clock } from '../clock.js';
import { invalidArguments, notOffered } from '../cognition/engine.js';
import { pluginInstances } from '../instances.js';
import type { MiraPlugin, PluginInstance } from '../plugin.js';
import type { EpisodeInfo, ToolResult } from '../tools.js';
import type { Logger } from '../types.js';

export { ManualClock } from '../clock.js';

/** How to build a test runtime. */
export interface TestRuntimeOptions {
  /** Plugin objects, or specifiers (package names, or paths relative to `dir`). */
  readonly plugins?: ReadonlyArray<MiraPlugin<any> | string>;
  /** Manifest tables besides `[profile]`, e.g. `{ memory: { enabled: true, database_path: 'data/m.sqlite3' } }`. */
  readonly tables?: Readonly<Record<string, Record<string, unknown>>>;
  readonly name?: string;
  readonly description?: string;
  /** Defaults to a {@link ManualClock}. */
  readonly clock?: Clock;
  /** Folder for the manifest; a fresh temporary folder by default (removed by `dispose`). */
  readonly dir?: string;
  /** Start the runtime (open stores, run `start`); default true. */
  readonly start?: boolean;
  /** ROS 2 arguments, as after `--ros-args` on the command line. */
  readonly rosArgs?: readonly string[];
}

/** A booted runtime under test. */
export interface TestRuntime {
  readonly app: Application;
  readonly dir: string;
  readonly manifestPath: string;
  readonly clock: Clock;
  /** Log lines (what the CLI prints on stderr). */
  readonly logs: string[];
  /** Lines plugins printed on their own (autonomous episodes, monitors), outside any console line. */
  readonly notifications: string[];
  /**
   * The instance a plugin's `setup` returned in this runtime, with the
   * plugin's own fields (e.g. the simulator's transport). For tests only.
   * @throws Error when the plugin is not in this runtime.
   */
  instance<I extends PluginInstance>(plugin: MiraPlugin<any, I> | string): I;
  /** Runs one console line and returns whether it succeeded and what it printed. */
  run(line: string): Promise<{ ok: boolean; output: string[] }>;
  /**
   * Runs a registered tool directly, as the episode engine would after validating the call: each call
   * is an episode of its own (a fresh ID; per-episode budgets start afresh) from `episode.origin`
   * (`operator` unless given). @throws Error when no tool has that name.
   */
  callTool(name: string, args: Record<string, unknown>, episode?: Partial<EpisodeInfo>): Promise<ToolResult>;
  /** Runs lines in order and returns everything printed. */
  runAll(lines: readonly string[]): Promise<string[]>;
  /** Stops the runtime (phased shutdown, stores closed once). */
  stop(): Promise<void>;
  /** Stops, then removes the temporary folder if the kit made it. */
  dispose(): Promise<void>;
}

/**
 * Writes a `profile.toml` into `dir` and returns its path. A `profile` entry of `tables` adds its keys to
 * `[profile]` (e.g. `{ profile: { start_timeout_ms: 200 } }`).
 */
export function writeManifest(
  dir: string,
  profile: { name: string; description?: string; plugins: readonly string[] },
  tables: Readonly<Record<string, Record<string, unknown>>> = {},
): string {
  const path = join(dir, 'profile.toml');
  const { profile: extra, ...rest } = tables;
  writeFileSync(
    path,
    stringify({
      profile: {
        name: profile.name,
        description: profile.description ?? '',
        plugins: [...profile.plugins],
        ...extra,
      },
      ...rest,
    }),
  );
  return path;
}

/** Boots (and by default starts) a runtime for tests. */
export async function createTestRuntime(options: TestRuntimeOptions = {}): Promise<TestRuntime> {
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'mira-test-'));
  const preloaded = new Map<string, unknown>();
  const specifiers = (options.plugins ?? []).map((p) => {
    if (typeof p === 'string') return p;
    const specifier = `test:${p.name}`;
    preloaded.set(specifier, p);
    return specifier;
  });
  const manifestPath = writeManifest(
    dir,
    { name: options.name ?? 'Mira', description: options.description, plugins: specifiers },
    options.tables,
  );
  const logs: string[] = [];
  const log: Logger = {
    info: (m) => logs.push(m),
    warn: (m) => logs.push(`warning: ${m}`),
    error: (m) => logs.push(m),
  };
  const clock = options.clock ?? new ManualClock();
  const notifications: string[] = [];
  const app = await Application.boot({
    manifestPath,
    clock,
    log,
    preloaded,
    rosArgs: options.rosArgs,
    output: { print: (line) => notifications.push(line) },
  });
  if (options.start !== false) await app.start();
  const run = async (line: string) => {
    const output: string[] = [];
    const result = await app.execute(line, { print: (l) => output.push(l) });
    return { ok: result.ok, output };
  };
  let episodes = 0;
  const callTool = async (name: string, args: Record<string, unknown>, episode: Partial<EpisodeInfo> = {}) => {
    const registered = app.kernel.tools.get(name);
    if (!registered) throw new Error(`no tool ${name} in this runtime`);
    const info: EpisodeInfo = { id: ++episodes, origin: 'operator', startedAt: clock.now(), ...episode };
    // As strict as an episode: a tool not offered to the origin, or arguments off its schema, are refused
    // with the runtime's own result, and the tool does not run.
    if (!registered.tool.origins.includes(info.origin)) return notOffered(name, info.origin, registered);
    if (!registered.validate(args)) return invalidArguments(registered);
    return registered.tool.run(args, { episode: info });
  };
  return {
    app,
    dir,
    manifestPath,
    clock,
    logs,
    notifications,
    instance: <I extends PluginInstance>(plugin: MiraPlugin<any, I> | string) => {
      const name = typeof plugin === 'string' ? plugin : plugin.name;
      const instance = pluginInstances.get(app)?.get(name);
      if (!instance)
        throw new Error(`plugin ${name} is not in this runtime (its plugins: ${app.pluginOrder.join(', ')})`);
      return instance as I;
    },
    run,
    callTool,
    runAll: async (lines) => {
      const all: string[] = [];
      for (const line of lines) all.push(...(await run(line)).output);
      return all;
    },
    stop: () => app.stop(),
    dispose: async () => {
      await app.stop();
      if (ownsDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
export { groundingOf, withoutGrounding } from './grounding.js';
export { countTokens, tokenIds } from './model-prompt.js';
export type { ScriptedTemplate } from './chat-templates.js';
export {
  hashedBagOfWords,
  startScriptedModelServer,
  type ModelServerFlavor,
  type RecordedRequest,
  type ScriptedServerOptions,
  type ScriptedModelServer,
  type ScriptedReply,
  type ScriptedToolCall,
} from './model-server.js';
