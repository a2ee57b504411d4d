// Tests are TypeScript run through tsx; packages are imported from their built dist.
module.exports = {
  spec: ['core/test/**/*.test.ts', 'plugins/*/test/**/*.test.ts', 'test/**/*.test.ts'],
  'node-option': ['import=tsx'],
  extension: ['ts'],
  timeout: 20000,
  'forbid-only': Boolean(process.env.CI),
  reporter: 'spec',
};
