/**
 * The layer map is a lint error: runs the repository's own eslint.config.js (its `layers/imports`
 * rule and layer table, not a copy) over one-line sources linted as if they lived at the given
 * paths. The files need not exist: type-aware parsing is switched off for these virtual paths,
 * and only the layer rule runs.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RULE = 'layers/imports';

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    overrideConfig: {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parserOptions: { projectService: false } },
    },
    ruleFilter: ({ ruleId }) => ruleId === RULE,
  });
});

async function lint(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath });
  const messages = result?.messages ?? [];
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

// [importing file, source, text the message must contain]
const violations: [string, string, string][] = [
  [
    'electron/core/server/app.ts',
    "import { shell } from '../../main/shell';",
    'core/server may not import layer main',
  ],
  [
    'electron/core/server/app.ts',
    "import { useStore } from '../../../renderer/src/stores';",
    'core/server may not import layer renderer',
  ],
  [
    'electron/core/engine/engine.ts',
    "import { openStore } from '../store';",
    'core/engine may not import layer core/store',
  ],
  [
    'electron/core/engine/engine.ts',
    "import { createJobs } from '../jobs';",
    'core/engine may not import layer core/jobs',
  ],
  [
    'electron/core/store/sqlite-database.ts',
    "import { createJobs } from '../jobs';",
    'core/store may not import layer core/jobs',
  ],
  [
    'electron/core/store/postgres-database.ts',
    "import { createJobRunner } from '../jobs/runner';",
    'core/store may not import layer core/jobs',
  ],
  [
    'electron/core/store/sqlite-database.ts',
    "import load from '@echogarden/espeak-ng-emscripten';",
    "core/store may not import the package '@echogarden/espeak-ng-emscripten': only core/engine may",
  ],
  ['electron/core/store/sqlite-database.ts', "import Fastify from 'fastify';", 'only core/server may'],
  ['electron/core/store/postgres-database.ts', "import Fastify from 'fastify';", 'only core/server may'],
  // The database drivers stay behind the store: nothing above it talks to a database directly.
  [
    'electron/core/jobs/runner.ts',
    "import pg from 'pg';",
    "core/jobs may not import the package 'pg': only core/store may",
  ],
  [
    'electron/core/server/routes/health.ts',
    "import sqlite from 'node-sqlite3-wasm';",
    "core/server may not import the package 'node-sqlite3-wasm': only core/store may",
  ],
  [
    'electron/core/studio-core.ts',
    "import pg from 'pg';",
    "core/studio-core may not import the package 'pg': only core/store may",
  ],
  [
    'electron/core/jobs/runner.ts',
    "import { buildServer } from '../server/app';",
    'core/jobs may not import layer core/server',
  ],
  // Only core reads CSV: csv-parse (and its Node types) stays out of shared/ and the studio.
  [
    'electron/shared/csv.ts',
    "import { parse } from 'csv-parse/browser/esm/sync';",
    "shared may not import the package 'csv-parse': only core/platform may",
  ],
  [
    'renderer/src/features/lexicon/LexiconView.tsx',
    "import { parse } from 'csv-parse/sync';",
    'only core/platform may',
  ],
  [
    'electron/core/lexicon/lexicon-file-reader.ts',
    "import { parse } from 'csv-parse/sync';",
    'only core/platform may',
  ],
  ['electron/shared/api.ts', "import { readFileSync } from 'node:fs';", "Node builtin 'node:fs'"],
  ['electron/shared/api.ts', "import path from 'path';", "Node builtin 'path'"],
  [
    'electron/shared/api.ts',
    "import { createEngine } from '../core/engine/engine';",
    'shared may not import layer core/engine',
  ],
  [
    'electron/shared/api.ts',
    "import { app } from 'electron';",
    "shared may not import the package 'electron'",
  ],
  [
    'renderer/src/main.tsx',
    "import { createJobs } from '../../electron/core/jobs';",
    'renderer may not import layer core/jobs',
  ],
  [
    'renderer/src/lib/api-client.ts',
    "import type { Jobs } from '../../../electron/core/jobs';",
    'renderer may not import layer core/jobs',
  ],
  [
    'renderer/src/lib/desktop.ts',
    "import { ipcRenderer } from 'electron';",
    "renderer may not import the package 'electron'",
  ],
  ['renderer/src/lib/format.ts', "import { join } from 'node:path';", "Node builtin 'node:path'"],
  ['electron/preload/index.ts', "import { dataPaths } from '../core/paths';", 'preload may not import'],
  [
    'electron/preload/index.ts',
    "import { dataPaths } from '../core/platform/paths';",
    'preload may not import layer core/platform',
  ],
  [
    'electron/preload/index.ts',
    "import { shell } from '../main/shell';",
    'preload may not import layer main',
  ],
  [
    'electron/core/server/app.ts',
    "import { app } from 'electron';",
    "core/server may not import the package 'electron'",
  ],
  [
    'electron/core/cli/index.ts',
    "import Store from 'electron-store';",
    "core/cli may not import the package 'electron-store'",
  ],
  [
    'electron/core/studio-core.ts',
    "import { shell } from '../main/shell';",
    'core/studio-core may not import layer main',
  ],
  [
    'electron/core/engine/engine.ts',
    "import type { Jobs } from '../jobs';",
    'core/engine may not import layer core/jobs',
  ],
  [
    'electron/core/engine/engine.ts',
    "import { type Jobs } from '../jobs/index';",
    'core/engine may not import layer core/jobs',
  ],
  [
    'electron/core/engine/engine.ts',
    "type Jobs = import('../jobs').Jobs;",
    'core/engine may not import layer core/jobs',
  ],
  [
    'electron/core/store/index.ts',
    "export * from '../server/app';",
    'core/store may not import layer core/server',
  ],
  [
    'electron/core/store/index.ts',
    "export { buildServer } from '../server/app';",
    'core/store may not import layer core/server',
  ],
  [
    'electron/core/engine/espeak/worker-pool.ts',
    "void import('../../server/app');",
    'core/engine may not import layer core/server',
  ],
  [
    'electron/core/engine/espeak/worker-pool.ts',
    'void import(`../../jobs`);',
    'core/engine may not import layer core/jobs',
  ],
  [
    'electron/core/platform/log.ts',
    "import { createEngine } from '../engine';",
    'core/platform may not import layer core/engine',
  ],
  [
    'electron/core/platform/log.ts',
    "import { openStore } from '../store/index.js';",
    'core/platform may not import layer core/store',
  ],
  [
    'electron/core/voices/library.ts',
    "import { createJobs } from '../jobs';",
    'core/voices may not import layer core/jobs',
  ],
  [
    'electron/core/server/app.ts',
    "import { run } from '../cli';",
    'core/server may not import layer core/cli',
  ],
  [
    'electron/core/jobs/runner.ts',
    "import { fixture } from '../../../test/fixtures/engine';",
    'outside any layer',
  ],
  ['electron/core/stray.ts', 'export const x = 1;', 'electron/core/stray.ts is outside any layer'],
  // The lexicon is data for the engine: the engine reads no lexicon file, and the lexicon
  // store knows nothing of the engine or the database.
  [
    'electron/core/engine/render/render.ts',
    "import { createLexiconStore } from '../../lexicon/lexicon-store';",
    'core/engine may not import layer core/lexicon',
  ],
  [
    'electron/core/lexicon/lexicon-store.ts',
    "import { createEngine } from '../engine/create-engine';",
    'core/lexicon may not import layer core/engine',
  ],
  [
    'electron/core/lexicon/lexicon-store.ts',
    "import { openStore } from '../store';",
    'core/lexicon may not import layer core/store',
  ],
  [
    'electron/core/lexicon/lexicon-store.ts',
    "import Fastify from 'fastify';",
    "core/lexicon may not import the package 'fastify': only core/server may",
  ],
  [
    'electron/core/engine/espeak-worker.ts',
    "const m = require('../store');",
    'core/engine may not import layer core/store',
  ],
  // The engine has one front door (engine/index.ts): no other layer reaches inside it, so no
  // route can render on the HTTP thread by importing the render steps or the worker pool.
  [
    'electron/core/server/routes/tts.ts',
    "import { renderToFiles } from '../../engine/render/render';",
    "core/server may not import electron/core/engine/render/render ('../../engine/render/render') inside layer core/engine: import it from core/engine's entry, electron/core/engine/index",
  ],
  [
    'electron/core/server/routes/tts.ts',
    "import { createWorkerPool } from '../../engine/espeak/worker-pool';",
    "inside layer core/engine: import it from core/engine's entry, electron/core/engine/index",
  ],
  [
    'electron/core/server/routes/tts.ts',
    "import type { RenderContext } from '../../engine/render/render';",
    'core/server may not import electron/core/engine/render/render',
  ],
  [
    'electron/core/jobs/runner.ts',
    "import type { Engine } from '../engine/engine';",
    'core/jobs may not import electron/core/engine/engine',
  ],
  [
    'electron/core/cli/say-command.ts',
    "const { createEngine } = await import('../engine/create-engine');",
    'core/cli may not import electron/core/engine/create-engine',
  ],
  [
    'electron/main/index.ts',
    "import { createEngineHost } from '../core/engine/host/engine-host';",
    'main may not import electron/core/engine/host/engine-host',
  ],
  // Every layer that others use has its entries (its index.ts, and a light entry or two where
  // the barrel would slow a quick command): a route cannot reach the job runner.
  [
    'electron/core/server/routes/tts.ts',
    "import { createJobRunner } from '../../jobs/runner';",
    "core/server may not import electron/core/jobs/runner ('../../jobs/runner') inside layer core/jobs: import it from core/jobs's entry, electron/core/jobs/index, electron/core/jobs/keys",
  ],
  [
    'electron/core/server/routes/tts.ts',
    "import type { JobRunner } from '../../jobs/runner';",
    'core/server may not import electron/core/jobs/runner',
  ],
  [
    'electron/core/cli/serve-command.ts',
    "import { createDeliverer } from '../jobs/delivery';",
    'core/cli may not import electron/core/jobs/delivery',
  ],
  [
    'electron/core/jobs/runner.ts',
    "import type { KeysRepo } from '../store/keys-repo';",
    "inside layer core/store: import it from core/store's entry, electron/core/store/index",
  ],
  [
    'electron/core/projects/segment-render.ts',
    "import { readManifest } from '../voices/manifest';",
    "inside layer core/voices: import it from core/voices's entry, electron/core/voices/index, electron/core/voices/layout",
  ],
  [
    'electron/core/server/routes/lexicon.ts',
    "import type { LexiconStore } from '../../lexicon/lexicon-store';",
    'core/server may not import electron/core/lexicon/lexicon-store',
  ],
  [
    'electron/core/server/routes/manuscripts.ts',
    "import { readDocx } from '../../manuscripts/docx';",
    'core/server may not import electron/core/manuscripts/docx',
  ],
  [
    'electron/core/cli/project-command.ts',
    "import { createProjectService } from '../projects/project-service';",
    'core/cli may not import electron/core/projects/project-service',
  ],
  [
    'electron/core/studio-core.ts',
    "import { buildServer } from './server/app';",
    "inside layer core/server: import it from core/server's entry, electron/core/server/index, electron/core/server/sessions",
  ],
  [
    'electron/main/index.ts',
    "const { createJobs } = await import('../core/jobs/runner');",
    'main may not import electron/core/jobs/runner',
  ],
];

// [importing file, source]: none of these may produce a layer error.
const allowed: [string, string][] = [
  ['electron/core/server/app.ts', "import { createJobs } from '../jobs';"],
  ['electron/core/server/routes/tts.ts', "import type { FastifyInstance } from 'fastify';"],
  ['electron/core/jobs/runner.ts', "import type { Engine } from '../engine';"],
  // Through the engine's front door; and inside the engine, its files import each other freely.
  ['electron/core/server/routes/tts.ts', "import { createStreamEncoder } from '../../engine';"],
  ['electron/core/server/routes/tts.ts', "import type { Engine } from '../../engine/index';"],
  ['electron/main/index.ts', "import { createEngineHost } from '../core/engine';"],
  ['electron/core/cli/say-command.ts', "const { createEngine } = await import('../engine');"],
  [
    'electron/core/engine/create-engine.ts',
    "import { renderToFiles } from './render/render';\nimport { createWorkerPool } from './espeak/worker-pool';",
  ],
  ['electron/core/jobs/runner.ts', "import { openStore } from '../store';"],
  ['electron/core/cli/index.ts', "import { startCore } from '../studio-core';"],
  ['electron/core/studio-core.ts', "import { buildServer } from './server';"],
  ['electron/main/index.ts', "import { startCore } from '../core/studio-core';"],
  ['electron/main/index.ts', "import { createJobs } from '../core/jobs';"],
  ['electron/main/index.ts', "import Store from 'electron-store';\nimport { app } from 'electron';"],
  [
    'electron/preload/index.ts',
    "import { ipcRenderer } from 'electron';\nimport type { DesktopApi } from '../shared/desktop-api';",
  ],
  [
    'electron/launch/index.ts',
    "import { startCore } from '../core/studio-core';\nimport { shell } from '../main/shell';",
  ],
  ['renderer/src/lib/api-client.ts', "import type { Voice } from '../../../electron/shared/api';"],
  ['renderer/src/main.tsx', "import { createRoot } from 'react-dom/client';\nimport './app/styles.css';"],
  ['renderer/vite.config.ts', "import { fileURLToPath } from 'node:url';"],
  ['electron/core/engine/engine.ts', "import { chunk } from './text/chunk';"],
  ['electron/core/engine/espeak-worker.ts', "void import('@echogarden/espeak-ng-emscripten');"],
  [
    'electron/core/engine/espeak/worker-pool.ts',
    "import { Worker } from 'node:worker_threads';\nimport { log } from '../../platform/log';",
  ],
  [
    'electron/core/store/sqlite-database.ts',
    "import sqlite from 'node-sqlite3-wasm';\nimport { cleanText } from '../../shared/text';",
  ],
  [
    'electron/core/store/postgres-database.ts',
    "import pg from 'pg';\nimport { silentLog } from '../platform/log';\nimport type { Db } from './sql';",
  ],
  ['test/fixtures/postgres.ts', "import pg from 'pg';"],
  ['electron/core/platform/settings-store.ts', "void import('conf');"],
  ['electron/core/platform/csv-reader.ts', "import { CsvError, parse } from 'csv-parse/sync';"],
  [
    'electron/core/lexicon/lexicon-file-reader.ts',
    "import { readCsv } from '../platform/csv-reader';\nimport { SaxesParser } from 'saxes';",
  ],
  [
    'electron/core/voices/library.ts',
    "import { openStore } from '../store';\nimport type { Engine } from '../engine';",
  ],
  ['electron/shared/api.ts', "import type { Voice } from './voices';"],
  [
    'electron/core/lexicon/lexicon-store.ts',
    "import { StagedFile } from '../platform/staged-file';\nimport { prepareEntry } from '../../shared/lexicon';",
  ],
  ['electron/core/server/routes/lexicon.ts', "import type { LexiconStore } from '../../lexicon';"],
  ['electron/core/jobs/runner.ts', "import type { LexiconStore } from '../lexicon/index';"],
  ['electron/core/cli/lexicon-command.ts', "import { createLexiconStore } from '../lexicon';"],
  ['electron/core/studio-core.ts', "import { createLexiconStore } from './lexicon';"],
  ['electron/core/engine/text/lexicon.ts', "import { ipaToEspeak } from '../../../shared/lexicon-ipa';"],
  // Through each layer's entries; a light second entry where a quick command needs one; and
  // inside a layer, its files import each other freely.
  ['electron/core/server/routes/tts.ts', "import { createJobs, type Jobs } from '../../jobs';"],
  ['electron/core/server/routes/tts.ts', "import type { JobEvents } from '../../jobs/index';"],
  ['electron/core/cli/keys-command.ts', "import { createApiKey, findKey } from '../jobs/keys';"],
  ['electron/core/server/sessions.ts', "import { createApiKey } from '../jobs/keys';"],
  ['electron/core/cli/project-command.ts', "import { createStudioKey } from '../server/sessions';"],
  ['electron/core/cli/voice-options.ts', "const { voicesDir } = await import('../voices/layout');"],
  ['electron/core/cli/say-command.ts', "const { recordPackSpeed } = await import('../voices');"],
  ['electron/core/cli/lexicon-option.ts', "const { lexiconPath } = await import('../lexicon/layout');"],
  [
    'electron/core/cli/project-command.ts',
    "import { createProjectService } from '../projects';\nimport { readManuscript } from '../manuscripts';",
  ],
  ['electron/core/server/routes/project-renders.ts', "import { segmentRecord } from '../../projects';"],
  [
    'electron/core/jobs/index.ts',
    "import { createJobRunner } from './runner';\nexport { createApiKey } from './keys';",
  ],
  ['electron/core/server/app.ts', "import { createSessions } from './sessions';"],
  ['electron/core/store/index.ts', "import { createKeysRepo } from './keys-repo';"],
  [
    'test/core/anything.test.ts',
    "import { shell } from '../../electron/main/shell';\nimport { app } from 'electron';",
  ],
  [
    'bench/x.bench.ts',
    "import { openStore } from '../electron/core/store';\nimport sqlite from 'node-sqlite3-wasm';",
  ],
];

describe('layers/imports refuses imports across the layer map', () => {
  it.each(violations)('%s: %s', async (file, code, expected) => {
    const errors = await lint(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(expected);
  });
});

describe('layers/imports allows imports the layer map permits', () => {
  it.each(allowed)('%s: %s', async (file, code) => {
    expect(await lint(file, code)).toEqual([]);
  });
});
