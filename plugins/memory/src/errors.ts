/** Error codes of `@mira/plugin-memory` (the SQLite store's open rules and configuration). */
export const SqliteStoreErrorCodes = {
  /** The file exists but is not an SQLite database. */
  NOT_SQLITE: 'MIRA_ERR_STORE_NOT_SQLITE',
  /** A non-empty SQLite database without `PRAGMA user_version`: not ours, never recreated. */
  UNVERSIONED: 'MIRA_ERR_STORE_UNVERSIONED',
  /** A database of a schema version this build does not support. */
  UNSUPPORTED_VERSION: 'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
  /** The file or its directory cannot be opened or created. */
  OPEN_FAILED: 'MIRA_ERR_STORE_OPEN_FAILED',
} as const;

/** Every error code of `@mira/plugin-memory`. */
export type SqliteStoreErrorCode = (typeof SqliteStoreErrorCodes)[keyof typeof SqliteStoreErrorCodes];
