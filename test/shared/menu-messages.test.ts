/** The desktop menus' and tray's words: every label in English and Vietnamese, under plain Node. */

import { parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { appMenuTemplate, statusLine, trayMenuTemplate } from '../../electron/main/menus';
import type { MenuItemOptions } from '../../electron/main/electron-types';
import {
  MENU_LOCALES,
  MENU_MESSAGES,
  menuLocale,
  t,
  type MenuMessageId,
} from '../../electron/shared/i18n/menu-messages';

const names = (message: string) =>
  parse(message)
    .filter((e) => e.type !== TYPE.literal)
    .map((e) => ('value' in e ? String(e.value) : ''))
    .sort();

const labels = (items: MenuItemOptions[]): string[] =>
  items.flatMap((i) => [
    ...(i.label ? [i.label] : []),
    ...(Array.isArray(i.submenu) ? labels(i.submenu as MenuItemOptions[]) : []),
  ]);

const noop = () => undefined;
const trayActions = { open: noop, copyBaseUrl: noop, pause: noop, resume: noop, quit: noop };
const appActions = { openLogsFolder: noop, openDataFolder: noop, copyBaseUrl: noop };

describe('menu messages', () => {
  it('both locales have every label, non-empty, with the same placeholders', () => {
    const ids = Object.keys(MENU_MESSAGES.en) as MenuMessageId[];
    expect(ids.length).toBeGreaterThanOrEqual(12);
    for (const locale of MENU_LOCALES) {
      expect(Object.keys(MENU_MESSAGES[locale]).sort()).toEqual([...ids].sort());
      for (const id of ids) {
        expect(MENU_MESSAGES[locale][id].trim()).not.toBe('');
        expect({ id, names: names(MENU_MESSAGES[locale][id]) }).toEqual({
          id,
          names: names(MENU_MESSAGES.en[id]),
        });
      }
    }
    // Translated, not copied.
    expect(ids.filter((id) => MENU_MESSAGES.vi[id] === MENU_MESSAGES.en[id])).toEqual([]);
  });

  it('picks Vietnamese for vi, vi-VN and vi_VN, English otherwise', () => {
    expect(['vi', 'vi-VN', 'vi_VN', 'VI'].map(menuLocale)).toEqual(['vi', 'vi', 'vi', 'vi']);
    expect(['en-US', 'fr', '', undefined].map(menuLocale)).toEqual(['en', 'en', 'en', 'en']);
  });

  it('the app menu and the tray in Vietnamese, with values filled in', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const)
      expect(labels(appMenuTemplate(platform, appActions, 'vi'))).toEqual(
        expect.arrayContaining([
          'Tệp',
          'Sao chép địa chỉ API cục bộ',
          'Mở thư mục dữ liệu',
          'Mở thư mục nhật ký',
        ]),
      );
    const running = labels(
      trayMenuTemplate({ state: 'running', url: 'http://127.0.0.1:8787' }, trayActions, 'vi'),
    );
    expect(running).toEqual([
      'API cục bộ: đang chạy tại http://127.0.0.1:8787',
      'Mở Narration Studio',
      'Sao chép địa chỉ API cục bộ',
      'Tạm dừng API cục bộ',
      'Thoát',
    ]);
    expect(labels(trayMenuTemplate({ state: 'paused' }, trayActions, 'vi'))).toContain('Tiếp tục API cục bộ');
    expect(statusLine({ state: 'failed', message: 'EACCES' }, 'vi')).toBe('API cục bộ: đã dừng (EACCES)');
    // English stays the default (the log's language).
    expect(statusLine({ state: 'paused' })).toBe('Local API: paused');
    expect(t('en', 'tray.status.running', { url: 'x' })).toBe('Local API: running on x');
  });

  it('every item of the app menu has a label in Vietnamese, role items (Undo, Copy, Zoom…) too', () => {
    const items = (menu: MenuItemOptions[]): MenuItemOptions[] =>
      menu.flatMap((i) => [i, ...items(i.submenu ?? [])]);
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      const vi = items(appMenuTemplate(platform, appActions, 'vi'));
      const en = items(appMenuTemplate(platform, appActions, 'en'));
      // The same menu in both languages: the same roles in the same places.
      expect(vi.map((i) => i.role ?? i.type ?? '')).toEqual(en.map((i) => i.role ?? i.type ?? ''));
      // Electron's role menus, item for item, with the usual shortcuts' roles.
      expect(vi.map((i) => i.role)).toEqual(
        expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'zoomIn', 'minimize']),
      );
      vi.forEach((item, n) => {
        if (item.type === 'separator' || item.role === 'appMenu') return; // macOS names the app menu
        expect({ role: item.role, label: item.label?.trim() }).toEqual({
          role: item.role,
          label: expect.stringMatching(/\S/),
        });
        expect({ role: item.role, vi: item.label }).not.toEqual({ role: item.role, vi: en[n]!.label });
      });
    }
    const linux = items(appMenuTemplate('linux', appActions, 'vi'));
    const label = (role: string) => linux.find((i) => i.role === role)?.label;
    expect(['editMenu', 'viewMenu', 'windowMenu', 'help'].map(label)).toEqual([
      'Sửa',
      'Xem',
      'Cửa sổ',
      'Trợ giúp',
    ]);
    expect(['undo', 'copy', 'paste', 'selectAll', 'quit'].map(label)).toEqual([
      'Hoàn tác',
      'Sao chép',
      'Dán',
      'Chọn tất cả',
      'Thoát Narration Studio',
    ]);
    expect(label('copy')).not.toBe(t('en', 'menu.role.copy'));
  });
});
