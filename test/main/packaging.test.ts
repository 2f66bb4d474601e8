/**
 * The packaging configuration, checked as far as a machine without Electron's binary allows:
 * electron-builder's own schema validation, the targets, no second Electron, and every file
 * the app reads at run time matched by `files` (inside the asar) or `asarUnpack` (on disk).
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, ROOT } from '../../electron/launch/build';
import { APP_FILES } from '../../electron/main/app-files';

// electron-builder's own modules (a devDependency's dependencies): its config loader and
// validator, and the glob matcher it uses for `files` and `asarUnpack`.
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const { getConfig, validateConfiguration } = fromBuilder('app-builder-lib/out/util/config/config.js') as {
  getConfig(dir: string, path: string, extra: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = fromBuilder('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
const minimatch = fromBuilder('minimatch') as (path: string, pattern: string, options?: object) => boolean;

interface BuilderConfig {
  appId: string;
  productName: string;
  electronVersion: string;
  /** electron-builder normalises `files` to file sets: `[{ filter: [...] }]`. */
  files: (string | { filter: string[] })[];
  asarUnpack: string[];
  linux: PlatformConfig;
  win: PlatformConfig;
  mac: PlatformConfig;
}

interface PlatformConfig {
  target: string[];
  icon: string;
  files?: (string | { filter: string[] })[];
}

/** The patterns of a `files` option, whether electron-builder normalised it to file sets or not. */
const patternsOf = (sets: PlatformConfig['files'] = []) =>
  sets.flatMap((set) => (typeof set === 'string' ? [set] : set.filter));

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
let config: BuilderConfig;
let files: string[];

/**
 * electron-builder's rule: a path is included when the last pattern matching it is not a
 * negation (`included`: the answer when no pattern matches).
 */
function matchedBy(patterns: string[], path: string, included = false): boolean {
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (minimatch(path, negated ? pattern.slice(1) : pattern, { dot: true })) included = !negated;
  }
  return included;
}

/**
 * Whether a file of a production dependency is packed: electron-builder adds those itself, so
 * it is kept unless a pattern excludes it, and the last matching pattern decides.
 */
const keptDependencyFile = (patterns: string[], path: string) => matchedBy(patterns, path, true);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

beforeAll(async () => {
  config = (await getConfig(ROOT, 'electron-builder.yml', null)) as unknown as BuilderConfig;
  files = patternsOf(config.files);
});

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema validation', async () => {
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    // The validator does run: a wrong option is refused.
    await expect(
      validateConfiguration(
        { ...config, linux: { ...config.linux, targets: 'AppImage' } },
        new DebugLogger(false),
      ),
    ).rejects.toThrow(/configuration/);
  });

  it('builds AppImage and deb, NSIS and dmg under the app’s id and name', () => {
    expect(config.appId).toBe('org.narrationstudio.app');
    expect(config.productName).toBe(pkg.productName);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.mac.target).toEqual(['dmg']);
  });

  it('ships one Electron: the version is pinned and electron stays out of dependencies', () => {
    expect(pkg.dependencies.electron).toBeUndefined();
    expect(pkg.optionalDependencies.electron).toBe(config.electronVersion);
    expect(lock.packages['node_modules/electron'].version).toBe(config.electronVersion);
    expect(matchedBy(files, 'node_modules/electron/dist/electron')).toBe(false);
    // No pattern pulls node_modules in by hand: electron-builder adds production dependencies only.
    expect(files.filter((p) => !p.startsWith('!') && p.includes('node_modules'))).toEqual([]);
    for (const dev of Object.keys(pkg.devDependencies)) expect(pkg.dependencies[dev]).toBeUndefined();
  });

  it('packs every file the shell loads, and package.json points at the main bundle', () => {
    expect(pkg.main).toBe(APP_FILES.main);
    const needed = [
      APP_FILES.main,
      ...APP_FILES.workers,
      APP_FILES.preload,
      APP_FILES.uiIndex,
      'dist/renderer/assets/index-abc.js',
      APP_FILES.icon,
      'package.json',
    ];
    for (const file of needed) expect(matchedBy(files, file), file).toBe(true);
    // Source maps and sources stay out.
    expect(matchedBy(files, `${APP_FILES.main}.map`)).toBe(false);
    expect(matchedBy(files, 'electron/main/index.ts')).toBe(false);
  });

  it('unpacks the data the engine, encoder, store and Japanese reader read from disk', () => {
    const packages = [
      '@echogarden/espeak-ng-emscripten',
      'kuromoji',
      'wasm-media-encoders',
      'node-sqlite3-wasm',
    ];
    for (const name of packages) {
      expect(pkg.dependencies[name], `${name} is a production dependency`).toBeDefined();
      const dir = join(ROOT, 'node_modules', name);
      const data = filesUnder(dir)
        .map((f) => relative(ROOT, f).split('\\').join('/'))
        .filter((f) => /\.(data|wasm|dat\.gz)$/.test(f));
      expect(data.length, `${name} has data files`).toBeGreaterThan(0);
      for (const file of data) expect(matchedBy(config.asarUnpack, file), file).toBe(true);
    }
    expect(matchedBy(config.asarUnpack, 'node_modules/@echogarden/espeak-ng-emscripten/espeak-ng.data')).toBe(
      true,
    );
    expect(matchedBy(config.asarUnpack, 'node_modules/kuromoji/dict/base.dat.gz')).toBe(true);
    // Only data is unpacked, not the app.
    expect(matchedBy(config.asarUnpack, APP_FILES.main)).toBe(false);
  });

  describe('onnxruntime-node: only the target platform’s binaries, unpacked', () => {
    const NAPI = 'node_modules/onnxruntime-node/bin/napi-v6';
    /** electron-builder's platform names → node's; the archs it builds here (its names match node's). */
    const PLATFORMS = [
      { key: 'linux', os: 'linux' },
      { key: 'mac', os: 'darwin' },
      { key: 'win', os: 'win32' },
    ] as const;
    const binaries = () => filesUnder(join(ROOT, NAPI)).map((f) => relative(ROOT, f).split('\\').join('/'));

    it('the installed package holds every OS and arch (what there is to filter)', () => {
      const folders = new Set(binaries().map((f) => f.split('/').slice(4, 6).join('/')));
      expect([...folders].sort()).toEqual(
        ['darwin/arm64', 'darwin/x64', 'linux/arm64', 'linux/x64', 'win32/arm64', 'win32/x64'].sort(),
      );
    });

    it.each(PLATFORMS.flatMap((p) => ['x64', 'arm64'].map((arch) => ({ ...p, arch }))))(
      '$key $arch packs only $os/$arch and unpacks it from the asar',
      ({ key, os, arch }) => {
        // As electron-builder does: global patterns, then the platform's, with macros expanded.
        const patterns = [...files, ...patternsOf(config[key].files)].map((p) =>
          p.replaceAll('${arch}', arch).replaceAll('${os}', key),
        );
        const all = binaries();
        const own = all.filter((f) => f.startsWith(`${NAPI}/${os}/${arch}/`));
        expect(own.some((f) => f.endsWith('onnxruntime_binding.node'))).toBe(true);
        for (const file of all) expect(keptDependencyFile(patterns, file), file).toBe(own.includes(file));
        // The module and the shared libraries it loads are on disk, not in the asar.
        for (const file of own) expect(matchedBy(config.asarUnpack, file), file).toBe(true);
        expect(own.filter((f) => /\.(node|so\.\d+|dylib|dll)$/.test(f)).length).toBeGreaterThanOrEqual(2);
        // The rest of the package (its JavaScript) is packed as usual.
        expect(keptDependencyFile(patterns, 'node_modules/onnxruntime-node/dist/index.js')).toBe(true);
      },
    );

    it('the pitch shifter’s sonic.wasm is unpacked (read from disk)', () => {
      expect(pkg.dependencies['@echogarden/sonic-wasm']).toBeDefined();
      const wasm = 'node_modules/@echogarden/sonic-wasm/sonic.wasm';
      expect(existsSync(join(ROOT, wasm))).toBe(true);
      expect(matchedBy(config.asarUnpack, wasm)).toBe(true);
    });
  });

  it('has icons of every size the targets need', () => {
    const pngSize = (path: string) => {
      const bytes = readFileSync(path);
      expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
      return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
    };
    for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) {
      expect(pngSize(join(ROOT, config.linux.icon, `${size}x${size}.png`))).toEqual([size, size]);
    }
    expect(pngSize(join(ROOT, 'assets/icon.png'))).toEqual([1024, 1024]);
    const ico = readFileSync(join(ROOT, config.win.icon));
    expect(ico.readUInt16LE(2)).toBe(1);
    const icoSizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + 16 * i] || 256);
    expect(icoSizes).toEqual(expect.arrayContaining([16, 32, 48, 256]));
    const icns = readFileSync(join(ROOT, config.mac.icon));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.includes(Buffer.from('ic10'))).toBe(true); // 1024×1024 (512@2x)
  });
});

describe('the Electron build', () => {
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'ns-build-'));
    await buildElectron(ROOT, out);
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('writes the main bundle, its workers and the preload where the shell looks for them', () => {
    for (const file of [APP_FILES.main, ...APP_FILES.workers, APP_FILES.preload]) {
      expect(existsSync(join(out, file)), file).toBe(true);
      expect(statSync(join(out, file)).size).toBeGreaterThan(500);
    }
  });

  it('keeps the preload self-contained: it requires electron and nothing else', () => {
    const preload = readFileSync(join(out, APP_FILES.preload), 'utf8');
    const required = [...preload.matchAll(/require\((["'])([^"']+)\1\)/g)].map((m) => m[2]);
    expect(required).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld');
    expect(preload).not.toMatch(/ipcRenderer\.(send|on)\b/);
  });

  it('leaves packages to node_modules (so unpacked data is found) and has no static electron import', () => {
    const main = readFileSync(join(out, APP_FILES.main), 'utf8');
    expect(main).toMatch(/from "fastify"/);
    expect(main).not.toMatch(/from "electron"/);
    const worker = readFileSync(join(out, 'dist/electron/main/espeak-worker.js'), 'utf8');
    expect(worker).toContain('@echogarden/espeak-ng-emscripten');
  });
});
