/** Where the app keeps its data when no --data-dir is given: the per-user app data folder. */

import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_FOLDER_NAME = 'Narration Studio';

/**
 * Linux: $XDG_DATA_HOME/narration-studio (default ~/.local/share/narration-studio);
 * macOS: ~/Library/Application Support/Narration Studio;
 * Windows: %APPDATA%\Narration Studio.
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  return perUserFolder(
    platform,
    env,
    home,
    join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'narration-studio'),
  );
}

/** The app's folder under the per-user application folder; `linux` is the XDG location. */
function perUserFolder(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string,
  linux: string,
): string {
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
    case 'win32':
      return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
    default:
      return linux;
  }
}

/** Files inside a data directory. */
export function dataPaths(dataDir: string): { database: string; files: string } {
  return { database: join(dataDir, 'studio.db'), files: join(dataDir, 'audio') };
}

/** The sentence cache's folder in a data directory (rendered engine calls, kept by content). */
export function sentenceCacheDir(dataDir: string): string {
  return join(dataDir, 'cache', 'sentences');
}

/**
 * Where settings live: the folder Electron calls `userData` for this app, so the desktop app
 * (electron-store) and headless mode (conf) read the same `settings.json`.
 * Linux: $XDG_CONFIG_HOME/Narration Studio (default ~/.config/Narration Studio);
 * macOS: ~/Library/Application Support/Narration Studio; Windows: %APPDATA%\Narration Studio.
 */
export function defaultConfigDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  return perUserFolder(
    platform,
    env,
    home,
    join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_FOLDER_NAME),
  );
}
