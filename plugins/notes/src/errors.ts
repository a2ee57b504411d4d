import { defineErrors } from '@mira/core';

/** The errors of note memory. */
export const NotesErrors = defineErrors('@mira/plugin-notes', {
  DISABLED: {
    code: 'MIRA_ERR_NOTES_DISABLED',
    message: 'notes are disabled in this profile',
    fix: 'set [notes] enabled = true and database_path in profile.toml',
    status: 404,
  },
  EMPTY: { code: 'MIRA_ERR_NOTES_EMPTY', message: 'the note is empty', fix: 'write some text' },
  LABEL_INVALID: {
    code: 'MIRA_ERR_NOTES_LABEL_INVALID',
    message: 'a label is malformed, too long, or there are too many',
    fix: 'use at most 8 labels of at most 40 characters, separated by commas',
  },
  NOT_FOUND: {
    code: 'MIRA_ERR_NOTES_NOT_FOUND',
    message: 'there is no such note in the scopes in view (or it needs its key)',
    fix: 'check the ID with notes recent; give --key for a keyed note',
    status: 404,
  },
  READ_ONLY_SCOPE: {
    code: 'MIRA_ERR_NOTES_READ_ONLY_SCOPE',
    message: 'the global scope is read-only here',
    fix: 'write global notes from the console with --scope global',
    status: 403,
  },
  SCOPE_INVALID: {
    code: 'MIRA_ERR_NOTES_SCOPE_INVALID',
    message: 'a scope name is malformed',
    fix: 'use lower-case letters, digits, _ and -, starting with a letter',
  },
  IMPORT_INVALID: {
    code: 'MIRA_ERR_NOTES_IMPORT_INVALID',
    message: 'the file is not a notes export; nothing was imported',
    fix: 'import a file written by notes export',
  },
  EMBEDDER_FAILED: {
    code: 'MIRA_ERR_NOTES_EMBEDDER_FAILED',
    message: 'the embedding server failed',
    fix: 'check [notes.embedding]; full-text search still works',
  },
  TOO_MANY: {
    code: 'MIRA_ERR_NOTES_TOO_MANY',
    message: 'the operation would touch more notes than its bound',
    fix: 'narrow it down (a scope, a label)',
  },
  KEY_INVALID: {
    code: 'MIRA_ERR_NOTES_KEY_INVALID',
    message: 'a private key must be 1 to 128 characters with no control, format or bidi characters',
    fix: 'choose another key',
  },
  KEY_MISMATCH: {
    code: 'MIRA_ERR_NOTES_KEY_MISMATCH',
    message: 'notes with different keys (or a keyed and an unkeyed note) cannot be combined',
    fix: 'delete one of the two instead',
    status: 409,
  },
  COMBINE_INVALID: {
    code: 'MIRA_ERR_NOTES_COMBINE_INVALID',
    message: 'a combine needs two different notes',
    fix: 'give the note to keep and another note to fold into it',
    status: 400,
  },
  BROWSE_INVALID: {
    code: 'MIRA_ERR_NOTES_BROWSE_INVALID',
    message:
      'a page of notes was asked for with an unknown sort, a cursor this store did not give, or an over-long filter',
    fix: 'sort by newest, oldest, longest, shortest or label; start again from the first page; filter by a few words',
    status: 400,
  },
  QUERY_TOO_LONG: {
    code: 'MIRA_ERR_NOTES_QUERY_TOO_LONG',
    message: 'a search query is at most 512 characters',
    fix: 'search for a few words',
  },
  BACKEND: {
    code: 'MIRA_ERR_NOTES_BACKEND',
    message: 'the notes database failed; the write was rolled back',
    fix: 'read the cause on stderr; try again',
  },
});

/** The codes of `@mira/plugin-notes` by key. */
export const NotesErrorCodes = NotesErrors.codes;
