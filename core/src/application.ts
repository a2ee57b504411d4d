import { systemClock, type Clock } from './clock.js';
import type { ConsoleOutput } from './console/command.js';
import { CoreErrorCodes, MiraError, toMiraError } from './errors.js';
import { CORE_NAME, Kernel } from './kernel.js';
import { loadPlugins, orderPlugins, validateConfig, type LoadedPlugin } from './loader.js';
import { readManifest, type ProfileManifest } from './manifest.js';
import { registerCoreCommands } from './core-commands.js';
import { registerReadSensor } from './hardware/read-sensor.js';
import { STOP_PHASES, type Logger, type ProfileInfo } from './types.js';

/** How to build an application. */
export interface ApplicationOptions {
  /** Absolute path of the profile manifest. */
  readonly manifestPath: string;
  readonly clock?: Clock;
  readonly log?: Logger;
  /** Plugin objects for manifest specifiers, used instead of importing them (for tests). */
  readonly preloaded?: ReadonlyMap<string, unknown>;
}

/** A logger that writes `mira: …` lines to stderr. */
export const stderrLogger: Logger = Object.freeze({
  info: (m: string) => process.stderr.write(`mira: ${m}\n`),
  warn: (m: string) => process.stderr.write(`mira: warning: ${m}\n`),
  error: (m: string) => process.stderr.write(`mira: ${m}\n`),
});

/**
 * The composition boundary: reads the manifest, loads, validates, orders and
 * applies plugins, opens the stores it then owns, starts, and shuts down in
 * phases (cognition → attention → temporal → hardware → service), closing the
 * stores once at the very end.
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
   * Resolve → validate config → order → apply. Nothing is opened or written:
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
    const kernel = new Kernel({ clock: options.clock ?? systemClock, profile, log: options.log ?? stderrLogger }, manifest.workingMemoryEntries);
    const app = new Application(kernel, manifest, ordered);
    registerCoreCommands(kernel, app);
    for (const [index, { plugin, config }] of ordered.entries()) {
      try {
        await plugin.apply(kernel.forPlugin(plugin.name), config);
      } catch (error) {
        const failure = toMiraError(error, CoreErrorCodes.PLUGIN_APPLY_FAILED);
        throw new MiraError(failure.code, `${manifest.path}: plugin ${plugin.name}: ${failure.detail}`, { cause: error });
      }
      app.#tapLifecycle(plugin.name, index, plugin.start?.bind(plugin), plugin.stop?.bind(plugin), plugin.stopPhase ?? 'service');
    }
    registerReadSensor(kernel, CORE_NAME);
    if (kernel.cognition.configured) {
      kernel.console.setUtteranceHandler(async (utterance, out) => {
        await kernel.cognition.run({ origin: 'operator', utterance, out });
      });
    }
    return app;
  }

  #tapLifecycle(name: string, index: number, start: (() => unknown) | undefined, stop: (() => unknown) | undefined, phase: string): void {
    this.kernel.hooks.start.tapPromise(name, async () => {
      await start?.();
      this.#started.add(name);
    });
    if (stop) {
      // Later plugins stop first within a phase: they may depend on earlier ones.
      this.kernel.hooks.stop.for(phase).tapPromise({ name, stage: -index }, async () => {
        if (this.#started.has(name)) await stop();
      });
    }
  }

  /** Opens the stores, then runs every plugin's `start` in dependency order. On failure, stops what started. */
  async start(): Promise<void> {
    if (this.#state !== 'applied') throw new MiraError(CoreErrorCodes.INTERNAL, 'the application was already started');
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

  /** The plugin names, in the order they were applied. */
  get pluginOrder(): string[] {
    return this.plugins.map((p) => p.plugin.name);
  }
}
