import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CoreErrors } from './errors.js';

/** The side files SQLite keeps beside a database. */
export const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'] as const;

/** Options of {@link writeFileSafely}. */
export interface SafeWriteOptions {
  /** Replace an existing file (never a protected one). */
  readonly force?: boolean;
  /** Files that must never be written over, whatever their name (compared by device and inode). */
  readonly protect?: readonly string[];
  /** The new file's mode (default 0600: owner only). */
  readonly mode?: number;
}

function identity(path: string): { dev: number; ino: number } | undefined {
  try {
    const { dev, ino } = statSync(path);
    return { dev, ino };
  } catch {
    return undefined;
  }
}

/**
 * Writes `data` to `path` the way a command that writes a file the operator names must: it refuses an
 * existing file unless `force` is given, never writes over a file in `protect` (by device and inode, so a
 * link, a symlink or another spelling of the path is caught too) even with `force`, and writes a
 * temporary file in the same directory, fsynced, then moved into place (linked when it must not replace
 * anything, so a file that appeared meanwhile is not replaced either), and the directory fsynced. On any
 * failure nothing is left behind and the target is as it was.
 * @throws MiraError MIRA_ERR_FILE_IS_STORE, MIRA_ERR_FILE_EXISTS or MIRA_ERR_FILE_WRITE_FAILED
 */
export function writeFileSafely(path: string, data: string | Uint8Array, options: SafeWriteOptions = {}): void {
  const target = identity(path);
  if (target) {
    for (const protectedPath of options.protect ?? []) {
      const other = identity(protectedPath);
      if (other && other.dev === target.dev && other.ino === target.ino) {
        throw CoreErrors.error('FILE_IS_STORE', { path, protectedPath });
      }
    }
    if (!options.force) {
      throw CoreErrors.error('FILE_EXISTS.exists', { path });
    }
    if (!statSync(path).isFile()) {
      throw CoreErrors.error('FILE_WRITE_FAILED.notRegular', { path });
    }
  }
  const dir = dirname(path);
  const temporary = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', options.mode ?? 0o600);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let written = 0; written < bytes.length;) written += writeSync(fd, bytes, written);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    if (options.force) renameSync(temporary, path);
    else {
      linkSync(temporary, path);
      unlinkSync(temporary);
    }
    syncDirectory(dir);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temporary);
    } catch {
      // not created, or already moved into place
    }
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'EEXIST' && !options.force) {
      throw CoreErrors.error('FILE_EXISTS.appeared', { path }, { cause: error });
    }
    throw CoreErrors.error('FILE_WRITE_FAILED.failed', { path, reason: e.message }, { cause: error });
  }
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems do not sync directories; the file itself is synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
