/**
 * A small typed fake of the Electron API subset the shell uses (`ElectronMain`): records what
 * the shell does and lets a test fire events (quit, second instance, navigation).
 */

import type {
  BrowserWindowLike,
  ElectronMain,
  EventLike,
  HeadersReceivedDetails,
  IpcInvokeEventLike,
  MenuItemOptions,
  MenuLike,
  MessageBoxOptionsLike,
  Rectangle,
  SaveDialogOptionsLike,
  TrayLike,
  WebContentsLike,
  WindowOptionsLike,
} from '../../electron/main/electron-types';

type Listener = (...args: never[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (...a: unknown[]) => unknown)(...args);
  }
}

export function fakeEvent(): EventLike & { prevented: boolean } {
  return {
    prevented: false,
    preventDefault() {
      this.prevented = true;
    },
  };
}

export class FakeWebContents extends Emitter implements WebContentsLike {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  /** Fires will-navigate and tells whether the navigation went ahead. */
  navigate(url: string): boolean {
    const event = fakeEvent();
    this.emit('will-navigate', event, url);
    return !event.prevented;
  }
}

export class FakeWindow extends Emitter implements BrowserWindowLike {
  readonly webContents = new FakeWebContents();
  readonly loaded: string[] = [];
  shown = false;
  focused = 0;
  destroyed = false;
  maximized = false;
  bounds: Rectangle;
  constructor(readonly options: WindowOptionsLike) {
    super();
    this.bounds = { x: options.x ?? 100, y: options.y ?? 100, width: options.width, height: options.height };
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focused += 1;
  }
  restore(): void {}
  maximize(): void {
    this.maximized = true;
  }
  isMinimized = () => false;
  isMaximized = () => this.maximized;
  isDestroyed = () => this.destroyed;
  getNormalBounds = () => ({ ...this.bounds });
  close(): void {
    this.emit('close', fakeEvent());
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeTray extends Emitter implements TrayLike {
  toolTip = '';
  menu: MenuLike | null = null;
  destroyed = false;
  constructor(readonly image: string) {
    super();
  }
  setToolTip(toolTip: string): void {
    this.toolTip = toolTip;
  }
  setContextMenu(menu: MenuLike | null): void {
    this.menu = menu;
  }
  destroy(): void {
    this.destroyed = true;
  }
}

export interface FakeOptions {
  /** False: another instance holds the lock. */
  lock?: boolean;
  /** Answer of each message box, in order (default 0). */
  messageBoxAnswers?: number[];
  saveDialogPath?: string | undefined;
  paths?: Partial<Record<'userData' | 'logs' | 'documents', string>>;
  displays?: Rectangle[];
}

export function createFakeElectron(options: FakeOptions = {}) {
  const app = new (class extends Emitter {
    quitCalls = 0;
    exitCode: number | undefined;
    ready = false;
    private readonly readyPromise = new Promise<void>((resolve) => this.on('ready', resolve));
    requestSingleInstanceLock = () => options.lock ?? true;
    /** Like Electron: resolves once 'ready' has been emitted (`emitReady`), never before. */
    whenReady = () => this.readyPromise;
    /**
     * Electron emits 'ready' only after the main module has finished evaluating (its top-level
     * awaits included); a test calls this where that evaluation would end.
     */
    emitReady(): void {
      this.ready = true;
      this.emit('ready');
    }
    getPath = (name: 'userData' | 'logs' | 'documents') => options.paths?.[name] ?? `/fake/${name}`;
    setAppLogsPath(): void {}
    getVersion = () => '0.1.0';
    getLocale = () => 'en-US';
    /** Like Electron: emits before-quit; quits unless a listener prevented it. */
    quit(): void {
      this.quitCalls += 1;
      const event = fakeEvent();
      this.emit('before-quit', event);
      if (!event.prevented) this.emit('quit');
    }
    exit(code = 0): void {
      this.exitCode = code;
    }
  })();
  const windows: FakeWindow[] = [];
  const trays: FakeTray[] = [];
  const templates: MenuItemOptions[][] = [];
  const messageBoxes: MessageBoxOptionsLike[] = [];
  const saveDialogs: SaveDialogOptionsLike[] = [];
  const errorBoxes: { title: string; content: string }[] = [];
  const opened: string[] = [];
  const revealed: string[] = [];
  const clipboard: string[] = [];
  const handlers = new Map<string, (event: IpcInvokeEventLike, ...args: unknown[]) => unknown>();
  let applicationMenu: MenuLike | null = null;
  let headersListener:
    | ((
        d: HeadersReceivedDetails,
        cb: (r: { responseHeaders?: Record<string, string[] | string> }) => void,
      ) => void)
    | undefined;
  let permissionHandler: ((c: unknown, p: string, cb: (granted: boolean) => void) => void) | undefined;
  const answers = [...(options.messageBoxAnswers ?? [])];
  /** Every setSpellCheckerEnabled call on the default session. */
  const spellChecker: boolean[] = [];

  const electron = {
    app,
    BrowserWindow: class extends FakeWindow {
      constructor(o: WindowOptionsLike) {
        super(o);
        windows.push(this);
      }
    },
    Menu: {
      buildFromTemplate(template: MenuItemOptions[]): MenuLike & { template: MenuItemOptions[] } {
        templates.push(template);
        return { items: template, template };
      },
      setApplicationMenu(menu: MenuLike | null) {
        applicationMenu = menu;
      },
    },
    Tray: class extends FakeTray {
      constructor(image: string) {
        super(image);
        trays.push(this);
      }
    },
    dialog: {
      async showMessageBox(o: MessageBoxOptionsLike) {
        messageBoxes.push(o);
        return { response: answers.shift() ?? 0 };
      },
      async showSaveDialog(o: SaveDialogOptionsLike) {
        saveDialogs.push(o);
        return options.saveDialogPath
          ? { canceled: false, filePath: options.saveDialogPath }
          : { canceled: true };
      },
      showErrorBox(title: string, content: string) {
        errorBoxes.push({ title, content });
      },
    },
    shell: {
      async openExternal(url: string) {
        opened.push(url);
      },
      async openPath(path: string) {
        opened.push(path);
        return '';
      },
      showItemInFolder(path: string) {
        revealed.push(path);
      },
    },
    clipboard: { writeText: (text: string) => void clipboard.push(text) },
    ipcMain: {
      handle(channel: string, listener: (event: IpcInvokeEventLike, ...args: unknown[]) => unknown) {
        handlers.set(channel, listener);
      },
    },
    screen: {
      getAllDisplays: () =>
        (options.displays ?? [{ x: 0, y: 0, width: 1920, height: 1080 }]).map((workArea) => ({ workArea })),
    },
    session: {
      defaultSession: {
        webRequest: {
          onHeadersReceived(listener: NonNullable<typeof headersListener>) {
            headersListener = listener;
          },
        },
        setPermissionRequestHandler(handler: NonNullable<typeof permissionHandler>) {
          permissionHandler = handler;
        },
        setSpellCheckerEnabled(enable: boolean) {
          spellChecker.push(enable);
        },
      },
    },
  } satisfies ElectronMain;

  return {
    electron: electron as ElectronMain,
    app,
    windows,
    trays,
    templates,
    messageBoxes,
    saveDialogs,
    errorBoxes,
    opened,
    revealed,
    clipboard,
    handlers,
    spellChecker,
    applicationMenu: () => applicationMenu,
    /** Runs the session's header hook on a response. */
    headers(details: HeadersReceivedDetails) {
      let result: Record<string, string[] | string> | undefined;
      headersListener?.(details, (r) => (result = r.responseHeaders));
      return result;
    },
    /** Asks the session's permission handler. */
    permission(name: string): boolean | undefined {
      let granted: boolean | undefined;
      permissionHandler?.({}, name, (g) => (granted = g));
      return granted;
    },
    /** Calls an IPC handler as a frame at `frameUrl` would. */
    invoke(channel: string, frameUrl: string | null, ...args: unknown[]) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`no handler for ${channel}`);
      // Like ipcMain.handle: a throwing handler rejects the renderer's invoke.
      return new Promise((resolve) =>
        resolve(handler({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, ...args)),
      );
    },
  };
}
