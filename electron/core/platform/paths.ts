/** Where the app keeps its data when no --data-dir is given: the per-user app data folder. */

import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { acquireInstanceLock } from './instance-lock';

const APP_FOLDER_NAME = 'Narration Studio';

/**
 * The data's own folder inside the app's per-user folder on macOS and Windows, where that
 * folder is also Electron's `userData`: Chromium's profile (`Cache`, `Local Storage`, …) and
 * the settings file live there, so the data keeps apart from them.
 */
const DATA_FOLDER_NAME = 'Data';

/**
 * Linux: $XDG_DATA_HOME/narration-studio (default ~/.local/share/narration-studio);
 * macOS: ~/Library/Application Support/Narration Studio/Data;
 * Windows: %APPDATA%\Narration Studio\Data.
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  const linux = join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'narration-studio');
  return platform === 'darwin' || platform === 'win32'
    ? join(perUserFolder(platform, env, home, linux), DATA_FOLDER_NAME)
    : linux;
}

/**
 * What the app writes into a data directory, relative to it. `cache/sentences` rather than
 * `cache`: on case-insensitive disks (macOS, Windows) `cache` is Chromium's `Cache` folder.
 */
export const DATA_ENTRIES = [
  'studio.db',
  'studio.db-journal',
  'studio.db-wal',
  'studio.db-shm',
  'audio',
  'cache/sentences',
  'voices',
  'lexicon.json',
] as const;

/** Windows refuses a rename while an indexer or a virus scanner has a file open: try again. */
const BUSY = new Set(['EPERM', 'EBUSY', 'EACCES']);
const RENAME_ATTEMPTS = 20;
const RENAME_PAUSE_MS = 100;

function renameRetrying(from: string, to: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      return renameSync(from, to);
    } catch (error) {
      if (attempt >= RENAME_ATTEMPTS || !BUSY.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RENAME_PAUSE_MS);
    }
  }
}

/**
 * Once, on macOS and Windows: moves the data that earlier versions kept in the app's folder
 * itself (beside Chromium's profile) into its own folder, `defaultDataDir()`. Nothing happens
 * when that folder already exists, when there is nothing to move, or when `inUse` (a data
 * folder the user chose) is the app's folder itself. The old database's instance lock is held
 * meanwhile, so a running copy (an older version, `serve`) or a second start cannot interfere.
 * The entries are renamed into `<Data>.moving`, which becomes `<Data>` when all are there, so a
 * move cut short (the app killed) goes on at the next start; a rename that fails (after retries
 * while Windows holds a file) puts back what had moved and throws, naming what to do. Returns
 * the entries moved.
 */
export function moveDataOutOfProfile(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
  inUse: string | null = null,
): string[] {
  if (platform !== 'darwin' && platform !== 'win32') return [];
  const target = defaultDataDir(platform, env, home);
  const legacy = dirname(target);
  const staging = `${target}.moving`;
  if (existsSync(target) || (inUse !== null && resolve(inUse) === resolve(legacy))) return [];
  const pending = DATA_ENTRIES.filter((entry) => existsSync(join(legacy, entry)));
  if (pending.length === 0 && !existsSync(staging)) return [];

  const database = join(legacy, 'studio.db');
  const locked = existsSync(database)
    ? acquireInstanceLock(database, { description: 'Narration Studio (moving its data)' })
    : undefined;
  if (locked && !locked.acquired) {
    const who = locked.holder
      ? `${locked.holder.description} (process ${locked.holder.pid})`
      : 'another process';
    throw new Error(`${database} is in use by ${who}: quit it, then start Narration Studio again.`);
  }
  const moved: string[] = [];
  try {
    for (const entry of pending) {
      mkdirSync(dirname(join(staging, entry)), { recursive: true });
      renameRetrying(join(legacy, entry), join(staging, entry));
      moved.push(entry);
    }
    renameRetrying(staging, target);
  } catch (error) {
    const stuck: string[] = [];
    for (const entry of moved.reverse()) {
      try {
        renameRetrying(join(staging, entry), join(legacy, entry));
      } catch {
        stuck.push(join(staging, entry));
      }
    }
    throw new Error(
      `The data in ${legacy} could not be moved into ${target}: ${(error as Error).message}. ` +
        (stuck.length > 0
          ? `These stay in ${staging} and are moved at the next start: ${stuck.join(', ')}. `
          : 'Nothing was moved. ') +
        'Quit every other Narration Studio (and anything that has files of it open), then start again.',
      { cause: error },
    );
  } finally {
    if (locked?.acquired) locked.lock.release();
    // The staging folder's own leftovers (cache/, itself) once emptied by a roll-back.
    for (const dir of [join(staging, 'cache'), staging])
      if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  }
  // An old `cache` folder emptied of our sentences stays: it may be Chromium's own `Cache`.
  return moved;
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
 * (electron-store) and headless mode (`openFileSettings`) read the same `settings.json`.
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
