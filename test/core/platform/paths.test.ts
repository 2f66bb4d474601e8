import { describe, expect, it } from 'vitest';
import { dataPaths, defaultDataDir } from '../../../electron/core/platform/paths';

describe('defaultDataDir', () => {
  it('uses the per-user app data folder of each platform', () => {
    expect(defaultDataDir('linux', {}, '/home/ana')).toBe('/home/ana/.local/share/narration-studio');
    expect(defaultDataDir('linux', { XDG_DATA_HOME: '/data/ana' }, '/home/ana')).toBe(
      '/data/ana/narration-studio',
    );
    expect(defaultDataDir('darwin', {}, '/Users/ana')).toBe(
      '/Users/ana/Library/Application Support/Narration Studio',
    );
    // path.join uses the host's separator; on Windows hosts these are backslashes.
    expect(defaultDataDir('win32', { APPDATA: '/c/Users/ana/AppData/Roaming' }, '/c/Users/ana')).toBe(
      '/c/Users/ana/AppData/Roaming/Narration Studio',
    );
  });

  it('keeps the database and audio inside the data directory', () => {
    expect(dataPaths('/d')).toEqual({ database: '/d/studio.db', files: '/d/audio' });
  });
});
