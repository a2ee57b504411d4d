// Tests are TypeScript run through tsx, against the packages' TypeScript sources (the `mira-source`
// export condition): editing a package's src/ is tested at once. CLI tests run the built command
// (core/bin/mira.js imports dist/), which `npm test` builds first (tsc -b in typecheck).
// Files run in parallel, two at a time (this machine's two cores; MOCHA_JOBS overrides): each file is
// independent (its own temporary folders, ports, databases and PostgreSQL test database).
module.exports = {
  spec: ['core/test/**/*.test.ts', 'plugins/*/test/**/*.test.ts', 'test/**/*.test.ts'],
  'node-option': ['import=tsx', 'conditions=mira-source'],
  extension: ['ts'],
  timeout: 20000,
  parallel: true,
  jobs: Number(process.env.MOCHA_JOBS ?? 2),
  'forbid-only': Boolean(process.env.CI),
  reporter: 'spec',
};
