/**
 * The built desktop bundle, run as Electron would run it but under plain Node with a stand-in
 * `electron` module (fixtures/electron-module.cjs), in Electron's order: the main module is
 * evaluated to its end before 'ready' (fixtures/electron-entry.mjs). Proves the ESM bundle
 * loads without waiting on 'ready' at its top level, finds its
 * engine workers beside it, reads and writes settings through electron-store, serves a
 * signed-in studio that synthesises, and shuts down in order on quit.
 */

import { spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, buildUiIfStale, ROOT } from '../../electron/launch/build';
import { APP_FILES } from '../../electron/main/app-files';

let app: string;
/** Electron's start-up order, beside the app (so that its `electron` is the app's stand-in). */
const ENTRY = 'electron-entry.mjs';

beforeAll(async () => {
  app = mkdtempSync(join(tmpdir(), 'ns-bundle-'));
  await buildElectron(ROOT, app);
  // The studio UI the window loads (built once for the repository, copied beside the bundle).
  buildUiIfStale(ROOT);
  cpSync(join(ROOT, APP_FILES.uiDir), join(app, APP_FILES.uiDir), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ type: 'module', main: APP_FILES.main }));
  // The app's node_modules: the real packages, except electron (the stand-in) and
  // electron-store (copied, so that its `import 'electron'` resolves to the stand-in).
  const modules = join(app, 'node_modules');
  mkdirSync(join(modules, 'electron'), { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === 'electron' || name === 'electron-store' || name.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name), 'junction');
  }
  cpSync(join(ROOT, 'node_modules/electron-store'), join(modules, 'electron-store'), { recursive: true });
  cpSync(
    fileURLToPath(new URL('./fixtures/electron-module.cjs', import.meta.url)),
    join(modules, 'electron/index.js'),
  );
  cpSync(fileURLToPath(new URL('./fixtures/electron-entry.mjs', import.meta.url)), join(app, ENTRY));
  writeFileSync(
    join(modules, 'electron/package.json'),
    JSON.stringify({ name: 'electron', main: 'index.js' }),
  );
});

afterAll(() => rmSync(app, { recursive: true, force: true }));

interface Run {
  events: Record<string, unknown>[];
  code: number | null;
  stderr: string;
}

/** Runs the bundle; with `signal`, sends it once the window has loaded. */
function runApp(userDir: string, signal?: NodeJS.Signals): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(app, ENTRY), join(app, APP_FILES.main)], {
      cwd: app,
      env: {
        ...process.env,
        FAKE_ELECTRON_USER_DIR: userDir,
        FAKE_ELECTRON_STAY: signal ? '1' : '0',
        NODE_OPTIONS: '',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (signal && stdout.includes('"event":"loaded"')) {
        child.kill(signal);
        signal = undefined;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const events = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      resolve({ events, code, stderr });
    });
  });
}

function userDirWithSettings(name: string, dataDir: string): string {
  const userDir = join(app, name);
  mkdirSync(join(userDir, 'userData'), { recursive: true });
  writeFileSync(join(userDir, 'userData/settings.json'), JSON.stringify({ port: 0, dataDir }));
  return userDir;
}

describe('the built desktop app under a stand-in Electron', () => {
  it('starts the studio from its settings, synthesises, remembers the window and quits cleanly', async () => {
    const dataDir = join(app, 'data');
    const userDir = userDirWithSettings('user', dataDir);

    const { events, code, stderr } = await runApp(userDir);
    const byName = (name: string) => events.filter((e) => e.event === name);
    // Electron's order: the main module finishes evaluating, then 'ready', then the window.
    expect(
      events.map((e) => e.event).filter((e) => ['main-evaluated', 'ready', 'window'].includes(String(e))),
      'the main module must not wait for ready at its top level',
    ).toEqual(['main-evaluated', 'ready', 'window']);
    expect(code, stderr).toBe(0);

    expect(byName('window')[0]?.webPreferences).toMatchObject({
      preload: join(app, APP_FILES.preload),
      sandbox: true,
      contextIsolation: true,
      // No dictionary downloads from Google: off for the window and for the session.
      spellcheck: false,
    });
    expect(byName('spellchecker')).toEqual([{ event: 'spellchecker', enable: false }]);
    expect(byName('loaded')[0]).toMatchObject({
      // The window loads the local studio's page, which signs in with the address's token.
      pageStatus: 200,
      pageTitle: 'Narration Studio',
      signInStatus: 200,
      auditionStatus: 200,
      auditionType: 'audio/wav',
      auditionRiff: 'RIFF',
    });
    expect(byName('loaded')[0]!.auditionBytes as number).toBeGreaterThan(10_000);
    expect(byName('tray').map((e) => e.text)).toContainEqual(
      expect.stringMatching(/^Narration Studio — Local API: running on http:\/\/127\.0\.0\.1:\d+$/),
    );
    expect(byName('quit')).toHaveLength(1);
    expect(byName('error-box')).toEqual([]);

    // Settings: the file was migrated to the full schema and the window's place saved on quit.
    const settings = JSON.parse(readFileSync(join(userDir, 'userData/settings.json'), 'utf8'));
    expect(settings).toMatchObject({ version: 1, port: 0, dataDir, theme: 'system' });
    expect(settings.windowBounds).toEqual({ x: 10, y: 20, width: 1000, height: 700, maximized: false });
    expect(existsSync(join(dataDir, 'studio.db'))).toBe(true);
    const log = readFileSync(join(userDir, 'logs/main.log'), 'utf8');
    expect(log).toMatch(/running on[\s\S]*quitting[\s\S]*stopped/);
  });

  it('quits in order on SIGTERM (the session ending, or Ctrl+C in npm start)', async () => {
    const userDir = userDirWithSettings('user-signal', join(app, 'data-signal'));
    const { events, code, stderr } = await runApp(userDir, 'SIGTERM');
    expect(code, stderr).toBe(0);
    expect(events.filter((e) => e.event === 'quit')).toHaveLength(1);
    const log = readFileSync(join(userDir, 'logs/main.log'), 'utf8');
    expect(log).toMatch(/quitting[\s\S]*stopped/);
  });
});
