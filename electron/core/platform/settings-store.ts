/**
 * Settings behind an interface. The desktop shell backs it with electron-store (a JSON file
 * with a `store` property, through `createSettingsStore`); headless mode reads and writes the
 * same file itself (`openFileSettings`). Both go through the same schema and migration
 * (`electron/shared/settings.ts`).
 *
 * The JSON Schema is not handed to conf/electron-store's own validator on purpose: they
 * validate the whole file before any migration can run and throw on a single bad field,
 * which would stop the app from starting; `migrateSettings` repairs field by field instead.
 */

import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applySettingsPatch,
  migrateSettings,
  type Settings,
  type SettingsPatch,
} from '../../shared/settings';
import type { Log } from './log';
import { defaultConfigDir } from './paths';

export interface SettingsStore {
  /** Current settings (a copy: changing it changes nothing). */
  get(): Settings;
  /** Validates and saves a change; throws TypeError on an invalid value. */
  update(patch: SettingsPatch): Settings;
  /** The settings file, for messages. */
  readonly path: string;
}

/** What electron-store (and conf, which it wraps) provides. */
export interface JsonFileBacking {
  store: Record<string, unknown>;
  readonly path: string;
}

/** File name (without .json) shared by both backings. */
export const SETTINGS_FILE_NAME = 'settings';

export function createSettingsStore(backing: JsonFileBacking, log?: Log): SettingsStore {
  const { settings, changed, notes } = migrateSettings(backing.store);
  for (const note of notes) log?.warn(`${backing.path}: ${note}`);
  if (changed) backing.store = settings as unknown as Record<string, unknown>;
  let current = settings;
  return {
    path: backing.path,
    get: () => structuredClone(current),
    update(patch) {
      current = applySettingsPatch(current, patch);
      backing.store = current as unknown as Record<string, unknown>;
      return structuredClone(current);
    },
  };
}

/**
 * The settings as stored, read-only and migrated in memory (defaults when there is no file);
 * for `npm start`'s fallback, which only needs the port and the data folder.
 */
export function readSettings(dir: string = defaultConfigDir()): Settings {
  const path = settingsFilePath(dir);
  let stored: unknown = {};
  try {
    stored = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return migrateSettings(stored).settings;
}

/** Where `readSettings` and `writeSettings` find the file in `dir`. */
function settingsFilePath(dir: string = defaultConfigDir()): string {
  return join(dir, `${SETTINGS_FILE_NAME}.json`);
}

/**
 * Writes the whole settings file atomically: a temp file next to it, then a rename, so a
 * reader (or a crash) never sees half a file. Creates `dir` when missing.
 */
export function writeSettings(dir: string, settings: Settings): void {
  mkdirSync(dir, { recursive: true });
  const path = settingsFilePath(dir);
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(settings, null, '\t')}\n`, { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Settings straight on the file in `dir`, without conf: every `get` reads the file (so a
 * change made by another process shows), every `update` reads, patches and writes it
 * atomically. For the headless server's Settings routes.
 */
export function openFileSettings(dir: string = defaultConfigDir()): SettingsStore {
  return {
    path: settingsFilePath(dir),
    get: () => readSettings(dir),
    update(patch) {
      const next = applySettingsPatch(readSettings(dir), patch);
      writeSettings(dir, next);
      return structuredClone(next);
    },
  };
}
