import { timingSafeEqual } from 'node:crypto';
import { UNLABELED, type Viewer } from '../contract.js';
import { parseLabels } from '../text.js';
import { keyDigest } from '../transfer-format.js';
import type { NoteRow } from './rows.js';

/**
 * Who sees which note: the viewer's scopes, and a keyed note only for the operator or a call passing its key.
 * Keys are compared by their SHA-256 digest (the notes table keeps it beside the plaintext, which only the
 * operator's views show); a row is checked in constant time, a statement by the digest's index.
 */

/**
 * What a viewer may see, in SQL: parameters (scopes as a JSON array, 1 when keys are ignored (operator), the
 * key's digest). One fixed text, so the statements that use it are prepared once per store.
 */
export const VISIBLE =
  'n.scope IN (SELECT value FROM json_each(?)) AND (? OR n.key_digest IS NULL OR n.key_digest = ?)';
/** {@link VISIBLE} for one scope: parameters (scope, 1 when keys are ignored (operator), the key's digest). */
export const SCOPE_VISIBLE = 'n.scope = ? AND (? OR n.key_digest IS NULL OR n.key_digest = ?)';
/** An optional label: parameters (label, label), both null for any label. */
export const WITH_LABEL =
  'AND (? IS NULL OR EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id AND l.label = ?))';
/**
 * An optional label, `unlabeled` meaning notes without one (as the page's chips have it): parameters
 * (label, label, label), all null for any label.
 */
export const LABEL_OR_UNLABELED = `AND (CASE WHEN ? IS NULL THEN 1 WHEN ? = '${UNLABELED}'
  THEN NOT EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id)
  ELSE EXISTS (SELECT 1 FROM note_labels l WHERE l.note_id = n.id AND l.label = ?) END)`;

/** A viewer's key digest, computed once per viewer rather than once per note looked at. */
const viewerDigests = new WeakMap<Viewer, Buffer>();
function keyDigestOf(viewer: Viewer, key: string): Buffer {
  let found = viewerDigests.get(viewer);
  if (!found) viewerDigests.set(viewer, (found = Buffer.from(keyDigest(key), 'hex')));
  return found;
}

/** Whether the viewer may see the note a row holds. */
export function visibleTo(row: NoteRow, viewer: Viewer): boolean {
  if (!viewer.scopes.includes(row.scope)) return false;
  if (viewer.operator || row.key_digest === null) return true;
  if (viewer.key === null) return false;
  return timingSafeEqual(keyDigestOf(viewer, viewer.key), Buffer.from(row.key_digest, 'hex'));
}

/** The key half of {@link VISIBLE}'s parameters: whether keys are ignored (operator), the key's digest. */
export function keyParams(viewer: Viewer): unknown[] {
  return [viewer.operator ? 1 : 0, viewer.key === null ? null : keyDigest(viewer.key)];
}

/** The parameters of {@link VISIBLE}: the viewer's scopes, whether keys are ignored (operator), the key's digest. */
export function visibleParams(viewer: Viewer): unknown[] {
  return [JSON.stringify(viewer.scopes), ...keyParams(viewer)];
}

/** The label a filter asks for: the first of `label`'s labels; none (any label) for null or a blank one. */
export function labelFilter(label: string | null): string | null {
  return parseLabels(label)[0] ?? null;
}

/**
 * Why a write from `writableScope` may not touch a note: `missing` when the viewer does not see it, or it is a
 * keyed note of another scope (out of reach, it answers as a miss whatever the key: no oracle for the right
 * one); `shared` when it is in another scope the viewer sees (the global overlay, read-only there); undefined
 * when it may. Without `writableScope`, any note the viewer sees may be written. One rule for one note and
 * for many (see store/bulk.ts).
 */
export function writeRefusal(
  row: NoteRow | undefined,
  viewer: Viewer,
  writableScope: string | undefined,
): 'missing' | 'shared' | undefined {
  if (!row || !visibleTo(row, viewer)) return 'missing';
  if (writableScope === undefined || row.scope === writableScope) return undefined;
  return row.key_digest !== null && !viewer.operator ? 'missing' : 'shared';
}
