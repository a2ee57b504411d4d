import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CoreErrors } from './errors.js';
import { MANIFEST_FILE, expandVariables, loadLayers, resolveProfilePackage, type MergedManifest } from './layers.js';
import { DEFAULT_WORKING_MEMORY_ENTRIES } from './working-memory.js';

export { MANIFEST_FILE } from './layers.js';

/** The tables core itself owns in a manifest. */
export const CORE_TABLES = Object.freeze(['profile', 'working_memory']);

/** How long a plugin's `start()` may take by default (a device or a server that never answers). */
export const DEFAULT_START_TIMEOUT_MS = 30_000;

/**
 * The keys of the tables the kernel reads itself ({@link CORE_TABLES}), as JSON schemas: the manifest
 * reader takes its allowed keys from here and the configuration reference (docs/reference/config.md) is
 * generated from it. The checks themselves are in {@link readManifest}.
 */
export const KERNEL_TABLES = {
  profile: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, description: "the robot's name: the runtime self the model speaks as" },
      description: { type: 'string', default: '', description: 'what the robot is, for the model' },
      plugins: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        default: [],
        description: 'the plugins, as package names or paths relative to the file (dependencies order them)',
      },
      start_timeout_ms: {
        type: 'integer',
        minimum: 100,
        maximum: 600_000,
        default: DEFAULT_START_TIMEOUT_MS,
        description: "how long each plugin's start() may take before start-up fails naming it",
      },
      extends: {
        type: 'array',
        items: { type: 'string', minLength: 1 },
        description: 'profile packages or paths this file layers over (later layers win, this file last)',
      },
    },
  },
  working_memory: {
    type: 'object',
    properties: {
      max_entries: {
        type: 'integer',
        minimum: 1,
        maximum: 10_000,
        default: DEFAULT_WORKING_MEMORY_ENTRIES,
        description:
          "how many entries (a turn is two) of the session's conversation the volatile working memory keeps; when full, all but the newest tenth go at once, so the prompt's prefix holds for many turns",
      },
    },
  },
} as const;

/** A parsed, checked profile manifest. */
export interface ProfileManifest {
  /** Absolute path of the manifest file. */
  readonly path: string;
  /** Absolute directory of the manifest. */
  readonly dir: string;
  readonly name: string;
  readonly description: string;
  /** Plugin specifiers as written: package names or paths relative to `dir`. */
  readonly plugins: readonly string[];
  readonly workingMemoryEntries: number;
  /** How long each plugin's `start()` may take (`[profile] start_timeout_ms`). */
  readonly startTimeoutMs: number;
  /** Every top-level table, by name (layers merged, variables expanded). */
  readonly tables: Readonly<Record<string, Record<string, unknown>>>;
  /** The layers as written, with each key's file (for `mira check --explain`). */
  readonly layers: MergedManifest;
}

/** Finds the manifest for a `--profile` argument: a `profile.toml` or a directory holding one. */
export function locateManifest(profileArg: string, cwd = process.cwd()): string {
  const target = resolve(cwd, profileArg);
  let stats;
  try {
    stats = statSync(target);
  } catch {
    const fromPackage = resolveProfilePackage(profileArg, cwd);
    if (fromPackage) return fromPackage;
    throw CoreErrors.error('MANIFEST_NOT_FOUND.profileArgument', { profileArg, manifestFile: MANIFEST_FILE });
  }
  const file = stats.isDirectory() ? join(target, MANIFEST_FILE) : target;
  try {
    if (statSync(file).isFile()) return file;
  } catch {
    // reported below
  }
  throw CoreErrors.error('MANIFEST_NOT_FOUND.noManifest', { file, manifestFile: MANIFEST_FILE });
}

/**
 * Reads and checks a manifest's own parts (`[profile]`, `[working_memory]`).
 * Plugin tables are checked later against each plugin's schema.
 */
export function readManifest(path: string, env: NodeJS.ProcessEnv = process.env): ProfileManifest {
  const merged = loadLayers(path);
  const data = expandVariables(merged.raw, env, merged.origins);
  const tables: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) {
      throw CoreErrors.error('MANIFEST_INVALID.topLevelKey', { path, key });
    }
    tables[key] = value as Record<string, unknown>;
  }
  const profile = tables.profile;
  if (!profile) throw CoreErrors.error('MANIFEST_INVALID.noProfile', { path });
  // (extends was read and removed by the layers.)
  const known = new Set(Object.keys(KERNEL_TABLES.profile.properties).filter((key) => key !== 'extends'));
  for (const key of Object.keys(profile!)) {
    if (!known.has(key))
      throw CoreErrors.error('MANIFEST_INVALID.profileKey', {
        path,
        key,
        allowed: Object.keys(KERNEL_TABLES.profile.properties).join(', '),
      });
  }
  const {
    name,
    description = '',
    plugins = [],
    start_timeout_ms: startTimeoutMs = DEFAULT_START_TIMEOUT_MS,
  } = profile as { name?: unknown; description?: unknown; plugins?: unknown; start_timeout_ms?: unknown };
  if (
    typeof startTimeoutMs !== 'number' ||
    !Number.isInteger(startTimeoutMs) ||
    startTimeoutMs < 100 ||
    startTimeoutMs > 600_000
  )
    throw CoreErrors.error('MANIFEST_INVALID.startTimeout', { path });
  if (typeof name !== 'string' || name.trim() === '') throw CoreErrors.error('MANIFEST_INVALID.name', { path });
  if (typeof description !== 'string') throw CoreErrors.error('MANIFEST_INVALID.description', { path });
  if (!Array.isArray(plugins) || !plugins.every((p) => typeof p === 'string' && p.trim() !== '')) {
    throw CoreErrors.error('MANIFEST_INVALID.plugins', { path });
  }
  let workingMemoryEntries = DEFAULT_WORKING_MEMORY_ENTRIES;
  const wm = tables.working_memory;
  if (wm) {
    for (const key of Object.keys(wm)) {
      if (key !== 'max_entries') throw CoreErrors.error('MANIFEST_INVALID.workingMemoryKey', { path, key });
    }
    const max = wm.max_entries;
    if (max !== undefined) {
      if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 10_000) {
        throw CoreErrors.error('MANIFEST_INVALID.maxEntries', { path });
      }
      workingMemoryEntries = max as number;
    }
  }
  return Object.freeze({
    path,
    dir: dirname(path),
    name: (name as string).trim(),
    description: description as string,
    plugins: Object.freeze([...(plugins as string[])]),
    workingMemoryEntries,
    startTimeoutMs: startTimeoutMs as number,
    tables: Object.freeze(tables),
    layers: merged,
  });
}
