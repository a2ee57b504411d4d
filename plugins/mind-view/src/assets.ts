import { readFileSync } from 'node:fs';

/** The page's ES modules: app.js, its entry, and what it imports (each served at `/<file>`). */
const PAGE_MODULES: readonly string[] = Object.freeze([
  'app.js',
  'api.js',
  'state.js',
  'dom.js',
  'notes.js',
  'transfer.js',
  'duplicates.js',
  'entities.js',
  'pending.js',
]);

const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  ...Object.fromEntries(PAGE_MODULES.map((file) => [`/${file}`, { file, type: 'text/javascript; charset=utf-8' }])),
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** A page file as it is served. */
export interface Asset {
  readonly body: string;
  readonly type: string;
}

/** The page's files by path, read once when the server starts (the page holds no data). */
export function loadAssets(): Readonly<Record<string, Asset>> {
  const assetsDir = new URL('../assets/', import.meta.url);
  return Object.fromEntries(
    Object.entries(ASSETS).map(([path, a]) => [
      path,
      { body: readFileSync(new URL(a.file, assetsDir), 'utf8'), type: a.type },
    ]),
  );
}
