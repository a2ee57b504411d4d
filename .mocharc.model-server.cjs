// The real-server tier (npm run test:model-server): a real llama-server, built from the llama.cpp source
// that node-llama-cpp ships into a cache outside the clone (tools/llama-server/build.sh), with a model the
// repository generates. Run after `npm test` (the CLI runs the built core/bin/mira.js). One file at a time.
module.exports = {
  spec: ['test/model-server/**/*.tier.ts'],
  'node-option': ['import=tsx', 'conditions=mira-source'],
  extension: ['ts'],
  timeout: 30 * 60_000,
  parallel: false,
  'forbid-only': Boolean(process.env.CI),
  reporter: 'spec',
};
