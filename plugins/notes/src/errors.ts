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
      controlCharacter: {
        message: 'the note contains a control character; remove it',
        fix: 'remove the control character (pasted text can carry them), then save again',
      },
      empty: {
        message: 'the note is empty; write some text',
        fix: 'write some text for the note',
      },
    },
  },
  LABEL_INVALID: {
    code: 'MIRA_ERR_NOTES_LABEL_INVALID',
    message: 'a label is malformed, too long, or there are too many',
    fix: 'use at most 8 labels of at most 40 characters, separated by commas',
    situations: {
      labelTooLong: {
        message: 'labels are short words separated by commas (at most {max} characters each)',
        fix: 'shorten each label to at most 40 characters, separated by commas',
      },
      tooMany: {
        message: 'a note takes at most {max} labels',
        fix: 'keep at most 8 labels on a note',
      },
    },
  },
  NOT_FOUND: {
    code: 'MIRA_ERR_NOTES_NOT_FOUND',
    message: 'there is no such note in the scopes in view (or it needs its key)',
    fix: 'check the ID with notes recent; give --key for a keyed note',
    status: 404,
    situations: {
      notId: {
        message: '"{text}" is not a note id; write N<n> or <n>, e.g. N3',
        fix: 'write the note ID as notes recent shows it: N3 or 3',
      },
      inScope: {
        message: 'there is no note {id} in scope "{scope}" or global',
        fix: "check the ID with notes recent; a note of another scope is seen only from that scope's console",
      },
      noNote: {
        message: 'there is no note {id}',
        fix: 'check the ID with notes recent (a keyed note needs its --key)',
      },
      someNotes: {
        message: 'there is no note {ids} in the scopes in view; nothing was changed',
        fix: 'reload the list (they may have been deleted elsewhere) and select the notes again',
      },
    },
  },
  READ_ONLY_SCOPE: {
    code: 'MIRA_ERR_NOTES_READ_ONLY_SCOPE',
    message: 'the global scope is read-only here',
    fix: 'write global notes from the console with --scope global',
    status: 403,
    situations: {
      shared: {
        message: 'note {id} is in the shared "{scope}" scope, which is read-only from this scope',
        fix: 'change it from a session on that scope: "notes scope {scope}" in the console',
      },
      someShared: {
        message:
          'notes {ids} are in the shared "{scope}" scope, which is read-only from this scope; nothing was changed',
        fix: 'leave them out of the selection, or change them from the "{scope}" scope itself',
      },
      globalSession: {
        message: 'this session is on the shared "global" scope, which only the operator writes',
        fix: 'write global notes from the console with --scope global; this session only reads them',
      },
    },
  },
  SCOPE_INVALID: {
    code: 'MIRA_ERR_NOTES_SCOPE_INVALID',
    message: 'a scope name is malformed',
    fix: 'use lower-case letters, digits, _ and -, starting with a letter',
    situations: {
      unknown: {
        message: 'there is no scope "{scope}"',
        fix: 'name a scope notes status lists',
      },
      notName: {
        message:
          'scope "{scope}" is not a scope name (lower-case letters, digits, _ and -, starting with a letter); nothing was written',
        fix: 'name the scope in lower-case letters, digits, _ and -, starting with a letter',
      },
      unknownHint: {
        message: 'there is no scope "{scope}"; "notes status" lists them',
        fix: 'name one of the scopes notes status lists',
      },
      badName: {
        message: 'scope names are lower-case words (a-z, 0-9, - and _), not "{name}"',
        fix: 'name the scope in lower-case letters, digits, _ and -',
      },
    },
  },
  IMPORT_INVALID: {
    code: 'MIRA_ERR_NOTES_IMPORT_INVALID',
    message: 'the file is not a notes export; nothing was imported',
    fix: 'import a file written by notes export',
    situations: {
      uploadNotExport: {
        message: 'not a notes export: {invalid}; nothing was imported',
        fix: 'import a file written by notes export (or Export in the Mind view), unchanged',
      },
      unreadable: {
        message: '{path} cannot be imported: {reason}; nothing was imported',
        fix: 'check the path and that the file is readable',
      },
      tooLarge: {
        message: '{path} is {size} bytes, more than the {max} an export may be; nothing was imported',
        fix: 'split the export by scope (notes export --scope) and import each part',
      },
      notJson: {
        message: '{path} cannot be read as JSON ({reason}); nothing was imported',
        fix: 'import the file notes export wrote, unchanged; a file edited by hand must stay valid JSON',
      },
      notExport: {
        message: '{path} is not a notes export: {invalid}; nothing was imported',
        fix: 'import a file written by notes export; the message says which field is wrong',
      },
    },
  },
  EMBEDDER_FAILED: {
    code: 'MIRA_ERR_NOTES_EMBEDDER_FAILED',
    message: 'the embedding server failed',
    fix: 'check [notes.embedding]; full-text search still works',
    situations: {
      failed: {
        message: 'the embedder {destination} failed: {reason}',
        fix: 'check that the embedding server named runs and [notes.embedding] is right; full-text search still works',
      },
      dimensions: {
        message: 'the embedder returned {got} dimensions but the stored vectors have {stored}; run "notes reembed"',
        fix: 'run notes reembed after changing the embedding model',
      },
      notConfigured: {
        message: 'no embedder is configured; set [notes.embedding] provider first',
        fix: 'set [notes.embedding] provider (and model) in profile.toml first',
      },
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
  BULK_INVALID: {
    code: 'MIRA_ERR_NOTES_BULK_INVALID',
    message: 'a change to many notes names none, or more than one change takes',
    fix: 'select at least one note, and at most 1000 at a time',
    status: 400,
    situations: {
      empty: {
        message: 'no note is selected; nothing was changed',
        fix: 'select the notes to change first',
      },
      tooMany: {
        message: 'one change takes at most {max} notes; nothing was changed',
        fix: 'change them in parts of at most {max} notes',
      },
    },
  },
  BROWSE_INVALID: {
    code: 'MIRA_ERR_NOTES_BROWSE_INVALID',
    message:
      'a page of notes was asked for with an unknown sort, a cursor this store did not give, or an over-long filter',
    fix: 'sort by newest, oldest, longest, shortest or label; start again from the first page; filter by a few words',
    status: 400,
    situations: {
      sort: {
        message: 'sort is one of {sorts}, not "{sort}"',
        fix: 'sort by one of the sorts the message lists',
      },
      filterTooLong: {
        message: 'a filter is at most {max} characters; filter by a few words',
        fix: 'filter by a few words',
      },
      date: {
        message: '"{date}" is not a time; write one as 2026-05-01T00:00:00.000Z',
        fix: 'give since and until as ISO 8601 times in UTC (Date.prototype.toISOString writes them)',
      },
      cursor: {
        message: 'the page cursor is not one this store gave; start from the first page',
        fix: 'start again from the first page',
      },
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
    fix: 'read the cause on stderr (I/O error, disk full, lock timeout), fix it, then try again',
    template: 'the notes database failed: {reason}',
  },
  CONFIG_INVALID: {
    code: CoreErrorCodes.CONFIG_INVALID,
    borrowed: true,
    situations: {
      embeddingModel: {
        message:
          '[notes.embedding] /notes/embedding/model: required when provider = "openai", e.g. model = "text-embedding-3-small"',
        fix: 'add model = "<the embedding model>" to [notes.embedding]',
      },
    },
  },
  STORE_OPEN_FAILED: {
    code: CoreErrorCodes.STORE_OPEN_FAILED,
    borrowed: true,
    situations: {
      needsUpgrade: {
        message:
          "{path} was written by an earlier Mira and needs a one-time upgrade; open the profile's console once, then serve it read-only",
        fix: "run the profile's console once (mira --profile <dir>; quit): it upgrades the file, then serve it read-only",
      },
    },
  },
  CONSOLE_USAGE: {
    code: CoreErrorCodes.CONSOLE_USAGE,
    borrowed: true,
    situations: {
      recentCount: {
        message: 'usage: notes recent [N] with N from 1 to 1000',
        fix: 'give N as a whole number from 1 to 1000, or leave it out',
      },
    },
  },
});

/** The codes of `@mira/plugin-notes` by key. */
export const NotesErrorCodes = NotesErrors.codes;
