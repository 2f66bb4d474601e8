/** What `--allow-origin` and the Settings view accept as an origin, and its normal form. */

import { describe, expect, it } from 'vitest';
import { checkAllowedOrigin, normalizeAllowedOrigins, originIsNamed } from '../../electron/shared/origins';

describe('checkAllowedOrigin', () => {
  it.each([
    ['http://127.0.0.1:5001', 'http://127.0.0.1:5001'],
    ['HTTP://LocalHost:5001', 'http://localhost:5001'],
    ['http://localhost:80', 'http://localhost'],
    ['https://lite.koboldai.net:443', 'https://lite.koboldai.net'],
    ['  https://lite.koboldai.net  ', 'https://lite.koboldai.net'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    [
      'chrome-extension://ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP',
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
    ],
    [
      'moz-extension://0e4b1a8c-5f2d-4c1e-9b7a-1d2e3f4a5b6c',
      'moz-extension://0e4b1a8c-5f2d-4c1e-9b7a-1d2e3f4a5b6c',
    ],
    // Apps in web views: an Obsidian plugin (Electron), Capacitor on iOS, Tauri on macOS/Linux.
    ['app://obsidian.md', 'app://obsidian.md'],
    ['App://Obsidian.MD', 'app://obsidian.md'],
    ['capacitor://localhost', 'capacitor://localhost'],
    ['tauri://localhost', 'tauri://localhost'],
    ['ionic://localhost', 'ionic://localhost'],
    ['my-app+dev://host-1.example:8080', 'my-app+dev://host-1.example:8080'],
    // Named on their own, the user's choice: every site's pages, and local files' and sandboxes'.
    ['*', '*'],
    [' NULL ', 'null'],
  ])('accepts %s as %s', (text, origin) => {
    expect(checkAllowedOrigin(text)).toEqual({ ok: true, origin });
  });

  it.each([
    [
      'http://*.example.com',
      /^"http:\/\/\*\.example\.com" is refused: a wildcard inside an origin .*or "\*" alone/,
    ],
    ['**', /wildcard/],
    ['http://127.0.0.1:5001/', /no path, here http:\/\/127\.0\.0\.1:5001\.$/],
    ['http://127.0.0.1:5001/lite?x=1', /no path/],
    ['localhost:5001', /is not an origin: write scheme:\/\/host\[:port\]/],
    ['http://user@example.com', /is not an origin/],
    ['http://example.com:99999', /host or port is not valid/],
    [
      'file:///home/me/page.html',
      /^"file:\/\/\/home\/me\/page\.html" is refused: file: addresses are not pages with an origin of their own .*serve the page over http:\/\//,
    ],
    ['about:blank', /about: addresses are not pages with an origin/],
    ['data:text/html,hi', /data: addresses are not pages/],
    ['blob:http://127.0.0.1:5001/1234', /blob: addresses/],
    ['ws://127.0.0.1:5001', /ws: addresses/],
    ['chrome-extension://abc:1', /write chrome-extension:\/\/<extension id>/],
    ['app://obsidian.md/', /no path, here app:\/\/obsidian\.md\.$/],
    ['app://', /is not an origin: write scheme:\/\/host\[:port\]/],
    [
      'app://obsidian_md',
      /is not an app's origin: write app:\/\/host\[:port\] .*e\.g\. app:\/\/obsidian\.md/,
    ],
    ['capacitor://localhost:99999', /is not an app's origin/],
    ['tauri://-localhost', /is not an app's origin/],
    ['app://*', /wildcard/],
  ])('refuses %s with one line saying why', (text, message) => {
    const check = checkAllowedOrigin(text);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.message).toMatch(message);
      expect(check.message).not.toContain('\n');
    }
  });

  it('normalizes a list without repeats, naming the option in its error', () => {
    expect(normalizeAllowedOrigins(['http://a:1', 'HTTP://A:1', 'https://b'], '--allow-origin')).toEqual([
      'http://a:1',
      'https://b',
    ]);
    expect(() => normalizeAllowedOrigins(['http://a:1', 'https://*.b'], '--allow-origin')).toThrow(
      /^--allow-origin: "https:\/\/\*\.b"/,
    );
  });
});

describe('originIsNamed', () => {
  it('matches an origin named exactly, any but null under "*", and null only when named', () => {
    const named = new Set(['http://a:1', 'app://obsidian.md']);
    expect(originIsNamed(named, 'http://a:1')).toBe(true);
    expect(originIsNamed(named, 'http://a:2')).toBe(false);
    expect(originIsNamed(named, 'null')).toBe(false);
    const every = new Set(['*']);
    expect(originIsNamed(every, 'https://anything.example')).toBe(true);
    expect(originIsNamed(every, 'tauri://localhost')).toBe(true);
    expect(originIsNamed(every, 'null')).toBe(false);
    expect(originIsNamed(new Set(['null']), 'null')).toBe(true);
    expect(originIsNamed(new Set(['null']), 'http://a:1')).toBe(false);
  });
});
