import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DATA_ENTRIES,
  dataPaths,
  defaultConfigDir,
  defaultDataDir,
  moveDataOutOfProfile,
  sentenceCacheDir,
} from '../../../electron/core/platform/paths';
import { acquireInstanceLock } from '../../../electron/core/platform/instance-lock';
import { LEXICON_FILE } from '../../../electron/core/lexicon/layout';
import { VOICES_FOLDER } from '../../../electron/core/voices/layout';

describe('defaultDataDir', () => {
  it('uses the per-user app data folder of each platform, apart from Chromium’s profile', () => {
    expect(defaultDataDir('linux', {}, '/home/ana')).toBe('/home/ana/.local/share/narration-studio');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/data/ana' }, '/home/ana')).toBe(
      '/data/ana/narration-studio',
    );
    // macOS and Windows: the app's folder is Electron's userData (Chromium's profile, settings):
    // the data has a folder of its own inside it.
    expect(defaultDataDir('darwin', {}, '/Users/ana')).toBe(
      '/Users/ana/Library/Application Support/Narration Studio/Data',
    );
    expect(defaultConfigDir('darwin', {}, '/Users/ana')).toBe(
      '/Users/ana/Library/Application Support/Narration Studio',
    );
    // path.join uses the host's separator; on Windows hosts these are backslashes.
    expect(defaultDataDir('win32', { APPDATA: '/c/Users/ana/AppData/Roaming' }, '/c/Users/ana')).toBe(
      '/c/Users/ana/AppData/Roaming/Narration Studio/Data',
    );
  });

  it('keeps the database and audio inside the data directory', () => {
    expect(dataPaths('/d')).toEqual({ database: '/d/studio.db', files: '/d/audio' });
  });

  it('names everything the app writes in a data directory, so a move takes it all', () => {
    const names = [dataPaths('/d').database, dataPaths('/d').files, sentenceCacheDir('/d')].map((p) =>
      p.slice('/d/'.length),
    );
    for (const name of [...names, VOICES_FOLDER, LEXICON_FILE]) expect(DATA_ENTRIES).toContain(name);
  });
});

describe('moveDataOutOfProfile (macOS and Windows, once)', () => {
  const homes: string[] = [];
  afterEach(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });

  /** A macOS home whose app folder holds Chromium's profile beside an earlier version's data. */
  function oldLayout() {
    const home = mkdtempSync(join(tmpdir(), 'ns-home-'));
    homes.push(home);
    const app = defaultConfigDir('darwin', {}, home);
    const write = (path: string, text: string) => {
      mkdirSync(join(app, path, '..'), { recursive: true });
      writeFileSync(join(app, path), text);
    };
    write('studio.db', 'db');
    write('audio/a.mp3', 'mp3');
    write('voices/vi-pack/manifest.json', '{}');
    write('lexicon.json', '[]');
    write('cache/sentences/entry', 'pcm');
    // Chromium's and electron-store's files, which stay.
    write('Local Storage/leveldb/000003.log', 'chromium');
    write('Cache/Cache_Data/index', 'chromium');
    write('settings.json', '{}');
    return { home, app, data: defaultDataDir('darwin', {}, home) };
  }

  it('moves the data into its own folder and leaves Chromium’s profile and the settings', () => {
    const { home, app, data } = oldLayout();
    expect(moveDataOutOfProfile('darwin', {}, home).sort()).toEqual(
      ['audio', 'cache/sentences', 'lexicon.json', 'studio.db', 'voices'].sort(),
    );
    expect(readFileSync(join(data, 'studio.db'), 'utf8')).toBe('db');
    expect(readFileSync(join(data, 'audio/a.mp3'), 'utf8')).toBe('mp3');
    expect(readFileSync(join(data, 'cache/sentences/entry'), 'utf8')).toBe('pcm');
    expect(existsSync(join(data, 'voices/vi-pack/manifest.json'))).toBe(true);
    expect(existsSync(join(app, 'studio.db'))).toBe(false);
    expect(readFileSync(join(app, 'Local Storage/leveldb/000003.log'), 'utf8')).toBe('chromium');
    expect(readFileSync(join(app, 'Cache/Cache_Data/index'), 'utf8')).toBe('chromium');
    expect(existsSync(join(app, 'settings.json'))).toBe(true);
    expect(existsSync(`${data}.moving`)).toBe(false);
    // Once: a second start moves nothing, even if an old file reappears.
    writeFileSync(join(app, 'studio.db'), 'stray');
    expect(moveDataOutOfProfile('darwin', {}, home)).toEqual([]);
    expect(readFileSync(join(data, 'studio.db'), 'utf8')).toBe('db');
  });

  it('does nothing on Linux, on a new install, or where nothing of ours is in the app folder', () => {
    const { home, app } = oldLayout();
    expect(moveDataOutOfProfile('linux', {}, home)).toEqual([]);
    expect(existsSync(join(app, 'studio.db'))).toBe(true);
    const fresh = mkdtempSync(join(tmpdir(), 'ns-home-'));
    homes.push(fresh);
    expect(moveDataOutOfProfile('win32', { APPDATA: join(fresh, 'Roaming') }, fresh)).toEqual([]);
    expect(existsSync(join(fresh, 'Roaming'))).toBe(false);
  });

  it('leaves the app folder alone when the user chose it as the data folder', () => {
    const { home, app, data } = oldLayout();
    expect(moveDataOutOfProfile('darwin', {}, home, app)).toEqual([]);
    expect(existsSync(join(app, 'studio.db'))).toBe(true);
    expect(existsSync(data)).toBe(false);
  });

  it('waits for nobody: a process holding the old database stops the move, and it says which', () => {
    const { home, app, data } = oldLayout();
    const held = acquireInstanceLock(join(app, 'studio.db'), { description: 'Narration Studio serve' });
    expect(held.acquired).toBe(true);
    try {
      expect(() => moveDataOutOfProfile('darwin', {}, home)).toThrow(
        /studio\.db is in use by Narration Studio serve \(process \d+\): quit it/,
      );
    } finally {
      if (held.acquired) held.lock.release();
    }
    expect(existsSync(join(app, 'studio.db'))).toBe(true);
    expect(existsSync(data)).toBe(false);
    // Once it is free, the move goes ahead.
    expect(moveDataOutOfProfile('darwin', {}, home)).toContain('studio.db');
  });

  it('finishes a move that was cut short', () => {
    const { home, app, data } = oldLayout();
    // As if killed after moving the database: it is in the staging folder, the rest is not.
    mkdirSync(`${data}.moving`, { recursive: true });
    writeFileSync(join(`${data}.moving`, 'studio.db'), 'db');
    rmSync(join(app, 'studio.db'));
    moveDataOutOfProfile('darwin', {}, home);
    expect(readdirSync(data).sort()).toEqual(['audio', 'cache', 'lexicon.json', 'studio.db', 'voices']);
  });

  it('puts everything back and says what to do when a rename fails', () => {
    const { home, app, data } = oldLayout();
    // The last entry cannot be renamed: a folder of that name is in its way.
    mkdirSync(join(`${data}.moving`, 'lexicon.json', 'in-the-way'), { recursive: true });
    expect(() => moveDataOutOfProfile('darwin', {}, home)).toThrow(
      /Nothing was moved\. Quit every other Narration Studio/,
    );
    expect(readFileSync(join(app, 'studio.db'), 'utf8')).toBe('db');
    expect(readFileSync(join(app, 'audio/a.mp3'), 'utf8')).toBe('mp3');
    expect(readFileSync(join(app, 'cache/sentences/entry'), 'utf8')).toBe('pcm');
    expect(existsSync(join(app, 'voices/vi-pack/manifest.json'))).toBe(true);
    expect(existsSync(data)).toBe(false);
  });
});
