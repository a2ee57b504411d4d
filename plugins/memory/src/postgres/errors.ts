import { defineErrors } from '@mira/core';

/** The fleet store's own failures: reaching and configuring the PostgreSQL server. */
export const FleetErrors = defineErrors('@mira/plugin-memory', {
  URL_MISSING: {
    code: 'MIRA_ERR_MEMORY_URL_MISSING',
    message: 'the environment variable that holds the PostgreSQL connection string is not set',
    fix: 'export it before starting (e.g. MIRA_PG_URL=postgres://user:password@host/db); the manifest names the variable, never the password',
  },
  SERVER_UNREACHABLE: {
    code: 'MIRA_ERR_MEMORY_SERVER_UNREACHABLE',
    message: 'the PostgreSQL server cannot be reached',
    fix: 'start it (pg_ctlcluster <version> main start, or the container) and check host and port; the console keeps running and the next command tries again',
  },
  SERVER_AUTH: {
    code: 'MIRA_ERR_MEMORY_SERVER_AUTH',
    message: 'the PostgreSQL server refused the user or password',
    fix: 'check the user and password in the connection string',
  },
  SERVER_DATABASE: {
    code: 'MIRA_ERR_MEMORY_SERVER_DATABASE',
    message: 'the database named in the connection string does not exist',
    fix: 'create it (createdb -O <user> <name>) or fix the name',
  },
  FOREIGN_DATABASE: {
    code: 'MIRA_ERR_MEMORY_FOREIGN_DATABASE',
    message:
      "the PostgreSQL database holds tables that are not Mira's memory schema (or no schema version); left unchanged",
    fix: 'give Mira a database of its own (createdb -O <user> mira_fleet) in the connection string',
  },
  UNSUPPORTED_SCHEMA: {
    code: 'MIRA_ERR_MEMORY_UNSUPPORTED_SCHEMA',
    message: "the database holds Mira's memory schema at a version this build does not read; left unchanged",
    fix: 'run the Mira release that wrote it, or another database',
  },
  SPACE_INVALID: {
    code: 'MIRA_ERR_MEMORY_SPACE_INVALID',
    message: 'a memory space name is malformed',
    fix: 'name the space with a-z, 0-9, _ . - (at most 64 characters) in [memory] space',
  },
  SPACE_NOT_EMPTY: {
    code: 'MIRA_ERR_MEMORY_SPACE_NOT_EMPTY',
    message: 'the memory space to copy into already holds entities or memories',
    fix: 'copy into a new space ([memory] space) or an empty database',
  },
});

/** The fleet store's codes by key. */
export const FleetErrorCodes = FleetErrors.codes;
