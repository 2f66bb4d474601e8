/**
 * The main-process side of `DesktopApi`: the same interface the preload exposes, so the two
 * cannot drift apart. Every IPC call is checked to come from the local server's page
 * (Electron security checklist: validate the sender of all IPC messages) and its arguments
 * are checked at run time, since the page is not trusted to send the declared types.
 */

import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  DESKTOP_CHANNELS,
  type DesktopApi,
  type SaveFileRequest,
  type ServerInfo,
} from '../shared/desktop-api';
import { isMenuLocale, t, type MenuLocale } from '../shared/i18n/menu-messages';
import type { ElectronMain, IpcInvokeEventLike } from './electron-types';
import { classifyNavigation, isSafeExternalUrl } from './security';

export interface DesktopApiDeps {
  serverInfo(): ServerInfo;
  electron: Pick<ElectronMain, 'dialog' | 'shell'>;
  appVersion: string;
  /** Folder the save dialog opens in the first time. */
  defaultSaveDir: string;
  /** Paths saved in this run: only these may be revealed. */
  savedPaths?: Set<string>;
  /** The language of the menus and dialogs now. */
  language(): MenuLocale;
  /** The page's interface language changed: the shell rebuilds its menus and tray in it. */
  setLanguage(language: MenuLocale): void;
}

/** The save dialog's title and file types in `locale`. */
function saveDialogWords(kind: 'audio' | 'srt', locale: MenuLocale) {
  const all = { name: t(locale, 'dialog.filter.all'), extensions: ['*'] };
  return kind === 'srt'
    ? {
        title: t(locale, 'dialog.saveSubtitles'),
        filters: [{ name: t(locale, 'dialog.filter.subtitles'), extensions: ['srt'] }, all],
      }
    : {
        title: t(locale, 'dialog.saveAudio'),
        filters: [{ name: t(locale, 'dialog.filter.audio'), extensions: ['mp3', 'wav'] }, all],
      };
}

function checkSaveRequest(request: unknown): SaveFileRequest {
  const r = request as Partial<SaveFileRequest> | null;
  if (
    !r ||
    (r.kind !== 'audio' && r.kind !== 'srt') ||
    typeof r.suggestedName !== 'string' ||
    !(typeof r.data === 'string' || r.data instanceof ArrayBuffer)
  ) {
    throw new TypeError('saveFile expects { kind: "audio" | "srt", suggestedName, data }');
  }
  return r as SaveFileRequest;
}

export function createDesktopApi(deps: DesktopApiDeps): DesktopApi {
  const saved = deps.savedPaths ?? new Set<string>();
  let lastDir = deps.defaultSaveDir;
  return {
    getServerInfo: async () => deps.serverInfo(),
    async saveFile(request) {
      const { kind, suggestedName, data } = checkSaveRequest(request);
      // basename: the page chooses a name, never a folder.
      const name =
        basename(suggestedName.replace(/\\/g, '/')) || (kind === 'srt' ? 'subtitles.srt' : 'audio.mp3');
      const result = await deps.electron.dialog.showSaveDialog({
        ...saveDialogWords(kind, deps.language()),
        defaultPath: join(lastDir, name),
      });
      if (result.canceled || !result.filePath) return { saved: false };
      await writeFile(result.filePath, typeof data === 'string' ? data : new Uint8Array(data));
      saved.add(result.filePath);
      lastDir = join(result.filePath, '..');
      return { saved: true, path: result.filePath };
    },
    async revealInFolder(path) {
      if (typeof path !== 'string' || !saved.has(path)) {
        throw new Error('Only files saved in this session can be revealed.');
      }
      deps.electron.shell.showItemInFolder(path);
    },
    async openExternal(url) {
      if (typeof url !== 'string' || !isSafeExternalUrl(url)) {
        throw new Error('Only http(s) and mailto addresses can be opened.');
      }
      await deps.electron.shell.openExternal(url);
    },
    getAppVersion: async () => deps.appVersion,
    async setLanguage(language) {
      if (!isMenuLocale(language)) throw new TypeError('setLanguage expects "en" or "vi"');
      deps.setLanguage(language);
    },
  };
}

/**
 * Registers one `ipcMain.handle` per member. Calls from any frame whose URL is not on
 * `serverOrigin()` are refused.
 */
export function registerDesktopApi(
  ipcMain: ElectronMain['ipcMain'],
  api: DesktopApi,
  serverOrigin: () => string,
): void {
  const trusted = (event: IpcInvokeEventLike) => {
    const url = event.senderFrame?.url;
    return url !== undefined && classifyNavigation(url, serverOrigin()) === 'allow';
  };
  for (const name of Object.keys(DESKTOP_CHANNELS) as (keyof DesktopApi)[]) {
    const method = api[name] as (...args: unknown[]) => Promise<unknown>;
    ipcMain.handle(DESKTOP_CHANNELS[name], (event, ...args) => {
      if (!trusted(event)) throw new Error(`${DESKTOP_CHANNELS[name]}: refused, not from the studio page`);
      return method(...args);
    });
  }
}
