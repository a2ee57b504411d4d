import { performance } from 'node:perf_hooks';
import type { NotesExport } from './transfer-format.js';
import { SLICE_MS, yieldToLoop } from './transfer-slices.js';

/**
 * Export of a scope's notes in slices (see transfer.ts): pages of notes in ID order, a few pages a slice,
 * the event loop served between slices, however large the scope.
 */

/** The notes one page of an export reads. */
const ROWS_PER_PAGE = 256;
/** The most pages of an export one slice reads, whatever the clock says (a slice's work bounded by count too). */
const PAGES_PER_SLICE = 4;

/** What an export reads through. */
export interface ExportSource {
  /** Up to `limit` notes of `scope` after ID `after`, in ID order, as the export file holds them. */
  page(scope: string, after: number, limit: number): Array<{ id: number; note: NotesExport['notes'][number] }>;
  now(): string;
}

/**
 * A scope's export as JSON text, with its number of notes, read and written in slices: the same text as
 * `JSON.stringify(export, null, indent)` without holding the event loop for a large scope.
 */
export async function exportText(
  source: ExportSource,
  scope: string,
  indent: 0 | 2,
): Promise<{ text: string; count: number }> {
  const head = { format: 'mira-notes', version: 1, scope, exported_at: source.now() };
  // Each slice's notes joined in that slice: the last step joins a few hundred pieces, not every note.
  const chunks: string[] = [];
  let count = 0;
  const nl = indent === 0 ? '' : '\n';
  const pad = (depth: number) => ' '.repeat(indent * depth);
  let after = 0;
  for (;;) {
    const start = performance.now();
    let pages = 0;
    let rows: ReturnType<ExportSource['page']> = [];
    const parts: string[] = [];
    do {
      rows = source.page(scope, after, ROWS_PER_PAGE);
      for (const { id, note } of rows) {
        const text = JSON.stringify(note, null, indent || undefined);
        parts.push(`${nl}${pad(2)}${indent === 0 ? text : text.replaceAll('\n', `\n${pad(2)}`)}`);
        after = id;
      }
    } while (rows.length === ROWS_PER_PAGE && ++pages < PAGES_PER_SLICE && performance.now() - start < SLICE_MS);
    if (parts.length > 0) chunks.push(parts.join(','));
    count += parts.length;
    if (rows.length < ROWS_PER_PAGE) break;
    await yieldToLoop();
  }
  const headText = JSON.stringify(head, null, indent || undefined);
  const notes = count === 0 ? '[]' : `[${chunks.join(',')}${nl}${pad(1)}]`;
  // The head without its closing brace, then the notes as its last member.
  const text = `${headText.slice(0, -(nl.length + 1))},${nl}${pad(1)}"notes":${indent === 0 ? '' : ' '}${notes}${nl}}`;
  return { text, count };
}

/**
 * A scope's export as an object, read in slices that each hold the event loop briefly: the notes
 * {@link exportText} writes, for a caller that wants them rather than the file's text.
 */
export async function exportNotes(source: ExportSource, scope: string): Promise<NotesExport> {
  const exported = source.now();
  const notes: Array<NotesExport['notes'][number]> = [];
  let after = 0;
  for (;;) {
    const start = performance.now();
    let pages = 0;
    let rows: ReturnType<ExportSource['page']> = [];
    do {
      rows = source.page(scope, after, ROWS_PER_PAGE);
      for (const { id, note } of rows) {
        notes.push(note);
        after = id;
      }
    } while (rows.length === ROWS_PER_PAGE && ++pages < PAGES_PER_SLICE && performance.now() - start < SLICE_MS);
    if (rows.length < ROWS_PER_PAGE) break;
    await yieldToLoop();
  }
  return { format: 'mira-notes', version: 1, scope, exported_at: exported, notes };
}
