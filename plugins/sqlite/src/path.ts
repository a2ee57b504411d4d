import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MiraError, type PluginKernel } from '@mira/core';
import { SqliteErrors } from './errors.js';

/**
 * The absolute database path of an enabled `[<section>]` table: required and
 * non-empty, resolved against the manifest's directory.
 */
export function requireDatabasePath(
  kernel: PluginKernel,
  section: string,
  path: string | undefined,
  example: string,
): string {
  if (!path?.trim()) {
    throw SqliteErrors.error('CONFIG_INVALID.databasePathMissing', { section, example });
  }
  return kernel.resolvePath(path);
}

const openFailed = (path: string, why: string, cause?: unknown) =>
  SqliteErrors.error('STORE_OPEN_FAILED.directory', { dir: dirname(path), reason: why }, { cause });

/**
 * Creates the database file's missing parent directories (owner-only, 0700) before SQLite opens
 * the file, one level at a time from the nearest existing ancestor, so a
 * parent that cannot be created (a file in the way, `/proc`, a read-only
 * mount) fails at once with the reason.
 */
export function ensureParentDirectory(path: string): void {
  const missing: string[] = [];
  let dir = dirname(path);
  for (;;) {
    try {
      if (!statSync(dir).isDirectory()) throw openFailed(path, `${dir} exists and is not a directory`);
      break;
    } catch (error) {
      if (error instanceof MiraError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTDIR: a file further up is in the way; walking up names it.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw openFailed(path, (error as Error).message, error);
      missing.unshift(dir);
      const parent = dirname(dir);
      if (parent === dir) throw openFailed(path, 'no part of the path exists');
      dir = parent;
    }
  }
  for (const level of missing) {
    try {
      // Owner-only: the directories Mira creates hold what the operator said.
      mkdirSync(level, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(level).isDirectory()) continue;
      throw openFailed(path, (error as Error).message, error);
    }
  }
}

/**
 * Warnings for a store file, or its `-wal`/`-shm`/`-journal`, that group or others can read: files from
 * before Mira made them owner-only keep their mode, and hold everything the operator said (and, for
 * notes, every private key).
 */
export function readableFileWarnings(path: string): string[] {
  const warnings: string[] = [];
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    let mode: number;
    try {
      mode = statSync(file).mode & 0o777;
    } catch {
      continue;
    }
    if ((mode & 0o044) === 0) continue;
    const who = [mode & 0o040 ? 'its group' : '', mode & 0o004 ? 'every local user' : ''].filter(Boolean).join(' and ');
    warnings.push(
      `warning: ${file} is readable by ${who} (mode ${mode.toString(8).padStart(4, '0')}); make it the owner's only: chmod 600 ${shellQuoted(file)}`,
    );
  }
  return warnings;
}

/** A path as a POSIX shell reads it back unchanged. */
function shellQuoted(path: string): string {
  return /^[\w./+-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}
