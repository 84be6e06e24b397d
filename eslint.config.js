// @ts-check
import js from '@eslint/js'
import { defineConfig, globalIgnores } from 'eslint/config'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import react from 'eslint-plugin-react'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'
import { importCirclesPlugin } from './scripts/import-circles.ts'

/**
 * Type-aware linting for the TypeScript sources (the same tsconfig as `tsc`), React and
 * accessibility rules for components. Rules that fight Remix idioms are off: loaders and
 * actions throw Responses, are `async` without awaiting, and JSX event handlers may be async.
 */
export default defineConfig(
  globalIgnores([
    'build/',
    '.data/',
    '.tools/',
    '.cache/',
    'node_modules/',
    'public/',
    'test-results/',
    'playwright-report/',
  ]),
  js.configs.recommended,
  {
    // Playwright fixtures take `async ({}, use) => …` when they need no other fixture.
    rules: { 'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }] },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Remix: `throw redirect(…)` / `throw new Response(…)`.
      '@typescript-eslint/only-throw-error': 'off',
      // Remix: `export async function loader()` that happens not to await.
      '@typescript-eslint/require-await': 'off',
      // React: `onSubmit={async () => …}`; promises passed as other callbacks are still checked.
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      // React's renderToPipeableStream hands errors over as `unknown`.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `interface AppLoadContext extends RequestContext {}` is how Remix context is augmented.
      '@typescript-eslint/no-empty-object-type': [
        'error',
        { allowInterfaces: 'with-single-extends' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },
  {
    files: ['**/*.tsx'],
    plugins: { react, 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
    settings: { react: { version: 'detect' } },
    rules: {
      ...react.configs.flat.recommended?.rules,
      ...react.configs.flat['jsx-runtime']?.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // The classic hook rules. The React Compiler rules of the plugin's v7 preset assume a
      // compiler this project does not use.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // Types replace prop-types.
      'react/prop-types': 'off',
      // `<ul role="list">` is not redundant for unstyled lists: Safari drops list semantics
      // (VoiceOver stops announcing "list, 5 items") once `list-style: none` is applied.
      'jsx-a11y/no-redundant-roles': ['error', { ul: ['list'] }],
    },
  },
  // The contract is shared by both sides; the web and the API never import each other
  // (docs/decisions/011-contract.md). Tests and the host (server.ts) wire the two together.
  {
    files: ['contract/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^#(app|api|tests)/', message: 'contract/ imports neither app/ nor api/.' },
            { regex: '^(\\.\\./)+(app|api|tests)/', message: 'contract/ imports neither app/ nor api/.' },
            { regex: '^node:', message: 'contract/ runs in the browser too: no Node modules.' },
            { regex: '^(react|react-dom|@remix-run/.*|kysely|pg|hono|@hono/.*)$', message: 'contract/ holds schemas and pure rules only.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'process', 'Buffer'].map((name) => ({
          name,
          message: 'contract/ runs on both sides: no DOM or Node globals.',
        })),
      ],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^#api/', message: 'app/ never imports api/: what both need lives in contract/.' },
            { regex: '^(\\.\\./)+api/', message: 'app/ never imports api/: what both need lives in contract/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['api/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^#app/', message: 'api/ never imports app/: what both need lives in contract/.' },
            { regex: '^(\\.\\./)+app/', message: 'api/ never imports app/: what both need lives in contract/.' },
          ],
        },
      ],
    },
  },
  // No import circles between files of api/, app/ and contract/, type-only imports included
  // (decision 067). The whole graph is read once per run; `node scripts/import-circles.ts`
  // prints every circle on its own.
  {
    files: ['{api,app,contract}/**/*.{ts,tsx}'],
    plugins: { circle55: importCirclesPlugin },
    rules: { 'circle55/no-import-circle': 'error' },
  },
  {
    // Tests read loosely typed JSON response bodies.
    files: ['**/*.test.{ts,tsx}', 'tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
)
