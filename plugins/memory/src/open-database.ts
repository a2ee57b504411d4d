import { closeSync, openSync, readSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MiraError } from '@mira/core';
import { SqliteStoreErrorCodes } from './errors.js';
import { SCHEMA_V1, SCHEMA_VERSION } from './schema-v1.js';

/** What a versioned database is and how to name its setting in messages. */
export interface VersionedSchema {
  readonly version: number;
  /** DDL run once, in the same transaction that sets `PRAGMA user_version`. */
  readonly ddl: string;
  /** The manifest key that names the file, e.g. `[memory] database_path`. */
  readonly setting: string;
  /** What the file holds, e.g. `Mira memory store`. */
  readonly what: string;
}

/** The persistent memory store's schema. */
export const MEMORY_SCHEMA: VersionedSchema = { version: SCHEMA_VERSION, ddl: SCHEMA_V1, setting: '[memory] database_path', what: 'Mira memory store' };

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** What is at a database path before we open it for writing. */
type Inspection = { state: 'new' } | { state: 'current' };

function readHeader(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const header = Buffer.alloc(16);
    const read = readSync(fd, header, 0, 16, 0);
    return header.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Decides, without writing a byte, whether a path may be opened: a missing
 * or empty file is new; an SQLite file of schema version 1 is current;
 * anything else is refused with a distinct code and left unchanged.
 */
export function inspectDatabase(path: string, schema: VersionedSchema = MEMORY_SCHEMA): Inspection {
  let size: number;
  try {
    const stats = statSync(path);
    if (!stats.isFile()) throw new MiraError(SqliteStoreErrorCodes.OPEN_FAILED, `${path} is not a regular file; point database_path at a file`);
    size = stats.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'new' };
    throw error instanceof MiraError ? error : new MiraError(SqliteStoreErrorCodes.OPEN_FAILED, `${path}: ${(error as Error).message}`, { cause: error });
  }
  if (size === 0) return { state: 'new' };
  if (size < 100 || !readHeader(path).equals(SQLITE_HEADER)) {
    throw new MiraError(SqliteStoreErrorCodes.NOT_SQLITE, `${path} is not an SQLite database; it was left unchanged. Point ${schema.setting} at another file`);
  }
  let version: number;
  let objects: number;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    version = db.pragma('user_version', { simple: true }) as number;
    objects = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
  } catch (error) {
    const code = (error as { code?: string }).code === 'SQLITE_NOTADB' || (error as { code?: string }).code === 'SQLITE_CORRUPT' ? SqliteStoreErrorCodes.NOT_SQLITE : SqliteStoreErrorCodes.OPEN_FAILED;
    throw new MiraError(code, `${path} cannot be read as an SQLite database (${(error as Error).message}); it was left unchanged`, { cause: error });
  } finally {
    db?.close();
  }
  if (version === schema.version) return { state: 'current' };
  if (version === 0 && objects === 0) return { state: 'new' };
  if (version === 0) {
    throw new MiraError(
      SqliteStoreErrorCodes.UNVERSIONED,
      `${path} is an SQLite database without a schema version (PRAGMA user_version = 0) that already holds tables; it is not a ${schema.what} and was left unchanged. Point ${schema.setting} at a new file`,
    );
  }
  throw new MiraError(
    SqliteStoreErrorCodes.UNSUPPORTED_VERSION,
    `${path} has ${schema.what} schema version ${version}, but this Mira supports version ${schema.version}; it was left unchanged. Use the Mira release that wrote it, or another file`,
  );
}

/**
 * Opens (creating when new) a schema-v1 database: WAL journal, synchronous
 * FULL, foreign keys on, and a busy timeout so a second process waits.
 */
export function openDatabase(path: string, busyTimeoutMs: number, schema: VersionedSchema = MEMORY_SCHEMA): Database.Database {
  const inspection = inspectDatabase(path, schema);
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: busyTimeoutMs });
  } catch (error) {
    throw new MiraError(SqliteStoreErrorCodes.OPEN_FAILED, `${path} cannot be opened: ${(error as Error).message}`, { cause: error });
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    if (inspection.state === 'new') {
      db.transaction(() => {
        // Another process may have created the schema since we looked.
        const version = db.pragma('user_version', { simple: true }) as number;
        if (version === schema.version) return;
        const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
        if (version !== 0 || objects !== 0) {
          throw new MiraError(SqliteStoreErrorCodes.UNVERSIONED, `${path} changed while it was being opened; start again`);
        }
        db.exec(schema.ddl);
        db.pragma(`user_version = ${schema.version}`);
      }).immediate();
    }
    return db;
  } catch (error) {
    db.close();
    if (error instanceof MiraError) throw error;
    throw new MiraError(SqliteStoreErrorCodes.OPEN_FAILED, `${path} cannot be prepared: ${(error as Error).message}`, { cause: error });
  }
}
