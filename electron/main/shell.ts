/**
 * The desktop shell's behaviour, given an Electron-like module: single instance, security
 * settings, the core (the same `createCore` as headless `serve`), window, menu, tray, IPC and
 * ordered shutdown. `index.ts` passes the real Electron; tests pass a fake.
 *
 * Ownership: the shell owns the engine (it survives pausing the server) and the core
 * (server, jobs, store); quitting closes the core in its order (server, jobs, engine's users,
 * store), then the engine. Closing the window leaves the local API running in the tray for
 * other apps where the settings say so (by default on macOS and Windows, not on Linux, where a
 * tray may silently be missing); Quit (menu, tray, or the OS) stops everything.
 */

import { createCore as realCreateCore, type Core, type CoreOptions } from '../core/studio-core';
import type { Engine } from '../core/engine';
import type { SettingsStore } from '../core/platform/settings-store';
import type { DesktopApi } from '../shared/desktop-api';
import { keepsRunningWhenClosed, voiceMappingOf } from '../shared/settings';
import { restoreBounds } from './bounds';
import { createDesktopApi, registerDesktopApi } from './desktop-api';
import type { BrowserWindowLike, ElectronMain, TrayLike } from './electron-types';
import type { FileLog } from './log';
import { menuLocale, type MenuLocale } from '../shared/i18n/menu-messages';
import { appMenuTemplate, statusLine, trayMenuTemplate, type ServerStatus } from './menus';
import { findFreePort, isAddressInUse, portInUseQuestion } from './ports';
import { guardNavigation, windowOptions, withContentSecurityPolicy } from './security';

export interface ShellOptions {
  electron: ElectronMain;
  settings: SettingsStore;
  log: FileLog;
  platform: NodeJS.Platform;
  /** Built preload script (CommonJS). */
  preloadPath: string;
  /** Built renderer served by the local server. */
  uiDir: string;
  /** Window icon (PNG). */
  iconPath: string;
  /** Tray icon, in the OS's own kind (`trayIcon` in app-files.ts). */
  trayIconPath: string;
  /** Data folder when the settings name none. */
  defaultDataDir: string;
  /**
   * Moves data an earlier version kept elsewhere into `defaultDataDir`, once (given the data
   * folder the settings name, which is never moved); returns what moved, throws what stops it.
   * Runs once this process holds the single-instance lock, before anything opens the data.
   */
  moveOldData?: (chosenDataDir: string | null) => string[];
  /**
   * Starts the engine once for the app's lifetime, its sentence cache in `dataDir` (the data
   * folder at start: a new one takes effect at the next start, as for the database).
   */
  startEngine(dataDir: string): Promise<Engine>;
  /** The core factory; the real one unless a test wraps it. */
  createCore?: (options: CoreOptions) => Promise<Core>;
}

export interface Shell {
  status(): ServerStatus;
  core(): Core | undefined;
  window(): BrowserWindowLike | undefined;
  readonly desktopApi: DesktopApi;
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** Resolves once everything is closed (after a quit). */
  readonly stopped: Promise<void>;
}

/** Returns undefined when another instance already runs (it is focused instead). */
export async function runShell(options: ShellOptions): Promise<Shell | undefined> {
  const { electron, settings, log } = options;
  const { app } = electron;
  const createCore = options.createCore ?? realCreateCore;

  if (!app.requestSingleInstanceLock()) {
    log.info('another instance is running: focusing it');
    app.quit();
    return undefined;
  }
  if (!moveOldData(options)) return undefined;

  let window: BrowserWindowLike | undefined;
  let tray: TrayLike | undefined;
  let core: Core | undefined;
  let engine: Engine | undefined;
  let status: ServerStatus = { state: 'starting' };
  // The menus, tray and dialogs speak the system's language (app.getLocale(): vi* → Vietnamese)
  // until the page names the interface's (Settings, or the browser language it follows).
  let language: MenuLocale = menuLocale(app.getLocale());
  let quitting = false;
  let markStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));

  // No origin while the server is paused: nothing navigates or calls IPC then.
  const origin = () => (core ? new URL(core.url).origin : '');
  const openExternal = (url: string) => {
    electron.shell.openExternal(url).catch((error: unknown) => log.warn(`openExternal: ${String(error)}`));
  };
  const dataDir = () => settings.get().dataDir ?? options.defaultDataDir;
  const logFailure = (what: string) => (error: unknown) =>
    log.error(`${what}: ${(error as Error).stack ?? String(error)}`);

  const focusWindow = () => {
    if (!window || window.isDestroyed()) {
      if (core) createWindow(core);
      return;
    }
    showWindow(window);
  };

  const copyBaseUrl = () => {
    if (core) electron.clipboard.writeText(core.url);
  };

  const setStatus = (next: ServerStatus) => {
    status = next;
    log.info(statusLine(next));
    if (!tray) return;
    showStatusInTray(electron, tray, next, language, {
      open: focusWindow,
      copyBaseUrl,
      pause: () => void pause().catch(logFailure('pausing the local API')),
      resume: () => void resume().catch(logFailure('resuming the local API')),
      quit: () => app.quit(),
    });
  };

  const startCore = () => startCoreOnFreePort(options, createCore, engine!, dataDir());

  const saveBounds = (win: BrowserWindowLike) => saveWindowBounds(settings, win);

  function createWindow(running: Core): BrowserWindowLike {
    const win = openStudioWindow(options, running, { origin, openExternal, saveBounds });
    win.on('closed', () => {
      if (window === win) window = undefined;
    });
    window = win;
    return win;
  }

  const pause = async () => {
    if (!core) return;
    const closing = core;
    core = undefined;
    await closing.close();
    setStatus({ state: 'paused' });
  };

  const resume = async () => {
    if (core || quitting) return;
    setStatus({ state: 'starting' });
    try {
      core = await startCore();
    } catch (error) {
      setStatus({ state: 'failed', message: (error as Error).message });
      return;
    }
    if (!core) return setStatus({ state: 'paused' });
    setStatus({ state: 'running', url: core.url });
    if (window && !window.isDestroyed()) await window.loadURL(core.loginUrl);
  };

  const shutdown = async () => {
    log.info('quitting: closing server, jobs, store, engine');
    try {
      if (window && !window.isDestroyed()) saveBounds(window);
      await core?.close();
      core = undefined;
      await engine?.close();
      engine = undefined;
    } finally {
      tray?.destroy();
      tray = undefined;
      log.info('stopped');
      markStopped();
    }
  };

  app.on('second-instance', focusWindow);
  holdQuitsUntilStopped(options, () => {
    quitting = true;
    return shutdown();
  });
  // The local API keeps serving other apps from the tray when the window is closed, where a
  // tray shows that it does (Settings: "When the desktop window closes").
  app.on('window-all-closed', () => quitUnlessKeptRunning(options, tray !== undefined));
  app.on('activate', focusWindow);

  await app.whenReady();
  secureSession(electron);

  const desktopApi = createDesktopApi({
    serverInfo: () => serverInfoOf(core),
    electron,
    appVersion: app.getVersion(),
    defaultSaveDir: app.getPath('documents'),
    language: () => language,
    setLanguage(next) {
      if (next === language) return;
      language = next;
      setApplicationMenu();
      setStatus(status);
    },
  });
  registerDesktopApi(electron.ipcMain, desktopApi, origin);

  const setApplicationMenu = () =>
    showApplicationMenu(options, language, {
      openLogsFolder: () => void electron.shell.openPath(app.getPath('logs')),
      openDataFolder: () => void electron.shell.openPath(dataDir()),
      copyBaseUrl,
    });
  setApplicationMenu();
  tray = openTray(options, focusWindow);
  setStatus({ state: 'starting' });

  try {
    engine = await options.startEngine(dataDir());
    core = await startCore();
  } catch (error) {
    startUpFailed(options, error);
    return undefined;
  }
  if (!core) {
    app.quit();
    return undefined;
  }
  setStatus({ state: 'running', url: core.url });
  createWindow(core);

  return {
    status: () => status,
    core: () => core,
    window: () => window,
    desktopApi,
    pause,
    resume,
    stopped,
  };
}

/**
 * Moves an earlier version's data (ShellOptions.moveOldData); false when that failed, which
 * was said (log and dialog) and the app exits.
 */
function moveOldData(options: ShellOptions): boolean {
  const { electron, settings, log } = options;
  try {
    const moved = options.moveOldData?.(settings.get().dataDir) ?? [];
    if (moved.length > 0) log.info(`moved ${moved.join(', ')} into ${options.defaultDataDir}`);
    return true;
  } catch (error) {
    // Nothing has started and nothing may open the data folder: say why and stop.
    log.error(`moving the data: ${(error as Error).stack ?? String(error)}`);
    electron.dialog.showErrorBox('Narration Studio could not start', (error as Error).message);
    electron.app.exit(1);
    return false;
  }
}

/** Starts the core on the configured port; on a taken port asks for another (undefined: declined). */
async function startCoreOnFreePort(
  options: ShellOptions,
  createCore: (options: CoreOptions) => Promise<Core>,
  engine: Engine,
  dataDir: string,
): Promise<Core | undefined> {
  const { electron, settings, log } = options;
  let port = settings.get().port;
  for (;;) {
    try {
      return await createCore({
        dataDir,
        port,
        // Read at start, like the port and the data folder (the Settings view says so).
        allowedOrigins: settings.get().allowedOrigins,
        engine,
        uiDir: options.uiDir,
        log,
        holder: 'Narration Studio desktop app',
        voiceMapping: voiceMappingOf(settings.get()),
        // The Settings view edits this same store, so the shell's later writes keep the change.
        settings,
      });
    } catch (error) {
      if (!isAddressInUse(error)) throw error;
      const alternative = await findFreePort(port);
      log.warn(`port ${port} is in use; offering ${alternative}`);
      const { response } = await electron.dialog.showMessageBox(portInUseQuestion(port, alternative));
      if (response !== 0) return undefined;
      settings.update({ port: alternative });
      port = alternative;
    }
  }
}

/** The session's security: the content security policy, no permissions, no spellchecker downloads. */
function secureSession(electron: ElectronMain): void {
  const { defaultSession } = electron.session;
  defaultSession.webRequest.onHeadersReceived((details, callback) =>
    callback({ responseHeaders: withContentSecurityPolicy(details) }),
  );
  // The studio needs no camera, microphone, notifications or other permission.
  defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  // Chromium's spellchecker downloads Hunspell dictionaries from Google (Windows and Linux),
  // at the session's level whatever the window asks: off for the session too.
  defaultSession.setSpellCheckerEnabled(false);
}

/**
 * Holds every quit (a second Quit click, a repeated signal) until `shutdown`, started by the
 * first, is done; then quits (or exits 1 when it failed).
 */
function holdQuitsUntilStopped(options: ShellOptions, shutdown: () => Promise<void>): void {
  const { app } = options.electron;
  let quitting = false;
  let isStopped = false;
  app.on('before-quit', (event) => {
    if (isStopped) return;
    event.preventDefault();
    if (quitting) return;
    quitting = true;
    shutdown().then(
      () => {
        isStopped = true;
        app.quit();
      },
      (error: unknown) => {
        options.log.error(`shutdown failed: ${(error as Error).stack ?? String(error)}`);
        app.exit(1);
      },
    );
  });
}

/**
 * Opens the studio's window where it was (restored bounds), navigation kept to the server's
 * origin; the login address signs it in (the server then drops the token from the URL).
 */
function openStudioWindow(
  options: ShellOptions,
  running: Core,
  on: {
    origin(): string;
    openExternal(url: string): void;
    saveBounds(win: BrowserWindowLike): void;
  },
): BrowserWindowLike {
  const { electron, settings, log } = options;
  const bounds = restoreBounds(
    settings.get().windowBounds,
    electron.screen.getAllDisplays().map((d) => d.workArea),
  );
  const win = new electron.BrowserWindow(
    windowOptions({ preloadPath: options.preloadPath, bounds, icon: options.iconPath }),
  );
  guardNavigation(win.webContents, on.origin, on.openExternal);
  win.on('ready-to-show', () => {
    if (bounds?.maximized) win.maximize();
    win.show();
  });
  win.on('close', () => on.saveBounds(win));
  win.loadURL(running.loginUrl).catch((error: unknown) => log.warn(`loading the studio: ${String(error)}`));
  return win;
}

/** The server's status in the tray: its tooltip and menu, in the menus' language. */
function showStatusInTray(
  electron: ElectronMain,
  tray: TrayLike,
  status: ServerStatus,
  locale: MenuLocale,
  actions: Parameters<typeof trayMenuTemplate>[1],
): void {
  tray.setToolTip(`Narration Studio — ${statusLine(status, locale)}`);
  tray.setContextMenu(electron.Menu.buildFromTemplate(trayMenuTemplate(status, actions, locale)));
}

/** The application menu in the menus' language. */
function showApplicationMenu(
  options: ShellOptions,
  language: MenuLocale,
  actions: Parameters<typeof appMenuTemplate>[1],
): void {
  const { Menu } = options.electron;
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(options.platform, actions, language)));
}

/** The tray icon, or none where the desktop has no tray (the app works without it). */
function openTray(options: ShellOptions, onClick: () => void): TrayLike | undefined {
  try {
    const tray = new options.electron.Tray(options.trayIconPath);
    tray.on('click', onClick);
    return tray;
  } catch (error) {
    // Some Linux desktops have no tray: the app works without it.
    options.log.warn(`no tray icon: ${(error as Error).message}`);
    return undefined;
  }
}

/** Says why the app could not start (log and dialog), and quits. */
function startUpFailed(options: ShellOptions, error: unknown): void {
  const message = (error as Error).message;
  options.log.error(`start-up failed: ${(error as Error).stack ?? message}`);
  options.electron.dialog.showErrorBox('Narration Studio could not start', message);
  options.electron.app.quit();
}

/** Brings a window to the front, restored if minimised. */
function showWindow(window: BrowserWindowLike): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** Keeps a window's place for the next start. */
function saveWindowBounds(settings: SettingsStore, win: BrowserWindowLike): void {
  const b = win.getNormalBounds();
  settings.update({ windowBounds: { ...b, maximized: win.isMaximized() } });
}

/** The server's address and login token, for the page; throws while the local API is paused. */
function serverInfoOf(core: Core | undefined): { url: string; loginToken: string } {
  if (!core) throw new Error('The local API is paused.');
  return { url: core.url, loginToken: new URL(core.loginUrl).searchParams.get('token') ?? '' };
}

/** After the last window closed: quits, unless the local API keeps running in the tray. */
function quitUnlessKeptRunning(options: ShellOptions, hasTray: boolean): void {
  if (!keepsRunningWhenClosed(options.settings.get().keepRunningWhenClosed, options.platform, hasTray))
    options.electron.app.quit();
}
