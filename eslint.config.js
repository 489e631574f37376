import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importCycles from './eslint-rules/no-import-cycles.js';
import fixedSleep from './eslint-rules/no-fixed-sleep.js';
import groupBoundaries from './eslint-rules/group-boundaries.js';
import apiInComponents from './eslint-rules/no-api-in-components.js';

const tidewell = { rules: { ...importCycles.rules, ...fixedSleep.rules, ...groupBoundaries.rules, ...apiInComponents.rules } };

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'web/dist', '.local', 'test-results', 'playwright-report', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // With type information: a promise nobody awaits or catches loses its error (an unhandled
    // rejection in a Lambda or the local runtime, a silent failure in the web). A deliberate
    // fire-and-forget says so with `void`.
    files: ['functions/**/*.ts', 'web/src/**/*.{ts,tsx}', 'shared/**/*.ts', 'infra/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Feature folders import from shared/, the ui kit and lib/, never from each other. A relative
  // path that climbs exactly to web/src/features/ and descends again names another feature, so the
  // rule depends on how deep the importing file sits.
  ...[1, 2, 3].map((depth) => ({
    files: [`web/src/features/*/${'*/'.repeat(depth - 1)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: `^${'\\.\\./'.repeat(depth)}(?!\\.\\.)[^/]+/`, message: 'Features must not import from other features.' },
            { group: ['**/features/*/**'], message: 'Features must not import from other features.' },
          ],
        },
      ],
    },
  })),
  {
    // One door to zod: shared/zod.ts (zod/mini with English messages). zod's classic API puts all
    // of zod into every Lambda bundle (~98 KB minified against ~38 KB), and a schema module that
    // imported zod/mini itself would answer with zod/mini's bare "Invalid input" messages.
    files: ['**/*.{ts,tsx}'],
    ignores: ['shared/zod.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^zod(\\/mini|\\/v4|\\/v4\\/mini|\\/v4\\/classic)?$/]',
          message: "Import zod through shared/zod.ts (`import * as z from '<relative>/shared/zod.js'`).",
        },
      ],
    },
  },
  {
    // Plain Node scripts (TypeScript files get Node's globals from @types/node instead).
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { tidewell },
    rules: { 'tidewell/no-import-cycles': 'error' },
  },
  {
    // Lambda groups (functions/<group>/) import functions/lib/, data/, core/ and shared/, never
    // another group's folder (docs/architecture.md, "Layout"): what two groups need moves to
    // data/, core/ or lib/.
    files: ['functions/**/*.ts'],
    rules: { 'tidewell/group-boundaries': 'error' },
  },
  {
    // Table access belongs to the data layer (functions/data/<entity>/) and the client in
    // functions/lib/table/: a DynamoDB call anywhere else fails the lint.
    files: ['functions/**/*.ts'],
    ignores: ['functions/data/**', 'functions/lib/table/**', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@aws-sdk/lib-dynamodb', message: 'Table access lives in functions/data/<entity>/ (docs/architecture.md, "Layout").' }] },
      ],
    },
  },
  {
    // Components and other modules call the API through their feature's api/ module or web/src/lib/,
    // never the client itself (docs/architecture.md, "Web").
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'web/src/lib/**', 'web/src/**/api/**'],
    rules: { 'tidewell/no-api-in-components': 'error' },
  },
  {
    // Tests wait for events with test/support/eventually.ts, not for the clock (benches measure and may settle).
    files: ['test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}'],
    ignores: ['test/support/eventually.ts', 'test/bench/**'],
    rules: { 'tidewell/no-fixed-sleep': ['error', { maxMs: 1000 }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
