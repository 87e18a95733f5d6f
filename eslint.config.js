// The rules that keep the codebase's shape. `npm run lint` is part of `npm test`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import noSilentCatch from './tools/eslint/no-silent-catch.js';

const WHY = 'Browser APIs live in lib/browser/ (adapters) and entrypoints/ (wiring), so lib/ runs in Node.';
const BROWSER_GLOBALS = [
  { name: 'browser', message: WHY },
  { name: 'chrome', message: WHY },
];
const BROWSER_IMPORTS = [{ name: 'wxt/browser', message: WHY }];
const NO_TEST_IMPORTS = [{ group: ['**/test/**', '@/test/**', '~/test/**'], message: 'Shipped code does not import from test/.' }];

export default tseslint.config(
  { ignores: ['.output/**', '.wxt/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'public/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { ratify: { rules: { 'no-silent-catch': noSilentCatch } } },
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Small modules named after what they do.
      'max-lines': ['error', { max: 400 }],
      // An error that is dropped says why, in a comment.
      'no-empty': ['error', { allowEmptyCatch: false }],
      'ratify/no-silent-catch': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Types and globals are TypeScript's job.
      'no-undef': 'off',
    },
  },
  {
    // Shipped code outside the adapters: no browser APIs, nothing from test/.
    files: ['lib/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}'],
    ignores: ['lib/browser/**', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', ...BROWSER_GLOBALS],
      'no-restricted-imports': ['error', { paths: BROWSER_IMPORTS, patterns: NO_TEST_IMPORTS }],
    },
  },
  {
    // Unit tests beside the core may start the local fake servers, but use no browser APIs.
    files: ['lib/**/*.test.{ts,tsx}', 'components/**/*.test.{ts,tsx}'],
    ignores: ['lib/browser/**'],
    rules: {
      'no-restricted-globals': ['error', ...BROWSER_GLOBALS],
      'no-restricted-imports': ['error', { paths: BROWSER_IMPORTS }],
    },
  },
  {
    // Playwright's fixture API asks for a destructuring pattern even when nothing is used.
    files: ['test/e2e/**/*.ts', 'test/e2e-firefox/**/*.ts', 'test/screenshots/**/*.ts', 'bench/extension/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['lib/browser/**/*.{ts,tsx}', 'entrypoints/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: NO_TEST_IMPORTS }] },
  },
);
