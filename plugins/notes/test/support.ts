import type { NotesExport, Viewer } from '@mira/plugin-notes';

/** The operator's view of one scope: every note in it, keys ignored. */
export const operator = (scope = 'default'): Viewer => ({ scopes: [scope], key: null, operator: true });
/** A model call's view of one scope: unkeyed notes, and keyed ones with `key`. */
export const model = (scope = 'default', key: string | null = null): Viewer => ({
  scopes: [scope],
  key,
  operator: false,
});

/** `count` notes made by `make(i)`. */
export const many = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

/**
 * An export file for `importNotes`, which writes it in one transaction (hundreds of single saves would
 * each wait for a sync): a note is its text, or its text with labels and a key; the i-th note was
 * created i seconds into 2026.
 */
export function exportOf(
  scope: string,
  notes: ReadonlyArray<string | { content: string; labels?: string[]; key?: string | null }>,
): NotesExport {
  return {
    format: 'mira-notes',
    version: 1,
    scope,
    exported_at: '2026-04-01T08:00:00.000Z',
    notes: notes.map((note, i) => {
      const { content, labels = [], key = null } = typeof note === 'string' ? { content: note } : note;
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      return { content, labels, private_key: key, created_at: at, updated_at: at };
    }),
  };
}
