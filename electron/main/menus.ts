/** The application menu and the tray menu, as plain templates (built with Menu.buildFromTemplate). */

import type { MenuItemOptions } from './electron-types';

export interface AppMenuActions {
  openLogsFolder(): void;
  openDataFolder(): void;
  copyBaseUrl(): void;
}

/** Usual roles per platform, plus the app's own items in File and Help. */
export function appMenuTemplate(platform: NodeJS.Platform, actions: AppMenuActions): MenuItemOptions[] {
  const isMac = platform === 'darwin';
  const file: MenuItemOptions = {
    label: 'File',
    submenu: [
      { label: 'Copy Local API Address', click: actions.copyBaseUrl },
      { label: 'Open Data Folder', click: actions.openDataFolder },
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
        { label: 'Open Logs Folder', click: actions.openLogsFolder },
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

/** One line for the tray's tooltip and the first (disabled) menu item. */
export function statusLine(status: ServerStatus): string {
  switch (status.state) {
    case 'starting':
      return 'Local API: starting…';
    case 'running':
      return `Local API: running on ${status.url}`;
    case 'paused':
      return 'Local API: paused';
    case 'failed':
      return `Local API: stopped (${status.message})`;
  }
}

export function trayMenuTemplate(status: ServerStatus, actions: TrayActions): MenuItemOptions[] {
  const running = status.state === 'running';
  return [
    { label: statusLine(status), enabled: false },
    { type: 'separator' },
    { label: 'Open Narration Studio', click: actions.open, enabled: running },
    { label: 'Copy Local API Address', click: actions.copyBaseUrl, enabled: running },
    running
      ? { label: 'Pause Local API', click: actions.pause }
      : { label: 'Resume Local API', click: actions.resume, enabled: status.state !== 'starting' },
    { type: 'separator' },
    { label: 'Quit', click: actions.quit },
  ];
}
