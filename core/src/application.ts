import { corePlugin } from './builtin.js';
import { systemClock, type Clock } from './clock.js';
import type { ConsoleOutput } from './console/command.js';
import { CoreErrorCodes, CoreErrors, MiraError, toMiraError } from './errors.js';
import { pluginInstances } from './instances.js';
import { Kernel } from './kernel.js';
import { loadPlugins, orderPlugins, validateConfig, type LoadedPlugin } from './loader.js';
import { readManifest, type ProfileManifest } from './manifest.js';
import { invalidInstance, type MiraPlugin, type PluginInstance, type PluginSummary } from './plugin.js';
import { STOP_PHASES, type Logger, type ProfileInfo } from './types.js';

/** How to build an application. */
export interface ApplicationOptions {
  /** Absolute path of the profile manifest. */
  readonly manifestPath: string;
  readonly clock?: Clock;
  readonly log?: Logger;
  /** Where lines plugins print on their own go (autonomous episodes, monitors); default: the log. */
  readonly output?: ConsoleOutput;
  /** ROS 2 arguments from the command line (`--ros-args …`), for the plugins that are ROS nodes. */
  readonly rosArgs?: readonly string[];
  /** Open the stores read-only (`mira mcp`): nothing is created, upgraded or written. */
  readonly readOnly?: boolean;
  /** Plugin definitions for manifest specifiers, used instead of importing them (for tests). */
  readonly preloaded?: ReadonlyMap<string, unknown>;
}

/** A logger that writes `mira: …` lines to stderr. */
export const stderrLogger: Logger = Object.freeze({
  info: (m: string) => process.stderr.write(`mira: ${m}\n`),
  warn: (m: string) => process.stderr.write(`mira: warning: ${m}\n`),
  error: (m: string) => process.stderr.write(`mira: ${m}\n`),
});

/**
 * The composition boundary: reads the manifest, loads, validates and orders
 * the plugin definitions, sets up one instance of each for this runtime,
 * opens the stores it then owns, starts, and shuts down in phases
 * (cognition → attention → temporal → hardware → service), closing the
 * stores once at the very end. Two applications in one process share nothing.
 *
 * @example
 * const app = await Application.boot({ manifestPath: '/robots/mira/profile.toml' });
 * await app.start();
 * await app.execute('help', { print: console.log });
 * await app.stop();
 */
export class Application {
  readonly kernel: Kernel;
  readonly manifest: ProfileManifest;
  /** Plugins in dependency order. */
  readonly plugins: readonly LoadedPlugin[];
  readonly #started = new Set<string>();
  #state: 'applied' | 'starting' | 'running' | 'stopping' | 'stopped' = 'applied';
  #stopping: Promise<void> | undefined;

  private constructor(kernel: Kernel, manifest: ProfileManifest, plugins: readonly LoadedPlugin[]) {
    this.kernel = kernel;
    this.manifest = manifest;
    this.plugins = plugins;
  }

  /**
   * Resolve → validate config → order → set up. Nothing is opened or written:
   * I/O waits for {@link Application.start}.
   */
  static async boot(options: ApplicationOptions): Promise<Application> {
    const manifest = readManifest(options.manifestPath);
    const loaded = await loadPlugins(manifest, options.preloaded);
    validateConfig(manifest, loaded);
    const ordered = orderPlugins(manifest, loaded);
    const profile: ProfileInfo = Object.freeze({
      name: manifest.name,
      description: manifest.description,
      manifestPath: manifest.path,
      dir: manifest.dir,
    });
    const log = options.log ?? stderrLogger;
    const summaries: PluginSummary[] = ordered.map(({ plugin, specifier }) =>
      Object.freeze({ name: plugin.name, version: plugin.version, specifier }),
    );
    const kernel = new Kernel(
      { clock: options.clock ?? systemClock, profile, log },
      {
        output: options.output ?? { print: (line) => log.info(line) },
        workingMemoryLimit: manifest.workingMemoryEntries,
        plugins: () => summaries,
        rosArgs: Object.freeze([...(options.rosArgs ?? [])]),
        readOnly: options.readOnly ?? false,
      },
    );
    const app = new Application(kernel, manifest, ordered);
    const instances = new Map<string, PluginInstance>();
    pluginInstances.set(app, instances);
    for (const [index, { plugin, config }] of ordered.entries()) {
      const instance = await app.#setup(
        plugin,
        config,
        (detail) => `${manifest.path}: plugin ${plugin.name}: ${detail}`,
      );
      instances.set(plugin.name, instance);
      app.#tapLifecycle(plugin.name, index, instance, plugin.stopPhase ?? 'service');
    }
    // Core's own commands and read_sensor, through the same facade; last, so it sees every sensor.
    await app.#setup(corePlugin, {}, (detail) => `${manifest.path}: ${detail}`);
    try {
      kernel.hooks.ready.call();
    } catch (error) {
      const failure = toMiraError(error, CoreErrorCodes.PLUGIN_APPLY_FAILED);
      throw new MiraError(failure.code, `${manifest.path}: ${failure.detail}`, { cause: error, fix: failure.fix });
    }
    if (kernel.cognition.configured) {
      kernel.console.setUtteranceHandler(async (utterance, out, line) => {
        await kernel.cognition.run({ origin: 'operator', utterance, out, askedAt: line?.askedAt });
      });
    }
    return app;
  }

  async #setup(
    plugin: MiraPlugin<any, PluginInstance>,
    config: unknown,
    where: (detail: string) => string,
  ): Promise<PluginInstance> {
    let instance: PluginInstance | void;
    try {
      instance = await plugin.setup(this.kernel.forPlugin(plugin.name), config);
    } catch (error) {
      const failure = toMiraError(error, CoreErrorCodes.PLUGIN_APPLY_FAILED);
      throw new MiraError(failure.code, where(failure.detail), { cause: error, fix: failure.fix });
    }
    const invalid = invalidInstance(instance);
    if (invalid) {
      const path = this.manifest.path;
      throw invalid.member
        ? CoreErrors.error('PLUGIN_INVALID.instanceMember', { path, name: plugin.name, member: invalid.member })
        : CoreErrors.error('PLUGIN_INVALID.instanceNotObject', { path, name: plugin.name });
    }
    return instance ?? {};
  }

  #tapLifecycle(name: string, index: number, instance: PluginInstance, phase: string): void {
    this.kernel.hooks.start.tapPromise(name, async () => {
      if (instance.start) await this.#startWithin(name, instance.start.bind(instance));
      this.#started.add(name);
    });
    if (instance.stop) {
      // Later plugins stop first within a phase: they may depend on earlier ones.
      this.kernel.hooks.stop.for(phase).tapPromise({ name, stage: -index }, async () => {
        if (this.#started.has(name)) await instance.stop!();
      });
    }
  }

  /** Runs one plugin's `start()`, failing (naming the plugin) if it takes longer than the profile allows. */
  async #startWithin(name: string, start: () => Promise<void> | void): Promise<void> {
    const ms = this.manifest.startTimeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(CoreErrors.error('PLUGIN_START_TIMEOUT', { path: this.manifest.path, name, ms })),
        ms,
      );
    });
    try {
      await Promise.race([Promise.resolve().then(start), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Opens the stores, then runs every plugin's `start` in dependency order. On failure, stops what started. */
  async start(): Promise<void> {
    if (this.#state !== 'applied') throw CoreErrors.error('INTERNAL.alreadyStarted');
    this.#state = 'starting';
    try {
      await this.kernel.openStores();
      await this.kernel.hooks.start.promise();
      this.#state = 'running';
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Runs one console line. */
  execute(line: string, out: ConsoleOutput) {
    return this.kernel.console.execute(line, out);
  }

  /**
   * Shuts down in phases; one stop failing is reported and the rest still
   * stop; the stores close once, last. Safe to call more than once.
   */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#state = 'stopping';
      for (const phase of STOP_PHASES) {
        const hook = this.kernel.hooks.stop.get(phase);
        if (hook) await hook.promise();
      }
      await this.kernel.closeStores();
      this.#state = 'stopped';
    })();
    return this.#stopping;
  }

  /** The plugin names, in the order they were set up. */
  get pluginOrder(): string[] {
    return this.plugins.map((p) => p.plugin.name);
  }
}
