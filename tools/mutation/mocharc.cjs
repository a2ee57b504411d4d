// The in-process suites that exercise the mutated files (a test that spawns a `mira` process runs the
// built dist, which no mutant reaches, so those suites are left to `npm test`). A safety worker thread
// loads the sources through tsx but runs no mutant (Stryker switches mutants per thread): the safety
// controller's mutants are killed by its in-process tests. fresh-caches.ts first: its root hook clears
// the text rules' memos before every test.
module.exports = {
  spec: [
    'tools/mutation/fresh-caches.ts',
    'core/test/normalize.test.ts',
    'plugins/memory-contract/test/*.test.ts',
    'plugins/memory-tools/test/*.test.ts',
    'plugins/memory/test/*.test.ts',
    'plugins/notes/test/*.test.ts',
    'test/remember.test.ts',
    'test/learning.test.ts',
    'test/assertion.test.ts',
    'test/attribution.test.ts',
    'test/language-rules.test.ts',
    'test/language-heldout.test.ts',
    'test/language-identifier.test.ts',
    'test/memory-store.sqlite.test.ts',
    'test/memory-store.postgres.test.ts',
    'test/notes.test.ts',
    'test/notes-store.sqlite.test.ts',
    'test/notes-vector-index.test.ts',
    'test/search-quality.test.ts',
    'test/fleet.test.ts',
    'test/memory-upgrade.test.ts',
    'test/safety-controller.test.ts',
    'test/rosbridge-faults.test.ts',
    'test/rosbridge-link.test.ts',
    'test/rosbridge-transport.test.ts',
    'test/rosbridge-supervision.test.ts',
    'test/transports.test.ts',
    'test/navigation.test.ts',
    'test/snapshots.test.ts',
    'test/objects.test.ts',
  ],
  extension: ['ts'],
  timeout: 20000,
};
