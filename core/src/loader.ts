import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ErrorObject } from 'ajv';
import { checkSchema, compileSchema, precompiledFor } from './schemas.js';
import { CoreErrors } from './errors.js';
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
      throw CoreErrors.error('PLUGIN_NOT_FOUND.path', { path: manifest.path, specifier, file });
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
  throw CoreErrors.error('PLUGIN_NOT_FOUND.package', { path: manifest.path, specifier, dir: manifest.dir });
}

async function importPlugin(specifier: string, manifest: ProfileManifest): Promise<unknown> {
  const file = resolvePluginModule(specifier, manifest);
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw CoreErrors.error(
      `PLUGIN_LOAD_FAILED.${loadFailure(error, file)}`,
      { path: manifest.path, specifier, reason: (error as Error).message },
      { cause: error },
    );
  }
  return mod.default ?? mod.plugin;
}

/**
 * Which load failure a plugin met: the two a plugin outside this repository meets first have their own, and
 * a missing package (Node: "Cannot find package") is told apart from a missing file ("Cannot find module",
 * an unbuilt or misspelt relative import), which no npm install brings.
 */
function loadFailure(
  error: unknown,
  file: string,
): 'typeScript' | 'coreMissing' | 'importMissing' | 'fileMissing' | 'threw' {
  const { code, message = '' } = error as { code?: string; message?: string };
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[cm]?tsx?$/.test(file)) return 'typeScript';
  if (code === 'ERR_MODULE_NOT_FOUND') {
    if (/['"]@mira\/core['"]/.test(message)) return 'coreMissing';
    return /^Cannot find package /.test(message) ? 'importMissing' : 'fileMissing';
  }
  return 'threw';
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
      throw CoreErrors.error('PLUGIN_INVALID.notPlugin', { path: manifest.path, specifier, why });
    }
    const plugin = candidate as MiraPlugin<any>;
    const previous = byName.get(plugin.name);
    if (previous !== undefined) {
      throw CoreErrors.error('PLUGIN_DUPLICATE.listedTwice', {
        path: manifest.path,
        name: plugin.name,
        previous,
        specifier,
      });
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
 * JSON path. A section its plugin's precompiled validator accepts needs no
 * compiling (see {@link precompiledFor}).
 */
export function validateConfig(manifest: ProfileManifest, plugins: LoadedPlugin[]): void {
  const claimed = new Map<string, string>();
  for (const entry of plugins) {
    const { plugin } = entry;
    if (!plugin.configSection) continue;
    const section = plugin.configSection;
    if (CORE_TABLES.includes(section)) {
      throw CoreErrors.error('PLUGIN_INVALID.coreTable', { path: manifest.path, name: plugin.name, section });
    }
    const other = claimed.get(section);
    if (other)
      throw CoreErrors.error('PLUGIN_DUPLICATE.tableClaimed', {
        path: manifest.path,
        other,
        name: plugin.name,
        section,
      });
    claimed.set(section, plugin.name);
    entry.sectionPresent = Object.hasOwn(manifest.tables, section);
    const config = structuredClone(manifest.tables[section] ?? {});
    if (plugin.configSchema) {
      const invalidSchema = (error: unknown) =>
        CoreErrors.error(
          'PLUGIN_INVALID.configSchema',
          { name: plugin.name, reason: (error as Error).message },
          { cause: error },
        );
      // The plugin's precompiled validator, when it matches its schema, accepts the section without ajv
      // compiling anything; what it refuses, ajv compiles and judges afresh below, so the error is ajv's.
      const precompiled = precompiledFor(plugin.configSchema, plugin.configValidator);
      if (precompiled) {
        try {
          checkSchema(plugin.configSchema);
        } catch (error) {
          throw invalidSchema(error);
        }
        const attempt = structuredClone(config);
        if (precompiled(attempt)) {
          entry.config = attempt;
          continue;
        }
      }
      let validate;
      try {
        validate = compileSchema(plugin.configSchema, { useDefaults: true });
      } catch (error) {
        throw invalidSchema(error);
      }
      if (!validate(config)) {
        const first = validate.errors![0]!;
        throw CoreErrors.error('CONFIG_INVALID.schema', {
          path: manifest.path,
          name: plugin.name,
          section,
          problem: describeAjvError({ ...first, instancePath: `/${section}${first.instancePath}` }),
        });
      }
    }
    entry.config = config;
  }
  for (const table of Object.keys(manifest.tables)) {
    if (!CORE_TABLES.includes(table) && !claimed.has(table)) {
      throw CoreErrors.error('CONFIG_UNKNOWN_TABLE', { path: manifest.path, table });
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
        throw CoreErrors.error('PLUGIN_DEPENDENCY_MISSING', { path: manifest.path, name: plugin.name, dep });
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
      throw CoreErrors.error('PLUGIN_DEPENDENCY_CYCLE', { path: manifest.path, cycle });
    }
    ordered.push(next);
    placed.add(next.plugin.name);
    remaining = remaining.filter((p) => p !== next);
  }
  return ordered;
}
