import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv, ValidateFunction } from 'ajv';
import { checkKey, capNote, indexForm, parseLabels, SCOPE_NAME_PATTERN } from './text.js';

/**
 * The export file format and the checks an import makes of each note: plain functions with no database,
 * so the import's worker thread (transfer-worker.ts) runs them as the runtime's thread does.
 */

/** The export file format. */
export interface NotesExport {
  format: 'mira-notes';
  version: 1;
  scope: string;
  exported_at: string;
  notes: Array<{
    content: string;
    labels: string[];
    private_key: string | null;
    created_at: string;
    updated_at: string;
  }>;
}

/** One note of an export as the store writes it: checked, capped, its labels parsed, its index text made. */
export interface PreparedNote {
  readonly content: string;
  /** Whether the text was over the cap and trimmed. */
  readonly trimmed: boolean;
  readonly labels: readonly string[];
  readonly privateKey: string | null;
  readonly keyDigest: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** What the full-text index holds for the text (see {@link indexForm}). */
  readonly indexed: string;
}

/** An export whose notes were all checked and prepared (by {@link readExport} in transfer-read.ts). */
export interface PreparedExport {
  readonly prepared: true;
  readonly scope: string;
  readonly notes: readonly PreparedNote[];
}

/** The largest export file `notes import` (and the Mind view) reads. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

const EXPORT_SCHEMA = {
  type: 'object',
  properties: {
    format: { const: 'mira-notes' },
    version: { const: 1 },
    scope: { type: 'string', pattern: SCOPE_NAME_PATTERN },
    exported_at: { type: 'string' },
    notes: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          content: { type: 'string', minLength: 1, maxLength: 2000 },
          labels: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 40 }, maxItems: 8 },
          private_key: { type: ['string', 'null'], minLength: 1, maxLength: 128 },
          created_at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' },
          updated_at: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' },
        },
        required: ['content', 'labels', 'private_key', 'created_at', 'updated_at'],
        additionalProperties: false,
      },
    },
  },
  required: ['format', 'version', 'scope', 'notes'],
  additionalProperties: false,
} as const;
// Compiled on the first import, not at every start-up; ajv itself is loaded then too (~30 ms of every
// start-up, `mira mcp` included, when it was imported here).
const require = createRequire(import.meta.url);
let validateExport: ValidateFunction | undefined;

/** Checks a notes export against its JSON schema; returns why it is not one, or undefined. */
export function validateNotesExport(data: unknown): string | undefined {
  validateExport ??= new (require('ajv') as { Ajv: typeof Ajv }).Ajv({ allErrors: false }).compile(EXPORT_SCHEMA);
  if (!validateExport(data)) {
    const e = validateExport.errors![0]!;
    return `${e.instancePath || '/'} ${e.message}`;
  }
  // The pattern admits "2024-13-45T99:99:99Z": every time must be a real instant.
  const notes = (data as { notes: Array<{ created_at: string; updated_at: string }> }).notes;
  for (const [i, note] of notes.entries()) {
    for (const field of ['created_at', 'updated_at'] as const) {
      if (!isRealInstant(note[field])) return `/notes/${i}/${field} is not a real UTC instant: ${note[field]}`;
    }
  }
  return undefined;
}

/** True for an ISO-8601 UTC time that names a real instant (no 13th month, no 25th hour, no 30 February). */
function isRealInstant(text: string): boolean {
  const time = new Date(text);
  return !Number.isNaN(time.getTime()) && time.toISOString().slice(0, 19) === text.slice(0, 19);
}

/** The digest a note's key is found by. */
export const keyDigest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/**
 * Checks and prepares one note of an export.
 * @throws MiraError MIRA_ERR_NOTES_KEY_INVALID, MIRA_ERR_NOTES_EMPTY or MIRA_ERR_NOTES_LABEL_INVALID
 */
export function prepareNote(note: NotesExport['notes'][number]): PreparedNote {
  if (note.private_key !== null) checkKey(note.private_key);
  const { content, cut } = capNote(note.content);
  return {
    content,
    trimmed: cut !== '',
    labels: parseLabels(note.labels.join(',')),
    privateKey: note.private_key,
    keyDigest: note.private_key === null ? null : keyDigest(note.private_key),
    createdAt: note.created_at,
    updatedAt: note.updated_at,
    indexed: indexForm(content),
  };
}

/** The deepest nesting of `[` and `{` in JSON text, outside strings: one pass, before anything parses it. */
export function jsonNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}
