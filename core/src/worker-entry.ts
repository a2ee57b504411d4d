import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A worker thread's module `name`, beside the module at `base` (its `import.meta.url`): the one way every
 * package starts its worker threads (the robot's safety path and frame shrinking, the notes' transfers). Built, it is
 * `<name>.js`. Run from the TypeScript sources (the `mira-source` condition, as the tests and the mutation run
 * do), the thread loads `<name>.ts` through tsx, registered in the thread first: the loader of the main thread
 * does not reach worker threads.
 */
export function workerEntry(base: string, name: string): URL {
  if (!base.endsWith('.ts')) return new URL(`./${name}.js`, base);
  const tsx = typeof import.meta.resolve === 'function' ? import.meta.resolve('tsx/esm/api') : tsxApiByRequire(base);
  const worker = new URL(`./${name}.ts`, base).href;
  const bootstrap = `const { register } = await import(${JSON.stringify(tsx)}); register(); await import(${JSON.stringify(worker)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/**
 * tsx's ESM API found without `import.meta.resolve`, which a module loaded as CommonJS (tsx loads the
 * sources so when mocha requires a test file) does not have: the package found by `require`, the ESM
 * entry read from its exports (its CommonJS build cannot run from the worker's bootstrap).
 */
function tsxApiByRequire(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const { exports } = JSON.parse(readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(join(dirname(manifest), exports['./esm/api']!.import.default)).href;
}
