// The layering of Mira, checked in `npm test` (npm run layering).
// - No import cycles anywhere.
// - Core imports no plugin, no shared library package, no database driver or ORM, and no MCP SDK.
// - Core imports nothing of the memory contract (@mira/memory-contract), and the contract imports no plugin.
// - A package imports other Mira packages only through their public entry points
//   (the package name, resolved to dist/index), and only those its package.json declares.
// - In the notes plugin, only the entry point opens the SQLite notes store: the tools, the commands and the
//   contract use the NotesStore contract (src/contract.ts), never the implementation (src/notes-store.ts,
//   src/store/). The Mind view, another package, may not name the implementation either (eslint.config.js).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make the load order matter and the code hard to split; pass narrow inputs instead.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-imports-no-plugin',
      severity: 'error',
      comment: 'Core is the kernel: plugins build on it, never the other way round.',
      from: { path: '^core/src' },
      to: { path: ['^plugins/', '^node_modules/@mira/'] },
    },
    {
      name: 'core-imports-no-memory-contract',
      severity: 'error',
      comment:
        "The kernel knows no memory: the MemoryStore contract, its errors, places, snapshots and objects are @mira/memory-contract's, which builds on core.",
      from: { path: '^core/src' },
      to: { path: ['^node_modules/@mira/memory-contract/', '^plugins/memory-contract/'] },
    },
    {
      name: 'memory-contract-imports-no-plugin',
      severity: 'error',
      comment:
        'The memory contract is a library the memory plugins share: it builds on core alone, never on a plugin or another library.',
      from: { path: '^plugins/memory-contract/src' },
      to: {
        path: ['^node_modules/@mira/', '^plugins/'],
        pathNot: ['^node_modules/@mira/core/', '^plugins/memory-contract/'],
      },
    },
    {
      name: 'notes-callers-use-the-contract',
      severity: 'error',
      comment:
        'The notes tools, commands and contract depend on the NotesStore contract (src/contract.ts), not on the SQLite implementation: only the entry point (src/index.ts) opens it.',
      from: {
        path: '^plugins/notes/src/',
        pathNot: '^plugins/notes/src/(index\\.ts|notes-store\\.ts|store/)',
      },
      to: { path: '^plugins/notes/src/(notes-store\\.ts|store/)' },
    },
    {
      name: 'notes-contract-imports-types-only',
      severity: 'error',
      comment:
        'The notes contract names what a store does, not how: it imports types only, and only of its own package (the embedder, the key guard, the export format), so it can move to a package of its own as it is.',
      from: { path: '^plugins/notes/src/contract\\.ts$' },
      to: {
        pathNot: '^plugins/notes/src/(embedder|key-guard|transfer-format)\\.ts$',
      },
    },
    {
      name: 'notes-contract-imports-no-values',
      severity: 'error',
      comment: 'The notes contract imports types only (import type): nothing of another module runs when it loads.',
      from: { path: '^plugins/notes/src/contract\\.ts$' },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'mind-view-routes-apart',
      severity: 'error',
      comment:
        "The Mind view's routes are grouped by what they serve (src/routes/): a route file uses the shared request, reply and router helpers, never another route file or the server, so each group reads alone.",
      from: { path: '^plugins/mind-view/src/routes/' },
      to: { path: '^plugins/mind-view/src/(routes/|server\\.ts$)' },
    },
    {
      name: 'mind-view-server-mounts-routes',
      severity: 'error',
      comment: "Only the server (src/server.ts) mounts the Mind view's route files; the shared helpers know no route.",
      from: { path: '^plugins/mind-view/src/', pathNot: '^plugins/mind-view/src/(server\\.ts|routes/)' },
      to: { path: '^plugins/mind-view/src/routes/' },
    },
    {
      name: 'postgres-dialect-apart',
      severity: 'error',
      comment:
        "The PostgreSQL store is split as the SQLite one is: the dialect (queries, reads, statements) knows nothing of the schema's open and upgrade, the import or the store that uses it.",
      from: { path: '^plugins/memory/src/postgres/(queries|reads|statements)\\.ts$' },
      to: { path: '^plugins/memory/src/postgres/(schema|import|postgres-memory-store|migrations/)' },
    },
    {
      name: 'postgres-open-and-import-apart',
      severity: 'error',
      comment:
        "The schema's open and upgrade (schema.ts) and memory copy (import.ts) write through typeorm and SQL of their own, never through the store's statements or the store.",
      from: { path: '^plugins/memory/src/postgres/(schema|import)\\.ts$' },
      to: { path: '^plugins/memory/src/postgres/(statements|postgres-memory-store)\\.ts$' },
    },
    {
      name: 'core-imports-no-store-driver',
      severity: 'error',
      comment:
        'Core holds no store and no store contract: a database driver or ORM belongs to the plugin that implements a store.',
      from: { path: '^core/src' },
      to: { path: '^node_modules/(better-sqlite3|pg|pg-[^/]+|typeorm|sqlite-vec|kysely)/' },
    },
    {
      name: 'core-imports-no-mcp-sdk',
      severity: 'error',
      comment:
        'Core is the kernel: the MCP server (mira mcp) and MCP clients are plugins (@mira/plugin-mcp-server, @mira/plugin-mcp-tools).',
      from: { path: '^core/src' },
      to: { path: '^node_modules/@modelcontextprotocol/' },
    },
    {
      name: 'only-public-entry-points',
      severity: 'error',
      comment:
        'Another Mira package is used through its package name (its dist/index), never through a deep path into it.',
      from: { path: '^(core|plugins/[^/]+)/src' },
      to: {
        path: ['^node_modules/@mira/', '^(core|plugins/[^/]+)/dist/'],
        pathNot: '^node_modules/@mira/[^/]+/dist/index\\.(js|d\\.ts)$',
      },
    },
    {
      name: 'no-reaching-into-other-packages',
      severity: 'error',
      comment: 'A relative import never leaves its own package.',
      from: { path: '^(core|plugins/[^/]+)/src' },
      to: { path: '^(core|plugins/[^/]+)/src', pathNot: '^$1/src' },
    },
    {
      name: 'only-declared-dependencies',
      severity: 'error',
      comment: 'Every package a package imports is in its package.json dependencies.',
      from: { path: '^(core|plugins/[^/]+)/src' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown', 'undetermined', 'unknown'] },
    },
    {
      name: 'no-dev-dependencies-in-src',
      severity: 'error',
      comment: 'Shipped code must not need a development dependency.',
      from: { path: '^(core|plugins/[^/]+)/src' },
      to: { dependencyTypes: ['npm-dev'] },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['/dist/.*\\.map$'] },
    tsPreCompilationDeps: true,
    // Workspace packages are seen as the installed packages they are (node_modules/@mira/…).
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
      extensions: ['.ts', '.d.ts', '.js'],
      mainFields: ['types', 'main'],
    },
    moduleSystems: ['es6'],
  },
};
