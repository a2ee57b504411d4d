import { CoreErrorCodes, defineErrors } from '@mira/core';

/** The open rules every Mira SQLite store shares, and its wordings of core's STORE_OPEN_FAILED and CONFIG_INVALID. */
export const SqliteErrors = defineErrors('@mira/sqlite', {
  NOT_SQLITE: {
    code: 'MIRA_ERR_STORE_NOT_SQLITE',
    message: 'the file is not an SQLite database; it was left unchanged',
    fix: 'point the database_path setting at another file',
    template: '{path} is not an SQLite database{detail}; it was left unchanged. Point {setting} at another file',
  },
  UNVERSIONED: {
    code: 'MIRA_ERR_STORE_UNVERSIONED',
    message: 'an SQLite database with tables but no schema version: not a Mira file; left unchanged',
    fix: 'point the database_path setting at a new file',
    situations: {
      tablesWithoutVersion:
        '{path} is an SQLite database without a schema version (PRAGMA user_version = 0) that already holds tables ({tables}); it is not a {what} and was left unchanged. Point {setting} at a new file',
      changedWhileOpening: '{path} changed while it was being opened; start again',
    },
  },
  UNSUPPORTED_VERSION: {
    code: 'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
    message: 'a Mira database of a schema version this build does not support; left unchanged',
    fix: 'use the Mira release that wrote it, or another file',
    situations: {
      newer:
        '{path} has {what} schema version {userVersion}, but this Mira supports version {version}; it was left unchanged. Use the Mira release that wrote it, or another file',
    },
  },
  NOT_MIRA: {
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    message: "another application's database, or the other Mira store's file; left unchanged",
    fix: 'point the database_path setting at a new file; memory and notes need a file each',
    situations: {
      markedButDifferent:
        "{path} is marked as a {what} of schema version {userVersion}, but its tables and indexes ({found}) are not what Mira's version {userVersion} created, so it is not upgraded; it was left unchanged. Point {setting} at another file",
      otherStore:
        '{path} is a Mira {otherKind} database, not a {what}; it was left unchanged. Each store needs a file of its own: point {setting} at another file',
      otherApplication:
        '{path} is not a {what}: it belongs to another application (application_id {applicationId}); it was left unchanged. Point {setting} at a new file',
      foreignTables:
        '{path} is not a {what}: it has tables {tables}; user_version {userVersion}; application_id 0; it was left unchanged. Point {setting} at a new file',
      unreadableBuild: '{path} is not a {what} this build reads; left unchanged',
      markedWithoutTables:
        '{path} is marked as a {what} (application_id {applicationId}, schema version {userVersion}) but lacks its tables ({missing}); it was left unchanged. Point {setting} at another file',
    },
  },
  FOREIGN_SIDE_FILE: {
    code: 'MIRA_ERR_STORE_FOREIGN_SIDE_FILE',
    message:
      "a -wal or -journal beside the database cannot be proven the database's own; nothing was opened or changed",
    fix: 'move the side file beside the database it belongs to (or away), then start again',
    template:
      "{side} cannot be proven {path}'s own {what}: {why}. Opening would apply it to the database or delete it, so nothing was opened or changed. Move {side} beside the database it belongs to, or away, then start again",
  },
  READ_ONLY: {
    code: 'MIRA_ERR_STORE_READ_ONLY',
    message: 'the database file or its directory is read-only',
    fix: 'fix the permissions, or point the database_path setting at a writable place',
    situations: {
      permissions:
        '{path} cannot be written: {what} is read-only ({code}); a {store} must be writable. Fix the permissions or point {setting} at a writable place',
      notWritable: '{path} cannot be written ({reason}); a {what} must be writable',
    },
  },
  STORE_OPEN_FAILED: {
    code: CoreErrorCodes.STORE_OPEN_FAILED,
    borrowed: true,
    situations: {
      directory: 'cannot create the directory {dir}: {reason}',
      unreadableSqlite: '{path} cannot be read as an SQLite database ({reason}); it was left unchanged',
      notFile: '{path} is not a regular file; point {setting} at a file',
      stat: '{path}: {reason}',
      unreadable: '{path} cannot be read: {reason}',
      needsUpgrade:
        "{path} holds a {what} of schema version {from}, which needs its one-time upgrade to version {version}; open the profile's console once, then serve it read-only",
      noStoreYet: "{path} holds no {what} yet; open the profile's console once to create it, then serve it read-only",
      logNotApplied:
        "{path} has a write-ahead log its console left when it stopped without closing the {what}; start the profile's console once (it applies its log), then serve it read-only; nothing was changed",
      cannotOpenReadOnly: '{path} cannot be opened read-only: {reason}',
      cannotOpen: '{path} cannot be opened: {reason}',
      cannotPrepare: '{path} cannot be prepared: {reason}',
      brokenReferences:
        '{path}: the upgrade from version {from} would leave {count} broken references; nothing was changed and no backup was written. Repair the references with the Mira release that wrote the file, or point {setting} at another file',
    },
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: {
      databasePathMissing:
        '[{section}] /{section}/database_path: a non-empty path is required when enabled = true, e.g. database_path = "{example}"',
    },
  },
});

/** The codes of `@mira/sqlite` by key. */
export const SqliteErrorCodes = SqliteErrors.codes;
/** Every error code of `@mira/sqlite`. */
export type SqliteErrorCode = (typeof SqliteErrorCodes)[keyof typeof SqliteErrorCodes];
