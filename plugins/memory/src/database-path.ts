import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MiraError, type PluginKernel } from '@mira/core';
import { SqliteStoreErrorCodes } from './errors.js';

/**
 * The absolute database path of an enabled `[<section>]` table: required and
 * non-empty, resolved against the manifest's directory.
 */
export function requireDatabasePath(kernel: PluginKernel, section: string, path: string | undefined, example: string): string {
  if (!path?.trim()) {
    throw new MiraError(
      'MIRA_ERR_CONFIG_INVALID',
      `[${section}] /${section}/database_path: a non-empty path is required when enabled = true, e.g. database_path = "${example}"`,
    );
  }
  return kernel.resolvePath(path);
}

/** Creates the database file's missing parent directory before SQLite opens the file. */
export function ensureParentDirectory(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    throw new MiraError(SqliteStoreErrorCodes.OPEN_FAILED, `cannot create the directory ${dirname(path)}: ${(error as Error).message}`, { cause: error });
  }
}
