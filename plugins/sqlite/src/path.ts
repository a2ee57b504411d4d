import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PluginKernel } from '@mira/core';
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

/** Whether `dir` is a directory, is something else, or is missing (ENOTDIR: a file above it). */
function entryAt(path: string, dir: string): 'directory' | 'missing' {
  try {
    if (statSync(dir).isDirectory()) return 'directory';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw openFailed(path, (error as Error).message, error);
  }
  throw openFailed(path, `${dir} exists and is not a directory`);
}

/**
 * Creates the database file's directory (owner-only, 0700) before SQLite opens the file when it is the
 * only level missing, as the specification has the launch layer do. A deeper missing parent is refused
 * (`MIRA_ERR_STORE_PARENT_MISSING`, nothing created): a mistyped path (`dtaa/sub/memory.sqlite3`) must not
 * start the robot on a new, empty memory. A directory that cannot be created (a file in the way, `/proc`,
 * a read-only mount) fails at once with the reason.
 *
 * @param setting the setting that names the path, for the message (`[memory] database_path`)
 * @returns whether the directory was created now
 */
export function ensureParentDirectory(path: string, setting = 'database_path'): boolean {
  const dir = dirname(path);
  if (entryAt(path, dir) === 'directory') return false;
  const parent = dirname(dir);
  if (parent !== dir && entryAt(path, parent) === 'missing') {
    throw SqliteErrors.error('PARENT_MISSING', { dir, parent, setting });
  }
  try {
    // Owner-only: the directories Mira creates hold what the operator said.
    mkdirSync(dir, { mode: 0o700 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory()) return false;
    throw openFailed(path, (error as Error).message, error);
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
