import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MenuItemOptions } from '../../electron/main/electron-types';
import { createFileLog } from '../../electron/main/log';
import { appMenuTemplate, statusLine, trayMenuTemplate } from '../../electron/main/menus';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('log file', () => {
  it('appends timestamped lines and rotates by size, keeping a fixed number of old files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-log-'));
    dirs.push(dir);
    const log = createFileLog({ dir, maxBytes: 200, keep: 2, now: () => new Date('2026-01-02T03:04:05Z') });
    for (let i = 0; i < 12; i++) log.info(`line ${i} ${'x'.repeat(40)}`);
    log.warn('last');
    const current = readFileSync(join(dir, 'main.log'), 'utf8');
    expect(current).toMatch(/^2026-01-02T03:04:05.000Z info line/);
    expect(current.trimEnd().split('\n').at(-1)).toBe('2026-01-02T03:04:05.000Z warn last');
    expect(Buffer.byteLength(current)).toBeLessThanOrEqual(200);
    expect(existsSync(join(dir, 'main.1.log'))).toBe(true);
    expect(existsSync(join(dir, 'main.2.log'))).toBe(true);
    expect(existsSync(join(dir, 'main.3.log'))).toBe(false);
    // Newest rotated file holds the lines just before the current ones.
    expect(readFileSync(join(dir, 'main.1.log'), 'utf8')).toMatch(/line 8 .*\n.*line 9 /);
    expect(current).toContain('line 11');
  });

  it('never throws when its folder is gone: the line goes to stderr', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-log-'));
    const log = createFileLog({ dir });
    log.info('before');
    rmSync(dir, { recursive: true, force: true });
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) =>
      written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      expect(() => log.error('shutdown failed: after the folder was removed')).not.toThrow();
    } finally {
      process.stderr.write = original;
    }
    expect(written.join('')).toMatch(/log not written .*shutdown failed: after the folder was removed/);
    expect(existsSync(dir)).toBe(false);
  });
});

const flat = (items: MenuItemOptions[]): MenuItemOptions[] =>
  items.flatMap((i) => [i, ...flat(i.submenu ?? [])]);

describe('menus', () => {
  const calls: string[] = [];
  const actions = {
    openLogsFolder: () => calls.push('logs'),
    openDataFolder: () => calls.push('data'),
    copyBaseUrl: () => calls.push('copy'),
  };

  it('have the usual roles and an Open Logs Folder item on every platform', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const items = flat(appMenuTemplate(platform, actions));
      const roles = items.map((i) => i.role).filter(Boolean);
      expect(roles).toEqual(expect.arrayContaining(['editMenu', 'viewMenu', 'windowMenu', 'help']));
      expect(roles.includes('appMenu')).toBe(platform === 'darwin');
      // Quit in File, or on macOS in the app menu (Electron's appMenu, item for item).
      const appMenu = appMenuTemplate(platform, actions).find((i) => i.role === 'appMenu');
      expect(flat(appMenu?.submenu ?? []).some((i) => i.role === 'quit')).toBe(platform === 'darwin');
      expect(roles.filter((r) => r === 'quit')).toHaveLength(1);
      items.find((i) => i.label === 'Open Logs Folder')!.click!();
    }
    expect(calls).toEqual(['logs', 'logs', 'logs']);
  });

  it('tray shows the API state and offers the matching action', () => {
    const noop = () => {};
    const trayActions = { open: noop, copyBaseUrl: noop, pause: noop, resume: noop, quit: noop };
    const running = trayMenuTemplate({ state: 'running', url: 'http://127.0.0.1:8787' }, trayActions);
    expect(running[0]).toEqual({ label: 'Local API: running on http://127.0.0.1:8787', enabled: false });
    expect(running.map((i) => i.label)).toEqual(
      expect.arrayContaining(['Open Narration Studio', 'Copy Local API Address', 'Pause Local API', 'Quit']),
    );
    const paused = trayMenuTemplate({ state: 'paused' }, trayActions);
    expect(paused.find((i) => i.label === 'Resume Local API')?.enabled).toBe(true);
    expect(paused.find((i) => i.label === 'Copy Local API Address')?.enabled).toBe(false);
    expect(statusLine({ state: 'failed', message: 'EACCES' })).toBe('Local API: stopped (EACCES)');
  });
});
