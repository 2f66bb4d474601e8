/**
 * electron-builder itself, run over a folder shaped like Electron's Linux build (its binary
 * cannot be downloaded here: `electronDist`), for the host's own platform and arch: the
 * unpacked app (`dir`) and the deb's metadata (stopped just before fpm, which would be
 * downloaded). app.asar is then listed with @electron/asar: only the app is inside, and only
 * this platform's native binaries are unpacked beside it.
 */

import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { listPackage } from '@electron/asar';
import { Arch, build, Platform } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, buildUiIfStale, ROOT } from '../../electron/launch/build';
import { APP_FILES, trayIcon } from '../../electron/main/app-files';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  homepage: string;
  author: { name: string; email: string };
  dependencies: Record<string, string>;
};
const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
let work: string;
let unpackedApp: string;
let asarFiles: string[];
let unpackedFiles: string[];
let fpmArgs: string[] = [];
let desktopEntry = '';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** A folder with the files electron-builder takes from Electron's Linux zip. */
function standInElectron(dir: string): string {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  writeFileSync(join(dir, 'electron'), '#!/bin/sh\necho "stand-in for Electron 41"\n');
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'chrome-sandbox'), '');
  writeFileSync(join(dir, 'version'), 'v41.7.1');
  writeFileSync(join(dir, 'LICENSE'), 'MIT');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<html></html>');
  return dir;
}

describe.runIf(process.platform === 'linux')('electron-builder over a stand-in Electron (Linux)', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'ns-installer-'));
    buildUiIfStale(ROOT);
    await buildElectron(ROOT);
    const output = join(work, 'out');
    await build({
      projectDir: ROOT,
      targets: Platform.LINUX.createTarget(['dir', 'deb'], Arch[arch]),
      publish: 'never',
      config: {
        extends: join(ROOT, 'electron-builder.yml'),
        electronDist: standInElectron(join(work, 'electron')),
        directories: { output },
      },
      // electron-builder's own hook for its tests: the deb's fpm arguments and desktop entry,
      // computed; answering true stops before fpm runs.
      effectiveOptionComputed: async (options: unknown) => {
        if (!Array.isArray(options)) return false;
        const [args, desktopFile] = options as [string[], string];
        fpmArgs = args;
        desktopEntry = readFileSync(desktopFile, 'utf8');
        return true;
      },
    });
    unpackedApp = join(output, arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`);
    asarFiles = listPackage(join(unpackedApp, 'resources/app.asar'), { isPack: false }).map((f) =>
      f.replaceAll('\\', '/').replace(/^\//, ''),
    );
    const unpackedDir = join(unpackedApp, 'resources/app.asar.unpacked');
    unpackedFiles = filesUnder(unpackedDir).map((f) => relative(unpackedDir, f).replaceAll('\\', '/'));
  }, 240_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('puts the app under its executable name beside Electron’s files', () => {
    expect(existsSync(join(unpackedApp, 'narration-studio'))).toBe(true);
    expect(existsSync(join(unpackedApp, 'resources/app.asar'))).toBe(true);
  });

  it('packs only the app: bundles, UI, icons, package.json and production dependencies', () => {
    const outsideNodeModules = asarFiles.filter((f) => !f.startsWith('node_modules/'));
    const allowed =
      /^(package\.json|node_modules|dist|dist\/electron(\/(main|preload)(\/[^/]+\.c?js|\/espeak-ng\.wasm|\/espeak-ng-data-files\.json)?)?|dist\/renderer(\/.*)?|assets|assets\/icons(\/[^/]+\.png)?|assets\/tray(\/[^/]+\.(png|ico))?)$/;
    expect(outsideNodeModules.filter((f) => !allowed.test(f))).toEqual([]);
    for (const file of [
      APP_FILES.main,
      ...APP_FILES.workers,
      APP_FILES.preload,
      APP_FILES.uiIndex,
      APP_FILES.icon,
      // Every OS's tray icon (the same asar layout on each), and the Retina menu-bar image.
      ...(['linux', 'darwin', 'win32'] as const).map(trayIcon),
      'assets/tray/trayTemplate@2x.png',
      // eSpeak NG's WebAssembly build, beside the worker that loads it (build.ts).
      'dist/electron/main/espeak-ng.wasm',
      'dist/electron/main/espeak-ng.cjs',
      'dist/electron/main/espeak-ng-data-files.json',
    ])
      expect(asarFiles, file).toContain(file);
    // No sources, tests, docs, benchmarks, CI, source maps or CLI bundle.
    for (const prefix of ['electron/', 'renderer/src/', 'test/', 'docs/', 'bench/', '.ci/', 'dist/cli/'])
      expect(
        asarFiles.filter((f) => f.startsWith(prefix)),
        prefix,
      ).toEqual([]);
    expect(asarFiles.filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  it('has every production dependency and no build tool or second Electron', () => {
    const packages = new Set(
      asarFiles
        .filter((f) => f.startsWith('node_modules/'))
        .map((f) =>
          f
            .split('/')
            .slice(1, f.startsWith('node_modules/@') ? 3 : 2)
            .join('/'),
        ),
    );
    for (const name of Object.keys(pkg.dependencies)) expect(packages, name).toContain(name);
    for (const tool of [
      'electron',
      'tsx',
      'esbuild',
      '@esbuild',
      'vite',
      'typescript',
      'vitest',
      'electron-builder',
    ])
      expect(packages.has(tool), tool).toBe(false);
  });

  it('unpacks this platform’s native binaries and the data read from disk, and no other OS’s', () => {
    const onnx = `node_modules/onnxruntime-node/bin/napi-v6/linux/${arch}/`;
    expect(unpackedFiles).toContain(`${onnx}onnxruntime_binding.node`);
    expect(unpackedFiles).toContain(`${onnx}libonnxruntime.so.1`);
    const native = [...new Set([...asarFiles, ...unpackedFiles])].filter((f) =>
      /\.(node|dll|dylib|so(\.\d+)*)$/.test(f),
    );
    expect(native.sort()).toEqual([`${onnx}onnxruntime_binding.node`, `${onnx}libonnxruntime.so.1`].sort());
    // Opus is encoded by its WASM build (the N-API binaries share buffers across threads), read from the asar.
    for (const wasm of ['opus.wasm', 'simd.wasm'])
      expect(asarFiles).toContain(`node_modules/@evan/opus/wasm/${wasm}`);
    for (const data of [
      'node_modules/@echogarden/espeak-ng-emscripten/espeak-ng.data',
      'node_modules/kuromoji/dict/base.dat.gz',
      'node_modules/@echogarden/sonic-wasm/sonic.wasm',
    ])
      expect(unpackedFiles, data).toContain(data);
    expect(unpackedFiles.some((f) => /^node_modules\/node-sqlite3-wasm\/dist\/.*\.wasm$/.test(f))).toBe(true);
    expect(unpackedFiles.some((f) => /^node_modules\/wasm-media-encoders\/wasm\/.*\.wasm$/.test(f))).toBe(
      true,
    );
    // Nothing of the app itself is outside the asar.
    expect(unpackedFiles.filter((f) => !f.startsWith('node_modules/'))).toEqual([]);
  });

  it('gives the deb its homepage, maintainer and desktop entry', () => {
    const arg = (name: string) => fpmArgs[fpmArgs.indexOf(name) + 1];
    expect(arg('--url')).toBe(pkg.homepage);
    expect(arg('--maintainer')).toBe(`${pkg.author.name} <${pkg.author.email}>`);
    expect(arg('--license')).toBe('GPL-3.0-or-later');
    expect(desktopEntry).toMatch(/^Exec=.*narration-studio/m);
    expect(desktopEntry).toMatch(/^Categories=AudioVideo;/m);
    // Ubuntu 24.04+: the deb installs an AppArmor profile that lets Chromium's sandbox work.
    expect(existsSync(join(unpackedApp, 'resources/apparmor-profile'))).toBe(true);
  });

  it('refuses to build another OS’s installer here (its native binaries would be this machine’s)', async () => {
    await expect(
      build({
        projectDir: ROOT,
        targets: Platform.WINDOWS.createTarget(['dir'], Arch.x64),
        publish: 'never',
        config: {
          extends: join(ROOT, 'electron-builder.yml'),
          electronDist: join(work, 'electron'),
          directories: { output: join(work, 'out-win') },
        },
      }),
    ).rejects.toThrow('Build the win32 installer on win32');
    expect(existsSync(join(work, 'out-win', 'win-unpacked', 'resources', 'app.asar'))).toBe(false);
  });
});
