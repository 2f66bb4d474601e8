/**
 * What the desktop shell adds to the studio UI: only what a browser cannot do. The preload
 * exposes one object of this type as `window[DESKTOP_API_GLOBAL]`; the main process implements
 * the same interface, so renaming or retyping a member breaks both sides at compile time.
 * Jobs, voices, history and keys go through the local HTTP API, never through this bridge.
 */

/** Property of `window` that holds the bridge in the desktop app (absent in a browser). */
export const DESKTOP_API_GLOBAL = 'narrationDesktop';

export interface ServerInfo {
  /** Base URL of the local API, e.g. http://127.0.0.1:8787 */
  url: string;
  /**
   * The current sign-in token: `<url>/?token=<token>` signs a browser in, once (a new token
   * replaces it then). The window signs itself in again with it when its session ended.
   */
  loginToken: string;
}

export type SaveKind = 'audio' | 'srt';

export interface SaveFileRequest {
  kind: SaveKind;
  /** File name offered in the dialog, e.g. "chapter-1.mp3"; folders are ignored. */
  suggestedName: string;
  /** The bytes (audio) or text (SRT) to write. */
  data: ArrayBuffer | string;
}

/** `path` is where the file was written; `saved: false` when the user cancelled. */
export type SaveFileResult = { saved: true; path: string } | { saved: false };

export interface DesktopApi {
  /** Where the local API listens and its session token. */
  getServerInfo(): Promise<ServerInfo>;
  /** Asks where to save with the system dialog, then writes the file there. */
  saveFile(request: SaveFileRequest): Promise<SaveFileResult>;
  /** Shows a file (a path returned by saveFile) in the system file manager. */
  revealInFolder(path: string): Promise<void>;
  /** Opens an http(s) or mailto URL in the system browser or mail client. */
  openExternal(url: string): Promise<void>;
  /** The app's version, e.g. "0.1.0". */
  getAppVersion(): Promise<string>;
  /**
   * The interface's language ("en" or "vi"), sent when the page starts and whenever it changes:
   * the menus, the tray and the save dialogs speak it from then on.
   */
  setLanguage(language: string): Promise<void>;
}

/** One IPC channel per member; `satisfies` makes a new member without a channel a compile error. */
export const DESKTOP_CHANNELS = {
  getServerInfo: 'desktop:get-server-info',
  saveFile: 'desktop:save-file',
  revealInFolder: 'desktop:reveal-in-folder',
  openExternal: 'desktop:open-external',
  getAppVersion: 'desktop:get-app-version',
  setLanguage: 'desktop:set-language',
} as const satisfies Record<keyof DesktopApi, string>;
