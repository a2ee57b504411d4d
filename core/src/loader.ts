import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ErrorObject } from 'ajv';
import { compileSchema } from './schemas.js';
import { CoreErrorCodes, MiraError } from './errors.js';
import { CORE_TABLES, type ProfileManifest } from './manifest.js';
import { explainInvalidPlugin, type MiraPlugin } from './plugin.js';

/** A plugin as found from the manifest. */
export interface LoadedPlugin {
  readonly plugin: MiraPlugin<any>;
  /** The specifier as written in the manifest. */
  readonly specifier: string;
  /** The validated config section (defaults applied); `{}` when the table is absent. */
  config: Record<string, unknown>;
  /** True when the manifest has the plugin's table. */
  sectionPresent: boolean;
}

const isPathSpecifier = (spec: string) => spec.startsWith('./') || spec.startsWith('../') || isAbsolute(spec);

/**
 * Resolves a specifier: a path relative to the manifest's directory, or a
 * package name found from the manifest's directory first, then from the Mira
 * installation (so a profile anywhere can name built-in plugins).
 */
export function resolvePluginModule(specifier: string, manifest: ProfileManifest): string {
  if (isPathSpecifier(specifier)) {
    const file = resolve(manifest.dir, specifier);
    if (!existsSync(file)) {
      throw new MiraError(
        CoreErrorCodes.PLUGIN_NOT_FOUND,
        `${manifest.path}: plugin "${specifier}" not found at ${file}; fix the path (it is relative to the manifest's directory)`,
      );
    }
    return file;
  }
  for (const base of [join(manifest.dir, 'profile.toml'), import.meta.filename]) {
    try {
      return createRequire(base).resolve(specifier);
    } catch {
      // try the next base
    }
  }
  throw new MiraError(
    CoreErrorCodes.PLUGIN_NOT_FOUND,
    `${manifest.path}: plugin package "${specifier}" not found from ${manifest.dir} nor from the Mira installation; install it (npm install ${specifier}) or fix the name`,
  );
}

async function importPlugin(specifier: string, manifest: ProfileManifest): Promise<unknown> {
  const file = resolvePluginModule(specifier, manifest);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new MiraError(
      CoreErrorCodes.PLUGIN_LOAD_FAILED,
      `${manifest.path}: plugin "${specifier}" failed to load: ${(error as Error).message}${loadHint(error, file)}`,
      { cause: error },
    );
  }
  return mod.default ?? mod.plugin;
}

/** What to do about the two load failures a plugin outside this repository meets first. */
function loadHint(error: unknown, file: string): string {
  const { code, message } = error as { code?: string; message?: string };
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[cm]?tsx?$/.test(file)) {
    return '; Mira runs JavaScript: build the plugin (tsc) and name the built .js file, or its package';
  }
  if (code === 'ERR_MODULE_NOT_FOUND' && /['"]@mira\/core['"]/.test(message ?? '')) {
    return "; the plugin imports @mira/core, which is not installed where it lives: run npm install <path to Mira>/core there (or install a packed tarball: npm pack in Mira's core, then npm install the .tgz)";
  }
  return '';
}

/**
 * Imports every plugin the manifest names, in manifest order. `preloaded`
 * supplies plugin objects for specifiers directly (the testing kit's seam).
 */
export async function loadPlugins(
  manifest: ProfileManifest,
  preloaded?: ReadonlyMap<string, unknown>,
): Promise<LoadedPlugin[]> {
  const loaded: LoadedPlugin[] = [];
  const byName = new Map<string, string>();
  for (const specifier of manifest.plugins) {
    const candidate = preloaded?.has(specifier) ? preloaded.get(specifier) : await importPlugin(specifier, manifest);
    const why = explainInvalidPlugin(candidate);
    if (why) {
      throw new MiraError(
        CoreErrorCodes.PLUGIN_INVALID,
        `${manifest.path}: plugin "${specifier}" is not a Mira plugin: ${why}; export default { name, version, setup(kernel, config) }`,
      );
    }
    const plugin = candidate as MiraPlugin<any>;
    const previous = byName.get(plugin.name);
    if (previous !== undefined) {
      throw new MiraError(
        CoreErrorCodes.PLUGIN_DUPLICATE,
        `${manifest.path}: plugin ${plugin.name} is listed twice ("${previous}" and "${specifier}"); remove one`,
      );
    }
    byName.set(plugin.name, specifier);
    loaded.push({ plugin, specifier, config: {}, sectionPresent: false });
  }
  return loaded;
}

function describeAjvError(error: ErrorObject): string {
  const where = error.instancePath || '';
  if (error.keyword === 'additionalProperties') {
    return `${where}/${(error.params as { additionalProperty: string }).additionalProperty}: unknown key; remove it or check its spelling`;
  }
  if (error.keyword === 'enum') {
    return `${where}: must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${where || '/'}: ${error.message ?? 'is invalid'}`;
}

/**
 * Validates each plugin's section with ajv (defaults applied) and refuses
 * tables no plugin claims. Errors name the manifest file, the plugin and the
 * JSON path.
 */
export function validateConfig(manifest: ProfileManifest, plugins: LoadedPlugin[]): void {
  const claimed = new Map<string, string>();
  for (const entry of plugins) {
    const { plugin } = entry;
    if (!plugin.configSection) continue;
    const section = plugin.configSection;
    if (CORE_TABLES.includes(section)) {
      throw new MiraError(
        CoreErrorCodes.PLUGIN_INVALID,
        `${manifest.path}: plugin ${plugin.name} claims the table [${section}], which belongs to Mira's core`,
      );
    }
    const other = claimed.get(section);
    if (other)
      throw new MiraError(
        CoreErrorCodes.PLUGIN_DUPLICATE,
        `${manifest.path}: plugins ${other} and ${plugin.name} both claim the table [${section}]`,
      );
    claimed.set(section, plugin.name);
    entry.sectionPresent = Object.hasOwn(manifest.tables, section);
    const config = structuredClone(manifest.tables[section] ?? {});
    if (plugin.configSchema) {
      let validate;
      try {
        validate = compileSchema(plugin.configSchema, { useDefaults: true });
      } catch (error) {
        throw new MiraError(
          CoreErrorCodes.PLUGIN_INVALID,
          `plugin ${plugin.name} has an invalid configSchema: ${(error as Error).message}`,
          { cause: error },
        );
      }
      if (!validate(config)) {
        const first = validate.errors![0]!;
        throw new MiraError(
          CoreErrorCodes.CONFIG_INVALID,
          `${manifest.path}: plugin ${plugin.name}: [${section}] ${describeAjvError({ ...first, instancePath: `/${section}${first.instancePath}` })}`,
        );
      }
    }
    entry.config = config;
  }
  for (const table of Object.keys(manifest.tables)) {
    if (!CORE_TABLES.includes(table) && !claimed.has(table)) {
      throw new MiraError(
        CoreErrorCodes.CONFIG_UNKNOWN_TABLE,
        `${manifest.path}: table [${table}] is not claimed by any plugin in this profile; add the plugin that uses it to [profile] plugins, or remove the table`,
      );
    }
  }
}

/**
 * Orders plugins so each comes after its dependencies; manifest order breaks
 * ties. A missing dependency or a cycle fails naming the plugin(s).
 */
export function orderPlugins(manifest: ProfileManifest, plugins: readonly LoadedPlugin[]): LoadedPlugin[] {
  const names = new Set(plugins.map((p) => p.plugin.name));
  for (const { plugin } of plugins) {
    for (const dep of plugin.dependencies ?? []) {
      if (!names.has(dep)) {
        throw new MiraError(
          CoreErrorCodes.PLUGIN_DEPENDENCY_MISSING,
          `${manifest.path}: plugin ${plugin.name} depends on ${dep}, which is not in [profile] plugins; add "${dep}" to the list`,
        );
      }
    }
  }
  const ordered: LoadedPlugin[] = [];
  const placed = new Set<string>();
  let remaining = [...plugins];
  while (remaining.length > 0) {
    const next = remaining.find((p) => (p.plugin.dependencies ?? []).every((d) => placed.has(d)));
    if (!next) {
      const cycle = remaining.map((p) => p.plugin.name).join(', ');
      throw new MiraError(
        CoreErrorCodes.PLUGIN_DEPENDENCY_CYCLE,
        `${manifest.path}: plugins ${cycle} depend on each other in a cycle; remove one of the dependencies`,
      );
    }
    ordered.push(next);
    placed.add(next.plugin.name);
    remaining = remaining.filter((p) => p !== next);
  }
  return ordered;
}
