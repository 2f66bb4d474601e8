/** What `--allow-origin` and the Settings view accept as an origin, and its normal form. */

import { describe, expect, it } from 'vitest';
import { checkAllowedOrigin, normalizeAllowedOrigins } from '../../electron/shared/origins';

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
  ])('accepts %s as %s', (text, origin) => {
    expect(checkAllowedOrigin(text)).toEqual({ ok: true, origin });
  });

  it.each([
    ['*', /^"\*" is refused: a wildcard would let every web site open in your browser use this server/],
    ['http://*.example.com', /wildcard/],
    ['null', /^"null" is refused: every local file and sandboxed page sends it/],
    ['http://127.0.0.1:5001/', /no path, here http:\/\/127\.0\.0\.1:5001\.$/],
    ['http://127.0.0.1:5001/lite?x=1', /no path/],
    ['localhost:5001', /is not an origin: write scheme:\/\/host\[:port\]/],
    ['http://user@example.com', /is not an origin/],
    ['http://example.com:99999', /host or port is not valid/],
    ['file:///home/me/page.html', /browsers send http:\/\/, https:\/\/ or an extension's origin/],
    ['chrome-extension://abc:1', /write chrome-extension:\/\/<extension id>/],
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
    expect(() => normalizeAllowedOrigins(['http://a:1', '*'], '--allow-origin')).toThrow(
      /^--allow-origin: "\*"/,
    );
  });
});
