// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

/** Layering (ARCHITECTURE.md): shared <- engine, store <- jobs <- server <- main / cli. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['node_modules/**', 'scratch/**', 'dist/**', 'out/**', 'docs/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['electron/shared/**'],
    rules: restrict([
      {
        group: ['electron', 'node:*', 'fs', 'path', 'worker_threads'],
        message: 'electron/shared holds types and constants only: no Node, DOM or electron.',
      },
      {
        group: ['**/core/**', '**/main/**', '**/preload/**', '**/renderer/**'],
        message: 'electron/shared depends on nothing else in the app.',
      },
    ]),
  },
  {
    files: ['electron/core/**'],
    rules: restrict([
      { group: ['electron'], message: 'core runs under plain Node: never import electron.' },
      {
        group: ['**/main/**', '**/preload/**', '**/renderer/**'],
        message: 'core does not depend on the shell or the UI.',
      },
    ]),
  },
  {
    files: ['electron/core/engine/**'],
    rules: restrict([
      { group: ['electron'], message: 'core runs under plain Node.' },
      {
        group: ['**/store/**', '**/jobs/**', '**/server/**', 'node-sqlite3-wasm'],
        message: 'engine depends only on shared.',
      },
    ]),
  },
  {
    files: ['electron/core/store/**'],
    rules: restrict([
      { group: ['electron'], message: 'core runs under plain Node.' },
      {
        group: ['**/engine/**', '**/jobs/**', '**/server/**', '@echogarden/*', 'wasm-media-encoders'],
        message: 'store depends only on shared; only engine loads WASM.',
      },
    ]),
  },
  {
    files: ['electron/core/jobs/**'],
    rules: restrict([
      { group: ['electron'], message: 'core runs under plain Node.' },
      {
        group: ['**/server/**', 'node-sqlite3-wasm', '@echogarden/*'],
        message: 'jobs use the store and engine through their interfaces.',
      },
    ]),
  },
  {
    files: ['electron/core/server/**'],
    rules: restrict([
      { group: ['electron'], message: 'core runs under plain Node.' },
      {
        group: ['node-sqlite3-wasm', '@echogarden/*', 'wasm-media-encoders'],
        message: 'only store imports the SQLite driver; only engine loads WASM.',
      },
    ]),
  },
  { files: ['renderer/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  {
    files: ['renderer/**', 'electron/preload/**'],
    rules: restrict([
      { group: ['**/core/**', '**/main/**'], message: 'renderer and preload import only electron/shared.' },
    ]),
  },
);
