import { defineErrors } from '@mira/core';

/** The fleet store's own failures: reaching and configuring the PostgreSQL server. */
export const FleetErrors = defineErrors('@mira/plugin-memory', {
  URL_MISSING: {
    code: 'MIRA_ERR_MEMORY_URL_MISSING',
    message: 'the environment variable that holds the PostgreSQL connection string is not set',
    fix: 'export it before starting (e.g. MIRA_PG_URL=postgres://user:password@host/db); the manifest names the variable, never the password',
    template:
      '[memory] backend = "postgres" reads the connection string from ${env}, which is not set; export {env}=postgres://user:password@host:5432/database',
  },
  SERVER_UNREACHABLE: {
    code: 'MIRA_ERR_MEMORY_SERVER_UNREACHABLE',
    message: 'the PostgreSQL server cannot be reached',
    fix: 'start it (pg_ctlcluster <version> main start, or the container) and check host and port; the console keeps running and the next command tries again',
    template: '{where}: {reason}; nothing was written; the next command tries again',
  },
  SERVER_AUTH: {
    code: 'MIRA_ERR_MEMORY_SERVER_AUTH',
    message: 'the PostgreSQL server refused the user or password',
    fix: 'check the user and password in the connection string',
    template: '{where}: {reason}',
  },
  SERVER_DATABASE: {
    code: 'MIRA_ERR_MEMORY_SERVER_DATABASE',
    message: 'the database named in the connection string does not exist',
    fix: 'create it (createdb -O <user> <name>) or fix the name',
    template: '{where}: {reason}',
  },
  FOREIGN_DATABASE: {
    code: 'MIRA_ERR_MEMORY_FOREIGN_DATABASE',
    message:
      "the PostgreSQL database holds tables that are not Mira's memory schema (or no schema version); left unchanged",
    fix: 'give Mira a database of its own (createdb -O <user> mira_fleet) in the connection string',
    situations: {
      noMemoryYet: {
        message: '{db} holds no Mira memory yet; start a robot on it once, then serve it read-only',
        fix: "start a robot's console on the database once (it creates the schema), then serve it read-only",
      },
      unversionedTables: {
        message: "{db} holds tables ({tables}) but no Mira schema version: not Mira's database; left unchanged",
        fix: 'give Mira a database of its own (createdb -O <user> mira_fleet) in the connection string',
      },
      otherApplication: {
        message: '{db} belongs to another application ({application}); left unchanged',
        fix: "point the connection string at a database of Mira's own (createdb -O <user> mira_fleet)",
      },
    },
  },
  UNSUPPORTED_SCHEMA: {
    code: 'MIRA_ERR_MEMORY_UNSUPPORTED_SCHEMA',
    message: "the database holds Mira's memory schema at a version this build does not read; left unchanged",
    fix: 'run the Mira release that wrote it, or another database',
    situations: {
      version: {
        message: "{db} has Mira's memory schema version {found}; this build reads version {version}; left unchanged",
        fix: 'run the Mira release that wrote the database (or a later one), or point the connection string elsewhere',
      },
      notWhatItMade: {
        message:
          "{db} says Mira's memory schema version {found}, but its tables ({tables}) or migrations ({migrations}) are not what version {found} made; it is not upgraded and was left unchanged",
        fix: 'restore the database from a backup (pg_restore), or give Mira a new database',
      },
    },
  },
  SPACE_INVALID: {
    code: 'MIRA_ERR_MEMORY_SPACE_INVALID',
    message: 'a memory space name is malformed',
    fix: 'name the space with a-z, 0-9, _ . - (at most 64 characters) in [memory] space',
    template: 'memory space "{space}" is not a valid name (a-z, 0-9, _ . -; at most 64)',
  },
  SPACE_NOT_EMPTY: {
    code: 'MIRA_ERR_MEMORY_SPACE_NOT_EMPTY',
    message: 'the memory space to copy into already holds entities or memories',
    fix: 'copy into a new space ([memory] space) or an empty database',
    template: 'space {space} at {server}/{database} already holds {count} entities and memories; nothing was copied',
  },
});

/** The fleet store's codes by key. */
export const FleetErrorCodes = FleetErrors.codes;
