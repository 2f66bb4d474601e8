/** The application menu and the tray menu, as plain templates (built with Menu.buildFromTemplate). */

import { t, type MenuLocale } from '../shared/i18n/menu-messages';
import type { MenuItemOptions, MenuRoleItem } from './electron-types';

export interface AppMenuActions {
  openLogsFolder(): void;
  openDataFolder(): void;
  copyBaseUrl(): void;
}

const SEPARATOR = { type: 'separator' } as const;

/**
 * The role menus Electron would build (its editMenu, viewMenu, windowMenu and macOS appMenu, item
 * for item), each item labelled in `locale`: Electron's own labels are English whatever the
 * system says. The role still does the work (and gives the usual shortcut).
 */
function roleMenus(isMac: boolean, locale: MenuLocale) {
  const item = (role: MenuRoleItem): MenuItemOptions => ({ role, label: t(locale, `menu.role.${role}`) });
  const items = (...roles: (MenuRoleItem | '-')[]) => roles.map((r) => (r === '-' ? SEPARATOR : item(r)));
  return {
    app: items('about', '-', 'services', '-', 'hide', 'hideOthers', 'unhide', '-', 'quit'),
    edit: isMac
      ? items('undo', 'redo', '-', 'cut', 'copy', 'paste', 'pasteAndMatchStyle', 'delete', 'selectAll')
      : items('undo', 'redo', '-', 'cut', 'copy', 'paste', 'delete', '-', 'selectAll'),
    view: items(
      'reload',
      'forceReload',
      'toggleDevTools',
      '-',
      'resetZoom',
      'zoomIn',
      'zoomOut',
      '-',
      'togglefullscreen',
    ),
    window: isMac ? items('minimize', 'zoom', '-', 'front') : items('minimize', 'zoom', 'close'),
    quit: item('quit'),
    about: item('about'),
  };
}

/**
 * Usual roles per platform, every item labelled in `locale`, plus the app's own items in File and
 * Help.
 */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  actions: AppMenuActions,
  locale: MenuLocale = 'en',
): MenuItemOptions[] {
  const isMac = platform === 'darwin';
  const roles = roleMenus(isMac, locale);
  const file: MenuItemOptions = {
    label: t(locale, 'menu.file'),
    submenu: [
      { label: t(locale, 'menu.copyApiAddress'), click: actions.copyBaseUrl },
      { label: t(locale, 'menu.openDataFolder'), click: actions.openDataFolder },
      // On macOS Quit lives in the app menu.
      ...(isMac ? [] : [SEPARATOR, roles.quit]),
    ],
  };
  return [
    // The app menu's title is the app's name (macOS writes it).
    ...(isMac ? [{ role: 'appMenu', submenu: roles.app } as const] : []),
    file,
    { role: 'editMenu', label: t(locale, 'menu.edit'), submenu: roles.edit },
    { role: 'viewMenu', label: t(locale, 'menu.view'), submenu: roles.view },
    { role: 'windowMenu', label: t(locale, 'menu.window'), submenu: roles.window },
    {
      role: 'help',
      label: t(locale, 'menu.help'),
      submenu: [
        { label: t(locale, 'menu.openLogsFolder'), click: actions.openLogsFolder },
        ...(isMac ? [] : [roles.about]),
      ],
    },
  ];
}

export type ServerStatus =
  | { state: 'starting' }
  | { state: 'running'; url: string }
  | { state: 'paused' }
  | { state: 'failed'; message: string };

export interface TrayActions {
  open(): void;
  copyBaseUrl(): void;
  pause(): void;
  resume(): void;
  quit(): void;
}

/** One line for the tray's tooltip and the first (disabled) menu item (the log's is English). */
export function statusLine(status: ServerStatus, locale: MenuLocale = 'en'): string {
  switch (status.state) {
    case 'starting':
      return t(locale, 'tray.status.starting');
    case 'running':
      return t(locale, 'tray.status.running', { url: status.url });
    case 'paused':
      return t(locale, 'tray.status.paused');
    case 'failed':
      return t(locale, 'tray.status.failed', { message: status.message });
  }
}

export function trayMenuTemplate(
  status: ServerStatus,
  actions: TrayActions,
  locale: MenuLocale = 'en',
): MenuItemOptions[] {
  const running = status.state === 'running';
  return [
    { label: statusLine(status, locale), enabled: false },
    { type: 'separator' },
    { label: t(locale, 'tray.open'), click: actions.open, enabled: running },
    { label: t(locale, 'menu.copyApiAddress'), click: actions.copyBaseUrl, enabled: running },
    running
      ? { label: t(locale, 'tray.pause'), click: actions.pause }
      : { label: t(locale, 'tray.resume'), click: actions.resume, enabled: status.state !== 'starting' },
    { type: 'separator' },
    { label: t(locale, 'tray.quit'), click: actions.quit },
  ];
}
