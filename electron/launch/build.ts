/**
 * Builds what the desktop app runs: the studio UI (vite, only when its sources changed) and
 * the Electron main process, its engine workers and the preload (esbuild, in well under a
 * second). Output under dist/: electron/main/{index,engine-host-worker,espeak-worker}.js (ESM,
 * packages left in node_modules so the engine finds its data files) and
 * electron/preload/index.cjs (CommonJS, self-contained: a sandboxed preload may only
 * require 'electron').
 */

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { APP_FILES } from '../main/app-files';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** True when the output is missing or older than the newest input. */
export function isStale(outputMtimeMs: number | undefined, inputMtimesMs: Iterable<number>): boolean {
  if (outputMtimeMs === undefined) return true;
  for (const input of inputMtimesMs) if (input > outputMtimeMs) return true;
  return false;
}

function* mtimes(dir: string): Generator<number> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* mtimes(path);
    else yield statSync(path).mtimeMs;
  }
}

/** Runs `vite build` for the renderer when dist/renderer is missing or older than its sources. */
export function buildUiIfStale(root = ROOT, out: NodeJS.WritableStream = process.stderr): void {
  const index = join(root, APP_FILES.uiIndex);
  const built = existsSync(index) ? statSync(index).mtimeMs : undefined;
  const inputs = [...mtimes(join(root, 'renderer')), ...mtimes(join(root, 'electron/shared'))];
  if (!isStale(built, inputs)) return;
  const vite = join(root, 'node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) {
    out.write('The studio UI is not built and vite is not installed: run `npm install`, then `npm start`.\n');
    return;
  }
  out.write('Building the studio UI…\n');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) throw new Error('building the studio UI failed (see above)');
}

/** Bundles the main process, its workers and the preload into `<outRoot>/dist/electron`. */
export async function buildElectron(root = ROOT, outRoot = root): Promise<void> {
  const common = {
    absWorkingDir: root,
    bundle: true,
    sourcemap: 'linked' as const,
    logLevel: 'warning' as const,
    external: ['electron'],
  };
  await build({
    ...common,
    entryPoints: {
      'main/index': 'electron/main/index.ts',
      // Beside index.js: the core finds its workers relative to its own module.
      'main/engine-host-worker': 'electron/core/engine/host/engine-host-worker.ts',
      'main/espeak-worker': 'electron/core/engine/espeak/espeak-worker.ts',
    },
    outdir: join(outRoot, 'dist/electron'),
    platform: 'node',
    format: 'esm',
    // Electron 41 runs Node 24.
    target: 'node22',
    packages: 'external',
  });
  await build({
    ...common,
    entryPoints: ['electron/preload/index.ts'],
    outfile: join(outRoot, APP_FILES.preload),
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildUiIfStale();
  await buildElectron();
}
