/**
 * The composition root with a fake Electron and the real core: the same `createCore` as
 * headless `serve`, on port 0 with a temp data dir and the real engine.
 */

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core, type CoreOptions } from '../../electron/core/studio-core';
import { createEngineHost } from '../../electron/core/engine/host/engine-host';
import { createSettingsStore } from '../../electron/core/platform/settings-store';
import { DESKTOP_CHANNELS, type ServerInfo } from '../../electron/shared/desktop-api';
import { keepsRunningWhenClosed } from '../../electron/shared/settings';
import { createFileLog } from '../../electron/main/log';
import type { MenuItemOptions } from '../../electron/main/electron-types';
import { runShell, type ShellOptions } from '../../electron/main/shell';
import { CONTENT_SECURITY_POLICY } from '../../electron/main/security';
import { signInStudio } from '../fixtures/studio-session';
import { createFakeElectron } from './fake-electron';

const dirs: string[] = [];
const blockers: Server[] = [];
afterEach(async () => {
  for (const server of blockers.splice(0)) await new Promise((r) => server.close(r));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setUp(
  options: {
    port?: number;
    allowedOrigins?: string[];
    lock?: boolean;
    answers?: number[];
    moveOldData?: ShellOptions['moveOldData'];
  } = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'ns-shell-'));
  dirs.push(root);
  const uiDir = join(root, 'ui');
  const fake = createFakeElectron({
    ...(options.lock === undefined ? {} : { lock: options.lock }),
    messageBoxAnswers: options.answers ?? [],
    paths: { logs: join(root, 'logs'), documents: join(root, 'docs') },
  });
  const backing = {
    store: {
      port: options.port ?? 0,
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    } as Record<string, unknown>,
    path: join(root, 'settings.json'),
  };
  const settings = createSettingsStore(backing);
  const log = createFileLog({ dir: join(root, 'logs') });
  const coreCalls: CoreOptions[] = [];
  const cores: Core[] = [];
  // As the main module does: start the shell, and let Electron become ready after that.
  const run = () => {
    const started = runShell({
      electron: fake.electron,
      settings,
      log,
      platform: 'linux',
      preloadPath: join(root, 'preload.cjs'),
      uiDir,
      iconPath: join(root, 'icon.png'),
      trayIconPath: join(root, 'tray.png'),
      defaultDataDir: join(root, 'data'),
      ...(options.moveOldData ? { moveOldData: options.moveOldData } : {}),
      startEngine: () => createEngineHost({ poolSize: 1 }),
      createCore: async (o) => {
        coreCalls.push(o);
        const core = await createCore(o);
        cores.push(core);
        return core;
      },
    });
    fake.app.emitReady();
    return started;
  };
  return { root, uiDir, fake, settings, backing, log, coreCalls, cores, run };
}

async function get(url: string, headers: Record<string, string> = {}) {
  return fetch(url, { redirect: 'manual', headers });
}

const clickable = (template: MenuItemOptions[]): MenuItemOptions[] =>
  template.flatMap((item) => [item, ...clickable(item.submenu ?? [])]);

describe('desktop shell', () => {
  it('starts the core, opens a signed-in window, and stops everything on quit', async () => {
    const t = setUp();
    mkdirSync(t.uiDir, { recursive: true });
    writeFileSync(join(t.uiDir, 'index.html'), '<!doctype html><title>studio</title>');
    const shell = await t.run();
    expect(shell).toBeDefined();
    const core = shell!.core()!;

    // The same core as headless mode: createCore with the data dir, port, shared engine and UI.
    expect(t.coreCalls).toHaveLength(1);
    expect(t.coreCalls[0]).toMatchObject({ dataDir: join(t.root, 'data'), port: 0, uiDir: t.uiDir });
    expect(t.coreCalls[0]!.engine).toBe(core.engine);
    expect(existsSync(join(t.root, 'data', 'studio.db'))).toBe(true);

    // The window is hardened and loads the login address, which signs it in.
    const win = t.fake.windows[0]!;
    expect(win.options.webPreferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    });
    expect(win.loaded).toEqual([core.loginUrl]);
    // The window's page posts the address's token (the fake window does not run it: done here).
    const windowSession = await signInStudio(core.loginUrl);
    expect((await get(`${core.url}/api/v1/session`, windowSession.headers)).status).toBe(200);
    const cookie = windowSession.cookie;
    const page = await get(`${core.url}/`, { cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>studio</title>');
    win.emit('ready-to-show');
    expect(win.shown).toBe(true);

    // Session: every response gets the CSP; no permission is granted.
    expect(t.fake.headers({ url: `${core.url}/`, responseHeaders: {} })).toMatchObject({
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
    expect(t.fake.permission('media')).toBe(false);
    expect(t.fake.spellChecker).toEqual([false]);

    // The page's bridge reaches main; the tray shows the API's address.
    // Its token is the current one (the window's was spent): the window signs itself in again
    // with it when its session ended (idle, or signed out), so the desktop stays signed in.
    const info = (await t.fake.invoke(DESKTOP_CHANNELS.getServerInfo, `${core.url}/`)) as ServerInfo;
    expect(info).toEqual({ url: core.url, loginToken: new URL(core.loginUrl).searchParams.get('token') });
    expect(info.loginToken).not.toBe(new URL(t.fake.windows[0]!.loaded[0]!).searchParams.get('token'));
    const again = await signInStudio(`${core.url}/?token=${info.loginToken}`);
    expect((await get(`${core.url}/api/v1/session`, again.headers)).status).toBe(200);
    const tray = t.fake.trays[0]!;
    expect(tray.toolTip).toContain(`running on ${core.url}`);

    // Menu: Open Logs Folder opens the per-user log folder.
    const menu = clickable(t.fake.templates.find((m) => m.some((i) => i.role === 'editMenu'))!);
    menu.find((i) => i.label === 'Open Logs Folder')!.click!();
    expect(t.fake.opened).toContain(join(t.root, 'logs'));

    // The page names its language (Settings, or the browser's): menus and tray speak it.
    await t.fake.invoke(DESKTOP_CHANNELS.setLanguage, `${core.url}/`, 'vi');
    const appMenus = t.fake.templates.filter((m) => m.some((i) => i.role === 'editMenu'));
    expect(
      appMenus
        .at(-1)!
        .map((i) => i.label)
        .filter(Boolean),
    ).toEqual(['Tệp', 'Sửa', 'Xem', 'Cửa sổ', 'Trợ giúp']);
    expect(clickable(appMenus.at(-1)!).map((i) => i.label)).toContain('Mở thư mục nhật ký');
    expect(tray.toolTip).toContain(`API cục bộ: đang chạy tại ${core.url}`);
    const trayLabels = (tray.menu as unknown as { template: MenuItemOptions[] }).template.map((i) => i.label);
    expect(trayLabels).toContain('Thoát');
    await t.fake.invoke(DESKTOP_CHANNELS.setLanguage, `${core.url}/`, 'en');
    const appMenu = t.fake.templates.filter((m) => m.some((i) => i.role === 'editMenu')).at(-1)!;
    expect(appMenu.some((i) => i.label === 'File')).toBe(true);
    expect(tray.toolTip).toContain(`running on ${core.url}`);

    // Second launch focuses the window.
    t.fake.app.emit('second-instance');
    expect(win.focused).toBe(1);

    // Window place is remembered.
    win.bounds = { x: 40, y: 50, width: 1000, height: 700 };
    win.close();
    expect(t.settings.get().windowBounds).toEqual({
      x: 40,
      y: 50,
      width: 1000,
      height: 700,
      maximized: false,
    });
    // With a tray and the choice made in Settings, closing the window keeps the API running
    // for other apps (on Linux that is not the default: see the next test).
    t.settings.update({ keepRunningWhenClosed: true });
    t.fake.app.emit('window-all-closed');
    expect(t.fake.app.quitCalls).toBe(0);
    expect((await get(`${core.url}/`, { cookie })).status).toBe(200);

    // Quit: held until server, jobs, store and engine are closed, then quits for real.
    t.fake.app.quit();
    // A second quit while shutting down is held too (it would otherwise end the process midway).
    const quitEvents: string[] = [];
    t.fake.app.on('quit', () => quitEvents.push('quit'));
    t.fake.app.quit();
    expect(quitEvents).toEqual([]);
    await shell!.stopped;
    await new Promise((r) => setImmediate(r));
    expect(t.fake.app.quitCalls).toBe(3);
    expect(quitEvents).toEqual(['quit']);
    await expect(get(`${core.url}/`)).rejects.toThrow();
    await expect(
      core.engine.audition({ voice_code: 'en_male_echo_default', speed_rate: 1, pitch_rate: 1, volume: 100 }),
    ).rejects.toThrow();
    await expect(core.store.keys.list()).rejects.toThrow();
    expect(tray.destroyed).toBe(true);
    expect(readFileSync(t.log.file, 'utf8')).toMatch(/quitting[\s\S]*stopped/);
  });

  it('moves old data once it holds the single-instance lock, and starts nothing when that fails', async () => {
    const calls: (string | null)[] = [];
    const t = setUp({
      moveOldData: (chosen) => {
        calls.push(chosen);
        throw new Error(
          'The data in /old could not be moved into /new: EBUSY. Quit every other Narration Studio',
        );
      },
    });
    expect(await t.run()).toBeUndefined();
    expect(calls).toEqual([null]);
    expect(t.fake.errorBoxes).toEqual([
      { title: 'Narration Studio could not start', content: expect.stringContaining('could not be moved') },
    ]);
    expect(t.fake.app.exitCode).toBe(1);
    // Nothing opened the data folder: no core, no window.
    expect(t.coreCalls).toEqual([]);
    expect(t.fake.windows).toEqual([]);

    // A second instance never moves anything (the first one holds the lock).
    const second = setUp({ lock: false, moveOldData: () => ['studio.db'] });
    expect(await second.run()).toBeUndefined();
    expect(readFileSync(second.log.file, 'utf8')).not.toMatch(/moved/);
  });

  it('quits when the window closes on Linux unless the user chose to keep running', async () => {
    const t = setUp();
    const shell = (await t.run())!;
    expect(t.settings.get().keepRunningWhenClosed).toBeNull();
    shell.window()!.close();
    t.fake.app.emit('window-all-closed');
    // Quit begins (held until the shutdown is done), so no process is left holding the port.
    expect(t.fake.app.quitCalls).toBe(1);
    await shell.stopped;
  });

  it('starts the core with the allowed origins of the settings file (read at start, like the port)', async () => {
    const page = 'http://127.0.0.1:5001';
    const t = setUp({ allowedOrigins: [page] });
    const shell = (await t.run())!;
    expect(t.coreCalls[0]!.allowedOrigins).toEqual([page]);
    const core = shell.core()!;
    const preflight = await fetch(`${core.url}/v1/audio/speech`, {
      method: 'OPTIONS',
      headers: { origin: page, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(page);
    const other = await fetch(`${core.url}/v1/audio/speech`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:5002', 'access-control-request-method': 'POST' },
    });
    expect(other.status).toBe(403);
    shell.window()!.close();
    t.fake.app.emit('window-all-closed');
    await shell.stopped;
  });

  it('decides what closing the window does from the choice, the OS and the tray', () => {
    // Without a tray nothing would show the app still runs: always quit.
    for (const choice of [true, false, null])
      expect(keepsRunningWhenClosed(choice, 'win32', false)).toBe(false);
    // The OS's default: macOS and Windows keep running; Linux quits (its tray may be missing).
    expect(keepsRunningWhenClosed(null, 'darwin', true)).toBe(true);
    expect(keepsRunningWhenClosed(null, 'win32', true)).toBe(true);
    expect(keepsRunningWhenClosed(null, 'linux', true)).toBe(false);
    // The user's choice wins.
    expect(keepsRunningWhenClosed(true, 'linux', true)).toBe(true);
    expect(keepsRunningWhenClosed(false, 'win32', true)).toBe(false);
  });

  it('pauses and resumes the local API from the tray', async () => {
    const t = setUp();
    const shell = (await t.run())!;
    const first = shell.core()!;
    const trayItems = () => (t.fake.trays[0]!.menu as unknown as { template: MenuItemOptions[] }).template;

    trayItems().find((i) => i.label === 'Copy Local API Address')!.click!();
    expect(t.fake.clipboard).toEqual([first.url]);

    await shell.pause();
    expect(shell.status()).toEqual({ state: 'paused' });
    expect(t.fake.trays[0]!.toolTip).toContain('paused');
    await expect(get(`${first.url}/`)).rejects.toThrow();
    expect(trayItems().find((i) => i.label === 'Open Narration Studio')!.enabled).toBe(false);
    // Paused: the bridge refuses, since no page can belong to the server.
    await expect(t.fake.invoke(DESKTOP_CHANNELS.getAppVersion, `${first.url}/`)).rejects.toThrow(/refused/);

    await shell.resume();
    const second = shell.core()!;
    expect(shell.status()).toEqual({ state: 'running', url: second.url });
    expect(t.fake.windows[0]!.loaded.at(-1)).toBe(second.loginUrl);
    expect(second.engine).toBe(first.engine);
    expect(
      (await get(`${second.url}/api/v1/session`, (await signInStudio(second.loginUrl)).headers)).status,
    ).toBe(200);

    t.fake.app.quit();
    await shell.stopped;
  });

  it('offers another port when the configured one is taken, and remembers the choice', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen({ port: 0, host: '127.0.0.1' }, r));
    blockers.push(blocker);
    const taken = (blocker.address() as { port: number }).port;
    const t = setUp({ port: taken, answers: [0] });
    const shell = (await t.run())!;
    expect(t.fake.messageBoxes[0]?.message).toBe(`Port ${taken} is already in use by another program.`);
    const chosen = t.settings.get().port;
    expect(chosen).not.toBe(taken);
    expect(shell.core()!.port).toBe(chosen);
    t.fake.app.quit();
    await shell.stopped;
  });

  it('quits when the user declines another port', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen({ port: 0, host: '127.0.0.1' }, r));
    blockers.push(blocker);
    const taken = (blocker.address() as { port: number }).port;
    const t = setUp({ port: taken, answers: [1] });
    expect(await t.run()).toBeUndefined();
    expect(t.fake.app.quitCalls).toBeGreaterThanOrEqual(1);
    expect(t.fake.windows).toHaveLength(0);
    expect(t.cores).toHaveLength(0);
  });

  it('a second instance hands over to the first and starts nothing', async () => {
    const t = setUp({ lock: false });
    expect(await t.run()).toBeUndefined();
    expect(t.fake.app.quitCalls).toBe(1);
    expect(t.coreCalls).toHaveLength(0);
    expect(t.fake.windows).toHaveLength(0);
  });
});
