// @ts-check
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import formatjs from 'eslint-plugin-formatjs';

import layers from './eslint-rules/layers.js';
import messages from './eslint-rules/messages.js';

/** @type {{ max: number, skipBlankLines: boolean, skipComments: boolean, stillToSplit: string[] }} */
const functionLength = JSON.parse(
  readFileSync(join(import.meta.dirname, 'eslint-rules', 'function-length.json'), 'utf8'),
);

/** All layers of electron/core below the composition (studio-core) and the entries (cli). */
const core = [
  'core/platform',
  'core/engine',
  'core/store',
  'core/voices',
  'core/lexicon',
  'core/manuscripts',
  'core/jobs',
  'core/projects',
  'core/server',
];

/**
 * The layer map (ARCHITECTURE.md), enforced on resolved import paths by `layers/imports`
 * (eslint-rules/layers.js). A layer may import its own files and the layers in `allow`. A package
 * in some layer's `packages` may be imported only by the layers that list it. `builtins: false`
 * refuses Node builtins. Every file under electron/ and renderer/ must sit in a layer; test/,
 * bench/, typecheck/ and config files are not checked.
 *
 * A layer that others use names its `entries` (VS Code's code-no-deep-import-of-internal is the
 * model): its `index.ts`, the one list of what it offers, and a light entry or two where
 * the barrel would load heavy modules (the job runner, fastify, a schema package) into a command
 * that starts quickly; the comment at the layer says why. Through tsx (the tests' and `npm run
 * dev`'s CLI) a barrel loads every module it re-exports; the built CLI tree-shakes. Light commands
 * measured before and after the doors, medians of 5 on a busy machine: see the commit that
 * added them.
 */
const layerOptions = {
  root: import.meta.dirname,
  layers: {
    // saxes here too: SSML (shared/ssml-markup.ts) is read by the server, the engine and the studio.
    shared: { paths: ['electron/shared'], allow: [], builtins: false, packages: ['saxes'] },
    // No entry, deliberately: small independent tools (clock, log, paths, ports, the settings
    // file, the instance lock…) that every layer uses a few of; a barrel would load them all.
    // csv-parse here only (platform/csv-reader.ts): only core reads CSV, so its Node types and
    // code stay out of shared/ and the renderer.
    'core/platform': { paths: ['electron/core/platform'], allow: ['shared'], packages: ['csv-parse'] },
    // Other layers enter the engine through its front door only (engine/index.ts: the contract
    // and the few helpers they use; the heavy parts load on first call). One barrel rather than
    // a list of entry files: the barrel re-exports light modules only (measured on a busy machine,
    // medians: `cache stats` 0.43 → 0.47 s, `voices list` 1.80 → 1.94 s through it).
    'core/engine': {
      paths: ['electron/core/engine'],
      allow: ['shared', 'core/platform'],
      // espeak/early-worker too: `say` starts eSpeak's worker before it loads anything else.
      entries: ['electron/core/engine/index', 'electron/core/engine/espeak/early-worker'],
      packages: [
        '@echogarden/*',
        'wasm-media-encoders',
        'kuromoji',
        'onnxruntime-node',
        // The stream encoders (audio/stream-encoder.ts): Opus, the Ogg/ADTS/FLAC muxers, AAC and
        // FLAC codecs, and the resampler.
        '@evan/opus',
        'mediabunny',
        '@mediabunny/*',
        'speex-resampler',
      ],
    },
    'core/store': {
      paths: ['electron/core/store'],
      entries: ['electron/core/store/index'],
      allow: ['shared', 'core/platform'],
      packages: ['node-sqlite3-wasm', 'pg'],
    },
    // A light entry besides the barrel, for `say` and `export`: voices/layout (where the voices
    // folder is: with none, nothing is installed and the library is not even loaded). The barrel
    // itself stays light (the installer's undici, tar and yauzl load on first install only;
    // test/launch/cli-build.test.ts checks it).
    'core/voices': {
      paths: ['electron/core/voices'],
      entries: ['electron/core/voices/index', 'electron/core/voices/layout'],
      allow: ['shared', 'core/platform', 'core/engine', 'core/store'],
    },
    // The pronunciation lexicon of the data directory (lexicon.json): read and written here,
    // handed to the engine as data by jobs, server and the CLI. lexicon/layout too: where the file
    // is, so that a command that speaks looks for it without loading the store and its schema package.
    'core/lexicon': {
      paths: ['electron/core/lexicon'],
      entries: [
        'electron/core/lexicon/index',
        'electron/core/lexicon/layout',
        'electron/core/lexicon/lexicon-file-reader',
      ],
      allow: ['shared', 'core/platform'],
      // Reading lexicon files (lexicon/lexicon-file-reader.ts: JSON, CSV, and PLS's XML with the
      // parsers the manuscript readers use), an entry of its own so that a command loads them only
      // to import a file.
      packages: ['saxes', 'fast-xml-parser'],
    },
    // Manuscripts read from files (DOCX, EPUB, ODT, HTML, Markdown, text, PDF) into one shape.
    'core/manuscripts': {
      paths: ['electron/core/manuscripts'],
      entries: ['electron/core/manuscripts/index'],
      allow: ['shared', 'core/platform'],
      packages: ['saxes', 'fast-xml-parser', 'parse5', 'markdown-it', 'markdown-it-footnote', 'pdfjs-dist'],
    },
    // jobs/keys too: the API keys (create, find, credit, revoke), for `keys` and the studio's key
    // (server/sessions, used by `project`) without the barrel's job runner and engine (through
    // tsx: `keys list` 0.84 → 1.77 s with the barrel alone).
    'core/jobs': {
      paths: ['electron/core/jobs'],
      entries: ['electron/core/jobs/index', 'electron/core/jobs/keys'],
      allow: ['shared', 'core/platform', 'core/engine', 'core/store', 'core/voices', 'core/lexicon'],
    },
    // Book projects: made from manuscripts, edited with undo, rendered segment by segment
    // through the engine under a lease (as requests are), exported as a book.
    'core/projects': {
      paths: ['electron/core/projects'],
      entries: ['electron/core/projects/index'],
      allow: [
        'shared',
        'core/platform',
        'core/engine',
        'core/store',
        'core/voices',
        'core/lexicon',
        'core/manuscripts',
        'core/jobs',
      ],
    },
    // server/sessions too: the studio's key, for `project` without the barrel's app and fastify.
    'core/server': {
      paths: ['electron/core/server'],
      entries: ['electron/core/server/index', 'electron/core/server/sessions'],
      allow: [
        'shared',
        'core/platform',
        'core/engine',
        'core/store',
        'core/voices',
        'core/lexicon',
        'core/manuscripts',
        'core/jobs',
        'core/projects',
      ],
      packages: ['fastify', '@fastify/*'],
    },
    'core/studio-core': { paths: ['electron/core/studio-core'], allow: ['shared', ...core] },
    'core/cli': { paths: ['electron/core/cli'], allow: ['shared', ...core, 'core/studio-core'] },
    main: {
      paths: ['electron/main'],
      allow: ['shared', ...core, 'core/studio-core', 'core/cli'],
      packages: ['electron', 'electron-store'],
    },
    preload: { paths: ['electron/preload'], allow: ['shared'], packages: ['electron'] },
    launch: {
      paths: ['electron/launch'],
      allow: ['shared', ...core, 'core/studio-core', 'core/cli', 'main'],
    },
    renderer: { paths: ['renderer'], allow: ['shared'], builtins: false },
  },
};

export default tseslint.config(
  {
    // native/espeak-ng/espeak-ng.cjs: Emscripten's output (build.sh), committed as written.
    ignores: [
      'node_modules/**',
      'scratch/**',
      'dist/**',
      'out/**',
      'docs/**',
      'coverage/**',
      '.tsbuild/**',
      'native/**/*.cjs',
    ],
  },
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
  { files: ['renderer/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  // The interface speaks through its message catalogues (renderer/src/i18n): no words written in
  // JSX, nor in its labels, placeholders, titles and alt texts (eslint-rules/messages.js); every
  // message has an id and its English text as a literal (the catalogue test checks en.json and
  // vi.json against them).
  {
    files: ['renderer/src/**/*.tsx'],
    plugins: { formatjs, messages },
    rules: {
      'messages/no-words-in-jsx': [
        'error',
        {
          props: {
            include: [
              [
                '*',
                '{label,placeholder,title,alt,aria-{label,description,valuetext,roledescription,placeholder}}',
              ],
            ],
          },
        },
      ],
      'formatjs/enforce-default-message': ['error', 'literal'],
      'formatjs/enforce-placeholders': 'error',
    },
  },
  // No function over 150 lines in product code: a factory counts whole, so it splits by concern
  // into factories of its own; a view into components with their state in slices or hooks. The
  // files still holding one are listed in eslint-rules/function-length.json; the list only shrinks
  // (test/lint/function-length.test.ts fails when a listed file no longer needs its place).
  {
    files: ['electron/**/*.ts', 'renderer/src/**/*.{ts,tsx}'],
    ignores: functionLength.stillToSplit,
    rules: {
      'max-lines-per-function': [
        'error',
        {
          max: functionLength.max,
          skipBlankLines: functionLength.skipBlankLines,
          skipComments: functionLength.skipComments,
        },
      ],
    },
  },
  {
    files: ['electron/**', 'renderer/**'],
    ignores: ['renderer/vite.config.ts'],
    plugins: { layers },
    rules: { 'layers/imports': ['error', layerOptions] },
  },
);
