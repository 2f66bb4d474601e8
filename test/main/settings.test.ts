import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterEach, describe, expect, it } from 'vitest';
import { createSettingsStore, readSettings } from '../../electron/core/platform/settings-store';
import { defaultConfigDir } from '../../electron/core/platform/paths';
import { openConfSettings } from '../fixtures/conf-settings';
import {
  DEFAULT_SETTINGS,
  SETTINGS_VERSION,
  SettingsSchema,
  applySettingsPatch,
  checkServerSettings,
  migrateSettings,
} from '../../electron/shared/settings';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ns-settings-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('settings schema and defaults', () => {
  it('defaults are valid: port 8787, default data folder, system theme', () => {
    expect(Value.Check(SettingsSchema, DEFAULT_SETTINGS)).toBe(true);
    expect(DEFAULT_SETTINGS).toMatchObject({
      port: 8787,
      dataDir: null,
      theme: 'system',
      windowBounds: null,
    });
    expect(DEFAULT_SETTINGS.version).toBe(SETTINGS_VERSION);
  });

  it('patches are validated field by field', () => {
    const next = applySettingsPatch(DEFAULT_SETTINGS, { port: 9000, output: { bitrate: 64 } });
    expect(next.port).toBe(9000);
    expect(next.output).toEqual({ ...DEFAULT_SETTINGS.output, bitrate: 64 });
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { port: 70000 })).toThrow(/port/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { output: { bitrate: 100 as 64 } })).toThrow(/bitrate/);
    expect(() => applySettingsPatch(DEFAULT_SETTINGS, { theme: 'neon' as 'dark' })).toThrow(/theme/);
    expect(
      applySettingsPatch(DEFAULT_SETTINGS, { allowedOrigins: ['http://127.0.0.1:5001'] }).allowedOrigins,
    ).toEqual(['http://127.0.0.1:5001']);
    // Only origins in their normal form (the route and the command line normalize them first).
    for (const bad of [['https://*.a.example'], ['http://127.0.0.1:5001/'], ['HTTP://127.0.0.1:5001']])
      expect(() => applySettingsPatch(DEFAULT_SETTINGS, { allowedOrigins: bad })).toThrow(/allowedOrigins/);
  });
});

describe('the Settings view’s checks', () => {
  it('marks each bad field, allowed origins by the first refused one', () => {
    expect(
      checkServerSettings({ port: 8787, data_dir: null, allowed_origins: ['http://127.0.0.1:5001'] }),
    ).toEqual([]);
    expect(
      checkServerSettings({
        port: -1,
        data_dir: 'x',
        allowed_origins: ['https://a.example', 'https://*.a.example'],
      }),
    ).toEqual([
      { field: 'port', message: expect.stringMatching(/^Port must be/) },
      { field: 'data_dir', message: expect.stringMatching(/^Data folder must be/) },
      {
        field: 'allowed_origins',
        message: expect.stringMatching(
          /^Allowed origin "https:\/\/\*\.a\.example" is refused: a wildcard inside/,
        ),
      },
    ]);
  });
});

describe('migration', () => {
  it('fills missing fields with defaults and keeps valid ones', () => {
    const { settings, changed } = migrateSettings({ port: 9100, theme: 'dark' });
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, port: 9100, theme: 'dark' });
    expect(changed).toBe(true);
  });

  it('resets only the invalid fields, each with a note', () => {
    const { settings, notes } = migrateSettings({
      version: 1,
      port: 'eighty',
      theme: 'dark',
      output: { bitrate: 100, volume: 120 },
      windowBounds: { x: 1, y: 2, width: 3, height: 4, maximized: false },
      allowedOrigins: ['http://127.0.0.1:5001', 'https://*.a.example'],
    });
    expect(settings.port).toBe(8787);
    // A hand-edited wildcard inside an origin is never read as one: the list goes back to none allowed.
    expect(settings.allowedOrigins).toEqual([]);
    expect(settings.theme).toBe('dark');
    expect(settings.output).toEqual({ ...DEFAULT_SETTINGS.output, volume: 120 });
    expect(settings.windowBounds).toBeNull();
    expect(notes).toEqual([
      'port was invalid: reset to its default',
      'output.bitrate was invalid: reset to its default',
      'windowBounds was invalid: reset to its default',
      'allowedOrigins was invalid: reset to its default',
    ]);
  });

  it('reads a file written before the first-run voice offer as not answered, and keeps an answer', () => {
    // What an older app wrote: every field of its day, none for the offer.
    const { firstRunVoiceOffer: _, ...older } = DEFAULT_SETTINGS;
    const before = migrateSettings({ ...older, port: 9200 });
    expect(before.settings).toEqual({ ...DEFAULT_SETTINGS, port: 9200, firstRunVoiceOffer: 'pending' });
    expect(before.changed).toBe(true);
    expect(before.notes).toEqual([]);
    for (const answer of ['accepted', 'skipped'] as const)
      expect(migrateSettings({ ...older, firstRunVoiceOffer: answer }).settings.firstRunVoiceOffer).toBe(
        answer,
      );
    const bad = migrateSettings({ ...older, firstRunVoiceOffer: 'maybe' });
    expect(bad.settings.firstRunVoiceOffer).toBe('pending');
    expect(bad.notes).toEqual(['firstRunVoiceOffer was invalid: reset to its default']);
  });

  it('leaves a current, valid file unchanged', () => {
    const stored = JSON.parse(JSON.stringify({ ...DEFAULT_SETTINGS, port: 0 }));
    const result = migrateSettings(stored);
    expect(result).toEqual({ settings: stored, changed: false, notes: [] });
  });

  it('treats garbage as empty', () => {
    for (const stored of [null, 42, 'x', [1, 2]])
      expect(migrateSettings(stored).settings).toEqual(DEFAULT_SETTINGS);
  });

  it('runs numbered steps from the stored version up to the target', () => {
    // A future layout: version 2 renamed `serverPort` to `port`; version 3 renamed `colours`.
    const steps = {
      1: ({ serverPort, ...rest }: Record<string, unknown>) => ({ ...rest, port: serverPort }),
      2: ({ colours, ...rest }: Record<string, unknown>) => ({ ...rest, theme: colours }),
    };
    const { settings, notes } = migrateSettings({ serverPort: 9300, colours: 'dark' }, steps, 3);
    expect(settings).toMatchObject({ version: 3, port: 9300, theme: 'dark' });
    expect(notes).toEqual(['settings upgraded to version 2', 'settings upgraded to version 3']);
    expect(migrateSettings({ version: 2, port: 1, voice: 'x' }, steps, 3).settings.port).toBe(1);
  });

  it('drops the old `defaultVoice`, which nothing read (the studio keeps its own voice): written back without it', () => {
    const stored = {
      ...JSON.parse(JSON.stringify(DEFAULT_SETTINGS)),
      port: 9300,
      defaultVoice: 'en_female_nova_default',
    };
    const { settings, changed } = migrateSettings(stored);
    expect(settings).not.toHaveProperty('defaultVoice');
    expect(settings.port).toBe(9300);
    expect(changed).toBe(true);
  });

  it('reads a newer file without downgrading its version', () => {
    const { settings, notes } = migrateSettings({ ...DEFAULT_SETTINGS, version: 7, port: 9400, extra: true });
    expect(settings).toMatchObject({ version: 7, port: 9400 });
    expect(notes[0]).toMatch(/newer version \(7\)/);
  });
});

describe('settings store', () => {
  it('conf (what electron-store wraps) writes settings.json in the given folder and reads it back', async () => {
    const dir = tempDir();
    expect(readSettings(dir)).toEqual(DEFAULT_SETTINGS);
    const first = await openConfSettings({ cwd: dir });
    expect(first.path).toBe(join(dir, 'settings.json'));
    expect(first.get()).toEqual(DEFAULT_SETTINGS);
    first.update({ port: 9200, dataDir: '/srv/narration' });
    expect(JSON.parse(readFileSync(first.path, 'utf8'))).toMatchObject({
      port: 9200,
      dataDir: '/srv/narration',
    });
    expect((await openConfSettings({ cwd: dir })).get()).toMatchObject({
      port: 9200,
      dataDir: '/srv/narration',
    });
    // What `npm start`'s fallback reads, without conf.
    expect(readSettings(dir)).toMatchObject({ port: 9200, dataDir: '/srv/narration' });
  });

  it('repairs a damaged file on open and says so in the log', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ port: -1, theme: 'light' }));
    const warnings: string[] = [];
    expect(readSettings(dir)).toMatchObject({ port: 8787, theme: 'light' });
    const store = await openConfSettings({
      cwd: dir,
      log: { info: () => {}, warn: (m) => warnings.push(m) },
    });
    expect(store.get()).toMatchObject({ port: 8787, theme: 'light', version: 1 });
    expect(JSON.parse(readFileSync(store.path, 'utf8'))).toMatchObject({ port: 8787, theme: 'light' });
    expect(warnings).toEqual([`${store.path}: port was invalid: reset to its default`]);
  });

  it('refuses an invalid update and keeps the old value', () => {
    const backing = { store: {} as Record<string, unknown>, path: '/x/settings.json' };
    const store = createSettingsStore(backing);
    expect(() => store.update({ port: -5 })).toThrow(TypeError);
    expect(store.get().port).toBe(8787);
    expect(backing.store.port).toBe(8787);
    // get() hands out copies.
    store.get().output.volume = 1;
    expect(store.get().output.volume).toBe(100);
  });

  it('lives where Electron keeps userData, so both modes share one file', () => {
    expect(defaultConfigDir('linux', {}, '/home/me')).toBe('/home/me/.config/Narration Studio');
    expect(defaultConfigDir('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/me')).toBe('/cfg/Narration Studio');
    expect(defaultConfigDir('darwin', {}, '/Users/me')).toBe(
      '/Users/me/Library/Application Support/Narration Studio',
    );
    expect(
      defaultConfigDir('win32', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'C:\\Users\\me'),
    ).toMatch(/Roaming.Narration Studio$/);
  });
});
