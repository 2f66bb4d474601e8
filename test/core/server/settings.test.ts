/** GET/PUT /api/v1/settings through the app (no engine), signed in as the studio. */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../../electron/core/platform/settings-store';
import { DEFAULT_PORT } from '../../../electron/shared/settings';
import { buildTestApp, type TestApp } from './inject';

describe('GET/PUT /api/v1/settings (session only, the shared settings file)', () => {
  let t: TestApp;
  let settingsDir: string;
  /** Cookie and X-Studio-Session: a signed-in call. */
  let studio: Record<string, string>;
  const file = () => join(settingsDir, 'settings.json');

  beforeAll(async () => {
    settingsDir = mkdtempSync(join(tmpdir(), 'settings-'));
    // Another field in the file must survive a change of port.
    writeFileSync(file(), JSON.stringify({ version: 1, port: DEFAULT_PORT, theme: 'dark' }));
    t = await buildTestApp({ settingsDir });
    ({ headers: studio } = await t.signIn());
  });
  afterAll(async () => {
    await t?.close();
    rmSync(settingsDir, { recursive: true, force: true });
  });

  const get = (headers: Record<string, string> = studio) =>
    t.call('GET', '/api/v1/settings', { key: null, headers });
  const put = (body: unknown, headers: Record<string, string> = studio) =>
    t.call('PUT', '/api/v1/settings', {
      key: null,
      headers: { 'content-type': 'application/json', ...headers },
      raw: JSON.stringify(body),
    });

  it('reads the stored port and data folder next to the running ones', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      status: 1,
      result: {
        port: DEFAULT_PORT,
        data_dir: null,
        keep_running_when_closed: null,
        unknown_voices: 'refuse',
        voice_aliases: {},
        allowed_origins: [],
        first_run_voice_offer: 'pending',
        running_port: t.port,
        running_data_dir: t.dir,
        running_unknown_voices: 'refuse',
        running_voice_aliases: {},
        running_allowed_origins: [],
        restart_required: true,
        settings_file: file(),
      },
    });
  });

  it('writes a new port and data folder to the file atomically; they apply at the next start', async () => {
    const dataDir = join(tmpdir(), 'next-data');
    const res = await put({ port: 9123, data_dir: dataDir });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ port: 9123, data_dir: dataDir, restart_required: true });
    expect(readSettings(settingsDir)).toMatchObject({ port: 9123, dataDir, theme: 'dark' });
    expect(readdirSync(settingsDir)).toEqual(['settings.json']);
    expect((await get()).json.result).toMatchObject({ port: 9123, data_dir: dataDir });
    // The running server keeps its port.
    expect((await t.call('GET', '/api/v1/session', { key: null, headers: studio })).status).toBe(200);
  });

  it('stores what closing the desktop window does, at once (no restart), and null for the OS default', async () => {
    const res = await put({ keep_running_when_closed: true });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ keep_running_when_closed: true, restart_required: true });
    expect(readSettings(settingsDir)).toMatchObject({ keepRunningWhenClosed: true });
    expect((await put({ keep_running_when_closed: null })).json.result.keep_running_when_closed).toBeNull();
    const bad = await put({ keep_running_when_closed: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      error_code: 'INVALID_FIELD',
      error_message: 'keep_running_when_closed must be true, false or null.',
    });
  });

  it('says no restart is needed when the stored values are the running ones', async () => {
    const res = await put({ port: t.port, data_dir: t.dir });
    expect(res.json.result.restart_required).toBe(false);
    const reset = await put({ data_dir: null });
    expect(reset.json.result).toMatchObject({ data_dir: null, restart_required: true });
  });

  it('stores the voice mapping of the next start; a wrong alias is refused naming its row', async () => {
    const res = await put({
      unknown_voices: 'closest',
      voice_aliases: { 'hn_female_ngochuyen_full_48k-fhg': 'vi_female_thuytrang_mb' },
    });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({
      unknown_voices: 'closest',
      voice_aliases: { 'hn_female_ngochuyen_full_48k-fhg': 'vi_female_thuytrang_mb' },
      running_unknown_voices: 'refuse',
      running_voice_aliases: {},
      restart_required: true,
    });
    expect(readSettings(settingsDir)).toMatchObject({
      unknownVoices: 'closest',
      voiceAliases: { 'hn_female_ngochuyen_full_48k-fhg': 'vi_female_thuytrang_mb' },
      theme: 'dark',
    });
    const before = readFileSync(file(), 'utf8');
    for (const [body, message] of [
      [
        { voice_aliases: { x: 'no_such_voice' } },
        /"no_such_voice" \(the voice for "x"\) is not one of our voice codes/,
      ],
      [
        { voice_aliases: { 'a b': 'vi_female_thuytrang_mb' } },
        /"a b" must be 1–200 characters without spaces/,
      ],
      [{ voice_aliases: { en_female_emily_us: 'vi_female_thuytrang_mb' } }, /already one of our voice codes/],
      [{ unknown_voices: 'nearest' }, /unknown_voices must be "refuse" or "closest"/],
    ] as const) {
      const bad = await put(body);
      expect(bad.status).toBe(400);
      expect(bad.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
      expect(bad.json.error_message).toMatch(message);
    }
    expect(readFileSync(file(), 'utf8')).toBe(before);
    // Back to the running values: no restart needed for them.
    const reset = await put({ unknown_voices: 'refuse', voice_aliases: {}, port: t.port, data_dir: t.dir });
    expect(reset.json.result.restart_required).toBe(false);
  });

  it('stores allowed origins in their normal form, for the next start', async () => {
    await put({ port: t.port, data_dir: t.dir });
    const res = await put({
      allowed_origins: [
        'HTTP://127.0.0.1:5001',
        ' https://lite.example:443 ',
        'http://127.0.0.1:5001',
        'App://Obsidian.md',
        'capacitor://localhost',
        'tauri://localhost',
      ],
    });
    expect(res.status).toBe(200);
    const stored = [
      'http://127.0.0.1:5001',
      'https://lite.example',
      'app://obsidian.md',
      'capacitor://localhost',
      'tauri://localhost',
    ];
    expect(res.json.result).toMatchObject({
      allowed_origins: stored,
      running_allowed_origins: [],
      restart_required: true,
    });
    expect(readSettings(settingsDir).allowedOrigins).toEqual(stored);
    const cleared = await put({ allowed_origins: [] });
    expect(cleared.json.result).toMatchObject({ allowed_origins: [], restart_required: false });
  });

  it('stores the answer to the first-run voice offer at once (no restart), and refuses another word', async () => {
    await put({ port: t.port, data_dir: t.dir });
    const res = await put({ first_run_voice_offer: 'skipped' });
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({ first_run_voice_offer: 'skipped', restart_required: false });
    expect(readSettings(settingsDir)).toMatchObject({ firstRunVoiceOffer: 'skipped', theme: 'dark' });
    expect((await get()).json.result.first_run_voice_offer).toBe('skipped');
    const before = readFileSync(file(), 'utf8');
    const bad = await put({ first_run_voice_offer: 'later' });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      error_code: 'INVALID_FIELD',
      error_message: 'first_run_voice_offer must be "pending", "accepted", "skipped".',
    });
    expect(readFileSync(file(), 'utf8')).toBe(before);
    expect((await put({ first_run_voice_offer: 'pending' })).json.result.first_run_voice_offer).toBe(
      'pending',
    );
  });

  it.each([
    [
      { allowed_origins: ['https://*.example.com'] },
      /^Allowed origin "https:\/\/\*\.example\.com" is refused: a wildcard inside/,
    ],
    [{ allowed_origins: ['http://127.0.0.1:5001/lite'] }, /no path, here http:\/\/127\.0\.0\.1:5001\.$/],
    [
      { allowed_origins: ['file:///home/me/page.html'] },
      /^Allowed origin "file:\/\/\/home\/me\/page\.html" is refused: file: addresses are not pages/,
    ],
    [
      { allowed_origins: ['app://obsidian_md'] },
      /^Allowed origin "app:\/\/obsidian_md" is not an app's origin/,
    ],
    [{ allowed_origins: 'http://127.0.0.1:5001' }, /^Allowed origins: at most 100/],
    [{ allowed_origins: [42] }, /^Allowed origins: at most 100/],
  ])(
    'refuses allowed origins %j with INVALID_FIELD naming the field, and writes nothing',
    async (body, message) => {
      const before = readFileSync(file(), 'utf8');
      const res = await put(body);
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
      expect(res.json.error_message).toMatch(message);
      expect(readFileSync(file(), 'utf8')).toBe(before);
    },
  );

  it.each([
    [{ port: 70000 }, 'port'],
    [{ port: -1 }, 'port'],
    [{ port: 80.5 }, 'port'],
    [{ port: '8080' }, 'port'],
    [{ data_dir: 'relative/folder' }, 'data_dir'],
    [{ data_dir: '' }, 'data_dir'],
    [{ data_dir: 42 }, 'data_dir'],
    [{ theme: 'dark' }, 'theme'],
  ])('refuses %j with INVALID_FIELD and writes nothing', async (body, field) => {
    const before = readFileSync(file(), 'utf8');
    const res = await put(body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    expect(res.json.error_message).toMatch(
      field === 'theme' ? /theme/ : field === 'port' ? /Port/ : /Data folder/,
    );
    expect(readFileSync(file(), 'utf8')).toBe(before);
  });

  it('refuses bearer keys (even with a session cookie) and anonymous callers with 401', async () => {
    expect((await get({ authorization: `Bearer ${t.key}` })).status).toBe(401);
    expect((await put({ port: 9000 }, { authorization: `Bearer ${t.key}` })).status).toBe(401);
    expect((await put({ port: 9000 }, { authorization: `Bearer ${t.key}`, ...studio })).status).toBe(401);
    expect((await get({})).status).toBe(401);
    expect(readSettings(settingsDir).port).not.toBe(9000);
  });

  it('creates the settings folder when it does not exist yet', async () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'settings-')), 'nested', 'dir');
    const other = await buildTestApp({ settingsDir: fresh });
    try {
      const { headers: otherStudio } = await other.signIn();
      expect(existsSync(fresh)).toBe(false);
      const res = await other.call('PUT', '/api/v1/settings', {
        key: null,
        headers: { 'content-type': 'application/json', ...otherStudio },
        raw: JSON.stringify({ port: 0 }),
      });
      expect(res.status).toBe(200);
      expect(readSettings(fresh).port).toBe(0);
    } finally {
      await other.close();
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
