import { defineErrors } from '@mira/core';

/** The errors of the Mind view: starting its server, then its HTTP API, each with the status it answers with. */
export const MindViewErrors = defineErrors('@mira/plugin-mind-view', {
  PORT_IN_USE: {
    code: 'MIRA_ERR_MIND_VIEW_PORT_IN_USE',
    message: "the Mind view's port is in use by another program (or another runtime's Mind view)",
    fix: 'set [mind_view] port in the profile to a free port, or 0 for any free port (the address is logged at start)',
    template:
      'port {port} on {host} is in use; set [mind_view] port in {path} to a free port (or 0 for any), or stop what listens there',
  },
  TOKEN: {
    code: 'MIRA_ERR_MIND_VIEW_TOKEN',
    message: 'the access token is missing or wrong; open the address printed on the console',
    fix: 'open the address the console printed (it ends with #token=…); scripts send Authorization: Bearer <token>',
    status: 401,
  },
  HOST: {
    code: 'MIRA_ERR_MIND_VIEW_HOST',
    message: 'this address is not the Mind view; open the address printed on the console',
    fix: 'use the host and port the console printed (a foreign Host header is refused against DNS rebinding)',
    status: 403,
  },
  CROSS_ORIGIN: {
    code: 'MIRA_ERR_MIND_VIEW_CROSS_ORIGIN',
    message: 'a page of another origin may not use the Mind view',
    fix: 'use the Mind view page itself; other pages, even on another local port, are refused',
    template: 'a page of another origin may not use the Mind view ({origin})',
    status: 403,
  },
  NOT_FOUND: {
    code: 'MIRA_ERR_MIND_VIEW_NOT_FOUND',
    message: 'no such API route',
    fix: 'see docs/operator.md ("Mind view") for the routes',
    template: 'no route {method} {path}',
    status: 404,
  },
  BAD_JSON: {
    code: 'MIRA_ERR_MIND_VIEW_BAD_JSON',
    message: 'the request body must be a JSON object',
    fix: 'send a JSON object with content-type application/json',
    situations: {
      notObject: 'the request body must be a JSON object',
      notExport: {
        message: 'the request body must be a JSON object',
        fix: 'import a file written by notes export (or Export in the Mind view), unchanged',
      },
      tooDeep: {
        message: 'the request body is nested {depth} levels deep, more than the {max} allowed',
        fix: 'send a flatter body; a notes export is never nested that deep',
      },
    },
    status: 400,
  },
  BAD_REQUEST: {
    code: 'MIRA_ERR_MIND_VIEW_BAD_REQUEST',
    message: 'a field of the request is missing or of the wrong type',
    fix: 'send the fields the message names, with their types',
    situations: {
      field: '{problem}; nothing was stored',
      wholeNumber: {
        message: '?{name}= must be a whole number from {min} to {max}',
        fix: 'give the parameter as digits within the range the message names',
      },
      noQuery: { message: 'give ?q= (the words to search for)', fix: 'add ?q=<words> to the address' },
    },
    status: 400,
  },
  TOO_LARGE: {
    code: 'MIRA_ERR_MIND_VIEW_TOO_LARGE',
    message: 'the request body is too large',
    fix: 'send at most 2 MB (an import at most 50 MB, as notes import on the console); split a larger export',
    situations: {
      body: {
        message: 'the request body is over {maxMb} MB',
        fix: 'send a shorter body; a note or memory is far smaller',
      },
      export: {
        message:
          'the export is over {maxMb} MB, the most an import reads (notes import on the console too); split it by scope or in parts',
        fix: 'export one scope at a time (notes export --scope), or split the file into parts, and import each',
      },
    },
    status: 413,
  },
});

/** The codes of `@mira/plugin-mind-view` by key. */
export const MindViewErrorCodes = MindViewErrors.codes;
