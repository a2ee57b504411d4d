import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, HookMap, SyncHook } from 'tapable';
import type { CommandDefinition } from './console/command.js';
import type { Grounding, EpisodeInfo, ToolCall, ToolDefinition, ToolResult } from './tools.js';
import type { SensorDefinition, SensorReading } from './sensors.js';
import type { StoreDefinition } from './stores.js';

/** How an episode ended, for `episodeFinished`. */
export type EpisodeOutcome = { readonly reply: string } | { readonly error: string };

/**
 * Every hook of the kernel, grouped by lifecycle stage. Tap with your plugin's
 * name (`hooks.start.tapPromise(PLUGIN_NAME, …)`); errors thrown in a tap are
 * reported with that name.
 */
export interface KernelHooks {
  // Registration: called after a thing has been registered.
  /** SyncHook — (tool, owner plugin name) after a tool is registered. */
  readonly registerTool: SyncHook<[ToolDefinition, string]>;
  /** SyncHook — (command, owner plugin name) after a console command is registered. */
  readonly registerCommand: SyncHook<[CommandDefinition, string]>;
  /** SyncHook — (store, owner plugin name) after a store is registered. */
  readonly registerStore: SyncHook<[StoreDefinition, string]>;
  /** SyncHook — (sensor, owner plugin name) after a sensor is registered. */
  readonly registerSensor: SyncHook<[SensorDefinition, string]>;

  // Lifecycle.
  /**
   * SyncHook — () once every plugin is set up, before anything starts (`mira check` runs it too): for
   * checks across plugins, such as a monitor naming a sensor another plugin registers. A tap that throws
   * fails boot with its message.
   */
  readonly ready: SyncHook<[]>;
  /** AsyncSeriesHook — () once stores are open; plugins' `start()` run here in dependency order. */
  readonly start: AsyncSeriesHook<[]>;
  /** HookMap of AsyncSeriesHook — () per shutdown phase; an error in one tap is reported and the rest still run. */
  readonly stop: HookMap<AsyncSeriesHook<[]>>;

  // Cognition.
  /** AsyncSeriesWaterfallHook — (grounding, episode) rebuilt before every model call. */
  readonly grounding: AsyncSeriesWaterfallHook<[Grounding, EpisodeInfo]>;
  /** AsyncSeriesBailHook — (call, episode) before a tool runs; a returned result replaces the call. */
  readonly beforeToolCall: AsyncSeriesBailHook<[ToolCall, EpisodeInfo], ToolResult | undefined>;
  /** AsyncSeriesHook — (call, result, episode) after a tool call has a result. */
  readonly afterToolCall: AsyncSeriesHook<[ToolCall, ToolResult, EpisodeInfo]>;
  /** SyncHook — (episode) when an episode starts, before its first model call. */
  readonly episodeStarted: SyncHook<[EpisodeInfo]>;
  /** SyncHook — (episode, outcome) when an episode ends: its reply, or the error code that ended it. */
  readonly episodeFinished: SyncHook<[EpisodeInfo, EpisodeOutcome]>;

  // Perception.
  /** HookMap of SyncHook — (reading) keyed by sensor id, for every new reading. */
  readonly sensorReading: HookMap<SyncHook<[SensorReading]>>;

  // Observability.
  /**
   * SyncHook — (level, message, source) for every log line, after it is written: `source` is the
   * plugin that logged it, or `@mira/core`. A line logged from inside a tap does not call it again.
   */
  readonly logLine: SyncHook<[LogLevel, string, string]>;
}

/** The level of a log line. */
export type LogLevel = 'info' | 'warn' | 'error';

/** Builds a fresh, frozen set of hooks. */
export function createHooks(): KernelHooks {
  return Object.freeze({
    registerTool: new SyncHook<[ToolDefinition, string]>(['tool', 'owner']),
    registerCommand: new SyncHook<[CommandDefinition, string]>(['command', 'owner']),
    registerStore: new SyncHook<[StoreDefinition, string]>(['store', 'owner']),
    registerSensor: new SyncHook<[SensorDefinition, string]>(['sensor', 'owner']),
    ready: new SyncHook<[]>(),
    start: new AsyncSeriesHook<[]>(),
    stop: new HookMap<AsyncSeriesHook<[]>>(() => new AsyncSeriesHook<[]>()),
    grounding: new AsyncSeriesWaterfallHook<[Grounding, EpisodeInfo]>(['grounding', 'episode']),
    beforeToolCall: new AsyncSeriesBailHook<[ToolCall, EpisodeInfo], ToolResult | undefined>(['call', 'episode']),
    afterToolCall: new AsyncSeriesHook<[ToolCall, ToolResult, EpisodeInfo]>(['call', 'result', 'episode']),
    episodeStarted: new SyncHook<[EpisodeInfo]>(['episode']),
    episodeFinished: new SyncHook<[EpisodeInfo, EpisodeOutcome]>(['episode', 'outcome']),
    sensorReading: new HookMap<SyncHook<[SensorReading]>>(() => new SyncHook<[SensorReading]>(['reading'])),
    logLine: new SyncHook<[LogLevel, string, string]>(['level', 'message', 'source']),
  });
}

const TAP_METHODS = new Set<PropertyKey>(['tap', 'tapAsync', 'tapPromise']);

/**
 * The kernel's hooks as one plugin sees them: a tap given no name (a bare function, `''`, or options
 * without `name`) is named after the plugin, so it shows in errors and ordering as the plugin's own,
 * instead of failing with tapable's bare "Invalid tap options". Anything else passes through unchanged.
 */
export function hooksForPlugin(hooks: KernelHooks, pluginName: string): KernelHooks {
  const named = (options: unknown): unknown => {
    if (options === undefined || options === null || options === '') return pluginName;
    if (typeof options === 'object' && !(options as { name?: unknown }).name)
      return { ...(options as object), name: pluginName };
    return options;
  };
  const wrapped = new WeakMap<object, object>();
  const wrap = <T extends object>(hook: T): T => {
    const known = wrapped.get(hook);
    if (known) return known as T;
    const proxy = proxyOf(hook);
    wrapped.set(hook, proxy);
    return proxy;
  };
  const proxyOf = <T extends object>(hook: T): T =>
    new Proxy(hook, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        // A hook's taps (a hook map's own, deprecated tap(key, options, fn) is left as tapable has it).
        if (TAP_METHODS.has(property) && typeof value === 'function' && !(target instanceof HookMap)) {
          return (options: unknown, fn?: unknown) =>
            typeof options === 'function'
              ? (value as (o: unknown, f: unknown) => unknown).call(target, pluginName, options)
              : (value as (o: unknown, f: unknown) => unknown).call(target, named(options), fn);
        }
        // A hook map's hooks are wrapped as they are looked up.
        if (property === 'for' && target instanceof HookMap)
          return (key: unknown) => wrap((target as HookMap<any>).for(key));
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return Object.freeze(
    Object.fromEntries(Object.entries(hooks).map(([key, hook]) => [key, wrap(hook as object)])),
  ) as unknown as KernelHooks;
}
