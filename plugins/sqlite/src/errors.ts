/** Error codes of `@mira/sqlite`: the open rules every Mira SQLite store shares. */
export const SqliteErrorCodes = {
  /** The file exists but is not an SQLite database. */
  NOT_SQLITE: 'MIRA_ERR_STORE_NOT_SQLITE',
  /** A non-empty SQLite database without `PRAGMA user_version`: not ours, never recreated. */
  UNVERSIONED: 'MIRA_ERR_STORE_UNVERSIONED',
  /** A database of a schema version this build does not support. */
  UNSUPPORTED_VERSION: 'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
  /** An SQLite database of another application, or of another Mira store kind. */
  NOT_MIRA: 'MIRA_ERR_STORE_NOT_MIRA',
  /** The file or its directory is read-only: the store could not keep anything. */
  READ_ONLY: 'MIRA_ERR_STORE_READ_ONLY',
} as const;

/** Every error code of `@mira/sqlite` (it also raises core's `MIRA_ERR_STORE_OPEN_FAILED`). */
export type SqliteErrorCode = (typeof SqliteErrorCodes)[keyof typeof SqliteErrorCodes];
