// Mutation testing of the files that carry Mira's promises about admission and identity.
// Run from the repository root: `npm run mutate` (or `npm run mutate -- --mutate <file>` for one file).
//
// Stryker 9.6.1 (10.x needs Node 22) with its mocha runner, which declares mocha < 12 as a peer:
// this package pins mocha 11.7.6 for the mutation run only; `npm test` keeps mocha 12.
// The tests load the packages' TypeScript sources (the `mira-source` export condition, through tsx),
// so every mutant Stryker writes into `src/` is what the tests exercise, never a stale `dist/`.
// `inPlace`: the workspace links in node_modules point at the real package directories, so a
// sandbox copy would not be what the tests load; Stryker restores every file when it ends.
export const TARGETS = [
  'plugins/memory-tools/src/remember.ts',
  'plugins/memory-tools/src/remember-reasons.ts',
  'plugins/memory-tools/src/remember-schema.ts',
  'plugins/memory-tools/src/proposal-fields.ts',
  'plugins/memory-tools/src/longer-names.ts',
  'plugins/memory-tools/src/direction-marks.ts',
  'plugins/memory-tools/src/span-match.ts',
  'plugins/memory-tools/src/word-boundaries.ts',
  'plugins/memory-tools/src/assertion.ts',
  'plugins/memory-tools/src/sentence-reading.ts',
  'plugins/memory-tools/src/remember-request.ts',
  'plugins/memory-tools/src/rule-form.ts',
  'plugins/memory-tools/src/name-blanking.ts',
  'plugins/memory-tools/src/attribution.ts',
  'plugins/memory-tools/src/clause-words.ts',
  'plugins/memory-tools/src/word-shapes.ts',
  'plugins/memory-tools/src/language-reading.ts',
  'plugins/memory-tools/src/language-identifier.ts',
  'core/src/text/normalize.ts',
  'plugins/memory/src/algorithm.ts',
  'plugins/memory/src/rules.ts',
  'plugins/memory/src/script.ts',
  'plugins/memory/src/rows.ts',
  'plugins/memory/src/sqlite-memory-store.ts',
  'plugins/memory/src/sqlite-statements.ts',
  'plugins/memory/src/sqlite-prepared.ts',
  'plugins/memory/src/object-files.ts',
  'plugins/memory-contract/src/objects.ts',
  'plugins/memory-contract/src/snapshots.ts',
  'plugins/memory-contract/src/places.ts',
  'plugins/notes/src/notes-store.ts',
  'plugins/notes/src/contract.ts',
  'plugins/notes/src/store/*.ts',
  // The PostgreSQL store as it was one file: the store, its dialect, the schema's open and upgrade, the import.
  'plugins/memory/src/postgres/postgres-memory-store.ts',
  'plugins/memory/src/postgres/failures.ts',
  'plugins/memory/src/postgres/pool.ts',
  'plugins/memory/src/postgres/queries.ts',
  'plugins/memory/src/postgres/reads.ts',
  'plugins/memory/src/postgres/statements.ts',
  'plugins/memory/src/postgres/schema.ts',
  'plugins/memory/src/postgres/import.ts',
  'plugins/robot/src/safety/controller.ts',
  'plugins/ros2/src/rosbridge-transport.ts',
];

export default {
  packageManager: 'npm',
  plugins: ['@stryker-mutator/mocha-runner', '@stryker-mutator/typescript-checker'],
  testRunner: 'mocha',
  checkers: ['typescript'],
  tsconfigFile: 'tools/mutation/tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  inPlace: true,
  // Nothing else is touched: tsx does not type-check, and the checker sees the mutants on its own.
  disableTypeChecks: false,
  mutate: TARGETS,
  mochaOptions: {
    config: 'tools/mutation/mocharc.cjs',
  },
  testRunnerNodeArgs: ['--import', 'tsx', '--conditions', 'mira-source'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'tools/mutation/reports/mutation.html' },
  jsonReporter: { fileName: process.env.MIRA_MUTATION_REPORT ?? 'tools/mutation/reports/mutation.json' },
  // The run fails (exit code 1) when the score of all the files together falls below 90 %.
  thresholds: { high: 90, low: 80, break: 90 },
  concurrency: 2,
  timeoutMS: 15000,
  tempDirName: 'tools/mutation/.stryker-tmp',
  cleanTempDir: 'always',
};
