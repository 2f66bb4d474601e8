// @ts-check
/**
 * When a build output must be rebuilt: the rule the build (build.ts) and the CLI launcher
 * (cli.mjs) share. Plain JavaScript, so the launcher checks it without a TypeScript loader, in
 * a few milliseconds (file times only, never file contents).
 */

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The compiled headless entry (package.json "bin"), relative to the repository root. */
export const CLI_ENTRY = 'dist/cli/narration-studio.js';

/**
 * What the CLI bundle is built from, relative to the root: the core and shared code, and the
 * build's own settings, and eSpeak NG's WebAssembly build (copied beside the bundle). Packages stay
 * in node_modules, so installing one needs no rebuild.
 */
export const CLI_SOURCES = [
  'electron/core',
  'electron/shared',
  'electron/launch/build.ts',
  'native/espeak-ng',
];

/** What the studio UI (dist/renderer) is built from, relative to the root. */
export const UI_SOURCES = ['renderer', 'electron/shared'];

/** The built studio UI's index page, relative to the root (APP_FILES.uiIndex). */
export const UI_INDEX = 'dist/renderer/index.html';

/**
 * True when the output is missing or older than the newest input.
 * @param {number | undefined} outputMtimeMs
 * @param {Iterable<number>} inputMtimesMs
 */
export function isStale(outputMtimeMs, inputMtimesMs) {
  if (outputMtimeMs === undefined) return true;
  for (const input of inputMtimesMs) if (input > outputMtimeMs) return true;
  return false;
}

/**
 * Modification times of a file, or of every file under a folder (node_modules skipped); nothing
 * when the path does not exist.
 * @param {string} path
 * @returns {Generator<number>}
 */
export function* mtimes(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return;
  if (info.isDirectory()) yield* folderMtimes(path);
  else yield info.mtimeMs;
}

/**
 * @param {string} dir
 * @returns {Generator<number>}
 */
function* folderMtimes(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* folderMtimes(path);
    else yield statSync(path).mtimeMs;
  }
}

/**
 * True when `output` (relative to `root`) is missing or older than a file of `sources`.
 * @param {string} root
 * @param {string} output
 * @param {readonly string[]} sources
 */
export function isOutputStale(root, output, sources) {
  const built = statSync(join(root, output), { throwIfNoEntry: false })?.mtimeMs;
  return isStale(
    built,
    (function* () {
      for (const source of sources) yield* mtimes(join(root, source));
    })(),
  );
}
