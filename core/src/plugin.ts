import type { MessagePort } from 'node:worker_threads';
import type { EpisodeRequest, EpisodeResult } from './cognition/engine.js';
import type { CognitionProvider } from './cognition/provider.js';
import type { CommandDefinition, ConsoleOutput } from './console/command.js';
import type { KernelHooks } from './hooks.js';
import type { PrecompiledValidator } from './schemas.js';
import type { SensorDefinition, SensorReading } from './sensors.js';
import type { ClosableStore, StoreDefinition, StoreKey } from './stores.js';
import type { ToolDefinition } from './tools.js';
import type { JsonSchema, RuntimeServices, StopPhase } from './types.js';
import type { WorkingMemory } from './working-memory.js';

/** A loaded plugin as `plugins` lists it. */
/** What an emergency-stop handler did: whether its zero velocity reached a live link, in one line. */
export interface StopOutcome {
  readonly delivered: boolean;
  /** For the console and the log; says `not delivered` and why when it was not. */
  readonly detail?: string;
}

/** One emergency-stop handler's outcome, with the plugin that registered it. */
export interface StopReport extends StopOutcome {
  readonly owner: string;
}

export interface PluginSummary {
  readonly name: string;
  readonly version: string;
  /** The specifier as written in the manifest. */
  readonly specifier: string;
}

/**
 * What a plugin's `setup` receives: the kernel of one runtime, seen as that
 * plugin. Every registration made through it records the plugin as owner.
 */
export interface PluginKernel extends RuntimeServices {
  /** The plugin this view belongs to. */
  readonly pluginName: string;
  readonly hooks: KernelHooks;
  readonly tools: {
    /** @throws MiraError on a duplicate name or a non-strict parameter schema. */
    register<Args>(tool: ToolDefinition<Args>): void;
    /**
     * A read-only (acquisition) tool offered only to other agents through `mira mcp`, never to the
     * model: for a reading that needs a parameter the model's own tool takes from the session (a scope).
     * @throws MiraError on a duplicate name, a non-strict schema, or an effect tool.
     */
    registerForAgents<Args>(tool: ToolDefinition<Args>): void;
    list(): readonly ToolDefinition[];
  };
  readonly commands: {
    register(command: CommandDefinition): void;
    /** The help text for the commands under `words` (all of them when empty). */
    help(words: readonly string[]): string[];
  };
  readonly stores: {
    /** Registers a store the application opens before `start` and closes once at the end. */
    register<S extends ClosableStore>(store: StoreDefinition<S>): void;
    /**
     * The opened store of `key`, typed by it; available from `start()` on.
     * @throws MiraError MIRA_ERR_STORE_NOT_AVAILABLE (not registered, not open yet, or under another key)
     */
    get<S extends ClosableStore>(key: StoreKey<S>): S;
    /** True when a store is registered under the key's name (it may not be open yet). */
    has(key: StoreKey<ClosableStore>): boolean;
    /** Every file the registered stores keep, side files included: no command may write over these. */
    files(): string[];
  };
  readonly sensors: {
    register(sensor: SensorDefinition): void;
    list(): readonly SensorDefinition[];
    /** The latest reading of a sensor, if any arrived. */
    latest(id: string): SensorReading | undefined;
    /** Publishes a reading on `hooks.sensorReading.for(id)` and records it as latest. */
    publish(reading: SensorReading): void;
  };
  readonly workingMemory: WorkingMemory;
  readonly hardware: {
    /**
     * Adds a handler the console's `stop` command (emergency stop) calls. It says truthfully what became
     * of its zero velocity (nothing returned: delivered); a handler that throws did not deliver.
     */
    registerEmergencyStop(handler: () => Promise<StopOutcome | void> | StopOutcome | void): void;
    /**
     * Adds a handler that cancels what the plugin has in flight and that moves nothing (a goal of an action
     * that is not motion): the console's `stop` and every ending (`quit`, a signal, the parent gone) run it
     * with the emergency stops, so an ending never waits for such work's own deadline. No report.
     */
    registerCancel(cancel: () => Promise<void> | void): void;
    /**
     * Runs every emergency-stop handler and every cancel handler now; resolves to one report per stop handler.
     * Failures are logged.
     */
    emergencyStop(): Promise<StopReport[]>;
    /**
     * Registers a way to open a port that the console's line reader (a thread of its own) uses to send
     * `{ type: 'stop' | 'quit', at }` the moment the operator types the line, without waiting for the
     * main thread. A robot's safety path registers one.
     */
    registerConsoleStopPort(open: () => MessagePort): void;
  };
  /** Prints a line on the console (stdout in the CLI), e.g. what an autonomous episode said. */
  readonly output: ConsoleOutput;
  readonly cognition: {
    /** Sets the model backend; one per runtime. */
    register(provider: CognitionProvider): void;
    /** Runs an episode, e.g. an autonomous `attention` episode started by a monitor. */
    run(request: EpisodeRequest): Promise<EpisodeResult>;
    /** True when a provider is registered. */
    readonly configured: boolean;
  };
  readonly runtime: {
    /** The plugins of this runtime, in the order they were set up. */
    plugins(): readonly PluginSummary[];
    /** Asks the console to stop the runtime in order, as `quit` does. */
    requestQuit(): void;
    /** The ROS 2 arguments given after `--ros-args` on the command line (`-r __ns:=/robot1`, `-p …`). */
    readonly rosArgs: readonly string[];
    /**
     * True under `mira mcp`: stores open read-only (they must exist already; nothing is created,
     * upgraded or written) and plugins do not start.
     */
    readonly readOnly: boolean;
  };
  /** Resolves a path from the plugin's config against the manifest's directory; absolute paths stay. */
  resolvePath(path: string): string;
}

/**
 * What `setup` returns: one plugin instance of one runtime. All of the
 * instance's state lives here (or in closures `setup` creates), never at
 * module level, so two runtimes in one process share nothing. Other fields
 * are the plugin's own (tests reach them through `@mira/core/testing`).
 */
export interface PluginInstance {
  /** I/O begins here: connect, listen, start timers. Runs after the stores are open. */
  start?(): void | Promise<void>;
  /** Runs in the plugin's `stopPhase` during shutdown. */
  stop?(): void | Promise<void>;
}

/**
 * A Mira plugin: the default export of its module, a definition with no state
 * of its own. The loader calls `setup` once per runtime (the webpack habit: a
 * plugin instance is made per compiler and only taps); `setup` registers
 * tools, commands, stores, sensors and hook taps, does no I/O, and returns
 * the instance whose `start`/`stop` the runtime calls.
 *
 * @example
 * export default definePlugin({
 *   name: '@acme/mira-plugin-battery', version: '1.0.0', configSection: 'battery',
 *   configSchema: { type: 'object', properties: { topic: { type: 'string' } }, additionalProperties: false },
 *   setup(kernel, config: { topic?: string }) {
 *     let level = 81;
 *     kernel.commands.register({
 *       name: 'battery', summary: 'Battery level', run: (_i, out) => out.print(`${level}%`),
 *     });
 *     return { start() { level = 80; } };
 *   },
 * });
 */
export interface MiraPlugin<Config = Record<string, unknown>, Instance extends PluginInstance = PluginInstance> {
  /** Unique name; by convention the npm package name. */
  readonly name: string;
  readonly version: string;
  /** Names of plugins that must be set up and started first. */
  readonly dependencies?: readonly string[];
  /** The manifest table this plugin owns, e.g. `memory` for `[memory]`. */
  readonly configSection?: string;
  /** JSON schema the section is validated against (with ajv) before `setup`. */
  readonly configSchema?: JsonSchema;
  /**
   * The schema's validator compiled ahead of time (`npm run validators` writes it): used instead of compiling
   * the schema at start-up while it was generated from the same schema by the ajv installed. A config it
   * refuses is judged again by ajv, so the error is ajv's, as without it.
   */
  readonly configValidator?: PrecompiledValidator;
  /** The shutdown phase the instance's `stop` runs in; default `service` (after hardware, before stores close). */
  readonly stopPhase?: StopPhase;
  /** Creates this plugin's instance for one runtime. */
  setup(kernel: PluginKernel, config: Config): Instance | void | Promise<Instance | void>;
}

/** Freezes a plugin definition (and checks its type): a definition holds no state. */
export function definePlugin<Config, Instance extends PluginInstance = PluginInstance>(
  plugin: MiraPlugin<Config, Instance>,
): MiraPlugin<Config, Instance> {
  return Object.freeze(plugin);
}

/** Returns why `value` is not a {@link MiraPlugin}, or undefined when it is one. */
export function explainInvalidPlugin(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return 'the module has no default export that is a plugin object';
  const p = value as Record<string, unknown>;
  if (typeof p.name !== 'string' || p.name === '') return 'the plugin has no "name" string';
  if (typeof p.version !== 'string' || p.version === '') return `plugin ${p.name} has no "version" string`;
  if (typeof p.setup !== 'function') {
    return typeof p.apply === 'function'
      ? `plugin ${p.name} has apply(), an older plugin shape: rename it setup(kernel, config) and return { start, stop } from it`
      : `plugin ${p.name} has no setup(kernel, config) function`;
  }
  if (
    p.dependencies !== undefined &&
    !(Array.isArray(p.dependencies) && p.dependencies.every((d) => typeof d === 'string'))
  ) {
    return `plugin ${p.name}: "dependencies" must be a list of plugin names`;
  }
  if (
    p.configSection !== undefined &&
    (typeof p.configSection !== 'string' || !/^[a-z][a-z0-9_]*$/.test(p.configSection))
  ) {
    return `plugin ${p.name}: "configSection" must be a lower-case table name`;
  }
  if (p.configSchema !== undefined && (p.configSchema === null || typeof p.configSchema !== 'object')) {
    return `plugin ${p.name}: "configSchema" must be a JSON schema object`;
  }
  if (p.configValidator !== undefined && !isPrecompiledValidator(p.configValidator)) {
    return `plugin ${p.name}: "configValidator" must be a precompiled validator (npm run validators writes it)`;
  }
  for (const fn of ['start', 'stop'] as const) {
    if (p[fn] !== undefined)
      return `plugin ${p.name}: "${fn}" belongs on the instance setup() returns, not on the definition`;
  }
  return undefined;
}

function isPrecompiledValidator(value: unknown): value is PrecompiledValidator {
  if (value === null || typeof value !== 'object') return false;
  const { ajv, schema, validate } = value as Record<string, unknown>;
  return typeof ajv === 'string' && typeof schema === 'string' && typeof validate === 'function';
}

/**
 * What is wrong with what `setup` returned: not an object, or a member that is not a function;
 * undefined when it is a {@link PluginInstance}.
 */
export function invalidInstance(value: unknown): { readonly member?: 'start' | 'stop' } | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== 'object') return {};
  for (const member of ['start', 'stop'] as const) {
    const fn = (value as Record<string, unknown>)[member];
    if (fn !== undefined && typeof fn !== 'function') return { member };
  }
  return undefined;
}
