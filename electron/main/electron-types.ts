/**
 * The part of Electron's main-process API the shell uses, as plain interfaces. The shell is
 * written against these, tests pass a small fake of them, and `electron/main/index.ts` loads
 * the real module at run time and casts it here. `typecheck/electron.check.mts` (run by
 * `npm run typecheck:electron` where the electron package is installed) proves that the real
 * module is assignable to `ElectronMain`, so this subset cannot drift from Electron's types.
 * Why not `import … from 'electron'`: the package is optional and absent on machines that
 * cannot download its binary, and the main `tsc` must pass there too.
 */

export interface EventLike {
  preventDefault(): void;
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WebPreferencesLike {
  preload: string;
  contextIsolation: boolean;
  nodeIntegration: boolean;
  nodeIntegrationInWorker: boolean;
  nodeIntegrationInSubFrames: boolean;
  sandbox: boolean;
  webSecurity: boolean;
  allowRunningInsecureContent: boolean;
  experimentalFeatures: boolean;
  webviewTag: boolean;
  navigateOnDragDrop: boolean;
  spellcheck: boolean;
}

export interface WindowOptionsLike {
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  icon?: string;
  webPreferences: WebPreferencesLike;
}

export interface WebContentsLike {
  on(event: 'will-navigate', listener: (event: EventLike, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: EventLike, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: EventLike) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface BrowserWindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): Rectangle;
  close(): void;
  on(event: 'ready-to-show' | 'closed', listener: () => void): unknown;
  on(event: 'close', listener: (event: EventLike) => void): unknown;
}

/** The role items the app menu names itself (menus.ts), so their labels follow the studio's language. */
export type MenuRoleItem =
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'pasteAndMatchStyle'
  | 'delete'
  | 'selectAll'
  | 'reload'
  | 'forceReload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen'
  | 'minimize'
  | 'zoom'
  | 'close'
  | 'front'
  | 'about'
  | 'services'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'quit';

export interface MenuItemOptions {
  label?: string;
  role?:
    | 'appMenu'
    | 'fileMenu'
    | 'editMenu'
    | 'viewMenu'
    | 'windowMenu'
    | 'help'
    | 'quit'
    | 'about'
    | 'toggleDevTools'
    | MenuRoleItem;
  type?: 'normal' | 'separator' | 'submenu';
  enabled?: boolean;
  click?: () => void;
  submenu?: MenuItemOptions[];
}

export interface MenuLike {
  readonly items: readonly unknown[];
}

export interface TrayLike {
  setToolTip(toolTip: string): void;
  setContextMenu(menu: MenuLike | null): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

export interface MessageBoxOptionsLike {
  type: 'none' | 'info' | 'error' | 'question' | 'warning';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
}

export interface SaveDialogOptionsLike {
  title: string;
  defaultPath: string;
  filters: { name: string; extensions: string[] }[];
}

export interface HeadersReceivedDetails {
  url: string;
  responseHeaders?: Record<string, string[]>;
}

export interface IpcInvokeEventLike {
  readonly senderFrame: { readonly url: string } | null;
}

export interface ElectronMain {
  app: {
    requestSingleInstanceLock(): boolean;
    whenReady(): Promise<void>;
    on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): unknown;
    on(event: 'before-quit', listener: (event: EventLike) => void): unknown;
    getPath(name: 'userData' | 'logs' | 'documents'): string;
    setAppLogsPath(path?: string): void;
    getVersion(): string;
    /** The system's language as Electron reads it ("vi", "en-US"), after ready. */
    getLocale(): string;
    quit(): void;
    exit(exitCode?: number): void;
  };
  BrowserWindow: new (options: WindowOptionsLike) => BrowserWindowLike;
  Menu: {
    buildFromTemplate(template: MenuItemOptions[]): MenuLike;
    setApplicationMenu(menu: MenuLike | null): void;
  };
  Tray: new (image: string) => TrayLike;
  dialog: {
    showMessageBox(options: MessageBoxOptionsLike): Promise<{ response: number }>;
    showSaveDialog(options: SaveDialogOptionsLike): Promise<{ canceled: boolean; filePath?: string }>;
    showErrorBox(title: string, content: string): void;
  };
  shell: {
    openExternal(url: string): Promise<void>;
    openPath(path: string): Promise<string>;
    showItemInFolder(fullPath: string): void;
  };
  clipboard: { writeText(text: string): void };
  ipcMain: {
    handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown): void;
  };
  screen: { getAllDisplays(): { workArea: Rectangle }[] };
  session: {
    defaultSession: {
      webRequest: {
        onHeadersReceived(
          listener: (
            details: HeadersReceivedDetails,
            callback: (response: { responseHeaders?: Record<string, string[] | string> }) => void,
          ) => void,
        ): void;
      };
      setPermissionRequestHandler(
        handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
      ): void;
      setSpellCheckerEnabled(enable: boolean): void;
    };
  };
}
