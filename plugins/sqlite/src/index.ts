/**
 * `@mira/sqlite`: the SQLite plumbing Mira's stores share — where a database
 * file may live, how a file is proven Mira's (or new) before anything is
 * written to it, and how it is opened — behind a narrow, locally declared
 * driver interface. Not a plugin: a library the store plugins depend on.
 *
 * @packageDocumentation
 */
export type { SqliteDatabase, SqliteRunResult, SqliteStatement, SqliteTransaction } from './driver.js';
export { SqliteErrorCodes, SqliteErrors, type SqliteErrorCode } from './errors.js';
export {
  MIRA_APPLICATION_IDS,
  inspectDatabase,
  openDatabase,
  openDatabaseReadOnly,
  type Inspection,
  type MiraStoreKind,
  type OpenHooks,
  type SchemaUpgrade,
  type StoreSchema,
  type UpgradeDone,
} from './open.js';
export { ensureParentDirectory, readableFileWarnings, requireDatabasePath } from './path.js';
