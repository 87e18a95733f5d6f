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

// The layers of lib/, bottom first (ARCHITECTURE.md): a folder's shipped files import only from
// folders in layers below their own; components/ and entrypoints/ sit on top of all of them.
const WEB_QUERY_MESSAGE = 'Only lib/core/flow.ts toWebQuery makes a WebQuery: what reaches web search is decided by the origins of the text (SECURITY.md).';
const WEB_QUERY_CASTS = ['TSAsExpression', 'TSTypeAssertion', 'TSSatisfiesExpression'].map((node) => ({ selector: `${node} > TSTypeReference[typeName.name='WebQuery']`, message: WEB_QUERY_MESSAGE }));
// An 'abort' listener added after the signal fired never runs (a call sent after a wait, by a run
// cancelled meanwhile): lib/core/abort.ts followAbort looks first.
const ABORT_LISTENER = { selector: "CallExpression[callee.property.name='addEventListener'][arguments.0.value='abort']", message: "Use followAbort (lib/core/abort.ts): an 'abort' listener added after the signal fired never runs." };
const LAYERS = [['core'], ['net', 'i18n'], ['settings'], ['llm'], ['retrieval'], ['store'], ['pipeline'], ['runs', 'export', 'page-marks'], ['browser']];
const UPWARD = "imports go one way only, from a layer to the layers below it (ARCHITECTURE.md)";
/** An import of one of `folders` of lib/, by alias (`@/lib/x`) or relative path (`../x`, `../../lib/x`). */
const libImport = (folders) => `^(?:[@~]/lib/|(?:\\.\\./)+(?:lib/)?)(?:${folders.join('|')})(?:/|$)`;
const layerRules = LAYERS.flatMap((layer, i) =>
  layer.map((folder) => {
    const above = LAYERS.slice(i).flat().filter((f) => f !== folder);
    return {
      files: [`lib/${folder}/**/*.{ts,tsx}`],
      ignores: ['**/*.test.{ts,tsx}'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              ...(above.length ? [{ regex: libImport(above), message: `lib/${folder} is below ${above.map((f) => `lib/${f}`).join(', ')}: ${UPWARD}.` }] : []),
              { regex: '^(?:[@~]/|(?:\\.\\./)+)(?:components|entrypoints)(?:/|$)', message: `lib/ is below components/ and entrypoints/: ${UPWARD}.` },
            ],
          },
        ],
      },
    };
  }),
);

// Shipped code: what a reader must hold in their head at once (ARCHITECTURE.md).
const SHIPPED = ['lib/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'entrypoints/**/*.{ts,tsx}'];
const FUNCTION_SIZE = {
  'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
  complexity: ['error', 20],
};

export default tseslint.config(
  { ignores: ['.output/**', '.wxt/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'public/**', 'bench/results/**'] },
  js.configs.recommended,
  // Type-aware: a floating promise, an unsafe `any`, a method passed without its object are
  // found from the types, not by reading.
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  { files: ['**/*.{js,mjs,cjs}'], ...tseslint.configs.disableTypeChecked },
  { files: SHIPPED, ignores: ['**/*.test.{ts,tsx}'], rules: FUNCTION_SIZE },
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
      // A web query is made only by lib/core/flow.ts toWebQuery, from network-safe text (SECURITY.md).
      'no-restricted-syntax': ['error', ...WEB_QUERY_CASTS],
    },
  },
  {
    files: ['lib/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...WEB_QUERY_CASTS, ABORT_LISTENER] },
  },
  {
    // The one place that makes a WebQuery.
    files: ['lib/core/flow.ts'],
    rules: { 'no-restricted-syntax': ['error', ABORT_LISTENER] },
  },
  {
    // The one place that listens for 'abort'.
    files: ['lib/core/abort.ts'],
    rules: { 'no-restricted-syntax': ['error', ...WEB_QUERY_CASTS] },
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
  ...layerRules,
  {
    // The panel and options components are below the entrypoints that mount them.
    files: ['components/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: '^(?:[@~]/|(?:\\.\\./)+)entrypoints(?:/|$)', message: `components/ is below entrypoints/: ${UPWARD}.` }] }] },
  },
);
