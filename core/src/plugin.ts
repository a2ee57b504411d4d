import type { EpisodeRequest, EpisodeResult } from './cognition/engine.js';
import type { CognitionProvider } from './cognition/provider.js';
import type { CommandDefinition, ConsoleOutput } from './console/command.js';
import type { KernelHooks } from './hooks.js';
import type { SensorDefinition, SensorReading } from './sensors.js';
import type { ClosableStore, StoreDefinition } from './stores.js';
import type { ToolDefinition } from './tools.js';
import type { JsonSchema, RuntimeServices, StopPhase } from './types.js';
import type { WorkingMemory } from './working-memory.js';

/**
 * What a plugin's `apply` receives: the kernel, seen as that plugin. Every
 * registration made through it records the plugin as owner.
 */
export interface PluginKernel extends RuntimeServices {
  /** The plugin this view belongs to. */
  readonly pluginName: string;
  readonly hooks: KernelHooks;
  readonly tools: {
    /** @throws MiraError on a duplicate name or a non-strict parameter schema. */
    register<Args>(tool: ToolDefinition<Args>): void;
    list(): readonly ToolDefinition[];
  };
  readonly commands: {
    register(command: CommandDefinition): void;
  };
  readonly stores: {
    /** Registers a store the application opens before `start` and closes once at the end. */
    register<S extends ClosableStore>(store: StoreDefinition<S>): void;
    /** The opened store; available from `start()` on. @throws MiraError `MIRA_ERR_STORE_NOT_AVAILABLE` */
    get<S extends ClosableStore>(name: string): S;
    /** True when a store of that name is registered (it may not be open yet). */
    has(name: string): boolean;
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
    /** Adds a handler the console's `stop` command (emergency stop) and shutdown call. */
    registerEmergencyStop(handler: () => Promise<void> | void): void;
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
  /** Resolves a path from the plugin's config against the manifest's directory; absolute paths stay. */
  resolvePath(path: string): string;
}

/**
 * A Mira plugin, the default export of its module.
 *
 * `apply` only registers (tools, commands, stores, sensors, hook taps);
 * I/O starts in `start`. `stop` runs in the plugin's `stopPhase`.
 *
 * @example
 * const PLUGIN_NAME = '@acme/mira-plugin-battery';
 * export default {
 *   name: PLUGIN_NAME, version: '1.0.0', configSection: 'battery',
 *   configSchema: { type: 'object', properties: { topic: { type: 'string' } }, additionalProperties: false },
 *   apply(kernel, config) { kernel.commands.register({ name: 'battery', summary: 'Battery level', run: (_i, out) => out.print('81%') }); },
 * } satisfies MiraPlugin<{ topic?: string }>;
 */
export interface MiraPlugin<Config = Record<string, unknown>> {
  /** Unique name; by convention the npm package name. */
  readonly name: string;
  readonly version: string;
  /** Names of plugins that must be applied and started first. */
  readonly dependencies?: readonly string[];
  /** The manifest table this plugin owns, e.g. `memory` for `[memory]`. */
  readonly configSection?: string;
  /** JSON schema the section is validated against (with ajv) before `apply`. */
  readonly configSchema?: JsonSchema;
  /** The shutdown phase `stop` runs in; default `service` (after hardware, before stores close). */
  readonly stopPhase?: StopPhase;
  apply(kernel: PluginKernel, config: Config): void | Promise<void>;
  start?(): void | Promise<void>;
  stop?(): void | Promise<void>;
}

/** Returns why `value` is not a {@link MiraPlugin}, or undefined when it is one. */
export function explainInvalidPlugin(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return 'the module has no default export that is a plugin object';
  const p = value as Record<string, unknown>;
  if (typeof p.name !== 'string' || p.name === '') return 'the plugin has no "name" string';
  if (typeof p.version !== 'string' || p.version === '') return `plugin ${p.name} has no "version" string`;
  if (typeof p.apply !== 'function') return `plugin ${p.name} has no apply(kernel, config) function`;
  if (p.dependencies !== undefined && !(Array.isArray(p.dependencies) && p.dependencies.every((d) => typeof d === 'string'))) {
    return `plugin ${p.name}: "dependencies" must be a list of plugin names`;
  }
  if (p.configSection !== undefined && (typeof p.configSection !== 'string' || !/^[a-z][a-z0-9_]*$/.test(p.configSection))) {
    return `plugin ${p.name}: "configSection" must be a lower-case table name`;
  }
  if (p.configSchema !== undefined && (p.configSchema === null || typeof p.configSchema !== 'object')) {
    return `plugin ${p.name}: "configSchema" must be a JSON schema object`;
  }
  for (const fn of ['start', 'stop'] as const) {
    if (p[fn] !== undefined && typeof p[fn] !== 'function') return `plugin ${p.name}: "${fn}" must be a function`;
  }
  return undefined;
}
