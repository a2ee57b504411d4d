import { defineErrors } from '@mira/core';

/** The open rules every Mira SQLite store shares (it also raises core's `MIRA_ERR_STORE_OPEN_FAILED`). */
export const SqliteErrors = defineErrors('@mira/sqlite', {
  NOT_SQLITE: {
    code: 'MIRA_ERR_STORE_NOT_SQLITE',
    message: 'the file is not an SQLite database; it was left unchanged',
    fix: 'point the database_path setting at another file',
  },
  UNVERSIONED: {
    code: 'MIRA_ERR_STORE_UNVERSIONED',
    message: 'an SQLite database with tables but no schema version: not a Mira file; left unchanged',
    fix: 'point the database_path setting at a new file',
  },
  UNSUPPORTED_VERSION: {
    code: 'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
    message: 'a Mira database of a schema version this build does not support; left unchanged',
    fix: 'use the Mira release that wrote it, or another file',
  },
  NOT_MIRA: {
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    message: "another application's database, or the other Mira store's file; left unchanged",
    fix: 'point the database_path setting at a new file; memory and notes need a file each',
  },
  READ_ONLY: {
    code: 'MIRA_ERR_STORE_READ_ONLY',
    message: 'the database file or its directory is read-only',
    fix: 'fix the permissions, or point the database_path setting at a writable place',
  },
});

/** The codes of `@mira/sqlite` by key. */
export const SqliteErrorCodes = SqliteErrors.codes;
/** Every error code of `@mira/sqlite`. */
export type SqliteErrorCode = (typeof SqliteErrorCodes)[keyof typeof SqliteErrorCodes];
