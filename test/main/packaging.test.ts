/**
 * The packaging configuration: electron-builder's own schema validation, the targets, no
 * second Electron, one main file matcher, the Linux metadata, the icons, and the Electron
 * build. What the installers then hold is checked by running electron-builder itself
 * (installer.test.ts).
 */

import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, ROOT } from '../../electron/launch/build';
import { APP_FILES, trayIcon } from '../../electron/main/app-files';

// electron-builder's own modules (a devDependency's dependencies): its config loader and
// validator.
const fromBuilder = createRequire(createRequire(import.meta.url).resolve('electron-builder'));
const { getConfig, validateConfiguration } = fromBuilder('app-builder-lib/out/util/config/config.js') as {
  getConfig(dir: string, path: string, extra: null): Promise<Record<string, unknown>>;
  validateConfiguration(config: unknown, logger: unknown): Promise<void>;
};
const { DebugLogger } = fromBuilder('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };

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

/** RGBA pixels of an 8-bit RGBA PNG without filtering (as make-icons.ts writes them). */
function decodePng(bytes: Buffer): Uint8Array {
  const width = bytes.readUInt32BE(16);
  const chunks: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    if (bytes.toString('ascii', at + 4, at + 8) === 'IDAT')
      chunks.push(bytes.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const rows = raw.length / (width * 4 + 1);
  const rgba = new Uint8Array(width * rows * 4);
  for (let y = 0; y < rows; y++) {
    expect(raw[y * (width * 4 + 1)], 'filter type none').toBe(0);
    rgba.set(raw.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)), y * width * 4);
  }
  return rgba;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
let config: BuilderConfig;
let files: string[];

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
    // No pattern pulls node_modules in by hand: electron-builder adds production dependencies only.
    expect(files.filter((p) => !p.startsWith('!') && p.includes('node_modules'))).toEqual([]);
    for (const dev of Object.keys(pkg.devDependencies)) expect(pkg.dependencies[dev]).toBeUndefined();
    // The build tools are not production dependencies (tsx alone is 23 MB with its esbuild).
    for (const tool of ['tsx', 'esbuild', 'vite', 'typescript'])
      expect(pkg.dependencies[tool]).toBeUndefined();
  });

  it('has one main matcher: no platform section lists files of its own', () => {
    // A platform's `files` made of exclusions alone becomes "**/*" and those exclusions:
    // every installer then packs the whole repository.
    for (const key of ['linux', 'win', 'mac'] as const) expect(config[key].files, key).toBeUndefined();
  });

  it('has the Linux package metadata: homepage and a maintainer address', () => {
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.author.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
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

  it('has a tray icon of each OS’s kind: macOS Template images, a Windows ICO, a small Linux PNG', () => {
    const png = (path: string) => {
      const bytes = readFileSync(join(ROOT, path));
      expect(bytes.subarray(1, 4).toString('ascii'), path).toBe('PNG');
      return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colourType: bytes[25] };
    };
    // macOS: "…Template.png" 16×16 with its @2x at 32×32, RGBA (colour type 6).
    const template = trayIcon('darwin');
    expect(template).toMatch(/Template\.png$/);
    expect(png(template)).toEqual({ width: 16, height: 16, colourType: 6 });
    expect(png(template.replace('.png', '@2x.png'))).toEqual({ width: 32, height: 32, colourType: 6 });
    // A Template image is black with alpha: macOS uses only the alpha and tints it.
    for (const size of [16, 32]) {
      const rgba = decodePng(
        readFileSync(join(ROOT, size === 16 ? template : template.replace('.png', '@2x.png'))),
      );
      const opaque = Array.from({ length: rgba.length / 4 }, (_, i) => i).filter((i) => rgba[i * 4 + 3]! > 0);
      expect(opaque.length, `${size}: something is drawn`).toBeGreaterThan(size * 2);
      expect(
        opaque.every((i) => rgba[i * 4]! === 0 && rgba[i * 4 + 1]! === 0 && rgba[i * 4 + 2]! === 0),
      ).toBe(true);
    }
    const ico = readFileSync(join(ROOT, trayIcon('win32')));
    expect(ico.readUInt16LE(2)).toBe(1);
    const sizes = Array.from({ length: ico.readUInt16LE(4) }, (_, i) => ico[6 + 16 * i]);
    expect(sizes).toEqual(expect.arrayContaining([16, 24, 32]));
    expect(png(trayIcon('linux'))).toMatchObject({ width: 32, height: 32 });
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
    // eSpeak's data file stays in its package; its WebAssembly build is beside the worker.
    expect(worker).toContain('@echogarden/espeak-ng-emscripten/espeak-ng.data');
    for (const name of ['espeak-ng.wasm', 'espeak-ng.cjs', 'espeak-ng-data-files.json']) {
      expect(statSync(join(out, 'dist/electron/main', name)).size).toBeGreaterThan(500);
    }
  });
});
