/**
 * `npm run build`: builds what the app runs: the studio UI (vite, only when its sources
 * changed), the Electron main process, its engine workers and the preload, and the headless CLI
 * (esbuild, in well under a second each). Output under dist/:
 * - electron/main/{index,engine-host-worker,espeak-worker,manuscript-reader-child,project-archive-child,resampling-worker}.js and electron/preload/index.cjs
 *   (CommonJS, self-contained: a sandboxed preload may only require 'electron');
 * - cli/narration-studio.js (package.json "bin") with the same workers beside it and the
 *   chunks of what only some commands load (the server, the engine, the voice library).
 * Node bundles are ESM with packages left in node_modules, so the engine finds its data files.
 */

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { APP_FILES } from '../main/app-files';
import { CLI_ENTRY, isOutputStale, UI_SOURCES } from './freshness.mjs';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `vite build` for the renderer when dist/renderer is missing or older than its sources. */
export function buildUiIfStale(root = ROOT, out: NodeJS.WritableStream = process.stderr): void {
  if (!isOutputStale(root, APP_FILES.uiIndex, UI_SOURCES)) return;
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

const COMMON = {
  bundle: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  external: ['electron'],
} satisfies BuildOptions;

/**
 * Packages compiled into the Node bundles instead of loaded from node_modules: TypeBox is 249
 * ES modules, which Node reads, links and keeps one by one (measured: ~18 MB and ~200 ms to load
 * them; ~4 MB and ~25 ms as one bundled file). saxes (SSML, which every text that speaks goes
 * through) is CommonJS: imported from ESM, Node first scans its source for its exports (measured:
 * `say "Hi."` 302 → 271 ms, median of 21, bundled with xmlchars, its one dependency). Every other
 * package stays external.
 */
const BUNDLED_PACKAGES = ['@sinclair/typebox', 'saxes', 'xmlchars'];

const packagesExternal: Plugin = {
  name: 'packages-external',
  setup(esbuild) {
    // A bare specifier (a package or a Node built-in), not a relative or absolute path.
    esbuild.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      BUNDLED_PACKAGES.some((name) => path === name || path.startsWith(`${name}/`))
        ? undefined
        : { path, external: true },
    );
  },
};

/**
 * eSpeak NG's WebAssembly build (native/espeak-ng: the module, Emscripten's loader and the table of
 * its data files), which the eSpeak worker reads beside its own script
 * (core/engine/espeak/espeak-ng-wasm.ts).
 */
const ESPEAK_NG_BUILD = 'native/espeak-ng';

function copyEspeakNg(root: string, outdir: string): void {
  for (const name of readdirSync(join(root, ESPEAK_NG_BUILD))) {
    if (/\.(wasm|cjs|json)$/.test(name)) copyFileSync(join(root, ESPEAK_NG_BUILD, name), join(outdir, name));
  }
}

interface NodeBundle {
  /** Folder of the output: the entry and the engine's workers side by side. */
  outdir: string;
  /** Output name of the entry (without `.js`) and its source, relative to the root. */
  entry: { name: string; source: string };
  /** Node version the code must run on (esbuild target). */
  target: string;
  /**
   * Code reached only through `import()` goes to chunks beside the entry, with its packages,
   * so a command loads only what it uses (the CLI). Without it, one file holds everything.
   */
  splitting?: boolean;
}

/**
 * One Node entry with the engine's workers and the reader child processes (manuscripts, project
 * archives) beside it (the core finds each beside its own module: core/platform/script-url.ts).
 * ESM, packages external but BUNDLED_PACKAGES.
 * Files of an earlier build that this one did not write (old chunks) are removed.
 */
async function bundleForNode(root: string, bundle: NodeBundle): Promise<Metafile> {
  const { metafile } = await build({
    ...COMMON,
    absWorkingDir: root,
    entryPoints: {
      [bundle.entry.name]: bundle.entry.source,
      'engine-host-worker': 'electron/core/engine/host/engine-host-worker.ts',
      'espeak-worker': 'electron/core/engine/espeak/espeak-worker.ts',
      'manuscript-reader-child': 'electron/core/manuscripts/manuscript-reader-child.ts',
      'project-archive-child': 'electron/core/projects/project-archive-child.ts',
      'resampling-worker': 'electron/core/engine/export/resampling-worker.ts',
    },
    outdir: bundle.outdir,
    platform: 'node',
    format: 'esm',
    target: bundle.target,
    plugins: [packagesExternal],
    splitting: bundle.splitting ?? false,
    metafile: true,
  });
  if (!metafile) throw new Error('esbuild wrote no metafile');
  copyEspeakNg(root, bundle.outdir);
  const written = new Set(Object.keys(metafile.outputs).map((file) => join(root, file)));
  for (const name of readdirSync(bundle.outdir)) {
    const file = join(bundle.outdir, name);
    if (!written.has(file) && /\.js(\.map)?$/.test(name)) rmSync(file, { force: true });
  }
  // esbuild may leave an unchanged file untouched; its time must still say "built after the sources".
  const now = new Date();
  utimesSync(join(bundle.outdir, `${bundle.entry.name}.js`), now, now);
  return metafile;
}

/** Bundles the main process, its workers and the preload into `<outRoot>/dist/electron`. */
export async function buildElectron(root = ROOT, outRoot = root): Promise<void> {
  await bundleForNode(root, {
    outdir: join(outRoot, 'dist/electron/main'),
    entry: { name: 'index', source: 'electron/main/index.ts' },
    // Electron 41 runs Node 24.
    target: 'node22',
  });
  await build({
    ...COMMON,
    absWorkingDir: root,
    entryPoints: ['electron/preload/index.ts'],
    outfile: join(outRoot, APP_FILES.preload),
    platform: 'browser',
    format: 'cjs',
    target: 'chrome130',
  });
}

/**
 * Bundles the headless CLI into `<outRoot>/dist/cli` (`CLI_ENTRY`, the package's "bin", with a
 * `#!/usr/bin/env node` line), for the Node versions package.json "engines" allows. Resolves to
 * esbuild's metafile (what each output imports).
 */
export async function buildCli(root = ROOT, outRoot = root): Promise<Metafile> {
  const entry = join(outRoot, CLI_ENTRY);
  return bundleForNode(root, {
    outdir: dirname(entry),
    entry: { name: basename(CLI_ENTRY, '.js'), source: 'electron/core/cli/index.ts' },
    target: 'node20',
    splitting: true,
  });
}

// `npm run build` (`tsx electron/launch/build.ts`): everything; with `--cli`, the CLI alone
// (`npm run build:cli`).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.argv.includes('--cli')) {
    buildUiIfStale();
    await buildElectron();
  }
  await buildCli();
}
