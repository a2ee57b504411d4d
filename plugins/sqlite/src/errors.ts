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
      changedWhileOpening: {
        message: '{path} changed while it was being opened; start again',
        fix: 'start again; if it recurs, find the other program writing the file and stop it',
      },
    },
  },
  UNSUPPORTED_VERSION: {
    code: 'MIRA_ERR_STORE_UNSUPPORTED_VERSION',
    message: 'a Mira database of a schema version this build does not support; left unchanged',
    fix: 'use the Mira release that wrote it, or another file',
    situations: {
      newer: {
        message:
          '{path} has {what} schema version {userVersion}, but this Mira supports version {version}; it was left unchanged. Use the Mira release that wrote it, or another file',
        fix: 'upgrade Mira to the release that wrote the file (or a later one), or point database_path at another file',
      },
    },
  },
  NOT_MIRA: {
    code: 'MIRA_ERR_STORE_NOT_MIRA',
    message: "another application's database, or the other Mira store's file; left unchanged",
    fix: 'point the database_path setting at a new file; memory and notes need a file each',
    situations: {
      markedButDifferent: {
        message:
          "{path} is marked as a {what} of schema version {userVersion}, but its tables and indexes ({found}) are not what Mira's version {userVersion} created, so it is not upgraded; it was left unchanged. Point {setting} at another file",
        fix: "point the setting the message names at another file; restore this one from a backup if it was Mira's",
      },
      otherStore: {
        message:
          '{path} is a Mira {otherKind} database, not a {what}; it was left unchanged. Each store needs a file of its own: point {setting} at another file',
        fix: 'give each store its own file: point the setting the message names at another path',
      },
      otherApplication: {
        message:
          '{path} is not a {what}: it belongs to another application (application_id {applicationId}); it was left unchanged. Point {setting} at a new file',
        fix: 'point the setting the message names at a new file; the other application keeps its own',
      },
      foreignTables: {
        message:
          '{path} is not a {what}: it has tables {tables}; user_version {userVersion}; application_id 0; it was left unchanged. Point {setting} at a new file',
        fix: "point the setting the message names at a new file; this one holds another program's tables",
      },
      unreadableBuild: {
        message: '{path} is not a {what} this build reads; left unchanged',
        fix: 'open it with the Mira release that wrote it, or point database_path at another file',
      },
      markedWithoutTables: {
        message:
          '{path} is marked as a {what} (application_id {applicationId}, schema version {userVersion}) but lacks its tables ({missing}); it was left unchanged. Point {setting} at another file',
        fix: 'restore the file from a backup, or point the setting the message names at another file',
      },
    },
  },
  FOREIGN_SIDE_FILE: {
    code: 'MIRA_ERR_STORE_FOREIGN_SIDE_FILE',
    message:
      "a -wal, -journal or -shm beside the database cannot be proven the database's own; nothing was opened or changed",
    fix: 'move the side file beside the database it belongs to (or away), then start again',
    template:
      "{side} cannot be proven {path}'s own {what}: {why}. Opening would apply it to the database or delete it, so nothing was opened or changed. Move {side} beside the database it belongs to, or away, then start again",
  },
  SYMLINK: {
    code: 'MIRA_ERR_STORE_SYMLINK',
    message:
      'a symbolic link where a store or its side file is expected, whose target is not an existing Mira store; nothing was created or changed',
    fix: 'point the database_path setting at the store file itself, or remove the link',
    situations: {
      dangling: {
        message:
          '{path} is a symbolic link to {target}, which does not exist: opening would create the store wherever the link points, so nothing was created. Point {setting} at the file itself, or remove the link',
        fix: 'remove the link, or point the setting the message names at a real file path',
      },
      notStore: {
        message:
          '{path} is a symbolic link to {target}, which is not a {what} ({why}); nothing was changed. Point {setting} at the file itself, or remove the link',
        fix: 'point the setting the message names at the store file itself; a link is followed only to an existing store',
      },
      sideFile: {
        message:
          '{side} is a symbolic link: the store writes its side files in place, so it would write through the link; nothing was changed. Remove {side}, then start again',
        fix: 'remove the side file link (SQLite creates its own), then start again',
      },
    },
  },
  PARENT_MISSING: {
    code: 'MIRA_ERR_STORE_PARENT_MISSING',
    message:
      "the database file's directory and the one above it do not exist; Mira creates at most the last directory, so a mistyped path never starts on an empty store",
    fix: 'create the directory yourself if the path is meant (mkdir -p), or fix the database_path setting',
    template:
      '{dir} does not exist, nor does {parent}: Mira creates at most the last directory of {setting}, so a mistyped path never starts on a new, empty store; nothing was created. Create {dir} yourself if the path is meant, or fix {setting}',
  },
  READ_ONLY: {
    code: 'MIRA_ERR_STORE_READ_ONLY',
    message: 'the database file or its directory is read-only',
    fix: 'fix the permissions, or point the database_path setting at a writable place',
    situations: {
      permissions: {
        message:
          '{path} cannot be written: {what} is read-only ({code}); a {store} must be writable. Fix the permissions or point {setting} at a writable place',
        fix: 'give the user running Mira write permission on the file and its directory (chmod/chown), or point the setting elsewhere',
      },
      notWritable: {
        message: '{path} cannot be written ({reason}); a {what} must be writable',
        fix: 'check that the file system is not mounted read-only and the directory is writable, or point database_path elsewhere',
      },
    },
  },
  STORE_OPEN_FAILED: {
    code: CoreErrorCodes.STORE_OPEN_FAILED,
    borrowed: true,
    situations: {
      directory: {
        message: 'cannot create the directory {dir}: {reason}',
        fix: 'create the directory yourself or make its parent writable, or point database_path elsewhere',
      },
      unreadableSqlite: {
        message: '{path} cannot be read as an SQLite database ({reason}); it was left unchanged',
        fix: 'check that the file is readable and not locked by another program; restore it from a backup if damaged',
      },
      notFile: {
        message: '{path} is not a regular file; point {setting} at a file',
        fix: 'point the setting the message names at a file path, not a directory or device',
      },
      stat: {
        message: '{path}: {reason}',
        fix: 'make the path reachable: check the permissions of each directory on it',
      },
      unreadable: {
        message: '{path} cannot be read: {reason}',
        fix: 'give the user running Mira read permission on the file, or point database_path elsewhere',
      },
      needsUpgrade: {
        message:
          "{path} holds a {what} of schema version {from}, which needs its one-time upgrade to version {version}; open the profile's console once, then serve it read-only",
        fix: "run the profile's console once (mira --profile <dir>; quit): it upgrades the file, then serve it read-only",
      },
      noStoreYet: {
        message: "{path} holds no {what} yet; open the profile's console once to create it, then serve it read-only",
        fix: "run the profile's console once (mira --profile <dir>; quit) to create it, then serve it read-only",
      },
      logNotApplied: {
        message:
          "{path} has a write-ahead log its console left when it stopped without closing the {what}; start the profile's console once (it applies its log), then serve it read-only; nothing was changed",
        fix: "run the profile's console once and quit it (it applies the log), then serve the file read-only",
      },
      imageTooLarge: {
        message:
          '{path} is over 2 GiB and this process reads it only as an image in memory, because its SQLite does not read URI names (SQLITE_USE_URI is {setting} in the environment); nothing was changed',
        fix: "unset SQLITE_USE_URI (or set it to 1) so the store is read in place, or start the profile's console and serve beside it",
      },
      cannotOpenReadOnly: {
        message: '{path} cannot be opened read-only: {reason}',
        fix: 'check that the file is readable and its directory searchable; restore it from a backup if damaged',
      },
      notOwnerOnly: {
        message:
          '{file} is readable by others (mode {mode}) and cannot be made owner-only: {reason}; nothing was opened',
        fix: 'run Mira as the owner of the store files, or chmod 600 them yourself',
      },
      cannotOpen: {
        message: '{path} cannot be opened: {reason}',
        fix: 'check that the file and its directory are readable and writable, and the disk is not full',
      },
      cannotPrepare: {
        message: '{path} cannot be prepared: {reason}',
        fix: 'check the disk space and that no other program holds the file; restore it from a backup if damaged',
      },
      brokenReferences: {
        message:
          '{path}: the upgrade from version {from} would leave {count} broken references; nothing was changed and no backup was written. Repair the references with the Mira release that wrote the file, or point {setting} at another file',
        fix: 'open the file with the Mira release that wrote it and repair the references, or point the setting at another file',
      },
    },
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: {
      databasePathMissing: {
        message:
          '[{section}] /{section}/database_path: a non-empty path is required when enabled = true, e.g. database_path = "{example}"',
        fix: 'set database_path in that table (relative to the manifest), or set enabled = false',
      },
    },
  },
});
/** The codes of `@mira/sqlite` by key. */
export const SqliteErrorCodes = SqliteErrors.codes;
/** Every error code of `@mira/sqlite`. */
export type SqliteErrorCode = (typeof SqliteErrorCodes)[keyof typeof SqliteErrorCodes];
