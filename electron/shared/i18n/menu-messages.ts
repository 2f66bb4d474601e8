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
  'menu.edit': 'Edit',
  'menu.view': 'View',
  'menu.window': 'Window',
  'menu.help': 'Help',
  'menu.role.undo': 'Undo',
  'menu.role.redo': 'Redo',
  'menu.role.cut': 'Cut',
  'menu.role.copy': 'Copy',
  'menu.role.paste': 'Paste',
  'menu.role.pasteAndMatchStyle': 'Paste and Match Style',
  'menu.role.delete': 'Delete',
  'menu.role.selectAll': 'Select All',
  'menu.role.reload': 'Reload',
  'menu.role.forceReload': 'Force Reload',
  'menu.role.toggleDevTools': 'Toggle Developer Tools',
  'menu.role.resetZoom': 'Actual Size',
  'menu.role.zoomIn': 'Zoom In',
  'menu.role.zoomOut': 'Zoom Out',
  'menu.role.togglefullscreen': 'Toggle Full Screen',
  'menu.role.minimize': 'Minimize',
  'menu.role.zoom': 'Zoom',
  'menu.role.close': 'Close Window',
  'menu.role.front': 'Bring All to Front',
  'menu.role.about': 'About Narration Studio',
  'menu.role.services': 'Services',
  'menu.role.hide': 'Hide Narration Studio',
  'menu.role.hideOthers': 'Hide Others',
  'menu.role.unhide': 'Show All',
  'menu.role.quit': 'Quit Narration Studio',
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
  'menu.edit': 'Sửa',
  'menu.view': 'Xem',
  'menu.window': 'Cửa sổ',
  'menu.help': 'Trợ giúp',
  'menu.role.undo': 'Hoàn tác',
  'menu.role.redo': 'Làm lại',
  'menu.role.cut': 'Cắt',
  'menu.role.copy': 'Sao chép',
  'menu.role.paste': 'Dán',
  'menu.role.pasteAndMatchStyle': 'Dán và khớp kiểu',
  'menu.role.delete': 'Xoá',
  'menu.role.selectAll': 'Chọn tất cả',
  'menu.role.reload': 'Tải lại',
  'menu.role.forceReload': 'Buộc tải lại',
  'menu.role.toggleDevTools': 'Bật/tắt công cụ nhà phát triển',
  'menu.role.resetZoom': 'Cỡ gốc',
  'menu.role.zoomIn': 'Phóng to trang',
  'menu.role.zoomOut': 'Thu nhỏ trang',
  'menu.role.togglefullscreen': 'Bật/tắt toàn màn hình',
  'menu.role.minimize': 'Thu nhỏ cửa sổ',
  'menu.role.zoom': 'Phóng to cửa sổ',
  'menu.role.close': 'Đóng cửa sổ',
  'menu.role.front': 'Đưa tất cả lên trước',
  'menu.role.about': 'Giới thiệu Narration Studio',
  'menu.role.services': 'Dịch vụ',
  'menu.role.hide': 'Ẩn Narration Studio',
  'menu.role.hideOthers': 'Ẩn các ứng dụng khác',
  'menu.role.unhide': 'Hiện tất cả',
  'menu.role.quit': 'Thoát Narration Studio',
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
