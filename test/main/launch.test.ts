import { describe, expect, it } from 'vitest';
import { isStale } from '../../electron/launch/freshness.mjs';
import { decideLaunch, headlessServeArgs, type LaunchFacts } from '../../electron/launch/decide';

const facts = (overrides: Partial<LaunchFacts> = {}): LaunchFacts => ({
  platform: 'linux',
  env: { DISPLAY: ':0' },
  args: [],
  electron: { path: '/repo/node_modules/electron/dist/electron' },
  fileExists: () => true,
  ...overrides,
});

describe('decideLaunch', () => {
  it('launches Electron when its binary is installed and there is a display', () => {
    expect(decideLaunch(facts())).toEqual({
      mode: 'electron',
      binary: '/repo/node_modules/electron/dist/electron',
    });
    expect(decideLaunch(facts({ env: { WAYLAND_DISPLAY: 'wayland-0' } })).mode).toBe('electron');
    expect(decideLaunch(facts({ platform: 'win32', env: {} })).mode).toBe('electron');
    expect(decideLaunch(facts({ platform: 'darwin', env: {} })).mode).toBe('electron');
  });

  it('falls back with one sentence when the electron package is absent', () => {
    const decision = decideLaunch(facts({ electron: { error: "Cannot find module 'electron'" } }));
    expect(decision.mode).toBe('headless');
    if (decision.mode !== 'headless') return;
    expect(decision.reason).toMatch(/^The Electron binary is not installed on this machine .*browser\.$/);
    // One sentence: a single full stop, at the end.
    expect(decision.reason.split(/\.\s/)).toHaveLength(1);
  });

  it('falls back when the package is there but its binary was never downloaded', () => {
    expect(decideLaunch(facts({ fileExists: () => false })).mode).toBe('headless');
    expect(
      decideLaunch(
        facts({
          electron: { error: 'Electron failed to install correctly, please delete node_modules/electron' },
        }),
      ).mode,
    ).toBe('headless');
  });

  it('falls back on Linux without a display, and when asked to', () => {
    const noDisplay = decideLaunch(facts({ env: {} }));
    expect(noDisplay).toMatchObject({
      mode: 'headless',
      reason: expect.stringMatching(/no graphical display/),
    });
    expect(decideLaunch(facts({ args: ['--headless'] })).mode).toBe('headless');
    expect(decideLaunch(facts({ env: { DISPLAY: ':0', NARRATION_STUDIO_HEADLESS: '1' } })).mode).toBe(
      'headless',
    );
  });
});

describe('headless arguments', () => {
  it('take port and data folder from the settings unless given', () => {
    // The default port is not passed: serve takes the data folder's last port.
    expect(headlessServeArgs([], { port: 8787, dataDir: null })).toEqual([]);
    expect(headlessServeArgs(['--headless'], { port: 9000, dataDir: '/data' })).toEqual([
      '--port',
      '9000',
      '--data-dir',
      '/data',
    ]);
    // The Settings view's allowed origins, unless the command line names its own.
    const origins = {
      port: 9000,
      dataDir: null,
      allowedOrigins: ['http://127.0.0.1:5001', 'chrome-extension://abc'],
    };
    expect(headlessServeArgs([], origins)).toEqual([
      '--port',
      '9000',
      '--allow-origin',
      'http://127.0.0.1:5001',
      '--allow-origin',
      'chrome-extension://abc',
    ]);
    expect(headlessServeArgs(['--allow-origin', 'https://x.example'], origins)).toEqual([
      '--allow-origin',
      'https://x.example',
      '--port',
      '9000',
    ]);
    expect(headlessServeArgs(['--port', '0', '--data-dir=/d'], { port: 9000, dataDir: '/data' })).toEqual([
      '--port',
      '0',
      '--data-dir=/d',
    ]);
  });

  it('passes the voice mapping of the settings file unless the command line gives it', () => {
    const settings = {
      port: 8787,
      dataDir: null,
      unknownVoices: 'closest' as const,
      voiceAliases: { 'hn_female_ngochuyen_full_48k-fhg': 'vi_female_thuytrang_mb' },
    };
    expect(headlessServeArgs([], settings)).toEqual([
      '--unknown-voices',
      'closest',
      '--voice-alias',
      'hn_female_ngochuyen_full_48k-fhg=vi_female_thuytrang_mb',
    ]);
    expect(
      headlessServeArgs(['--unknown-voices=refuse', '--voice-alias', 'a=vi_male_lehoang_mb'], settings),
    ).toEqual(['--unknown-voices=refuse', '--voice-alias', 'a=vi_male_lehoang_mb']);
    expect(headlessServeArgs([], { ...settings, unknownVoices: 'refuse', voiceAliases: {} })).toEqual([]);
  });
});

describe('build staleness', () => {
  it('rebuilds when the output is missing or older than a source', () => {
    expect(isStale(undefined, [])).toBe(true);
    expect(isStale(100, [50, 99])).toBe(false);
    expect(isStale(100, [50, 101])).toBe(true);
  });
});
