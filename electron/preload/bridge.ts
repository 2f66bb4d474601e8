/**
 * Builds the `DesktopApi` the page sees: one named function per member, each invoking its
 * own channel. The page never gets `ipcRenderer`, the IPC event or a generic "send".
 */

import { DESKTOP_CHANNELS, type DesktopApi } from '../shared/desktop-api';

/** `ipcRenderer.invoke`, the only IPC primitive the preload uses. */
export type Invoke = (channel: string, ...args: unknown[]) => Promise<unknown>;

/** The part of Electron's renderer API the preload uses (see electron/main/electron-types.ts). */
export interface PreloadElectron {
  contextBridge: { exposeInMainWorld(key: string, api: unknown): void };
  ipcRenderer: { invoke: Invoke };
}

export function createDesktopBridge(invoke: Invoke): DesktopApi {
  const c = DESKTOP_CHANNELS;
  return {
    getServerInfo: () => invoke(c.getServerInfo) as ReturnType<DesktopApi['getServerInfo']>,
    saveFile: (request) => invoke(c.saveFile, request) as ReturnType<DesktopApi['saveFile']>,
    revealInFolder: (path) => invoke(c.revealInFolder, path) as Promise<void>,
    openExternal: (url) => invoke(c.openExternal, url) as Promise<void>,
    getAppVersion: () => invoke(c.getAppVersion) as Promise<string>,
    setLanguage: (language) => invoke(c.setLanguage, language) as Promise<void>,
  };
}
