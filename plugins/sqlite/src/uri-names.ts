/**
 * SQLite's URI file names, which `mira mcp` needs to read a store in place with nothing beside it
 * (`?immutable=1`). better-sqlite3 is built with them off and turns them on when `SQLITE_USE_URI=1` is
 * in the environment as its native part loads (once per process, at the first connection); this module
 * is imported before any connection is made. Every store path Mira opens is absolute, so no path is
 * read as a URI by accident; an environment that sets `SQLITE_USE_URI=0` keeps them off, and `mira mcp`
 * then reads a store as an image in memory instead.
 */
process.env['SQLITE_USE_URI'] ??= '1';

/** The `file:` URI that opens `path` (absolute) read-only and immutable: no lock, no side file, no write. */
export function immutableUri(path: string): string {
  // encodeURI leaves `?` and `#` alone; SQLite reads them as the query and the fragment.
  return `file:${encodeURI(path).replace(/[?#]/g, (c) => encodeURIComponent(c))}?immutable=1`;
}
