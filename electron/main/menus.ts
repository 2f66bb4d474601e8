/** The application menu and the tray menu, as plain templates (built with Menu.buildFromTemplate). */

import { t, type MenuLocale } from '../shared/i18n/menu-messages';
import type { MenuItemOptions } from './electron-types';

export interface AppMenuActions {
  openLogsFolder(): void;
  openDataFolder(): void;
  copyBaseUrl(): void;
}

/**
 * Usual roles per platform (Electron names them in the system's language), plus the app's own
 * items in File and Help, in `locale`.
 */
export function appMenuTemplate(
  platform: NodeJS.Platform,
  actions: AppMenuActions,
  locale: MenuLocale = 'en',
): MenuItemOptions[] {
  const isMac = platform === 'darwin';
  const file: MenuItemOptions = {
    label: t(locale, 'menu.file'),
    submenu: [
      { label: t(locale, 'menu.copyApiAddress'), click: actions.copyBaseUrl },
      { label: t(locale, 'menu.openDataFolder'), click: actions.openDataFolder },
      // On macOS Quit lives in the app menu.
      ...(isMac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  return [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    file,
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: t(locale, 'menu.openLogsFolder'), click: actions.openLogsFolder },
        ...(isMac ? [] : [{ role: 'about' } as const]),
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
