import { CoreErrorCodes, defineErrors } from '@mira/core';

/** The errors of note memory. */
export const NotesErrors = defineErrors('@mira/plugin-notes', {
  DISABLED: {
    code: 'MIRA_ERR_NOTES_DISABLED',
    message: 'notes are disabled in this profile',
    fix: 'set [notes] enabled = true and database_path in profile.toml',
    status: 404,
    template: 'notes are disabled in this profile; set [notes] enabled = true and database_path in profile.toml',
  },
  EMPTY: {
    code: 'MIRA_ERR_NOTES_EMPTY',
    message: 'the note is empty',
    fix: 'write some text',
    situations: {
      controlCharacter: 'the note contains a control character; remove it',
      empty: 'the note is empty; write some text',
    },
  },
  LABEL_INVALID: {
    code: 'MIRA_ERR_NOTES_LABEL_INVALID',
    message: 'a label is malformed, too long, or there are too many',
    fix: 'use at most 8 labels of at most 40 characters, separated by commas',
    situations: {
      labelTooLong: 'labels are short words separated by commas (at most {max} characters each)',
      tooMany: 'a note takes at most {max} labels',
    },
  },
  NOT_FOUND: {
    code: 'MIRA_ERR_NOTES_NOT_FOUND',
    message: 'there is no such note in the scopes in view (or it needs its key)',
    fix: 'check the ID with notes recent; give --key for a keyed note',
    status: 404,
    situations: {
      notId: '"{text}" is not a note id; write N<n> or <n>, e.g. N3',
      inScope: 'there is no note {id} in scope "{scope}" or global',
      noNote: 'there is no note {id}',
    },
  },
  READ_ONLY_SCOPE: {
    code: 'MIRA_ERR_NOTES_READ_ONLY_SCOPE',
    message: 'the global scope is read-only here',
    fix: 'write global notes from the console with --scope global',
    status: 403,
    situations: {
      shared: 'note {id} is in the shared "{scope}" scope, which only the operator can change',
      globalSession: 'this session is on the shared "global" scope, which only the operator writes',
    },
  },
  SCOPE_INVALID: {
    code: 'MIRA_ERR_NOTES_SCOPE_INVALID',
    message: 'a scope name is malformed',
    fix: 'use lower-case letters, digits, _ and -, starting with a letter',
    situations: {
      unknown: 'there is no scope "{scope}"',
      notName:
        'scope "{scope}" is not a scope name (lower-case letters, digits, _ and -, starting with a letter); nothing was written',
      unknownHint: 'there is no scope "{scope}"; "notes status" lists them',
      badName: 'scope names are lower-case words (a-z, 0-9, - and _), not "{name}"',
    },
  },
  IMPORT_INVALID: {
    code: 'MIRA_ERR_NOTES_IMPORT_INVALID',
    message: 'the file is not a notes export; nothing was imported',
    fix: 'import a file written by notes export',
    situations: {
      uploadNotExport: 'not a notes export: {invalid}; nothing was imported',
      unreadable: '{path} cannot be imported: {reason}; nothing was imported',
      tooLarge: '{path} is {size} bytes, more than the {max} an export may be; nothing was imported',
      notJson: '{path} cannot be read as JSON ({reason}); nothing was imported',
      notExport: '{path} is not a notes export: {invalid}; nothing was imported',
    },
  },
  EMBEDDER_FAILED: {
    code: 'MIRA_ERR_NOTES_EMBEDDER_FAILED',
    message: 'the embedding server failed',
    fix: 'check [notes.embedding]; full-text search still works',
    situations: {
      failed: 'the embedder {destination} failed: {reason}',
      dimensions: 'the embedder returned {got} dimensions but the stored vectors have {stored}; run "notes reembed"',
      notConfigured: 'no embedder is configured; set [notes.embedding] provider first',
    },
  },
  STOPPED: {
    code: 'MIRA_ERR_NOTES_STOPPED',
    message: 'the operation was stopped before it finished; nothing was changed',
    fix: 'start it again to finish it',
    template:
      'the duplicates scan was stopped after {done} of {total} steps; nothing was changed (Find duplicates again, or notes duplicates, to finish it)',
  },
  KEY_INVALID: {
    code: 'MIRA_ERR_NOTES_KEY_INVALID',
    message: 'a private key must be 1 to 128 characters with no control, format or bidi characters',
    fix: 'choose another key',
    template:
      'a private key must be 1 to {MAX_KEY_LENGTH} characters with no control, format or bidi characters; nothing was saved',
  },
  KEY_MISMATCH: {
    code: 'MIRA_ERR_NOTES_KEY_MISMATCH',
    message: 'notes with different keys (or a keyed and an unkeyed note) cannot be combined',
    fix: 'delete one of the two instead',
    status: 409,
    template:
      'notes {keep} and {drop} have different keys (or one has none), so they cannot be combined; delete one instead',
  },
  COMBINE_INVALID: {
    code: 'MIRA_ERR_NOTES_COMBINE_INVALID',
    message: 'a combine needs two different notes',
    fix: 'give the note to keep and another note to fold into it',
    status: 400,
    template: 'N{keep} cannot be combined with itself; give two different notes',
  },
  COMBINE_SCOPES: {
    code: 'MIRA_ERR_NOTES_COMBINE_SCOPES',
    message: 'notes of two different scopes cannot be combined',
    fix: 'combine notes of one scope; to drop the other, delete it in its own scope',
    status: 409,
    template:
      'N{keep} is in scope "{keepScope}" and N{drop} in "{dropScope}"; a combine deletes one, and a note of another scope (the shared "global" one above all) is not this one\'s to fold away; nothing was changed',
  },
  BROWSE_INVALID: {
    code: 'MIRA_ERR_NOTES_BROWSE_INVALID',
    message:
      'a page of notes was asked for with an unknown sort, a cursor this store did not give, or an over-long filter',
    fix: 'sort by newest, oldest, longest, shortest or label; start again from the first page; filter by a few words',
    status: 400,
    situations: {
      sort: 'sort is one of {sorts}, not "{sort}"',
      filterTooLong: 'a filter is at most {max} characters; filter by a few words',
      cursor: 'the page cursor is not one this store gave; start from the first page',
    },
  },
  QUERY_TOO_LONG: {
    code: 'MIRA_ERR_NOTES_QUERY_TOO_LONG',
    message: 'a search query is at most 512 characters',
    fix: 'search for a few words',
    template: 'a search query is at most {MAX_QUERY_LENGTH} characters; search for a few words',
  },
  BACKEND: {
    code: 'MIRA_ERR_NOTES_BACKEND',
    message: 'the notes database failed; the write was rolled back',
    fix: 'read the cause on stderr; try again',
    template: 'the notes database failed: {reason}',
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: {
      embeddingModel:
        '[notes.embedding] /notes/embedding/model: required when provider = "openai", e.g. model = "text-embedding-3-small"',
    },
  },
  STORE_OPEN_FAILED: {
    code: CoreErrorCodes.STORE_OPEN_FAILED,
    borrowed: true,
    situations: {
      needsUpgrade:
        "{path} was written by an earlier Mira and needs a one-time upgrade; open the profile's console once, then serve it read-only",
    },
  },
  CONSOLE_USAGE: {
    code: CoreErrorCodes.CONSOLE_USAGE,
    borrowed: true,
    situations: { recentCount: 'usage: notes recent [N] with N from 1 to 1000' },
  },
});

/** The codes of `@mira/plugin-notes` by key. */
export const NotesErrorCodes = NotesErrors.codes;
