// ESLint for the whole repository (npm run lint; test/unit/lint.test.ts makes npm test fail on it). Prettier owns the layout.
// The syntax-only typescript-eslint preset: the type-checked ones are too slow on a small machine, and `npm run typecheck` runs tsc.
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default defineConfig(
  { ignores: ['**/node_modules/', 'dist/', 'admin/dist/', 'data/', 'coverage/', '.test-results/', 'test/e2e/screenshots/', 'scratch/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks what a signature or a rest-destructuring needs but the body does not (Express knows an error
      // handler by its four parameters; `{ secret: _, ...rest }` drops a field).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['admin/**/*.{ts,tsx}', 'test/admin/**/*.{ts,tsx}', 'test/e2e/**/*.ts', 'resources/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['admin/src/**/serviceWorker.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  prettier,
);
