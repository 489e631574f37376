import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import tidewell from './eslint-rules/no-import-cycles.js';

export default tseslint.config(
  { ignores: ['node_modules', 'cdk.out', 'web/dist', '.local', 'test-results', 'playwright-report', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
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
    // esbuild cannot tree-shake zod's `z` namespace when it is imported by name: `import { z }`
    // puts every locale and all of zod into each Lambda bundle (~450 KB), the namespace import ~90 KB.
    files: ['{functions,shared,infra,scripts}/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > :matches(ImportSpecifier[imported.name='z'][importKind!='type'], ImportDefaultSpecifier)",
          message: "Use `import * as z from 'zod'`: it keeps the Lambda bundles within budget.",
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
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
