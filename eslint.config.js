// Lint for every package, test and benchmark (typescript-eslint, type-aware rules off for speed).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'bench/cache/**',
      'bench/results/**',
      'test-output/**',
      'tools/mutation/reports/**',
      'tools/mutation/.stryker-tmp/**',
      // ajv's standalone code (npm run validators), checked by comparing it with what ajv generates now.
      '**/*.generated.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The Mind view's page: ES modules the browser loads as they are. TypeScript checks them (checkJs, the DOM
    // library and no Node.js types: plugins/mind-view/assets/tsconfig.json), so an undefined name is already
    // a type error there; typescript-eslint advises no-undef off where the compiler checks.
    files: ['plugins/mind-view/assets/**/*.js'],
    languageOptions: { sourceType: 'module' },
    rules: { 'no-undef': 'off' },
  },
  {
    // Other packages use note memory through its contract (the NotesStore type): only the notes plugin opens the
    // SQLite implementation. The layering check holds the same line inside the plugin (.dependency-cruiser.cjs).
    files: ['core/src/**/*.ts', 'plugins/*/src/**/*.ts'],
    ignores: ['plugins/notes/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@mira/plugin-notes',
              importNames: ['SqliteNotesStore'],
              message: 'use the NotesStore contract; the notes plugin opens the store (NOTES_STORE)',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      // Prettier wraps code at 120 columns but never splits a string: a message stays greppable on one line.
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
);
