/**
 * Composition root of the desktop app (bundled to dist/electron/main/index.js by
 * `npm run build`, started by `npm start`): wires the real Electron, electron-store
 * settings, the rotating log and the engine into `runShell`. Everything with behaviour lives
 * in the modules it imports, which are tested without Electron.
 */

import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { fileURLToPath } from 'node:url';
import ElectronStore from 'electron-store';
import { createEngineHost } from '../core/engine';
import { defaultDataDir, moveDataOutOfProfile, sentenceCacheDir } from '../core/platform/paths';
import { DEFAULT_SENTENCE_CACHE_MB } from '../shared/options';
import { createSettingsStore, SETTINGS_FILE_NAME } from '../core/platform/settings-store';
import { APP_FILES, trayIcon } from './app-files';
import type { ElectronMain } from './electron-types';
import { createFileLog } from './log';
import { runShell } from './shell';

// Loaded rather than imported so `tsc` needs no electron package; its type is pinned to the
// real API by typecheck/electron.check.mts.
const electron = createRequire(import.meta.url)('electron') as ElectronMain;
/** The app's root: the repository in development, app.asar when packaged. */
const root = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

electron.app.setAppLogsPath();
const log = createFileLog({
  dir: electron.app.getPath('logs'),
  ...(process.env.NODE_ENV === 'development' ? { echo: process.stderr } : {}),
});
process.on('uncaughtException', (error) => {
  log.error(`uncaught: ${error.stack ?? String(error)}`);
  electron.dialog.showErrorBox(
    'Narration Studio stopped after an error',
    `${error.message}\n\nDetails are in ${log.file}`,
  );
  electron.app.exit(1);
});
// Ctrl+C in the terminal of `npm start`, or the session ending: quit in order. Kept as
// permanent listeners because conf's `when-exit` re-raises the signal after its own handler.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => electron.app.quit());
// A stray rejection leaves the app consistent (background jobs record their own outcomes):
// logged with its stack, and the app goes on.
process.on('unhandledRejection', (reason) =>
  log.error(
    `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
  ),
);

const settings = createSettingsStore(
  new ElectronStore<Record<string, unknown>>({ name: SETTINGS_FILE_NAME }),
  log,
);

// Not awaited: Electron emits 'ready' only once this module has finished evaluating, top-level
// awaits included, so awaiting the shell (which waits for 'ready') here would wait for ever.
runShell({
  electron,
  settings,
  log,
  platform: process.platform,
  preloadPath: root(APP_FILES.preload),
  uiDir: root(APP_FILES.uiDir),
  iconPath: root(APP_FILES.icon),
  trayIconPath: root(trayIcon(process.platform)),
  defaultDataDir: defaultDataDir(),
  moveOldData: (chosen) => moveDataOutOfProfile(process.platform, process.env, homedir(), chosen),
  startEngine: (dataDir) =>
    createEngineHost({
      sentenceCache: {
        dir: sentenceCacheDir(dataDir),
        maxBytes: DEFAULT_SENTENCE_CACHE_MB * 1024 * 1024,
      },
    }),
}).catch((error: unknown) => {
  log.error(`start-up failed: ${(error as Error).stack ?? String(error)}`);
  electron.dialog.showErrorBox('Narration Studio could not start', (error as Error).message);
  electron.app.exit(1);
});
