import { VISIBLE, WITH_LABEL } from './visibility.js';

/** The statements of the store's own queries by name; each is prepared once per store, on first use. */
export const SQL = {
  // Not the staging scopes of imports under way (`~import-…`, see transfer.ts), which no viewer can name.
  scopes: "SELECT name FROM scopes WHERE name NOT LIKE '~%' ORDER BY name",
  // Newest by creation time (imported old notes keep their place), then by ID.
  recent: `SELECT n.* FROM notes n WHERE ${VISIBLE} ${WITH_LABEL} ORDER BY n.created_at DESC, n.id DESC LIMIT ?`,
  count: `SELECT count(*) FROM notes n WHERE ${VISIBLE}`,
  labels: `SELECT l.label AS label, count(*) AS count FROM note_labels l JOIN notes n ON n.id = l.note_id WHERE ${VISIBLE} GROUP BY l.label ORDER BY count DESC, l.label`,
} as const;

/** The statements that return only their first column. */
export const PLUCKED: ReadonlyArray<keyof typeof SQL> = ['scopes', 'count'];
