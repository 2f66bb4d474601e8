import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesktopApi, registerDesktopApi } from '../../electron/main/desktop-api';
import { createDesktopBridge } from '../../electron/preload/bridge';
import { DESKTOP_CHANNELS, type DesktopApi } from '../../electron/shared/desktop-api';
import type { MenuLocale } from '../../electron/shared/i18n/menu-messages';
import { createFakeElectron } from './fake-electron';

const ORIGIN = 'http://127.0.0.1:8787';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setUp(saveTo?: string) {
  const fake = createFakeElectron({ saveDialogPath: saveTo });
  const languages: MenuLocale[] = [];
  const api = createDesktopApi({
    serverInfo: () => ({ url: ORIGIN, loginToken: 'tok' }),
    electron: fake.electron,
    appVersion: '0.1.0',
    defaultSaveDir: '/home/me/Documents',
    language: () => languages.at(-1) ?? 'en',
    setLanguage: (language) => languages.push(language),
  });
  registerDesktopApi(fake.electron.ipcMain, api, () => ORIGIN);
  // The preload's bridge, wired to the main side's handlers as ipcRenderer.invoke would be.
  const bridge: DesktopApi = createDesktopBridge((channel, ...args) =>
    fake.invoke(channel, `${ORIGIN}/`, ...args),
  );
  return { fake, api, bridge, languages };
}

describe('DesktopApi over IPC', () => {
  it('has one channel per member, each handled by main', () => {
    const { fake } = setUp();
    expect([...fake.handlers.keys()].sort()).toEqual(Object.values(DESKTOP_CHANNELS).sort());
    expect(new Set(Object.values(DESKTOP_CHANNELS)).size).toBe(Object.keys(DESKTOP_CHANNELS).length);
  });

  it('answers the page through the preload bridge: server info and version', async () => {
    const { bridge } = setUp();
    expect(await bridge.getServerInfo()).toEqual({ url: ORIGIN, loginToken: 'tok' });
    expect(await bridge.getAppVersion()).toBe('0.1.0');
  });

  it('refuses calls from frames that are not the local studio', async () => {
    const { fake } = setUp();
    await expect(fake.invoke(DESKTOP_CHANNELS.getServerInfo, 'https://evil.example/')).rejects.toThrow(
      /refused/,
    );
    await expect(fake.invoke(DESKTOP_CHANNELS.getServerInfo, null)).rejects.toThrow(/refused/);
    await expect(fake.invoke(DESKTOP_CHANNELS.getServerInfo, 'data:text/html,x')).rejects.toThrow(/refused/);
  });

  it('saves audio where the user chose, then reveals only that file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-save-'));
    dirs.push(dir);
    const target = join(dir, 'chapter.mp3');
    const { fake, bridge } = setUp(target);
    const bytes = new Uint8Array([0xff, 0xfb, 1, 2, 3]);
    const result = await bridge.saveFile({
      kind: 'audio',
      suggestedName: '../../etc/chapter.mp3',
      data: bytes.buffer,
    });
    expect(result).toEqual({ saved: true, path: target });
    expect([...readFileSync(target)]).toEqual([...bytes]);
    // The page names the file, never the folder.
    expect(fake.saveDialogs[0]?.defaultPath).toBe(join('/home/me/Documents', 'chapter.mp3'));
    expect(fake.saveDialogs[0]?.filters[0]?.extensions).toEqual(['mp3', 'wav']);

    await bridge.revealInFolder(target);
    expect(fake.revealed).toEqual([target]);
    await expect(bridge.revealInFolder('/etc/passwd')).rejects.toThrow(/saved in this session/);
  });

  it('writes SRT text and reports a cancelled dialog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-save-'));
    dirs.push(dir);
    const target = join(dir, 'chapter.srt');
    const { bridge } = setUp(target);
    await bridge.saveFile({
      kind: 'srt',
      suggestedName: 'chapter.srt',
      data: '1\n00:00:00,000 --> 00:00:01,000\nHi\n',
    });
    expect(readFileSync(target, 'utf8')).toContain('Hi');
    const cancelled = setUp(undefined);
    expect(await cancelled.bridge.saveFile({ kind: 'srt', suggestedName: 'x.srt', data: '' })).toEqual({
      saved: false,
    });
    await expect(
      cancelled.bridge.saveFile({ kind: 'exe', suggestedName: 'x', data: '' } as never),
    ).rejects.toThrow(/saveFile expects/);
  });

  it('opens only web and mail addresses outside', async () => {
    const { fake, bridge } = setUp();
    await bridge.openExternal('https://example.com/docs');
    await expect(bridge.openExternal('file:///etc/passwd')).rejects.toThrow(/http/);
    await expect(bridge.openExternal('smb://host/share')).rejects.toThrow(/http/);
    expect(fake.opened).toEqual(['https://example.com/docs']);
  });

  it('takes the interface language from the page: the save dialog speaks it; anything else is refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-save-'));
    dirs.push(dir);
    const { fake, bridge, languages } = setUp(join(dir, 'chuong-1.srt'));
    await bridge.saveFile({ kind: 'srt', suggestedName: 'chuong-1.srt', data: '1\n' });
    expect(fake.saveDialogs[0]).toMatchObject({ title: 'Save subtitles' });
    await bridge.setLanguage('vi');
    expect(languages).toEqual(['vi']);
    await bridge.saveFile({ kind: 'srt', suggestedName: 'chuong-1.srt', data: '1\n' });
    expect(fake.saveDialogs[1]).toMatchObject({ title: 'Lưu phụ đề' });
    expect(fake.saveDialogs[1]?.filters.map((f) => f.name)).toEqual(['Phụ đề', 'Mọi tệp']);
    await expect(bridge.setLanguage('fr')).rejects.toThrow(/"en" or "vi"/);
    await expect(bridge.setLanguage({ toString: () => 'vi' } as unknown as string)).rejects.toThrow();
    expect(languages).toEqual(['vi']);
  });
});
