import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { CoreErrors } from './errors.js';

/** The file name looked for when a profile is a directory. */
export const MANIFEST_FILE = 'profile.toml';

type Table = Record<string, unknown>;

/** A manifest with its layers merged: the values as written (variables unexpanded), and where each came from. */
export interface MergedManifest {
  /** The merged tables, `${VARIABLES}` not yet expanded. */
  readonly raw: Table;
  /** For each key path (`memory.database_path`), the file that set it. */
  readonly origins: ReadonlyMap<string, string>;
  /** Every file read, the top one last. */
  readonly files: readonly string[];
}

const isTable = (v: unknown): v is Table =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date);

const PACKAGE_NAME = /^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * The manifest file of a profile package: its `package.json` names it (`"mira": { "profile": "profile.toml" }`).
 * Looked up from `from` first, then from the Mira installation.
 */
export function resolveProfilePackage(name: string, from: string): string | undefined {
  if (!PACKAGE_NAME.test(name)) return undefined;
  for (const base of [join(from, 'noop.js'), import.meta.filename]) {
    let pkgJson: string;
    try {
      pkgJson = createRequire(base).resolve(`${name}/package.json`);
    } catch {
      continue;
    }
    const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { mira?: { profile?: unknown } };
    if (typeof pkg.mira?.profile !== 'string') {
      throw CoreErrors.error('MANIFEST_NOT_FOUND.notProfilePackage', { pkgJson, name });
    }
    return resolve(dirname(pkgJson), pkg.mira.profile);
  }
  return undefined;
}

/** A layer named in `extends` (a path relative to the naming file, or a package), as a manifest file. */
function locateLayer(spec: string, fromFile: string, chain: readonly string[]): string {
  const dir = dirname(fromFile);
  const where = () => [...chain, fromFile].join(' → ');
  if (spec.startsWith('.') || isAbsolute(spec)) {
    const target = resolve(dir, spec);
    try {
      return statSync(target).isDirectory() ? join(target, MANIFEST_FILE) : target;
    } catch {
      throw CoreErrors.error('MANIFEST_NOT_FOUND.extendsMissing', { where: where(), spec });
    }
  }
  const found = resolveProfilePackage(spec, dir);
  if (!found) {
    throw CoreErrors.error('MANIFEST_NOT_FOUND.extendsUnknown', { where: where(), spec });
  }
  return found;
}

function readToml(path: string, chain: readonly string[]): Table {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const via = chain.length > 0 ? ` (extended by ${chain.join(' → ')})` : '';
    throw CoreErrors.error(
      'MANIFEST_NOT_FOUND.unreadable',
      { path, reason: (error as Error).message, via },
      { cause: error },
    );
  }
  try {
    return parse(text) as Table;
  } catch (error) {
    if (error instanceof TomlError) {
      const where = { path, line: error.line, column: error.column };
      if (unterminatedString(text, error)) {
        throw CoreErrors.error('MANIFEST_SYNTAX.unterminatedString', where, { cause: error });
      }
      throw CoreErrors.error('MANIFEST_SYNTAX', { ...where, problem: error.message.split('\n')[0]! }, { cause: error });
    }
    throw error;
  }
}

/**
 * True when smol-toml's error is a string left open: it says "unfinished string" at the end of the file,
 * and "control characters are not allowed in strings" at the line break a one-line string runs into.
 */
function unterminatedString(text: string, error: TomlError): boolean {
  const problem = error.message.split('\n')[0]!;
  if (problem.endsWith('unfinished string')) return true;
  if (!problem.endsWith('control characters are not allowed in strings')) return false;
  const at = text.split('\n')[error.line - 1]?.[error.column - 1];
  return at === undefined || at === '\r';
}

/** Relative paths of a layer made absolute against its own file: `*_path` keys and plugin paths. */
function anchorPaths(table: Table, dir: string, inProfile: boolean): Table {
  const out: Table = {};
  for (const [key, value] of Object.entries(table)) {
    if (
      typeof value === 'string' &&
      value.trim() !== '' &&
      (key === 'path' || key.endsWith('_path')) &&
      !isAbsolute(value) &&
      !value.includes('${')
    ) {
      out[key] = resolve(dir, value);
    } else if (inProfile && key === 'plugins' && Array.isArray(value)) {
      out[key] = value.map((p) =>
        typeof p === 'string' && (p.startsWith('./') || p.startsWith('../')) ? resolve(dir, p) : p,
      );
    } else if (isTable(value)) {
      out[key] = anchorPaths(value, dir, false);
    } else out[key] = value;
  }
  return out;
}

/**
 * Merges `source` (from `file`) over `target`: tables key by key, everything else (arrays of tables
 * included) replaced; `[profile] plugins` merged in order without duplicates, `"!name"` removing one.
 */
function mergeInto(target: Table, source: Table, origins: Map<string, string>, file: string, path = ''): void {
  for (const [key, value] of Object.entries(source)) {
    const at = path ? `${path}.${key}` : key;
    if (at === 'profile.plugins' && Array.isArray(value)) {
      const list = Array.isArray(target[key]) ? [...(target[key] as unknown[])] : [];
      for (const entry of value) {
        if (typeof entry === 'string' && entry.startsWith('!')) {
          const i = list.indexOf(entry.slice(1));
          if (i >= 0) list.splice(i, 1);
        } else if (!list.includes(entry)) list.push(entry);
      }
      target[key] = list;
      origins.set(at, file);
    } else if (isTable(value) && isTable(target[key])) {
      mergeInto(target[key] as Table, value, origins, file, at);
    } else {
      target[key] = isTable(value) ? structuredClone(value) : value;
      for (const known of [...origins.keys()]) if (known.startsWith(`${at}.`)) origins.delete(known);
      origins.set(at, file);
      if (isTable(value)) recordLeaves(value, at, origins, file);
    }
  }
}

function recordLeaves(table: Table, path: string, origins: Map<string, string>, file: string): void {
  for (const [key, value] of Object.entries(table)) {
    const at = `${path}.${key}`;
    origins.set(at, file);
    if (isTable(value)) recordLeaves(value, at, origins, file);
  }
}

/** Reads a manifest and the layers it `extends`, merged (later layers over earlier, the file itself last). */
export function loadLayers(path: string, chain: readonly string[] = []): MergedManifest {
  if (chain.includes(path)) {
    throw CoreErrors.error('MANIFEST_INVALID.extendsCycle', { chain: [...chain, path].join(' → ') });
  }
  const own = readToml(path, chain);
  const profile = isTable(own.profile) ? own.profile : undefined;
  const layers = profile?.extends;
  if (layers !== undefined && (!Array.isArray(layers) || !layers.every((l) => typeof l === 'string' && l !== ''))) {
    throw CoreErrors.error('MANIFEST_INVALID.extendsNotList', { path });
  }
  const raw: Table = {};
  const origins = new Map<string, string>();
  const files: string[] = [];
  for (const layer of (layers as string[] | undefined) ?? []) {
    const below = loadLayers(locateLayer(layer, path, chain), [...chain, path]);
    for (const [key, file] of below.origins) origins.set(key, file);
    mergeInto(raw, structuredClone(below.raw), new Map(), '');
    for (const [key, file] of below.origins) origins.set(key, file);
    files.push(...below.files.filter((f) => !files.includes(f)));
  }
  const anchored = anchorPaths(own, dirname(path), false);
  if (isTable(anchored.profile)) {
    anchored.profile = anchorPaths(anchored.profile, dirname(path), true);
    delete (anchored.profile as Table).extends;
  }
  mergeInto(raw, anchored, origins, path);
  // A removal ("!name") never stays in the merged list.
  const merged = raw.profile;
  if (isTable(merged) && Array.isArray(merged.plugins))
    merged.plugins = (merged.plugins as unknown[]).filter((p) => !(typeof p === 'string' && p.startsWith('!')));
  files.push(path);
  return { raw, origins, files };
}

const VARIABLE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * `${NAME}` and `${NAME:-default}` in string values, from the environment (`$$` is a dollar sign).
 * An unset variable without a default is an error naming it and the file that used it.
 */
export function expandVariables(
  table: Table,
  env: NodeJS.ProcessEnv,
  origins: ReadonlyMap<string, string>,
  path = '',
): Table {
  const expand = (value: unknown, at: string): unknown => {
    if (typeof value === 'string') {
      return value.replace(VARIABLE, (match, name: string | undefined, fallback: string | undefined) => {
        if (match === '$$') return '$';
        const set = env[name!];
        if (set !== undefined && set !== '') return set;
        if (fallback !== undefined) return fallback;
        throw CoreErrors.error('MANIFEST_INVALID.unsetVariable', {
          origin: origins.get(at) ?? 'the manifest',
          at,
          name: name!,
        });
      });
    }
    if (Array.isArray(value)) return value.map((v, i) => expand(v, `${at}[${i}]`));
    if (isTable(value)) return expandVariables(value, env, origins, at);
    return value;
  };
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [k, expand(v, path ? `${path}.${k}` : k)]));
}

/** The merged manifest as TOML-like lines, each key with the file it came from; variables stay unexpanded. */
export function explainManifest(merged: MergedManifest): string[] {
  const lines: string[] = [];
  const origin = (at: string) => merged.origins.get(at) ?? merged.files.at(-1)!;
  const walk = (table: Table, path: string) => {
    const scalars = Object.entries(table).filter(([, v]) => !isTable(v));
    const tables = Object.entries(table).filter(([, v]) => isTable(v));
    if (path && scalars.length > 0) lines.push(`[${path}]`);
    for (const [key, value] of scalars) {
      const at = path ? `${path}.${key}` : key;
      lines.push(`${key} = ${JSON.stringify(value)}    # ${origin(at)}`);
    }
    for (const [key, value] of tables) walk(value as Table, path ? `${path}.${key}` : key);
  };
  walk(merged.raw, '');
  return lines;
}
