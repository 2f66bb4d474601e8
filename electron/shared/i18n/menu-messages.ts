/**
 * The desktop menus' and tray's words in English and Vietnamese, readable under plain Node (the
 * Electron shell, its tests). ICU messages, formatted with IntlMessageFormat like the renderer's.
 */

import { IntlMessageFormat } from 'intl-messageformat';

export const MENU_LOCALES = ['en', 'vi'] as const;
export type MenuLocale = (typeof MENU_LOCALES)[number];

const en = {
  'menu.file': 'File',
  'menu.copyApiAddress': 'Copy Local API Address',
  'menu.openDataFolder': 'Open Data Folder',
  'menu.openLogsFolder': 'Open Logs Folder',
  'tray.status.starting': 'Local API: starting…',
  'tray.status.running': 'Local API: running on {url}',
  'tray.status.paused': 'Local API: paused',
  'tray.status.failed': 'Local API: stopped ({message})',
  'tray.open': 'Open Narration Studio',
  'tray.pause': 'Pause Local API',
  'tray.resume': 'Resume Local API',
  'tray.quit': 'Quit',
  'dialog.saveAudio': 'Save audio',
  'dialog.saveSubtitles': 'Save subtitles',
  'dialog.filter.audio': 'Audio',
  'dialog.filter.subtitles': 'Subtitles',
  'dialog.filter.all': 'All files',
} as const;

export type MenuMessageId = keyof typeof en;

const vi = {
  'menu.file': 'Tệp',
  'menu.copyApiAddress': 'Sao chép địa chỉ API cục bộ',
  'menu.openDataFolder': 'Mở thư mục dữ liệu',
  'menu.openLogsFolder': 'Mở thư mục nhật ký',
  'tray.status.starting': 'API cục bộ: đang khởi động…',
  'tray.status.running': 'API cục bộ: đang chạy tại {url}',
  'tray.status.paused': 'API cục bộ: tạm dừng',
  'tray.status.failed': 'API cục bộ: đã dừng ({message})',
  'tray.open': 'Mở Narration Studio',
  'tray.pause': 'Tạm dừng API cục bộ',
  'tray.resume': 'Tiếp tục API cục bộ',
  'tray.quit': 'Thoát',
  'dialog.saveAudio': 'Lưu âm thanh',
  'dialog.saveSubtitles': 'Lưu phụ đề',
  'dialog.filter.audio': 'Âm thanh',
  'dialog.filter.subtitles': 'Phụ đề',
  'dialog.filter.all': 'Mọi tệp',
} satisfies Record<MenuMessageId, string>;

export const MENU_MESSAGES: Record<MenuLocale, Record<MenuMessageId, string>> = { en, vi };

/** The language the page names, if it is one of the menus' languages. */
export function isMenuLocale(value: unknown): value is MenuLocale {
  return (MENU_LOCALES as readonly unknown[]).includes(value);
}

/** The menus' language from a locale tag (Electron's app.getLocale(), navigator.language): vi* → vi. */
export function menuLocale(tag: string | undefined): MenuLocale {
  return tag?.toLowerCase().split(/[-_]/)[0] === 'vi' ? 'vi' : 'en';
}

/** One menu message in `locale`, its placeholders filled. */
export function t(locale: MenuLocale, id: MenuMessageId, values?: Record<string, string | number>): string {
  return String(new IntlMessageFormat(MENU_MESSAGES[locale][id], locale).format(values));
}
