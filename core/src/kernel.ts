import { isAbsolute, resolve } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { compileSchemaLazily, type Validator } from './schemas.js';
import { EpisodeEngine, type EpisodeRequest } from './cognition/engine.js';
import type { CognitionProvider } from './cognition/provider.js';
import type { ConsoleOutput } from './console/command.js';
import { CommandConsole } from './console/console.js';
import { CoreErrorCodes, CoreErrors, MiraError, toMiraError } from './errors.js';
import { SQLITE_SIDE_FILES } from './files.js';
import { createHooks, hooksForPlugin, type KernelHooks, type LogLevel } from './hooks.js';
import type { PluginKernel, PluginSummary, StopOutcome, StopReport } from './plugin.js';
import { Registry } from './registry.js';
import type { SensorDefinition, SensorReading } from './sensors.js';
import type { ClosableStore, StoreDefinition, StoreKey } from './stores.js';
import { interceptHookMapErrors, interceptTapErrors, nameThePlugin } from './tap-errors.js';
import { assertStrictToolSchema, type RegisteredTool, type ToolDefinition, type ToolResult } from './tools.js';
import { EPISODE_ORIGINS, type Logger, type RuntimeServices } from './types.js';
import { WorkingMemory } from './working-memory.js';

const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const SENSOR_ID = /^[a-z][a-z0-9_.-]{0,63}$/;

/** How to build a kernel. */
export interface KernelOptions {
  /** Where plugins' console lines go: stdout in the CLI, a buffer in the testing kit. */
  readonly output: ConsoleOutput;
  readonly workingMemoryLimit?: number;
  /** The runtime's plugins, for `plugins` (filled in as they are set up). */
  readonly plugins: () => readonly PluginSummary[];
  /** ROS 2 arguments from the command line. */
  readonly rosArgs?: readonly string[];
  /** Stores open read-only (`mira mcp`). */
  readonly readOnly?: boolean;
}

/**
 * The kernel: hooks, registries, the console, working memory and the stores
 * the application owns. Plugins see it through {@link Kernel.forPlugin}.
 */
export class Kernel {
  readonly hooks: KernelHooks = createHooks();
  readonly console = new CommandConsole();
  readonly tools = new Registry<RegisteredTool>('tool');
  /** Read-only tools for other agents (`mira mcp`), never offered to the model. */
  readonly agentTools = new Registry<RegisteredTool>('agent tool');
  readonly storeDefinitions = new Registry<StoreDefinition>('store');
  readonly sensors = new Registry<SensorDefinition>('sensor');
  readonly workingMemory: WorkingMemory;
  readonly services: RuntimeServices;
  readonly cognition: EpisodeEngine;
  readonly #latest = new Map<string, SensorReading>();
  readonly #emergencyStops: Array<{
    owner: string;
    handler: () => Promise<StopOutcome | void> | StopOutcome | void;
  }> = [];
  readonly #cancels: Array<{ owner: string; cancel: () => Promise<void> | void }> = [];
  readonly #consoleStopPorts: Array<{ owner: string; open: () => MessagePort }> = [];
  /** Where plugins' console lines go; set once, when the application is created. */
  readonly output: ConsoleOutput;
  readonly #plugins: () => readonly PluginSummary[];
  readonly #rosArgs: readonly string[];
  readonly #readOnly: boolean;
  readonly #open = new Map<string, ClosableStore>();
  #storesClosed = false;
  readonly #sink: Logger;
  #inLogHook = false;

  /** A logger that writes to the runtime's log and then tells the `logLine` hook, naming `source`. */
  #logger(source: string): Logger {
    const line = (level: LogLevel) => (message: string) => {
      this.#sink[level](message);
      if (this.#inLogHook) return;
      this.#inLogHook = true;
      try {
        this.hooks.logLine.call(level, message, source);
      } catch {
        // A failing log tap must not turn a log line into an error.
      } finally {
        this.#inLogHook = false;
      }
    };
    return Object.freeze({ info: line('info'), warn: line('warn'), error: line('error') });
  }

  constructor(services: RuntimeServices, options: KernelOptions) {
    this.#sink = services.log;
    this.services = { ...services, log: this.#logger('@mira/core') };
    this.workingMemory = new WorkingMemory(options.workingMemoryLimit);
    this.output = options.output;
    this.#plugins = options.plugins;
    this.#rosArgs = options.rosArgs ?? [];
    this.#readOnly = options.readOnly ?? false;
    this.cognition = new EpisodeEngine({
      tools: this.tools,
      hooks: this.hooks,
      workingMemory: this.workingMemory,
      services: this.services,
      sensors: { list: () => this.sensors.values(), latest: (id) => this.latestReading(id) },
    });
    interceptTapErrors(this.hooks.start, nameThePlugin(CoreErrorCodes.PLUGIN_START_FAILED, 'start'));
    interceptHookMapErrors(this.hooks.stop, (error, tapName) => {
      const text = error instanceof Error ? error.message : String(error);
      this.services.log.error(
        `${CoreErrorCodes.PLUGIN_STOP_FAILED}: plugin ${tapName} failed to stop: ${text}; shutdown continues`,
      );
      return undefined;
    });
    for (const [name, hook] of [
      ['grounding', this.hooks.grounding],
      ['before tool call', this.hooks.beforeToolCall],
      ['after tool call', this.hooks.afterToolCall],
      ['episode started', this.hooks.episodeStarted],
      ['episode finished', this.hooks.episodeFinished],
      ['registration', this.hooks.registerTool],
      ['registration', this.hooks.registerCommand],
      ['registration', this.hooks.registerStore],
      ['registration', this.hooks.registerSensor],
    ] as const) {
      interceptTapErrors(hook, nameThePlugin(CoreErrorCodes.INTERNAL, `the ${name} hook`));
    }
    interceptHookMapErrors(this.hooks.sensorReading, nameThePlugin(CoreErrorCodes.INTERNAL, 'a sensor reading hook'));
  }

  /** Registers a tool for `owner`, refusing a non-strict schema or a duplicate name. */
  #registerTool(tool: ToolDefinition<any>, owner: string, forAgents = false): void {
    // The plugin is not named here: its set-up fails with "plugin <name>: " before this message.
    if (!tool || typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      throw CoreErrors.error('REGISTRATION_INVALID.toolName', { given: JSON.stringify(tool?.name) ?? 'no name' });
    }
    if (typeof tool.run !== 'function') throw CoreErrors.error('REGISTRATION_INVALID.toolRun', { name: tool.name });
    if (tool.kind !== 'acquisition' && tool.kind !== 'effect') {
      throw CoreErrors.error('REGISTRATION_INVALID.toolKind', { name: tool.name, owner });
    }
    if (
      !Array.isArray(tool.origins) ||
      tool.origins.length === 0 ||
      !tool.origins.every((o) => EPISODE_ORIGINS.includes(o))
    ) {
      throw CoreErrors.error('REGISTRATION_INVALID.toolOrigins', {
        name: tool.name,
        owner,
        origins: EPISODE_ORIGINS.join(', '),
      });
    }
    assertStrictToolSchema(tool, owner);
    let validate: Validator;
    try {
      validate = compileSchemaLazily(tool.parameters, { useDefaults: false });
    } catch (error) {
      throw CoreErrors.error(
        'TOOL_SCHEMA_NOT_STRICT.invalid',
        { name: tool.name, owner, reason: (error as Error).message },
        { cause: error },
      );
    }
    if (forAgents) {
      if (tool.kind !== 'acquisition') {
        throw CoreErrors.error('REGISTRATION_INVALID.toolForAgents', { name: tool.name, owner });
      }
      this.agentTools.add(tool.name, { tool: withCheckedResult(tool, owner), owner, validate }, owner);
      return;
    }
    this.tools.add(tool.name, { tool: withCheckedResult(tool, owner), owner, validate }, owner);
    this.hooks.registerTool.call(tool, owner);
  }

  /**
   * Runs every emergency-stop handler, one report each, and every cancel handler beside them. A stop handler
   * that throws did not deliver: it is logged and the rest still run; an undelivered stop is logged too.
   */
  async emergencyStop(): Promise<StopReport[]> {
    const cancelled = Promise.all(
      this.#cancels.map(async ({ owner, cancel }) => {
        try {
          await cancel();
        } catch (error) {
          this.services.log.error(`cancel of plugin ${owner} failed: ${(error as Error).message}`);
        }
      }),
    );
    const [reports] = await Promise.all([this.#stops(), cancelled]);
    return reports;
  }

  #stops(): Promise<StopReport[]> {
    return Promise.all(
      this.#emergencyStops.map(async ({ owner, handler }): Promise<StopReport> => {
        try {
          const outcome = (await handler()) ?? { delivered: true };
          if (!outcome.delivered) this.services.log.error(`emergency stop of plugin ${owner}: ${outcome.detail}`);
          return { owner, ...outcome };
        } catch (error) {
          const detail = `emergency stop of plugin ${owner} failed, zero velocity not delivered: ${(error as Error).message}`;
          this.services.log.error(detail);
          return { owner, delivered: false, detail };
        }
      }),
    );
  }

  /** Opens one console-stop port per registered safety path (call after start, once per line reader). */
  openConsoleStopPorts(): MessagePort[] {
    const ports: MessagePort[] = [];
    for (const { owner, open } of this.#consoleStopPorts) {
      try {
        ports.push(open());
      } catch (error) {
        this.services.log.error(`plugin ${owner} could not open its console stop port: ${(error as Error).message}`);
      }
    }
    return ports;
  }

  /** Latest reading per sensor id. */
  latestReading(id: string): SensorReading | undefined {
    return this.#latest.get(id);
  }

  /** Records and publishes a sensor reading. */
  publishReading(reading: SensorReading): void {
    this.#latest.set(reading.sensorId, reading);
    this.hooks.sensorReading.get(reading.sensorId)?.call(reading);
  }

  /** Opens every registered store, in registration order; the application owns them from here on. */
  async openStores(): Promise<void> {
    for (const name of this.storeDefinitions.names()) {
      const definition = this.storeDefinitions.get(name)!;
      try {
        this.#open.set(name, await definition.open());
      } catch (error) {
        const owner = this.storeDefinitions.ownerOf(name);
        const failure = toMiraError(error, CoreErrorCodes.STORE_OPEN_FAILED);
        throw new MiraError(failure.code, `store "${name}" of plugin ${owner} could not be opened: ${failure.detail}`, {
          cause: error,
          fix: failure.fix,
        });
      }
    }
  }

  /** An opened store, by its key: of the key's type (the one its plugin registered it under). */
  store<S extends ClosableStore>(key: StoreKey<S>): S {
    const { name } = key;
    const store = this.#open.get(name);
    if (!store) {
      const why = this.storeDefinitions.has(name)
        ? 'it is not open yet (stores open before start())'
        : 'no plugin in this profile registers it';
      throw CoreErrors.error('STORE_NOT_AVAILABLE', { name, why });
    }
    // The key's name finds the store: a key is a value, and one module loaded twice (ESM and CommonJS, as
    // test runners do) holds two objects for the same key.
    return store as S;
  }

  /** Closes every open store exactly once, newest first; errors are logged and the rest still close. */
  async closeStores(): Promise<void> {
    if (this.#storesClosed) return;
    this.#storesClosed = true;
    for (const [name, store] of [...this.#open.entries()].reverse()) {
      try {
        await store.close();
      } catch (error) {
        this.services.log.error(
          `${CoreErrorCodes.PLUGIN_STOP_FAILED}: store "${name}" failed to close: ${(error as Error).message}`,
        );
      }
    }
    this.#open.clear();
  }

  /** The kernel as plugin `pluginName` sees it. */
  forPlugin(pluginName: string): PluginKernel {
    const { services } = this;
    const engine = this.cognition;
    return Object.freeze({
      pluginName,
      clock: services.clock,
      profile: services.profile,
      log: this.#logger(pluginName),
      hooks: hooksForPlugin(this.hooks, pluginName),
      workingMemory: this.workingMemory,
      tools: Object.freeze({
        register: (tool: ToolDefinition<any>) => this.#registerTool(tool, pluginName),
        registerForAgents: (tool: ToolDefinition<any>) => this.#registerTool(tool, pluginName, true),
        list: () => this.tools.values().map((r) => r.tool),
      }),
      commands: Object.freeze({
        register: (command: Parameters<CommandConsole['register']>[0]) => {
          this.console.register(command, pluginName);
          this.hooks.registerCommand.call(command, pluginName);
        },
        help: (words: readonly string[]) => this.console.help(words),
      }),
      stores: Object.freeze({
        register: <S extends ClosableStore>(store: StoreDefinition<S>) => {
          if (!store || typeof store.key?.name !== 'string' || typeof store.open !== 'function') {
            throw CoreErrors.error('REGISTRATION_INVALID.store', { pluginName });
          }
          this.storeDefinitions.add(store.key.name, store, pluginName);
          this.hooks.registerStore.call(store, pluginName);
        },
        get: <S extends ClosableStore>(key: StoreKey<S>) => this.store(key),
        has: (key: StoreKey<ClosableStore>) => this.storeDefinitions.has(key.name),
        files: () =>
          this.storeDefinitions
            .names()
            .flatMap((name) => this.storeDefinitions.get(name)!.files ?? [])
            .flatMap((file) => [file, ...SQLITE_SIDE_FILES.map((side) => `${file}${side}`)]),
      }),
      sensors: Object.freeze({
        register: (sensor: SensorDefinition) => {
          if (!sensor || typeof sensor.id !== 'string' || !SENSOR_ID.test(sensor.id)) {
            throw CoreErrors.error('REGISTRATION_INVALID.sensor', { pluginName });
          }
          this.sensors.add(sensor.id, sensor, pluginName);
          this.hooks.registerSensor.call(sensor, pluginName);
        },
        list: () => this.sensors.values(),
        latest: (id: string) => this.latestReading(id),
        publish: (reading: SensorReading) => {
          if (!reading || typeof reading.sensorId !== 'string' || !this.sensors.has(reading.sensorId)) {
            throw CoreErrors.error('SENSOR_NOT_REGISTERED', {
              owner: pluginName,
              sensorId: JSON.stringify(String(reading?.sensorId)),
            });
          }
          this.publishReading(reading);
        },
      }),
      hardware: Object.freeze({
        registerEmergencyStop: (handler: () => Promise<StopOutcome | void> | StopOutcome | void) => {
          this.#emergencyStops.push({ owner: pluginName, handler });
        },
        registerCancel: (cancel: () => Promise<void> | void) => {
          this.#cancels.push({ owner: pluginName, cancel });
        },
        emergencyStop: () => this.emergencyStop(),
        registerConsoleStopPort: (open: () => MessagePort) => {
          this.#consoleStopPorts.push({ owner: pluginName, open });
        },
      }),
      output: this.output,
      cognition: Object.freeze({
        register: (provider: CognitionProvider) => this.cognition.setProvider(provider, pluginName),
        run: (request: EpisodeRequest) => this.cognition.run(request),
        get configured() {
          return engine.configured;
        },
      }),
      runtime: Object.freeze({
        plugins: () => this.#plugins(),
        requestQuit: () => this.console.requestQuit(),
        rosArgs: this.#rosArgs,
        readOnly: this.#readOnly,
      }),
      resolvePath: (path: string) => (isAbsolute(path) ? path : resolve(services.profile.dir, path)),
    });
  }
}

/**
 * The tool as the kernel keeps it: its `run` answers a result with text content or throws
 * `MIRA_ERR_TOOL_RESULT_INVALID` (the episode engine then gives the model a refusal and logs why), so a
 * plugin's object or number never reaches the model, the console or an MCP client as if it were text.
 */
function withCheckedResult(tool: ToolDefinition<any>, owner: string): ToolDefinition<any> {
  const run: ToolDefinition<any>['run'] = async (args, context) => {
    const result = (await tool.run(args, context)) as unknown;
    const content = (result as { content?: unknown } | null | undefined)?.content;
    if (typeof result !== 'object' || result === null || typeof content !== 'string') {
      const what =
        typeof result !== 'object' || result === null
          ? `${result === null ? 'null' : typeof result} as its result`
          : `content of type ${content === null ? 'null' : Array.isArray(content) ? 'array' : typeof content}`;
      throw CoreErrors.error('TOOL_RESULT_INVALID', { name: tool.name, owner, what });
    }
    return result as ToolResult;
  };
  return Object.freeze({ ...tool, run });
}
