import { describe, expect, it } from 'vitest';
import { restoreBounds } from '../../electron/main/bounds';
import {
  CONTENT_SECURITY_POLICY,
  classifyNavigation,
  guardNavigation,
  isSafeExternalUrl,
  windowOptions,
  withContentSecurityPolicy,
} from '../../electron/main/security';
import { FakeWebContents, fakeEvent } from './fake-electron';

const ORIGIN = 'http://127.0.0.1:8787';

describe('window options', () => {
  it('isolate the page: context isolation and sandbox on, no Node, no webview, preload set', () => {
    const options = windowOptions({ preloadPath: '/app/dist/electron/preload/index.cjs' });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/dist/electron/preload/index.cjs',
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(options.show).toBe(false);
  });

  it('use remembered bounds when given, else a default size', () => {
    const restored = windowOptions({ preloadPath: 'p', bounds: { x: 10, y: 20, width: 900, height: 700 } });
    expect(restored).toMatchObject({ x: 10, y: 20, width: 900, height: 700 });
    const fresh = windowOptions({ preloadPath: 'p' });
    expect(fresh.x).toBeUndefined();
    expect(fresh.width).toBeGreaterThanOrEqual(fresh.minWidth);
  });
});

describe('content security policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );

  it('allows scripts only from the server: no inline, no eval, no remote', () => {
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });

  it('is added to every response, keeping other headers and an existing policy', () => {
    const headers = withContentSecurityPolicy({
      url: `${ORIGIN}/`,
      responseHeaders: { 'content-type': ['text/html'], 'content-security-policy': ["default-src 'self'"] },
    });
    expect(headers['content-type']).toEqual(['text/html']);
    expect(headers['Content-Security-Policy']).toEqual(["default-src 'self'", CONTENT_SECURITY_POLICY]);
    expect(Object.keys(headers).filter((k) => k.toLowerCase() === 'content-security-policy')).toHaveLength(1);
    expect(withContentSecurityPolicy({ url: 'x' })['Content-Security-Policy']).toEqual([
      CONTENT_SECURITY_POLICY,
    ]);
  });
});

describe('navigation guard', () => {
  it('keeps the local server in the window, sends web links out, refuses the rest', () => {
    expect(classifyNavigation(`${ORIGIN}/history?x=1`, ORIGIN)).toBe('allow');
    expect(classifyNavigation('http://127.0.0.1:8788/', ORIGIN)).toBe('external');
    expect(classifyNavigation('http://localhost:8787/', ORIGIN)).toBe('external');
    expect(classifyNavigation('https://example.com/docs', ORIGIN)).toBe('external');
    expect(classifyNavigation('mailto:team@example.com', ORIGIN)).toBe('external');
    expect(classifyNavigation('http://user:pw@127.0.0.1:8787/', ORIGIN)).toBe('external');
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'smb://host/share',
      'not a url',
    ])
      expect(classifyNavigation(url, ORIGIN)).toBe('deny');
    // A paused server has no origin; opaque origins ("null") never count as the server's.
    expect(classifyNavigation('data:text/html,x', 'null')).toBe('deny');
    expect(classifyNavigation(`${ORIGIN}/`, '')).toBe('external');
    expect(isSafeExternalUrl('file:///tmp/x')).toBe(false);
    expect(isSafeExternalUrl('https://example.com')).toBe(true);
  });

  it('prevents leaving navigations, opens web links in the browser and never opens windows', () => {
    const contents = new FakeWebContents();
    const opened: string[] = [];
    guardNavigation(
      contents,
      () => ORIGIN,
      (url) => opened.push(url),
    );

    expect(contents.navigate(`${ORIGIN}/settings`)).toBe(true);
    expect(contents.navigate('https://example.com/')).toBe(false);
    expect(contents.navigate('file:///etc/passwd')).toBe(false);
    const redirect = fakeEvent();
    contents.emit('will-redirect', redirect, 'https://evil.example/');
    expect(redirect.prevented).toBe(true);
    const webview = fakeEvent();
    contents.emit('will-attach-webview', webview);
    expect(webview.prevented).toBe(true);

    expect(contents.openHandler?.({ url: 'https://example.com/help' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: `${ORIGIN}/popup` })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com/', 'https://evil.example/', 'https://example.com/help']);
  });

  it('follows the server when it moves to another port', () => {
    let origin = ORIGIN;
    const contents = new FakeWebContents();
    guardNavigation(
      contents,
      () => origin,
      () => {},
    );
    origin = 'http://127.0.0.1:9000';
    expect(contents.navigate('http://127.0.0.1:9000/')).toBe(true);
    expect(contents.navigate(`${ORIGIN}/`)).toBe(false);
  });
});

describe('window bounds', () => {
  const display = { x: 0, y: 0, width: 1920, height: 1080 };
  const saved = { x: 100, y: 80, width: 1200, height: 800, maximized: false };

  it('restores bounds that are on a connected display', () => {
    expect(restoreBounds(saved, [display])).toEqual(saved);
    expect(restoreBounds(null, [display])).toBeUndefined();
  });

  it('drops bounds on an unplugged monitor and shrinks oversized ones', () => {
    expect(restoreBounds({ ...saved, x: 2500 }, [display])).toBeUndefined();
    expect(restoreBounds({ ...saved, y: -500 }, [display])).toBeUndefined();
    expect(restoreBounds({ ...saved, x: 2500 }, [display, { ...display, x: 1920 }])).toMatchObject({
      x: 2500,
    });
    expect(restoreBounds({ ...saved, width: 4000, height: 3000 }, [display])).toMatchObject({
      width: 1920,
      height: 1080,
    });
  });
});
