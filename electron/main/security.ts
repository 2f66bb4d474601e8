/**
 * The window's security settings, following Electron's security checklist
 * (https://www.electronjs.org/docs/latest/tutorial/security): isolation, sandbox, no Node in
 * the page, a strict CSP on every response, navigation only to the local server, no new
 * windows, no <webview>, no permissions; external links go to the system browser.
 */

import type {
  EventLike,
  HeadersReceivedDetails,
  WebContentsLike,
  WebPreferencesLike,
  WindowOptionsLike,
} from './electron-types';
import type { WindowBounds } from '../shared/settings';

/**
 * Everything from the local server only. `style-src 'unsafe-inline'` because wavesurfer.js
 * puts a <style> in its shadow root (the server sends the same policy); no inline or eval'd
 * script, no plugins, no framing, no <base>, forms post only to the server.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const DEFAULT_WINDOW_SIZE = { width: 1280, height: 820 } as const;

function webPreferences(preloadPath: string): WebPreferencesLike {
  return {
    preload: preloadPath,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    sandbox: true,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    // Chromium's spellchecker downloads Hunspell dictionaries from Google on Windows and Linux:
    // an offline app makes no such call.
    spellcheck: false,
  };
}

/** Options of the main window; `bounds` from `restoreBounds` (size only when absent). */
export function windowOptions(options: {
  preloadPath: string;
  bounds?: Omit<WindowBounds, 'maximized'> | undefined;
  icon?: string | undefined;
}): WindowOptionsLike {
  const { bounds } = options;
  return {
    ...(bounds ? { x: bounds.x, y: bounds.y } : {}),
    width: bounds?.width ?? DEFAULT_WINDOW_SIZE.width,
    height: bounds?.height ?? DEFAULT_WINDOW_SIZE.height,
    minWidth: 720,
    minHeight: 480,
    // Shown on 'ready-to-show', so no white flash before the first paint.
    show: false,
    title: 'Narration Studio',
    backgroundColor: '#15181f',
    ...(options.icon ? { icon: options.icon } : {}),
    webPreferences: webPreferences(options.preloadPath),
  };
}

export type NavigationDecision = 'allow' | 'external' | 'deny';

const EXTERNAL_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** Whether the system may open `url`: http(s) and mailto only (never file:, javascript:, custom schemes). */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return EXTERNAL_PROTOCOLS.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/**
 * Where a navigation in the window may go: the local server's own origin stays in the
 * window; other http(s)/mailto addresses open in the system browser; anything else is refused.
 */
export function classifyNavigation(url: string, serverOrigin: string): NavigationDecision {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'deny';
  }
  const isWeb = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  // Opaque origins ("null": data:, javascript:, file:) never match, even a paused server's.
  if (isWeb && parsed.origin === serverOrigin && parsed.username === '' && parsed.password === '')
    return 'allow';
  return isSafeExternalUrl(url) ? 'external' : 'deny';
}

/**
 * Installs the navigation guard on a window's contents. `serverOrigin()` is read on each
 * navigation (the port can change when the server is restarted on another one).
 */
export function guardNavigation(
  contents: WebContentsLike,
  serverOrigin: () => string,
  openExternal: (url: string) => void,
): void {
  const onNavigate = (event: EventLike, url: string) => {
    const decision = classifyNavigation(url, serverOrigin());
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external') openExternal(url);
  };
  contents.on('will-navigate', onNavigate);
  contents.on('will-redirect', onNavigate);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // New windows are never created; links with target=_blank open outside when safe.
  contents.setWindowOpenHandler(({ url }) => {
    // A second app window (even on the local origin) is never opened.
    if (classifyNavigation(url, serverOrigin()) === 'external') openExternal(url);
    return { action: 'deny' };
  });
}

/**
 * Response headers with the app's CSP set, for `session.webRequest.onHeadersReceived`.
 * Other headers are kept; an existing policy is kept too (browsers enforce every policy).
 */
export function withContentSecurityPolicy(details: HeadersReceivedDetails): Record<string, string[]> {
  const headers: Record<string, string[]> = { ...details.responseHeaders };
  const existing = Object.keys(headers).filter((k) => k.toLowerCase() === 'content-security-policy');
  const policies = existing.flatMap((k) => headers[k] ?? []);
  for (const k of existing) delete headers[k];
  headers['Content-Security-Policy'] = [
    ...policies.filter((p) => p !== CONTENT_SECURITY_POLICY),
    CONTENT_SECURITY_POLICY,
  ];
  return headers;
}
