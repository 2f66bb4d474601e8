// @ts-check
/**
 * `npm run say|serve|keys|voices|lexicon -- …`: runs the compiled CLI (dist/cli/narration-studio.js,
 * package.json "bin") in this process, as `node dist/cli/narration-studio.js …` would.
 *
 * Plain JavaScript, so a run costs no TypeScript loader: it only compares file times (a few
 * milliseconds). When a source is newer than the bundle (an edit, or a clone whose `prepare`
 * could not build), the CLI is rebuilt first; before `serve`, the studio UI likewise. Only then
 * is build.ts loaded, through tsx.
 */

import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { CLI_ENTRY, CLI_SOURCES, isOutputStale, UI_INDEX, UI_SOURCES } from './freshness.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** build.ts through tsx's scoped loader (it leaves every other import alone). */
async function loadBuild() {
  const { tsImport } = await import('tsx/esm/api');
  return /** @type {typeof import('./build')} */ (await tsImport('./build.ts', import.meta.url));
}

let runnable = true;
if (isOutputStale(root, CLI_ENTRY, CLI_SOURCES)) {
  process.stderr.write('Building the CLI (its sources changed)…\n');
  try {
    await (await loadBuild()).buildCli(root);
  } catch (error) {
    // esbuild has printed the problem itself (a syntax error, say); running the old bundle
    // would run code that no longer matches the sources.
    process.stderr.write(`error: building the CLI failed: ${/** @type {Error} */ (error).message}\n`);
    process.exitCode = 1;
    runnable = false;
  }
}
if (runnable && process.argv[2] === 'serve' && isOutputStale(root, UI_INDEX, UI_SOURCES)) {
  try {
    (await loadBuild()).buildUiIfStale(root);
  } catch (error) {
    // The server runs without it: its page says how to build the UI.
    process.stderr.write(`warning: ${/** @type {Error} */ (error).message}; serving without the studio UI\n`);
  }
}
if (runnable) await import(pathToFileURL(join(root, CLI_ENTRY)).href);
