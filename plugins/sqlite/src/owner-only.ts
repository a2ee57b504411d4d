/**
 * The store's files are its owner's only: a symbolic link at the store's path is followed only to an
 * existing Mira store, a file Mira creates is created 0600, and a store file or side file that group or
 * others can read (a file from before Mira made them owner-only, or one made by hand) is tightened to
 * 0600 before SQLite opens it for writing, with one line saying so.
 */
import { chmodSync, closeSync, lstatSync, openSync, readlinkSync, realpathSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { MiraError } from '@mira/core';
import { SqliteErrors } from './errors.js';

/** The files of a store at `path`: the database and the side files SQLite keeps beside it. */
export const storeFiles = (path: string): string[] => [path, `${path}-wal`, `${path}-shm`, `${path}-journal`];

/** What a symbolic link at a store's path points to, as the message names it. */
function linkTarget(path: string): string {
  return resolve(dirname(path), readlinkSync(path));
}

/**
 * The file a store at `path` lives in: `path` itself, or the real path behind a symbolic link (SQLite
 * follows it and keeps its side files beside the target). A dangling link is refused, nothing created.
 */
export function storeFileBehind(path: string, setting: string): string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return path;
    throw SqliteErrors.error('STORE_OPEN_FAILED.stat', { path, reason: (error as Error).message }, { cause: error });
  }
  try {
    return realpathSync(path);
  } catch (error) {
    throw SqliteErrors.error('SYMLINK.dangling', { path, target: linkTarget(path), setting }, { cause: error });
  }
}

/**
 * Refuses a link whose target is not a store: `inspect` decides on the target (`new` is an empty file or
 * none); a refusal of the target is said as a refusal of the link, the target's own in `cause`.
 */
export function assertLinkToStore<T extends { state: string }>(
  path: string,
  file: string,
  what: string,
  setting: string,
  inspect: () => T,
): T {
  if (file === path) return inspect();
  const refuse = (why: string, cause?: unknown) =>
    SqliteErrors.error('SYMLINK.notStore', { path, target: file, what, why, setting }, { cause });
  let inspection: T;
  try {
    inspection = inspect();
  } catch (error) {
    if (!(error instanceof MiraError)) throw error;
    // The target's own refusal up to its first clause: what the target is, without its advice.
    throw refuse(`${error.code}: ${error.detail.split(/; |\. /)[0]}`, error);
  }
  if (inspection.state === 'new') throw refuse('an empty file, no store yet');
  return inspection;
}

/** Creates an empty file readable and writable by its owner only, unless one exists (another process's). */
export function createOwnerOnly(path: string): void {
  try {
    // O_EXCL fails on any link, dangling included: nothing is created through one.
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Makes the store's files that exist owner-only (0600) before SQLite opens them for writing, and says
 * which it changed in one line; SQLite gives a `-wal` or `-shm` it creates the database file's mode. A
 * side file that is a symbolic link is refused (chmod and SQLite's writes would go through it), and so is
 * a file whose mode cannot be changed (another user's).
 */
export function tightenStoreFiles(path: string, say: (line: string) => void): void {
  const changed: string[] = [];
  for (const file of storeFiles(path)) {
    let mode: number;
    try {
      const stats = lstatSync(file);
      if (stats.isSymbolicLink()) throw SqliteErrors.error('SYMLINK.sideFile', { side: file });
      if (!stats.isFile()) continue; // SQLite refuses it when it opens
      mode = stats.mode & 0o777;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if ((mode & 0o077) === 0) continue;
    const was = mode.toString(8).padStart(4, '0');
    try {
      chmodSync(file, 0o600);
    } catch (error) {
      throw SqliteErrors.error(
        'STORE_OPEN_FAILED.notOwnerOnly',
        { file, mode: was, reason: (error as Error).message },
        { cause: error },
      );
    }
    changed.push(`${file} (was ${was})`);
  }
  if (changed.length > 0) {
    say(`made owner-only (chmod 600) what group or others could read: ${changed.join(', ')}`);
  }
}
