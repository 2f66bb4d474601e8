/**
 * The Host and Origin rules of security.ts, form by form: a name of this server (loopback, the
 * bound address, --allowed-host, --public-url's name) alone, with the listening port or with the
 * public URL's port (explicit, else 443/80) passes; an unknown name never does, whatever its
 * port (DNS rebinding); an Origin must be a page of this server (http, its name, its listening
 * port) or exactly the public URL's origin. Over HTTP through nginx: reverse-proxy.test.ts.
 */

import { describe, expect, it } from 'vitest';
import { createHostPolicy } from '../../../electron/core/server/security';

const PORT = 8787;

const behindProxy = createHostPolicy({
  host: '127.0.0.1',
  port: () => PORT,
  allowedHosts: ['TTS.example.com'],
  publicUrl: 'https://tts.example.com',
});
const publicWithPort = createHostPolicy({
  host: '127.0.0.1',
  port: () => PORT,
  publicUrl: 'http://render-1.internal:9000/',
});
const plain = createHostPolicy({ host: '127.0.0.1', port: () => PORT });

describe('the Host rule', () => {
  it('accepts a name of ours alone, with the listening port or with the public URL’s port', () => {
    for (const host of [
      'tts.example.com',
      'TTS.Example.Com',
      'tts.example.com:443',
      `tts.example.com:${PORT}`,
      '127.0.0.1',
      '127.0.0.1:443',
      `127.0.0.1:${PORT}`,
      'localhost',
      `localhost:${PORT}`,
      '[::1]',
      `[::1]:${PORT}`,
      '[::1]:443',
    ])
      expect(behindProxy.isAllowedHost(host), host).toBe(true);
    for (const host of [
      'render-1.internal',
      'render-1.internal:9000',
      `render-1.internal:${PORT}`,
      'localhost:9000',
    ])
      expect(publicWithPort.isAllowedHost(host), host).toBe(true);
    for (const host of ['127.0.0.1', `127.0.0.1:${PORT}`, 'localhost', `[::1]:${PORT}`])
      expect(plain.isAllowedHost(host), host).toBe(true);
  });

  it('refuses unknown names with any port, other ports of our names, and malformed values', () => {
    for (const host of [
      undefined,
      '',
      'evil.example',
      'evil.example:443',
      `evil.example:${PORT}`,
      'tts.example.com.evil.example',
      'tts.example.com.evil.example:443',
      'tts.example.com:80',
      `tts.example.com:${PORT + 1}`,
      '127.0.0.1:80',
      `localhost:${PORT + 1}`,
      '[::2]',
      `[::2]:${PORT}`,
      '[::1]:80',
      '::1',
      `127.0.0.1:${PORT}@evil.example`,
      'tts.example.com:',
      'tts.example.com:443:443',
    ])
      expect(behindProxy.isAllowedHost(host), String(host)).toBe(false);
    // The public port belongs to a public URL: without one, 443 is another port.
    for (const host of ['tts.example.com', '127.0.0.1:443', 'localhost:80', 'render-1.internal'])
      expect(plain.isAllowedHost(host), host).toBe(false);
    expect(publicWithPort.isAllowedHost('render-1.internal:443')).toBe(false);
  });
});

describe('the Origin rule', () => {
  it('accepts no Origin, a page served directly, and exactly the public URL’s origin', () => {
    for (const origin of [
      undefined,
      `http://127.0.0.1:${PORT}`,
      `http://localhost:${PORT}`,
      `http://[::1]:${PORT}`,
      `http://tts.example.com:${PORT}`,
      'https://tts.example.com',
      'https://tts.example.com:443',
    ])
      expect(behindProxy.isAllowedOrigin(origin), String(origin)).toBe(true);
    expect(publicWithPort.isAllowedOrigin('http://render-1.internal:9000')).toBe(true);
  });

  it('refuses other sites, other schemes and other ports of our names', () => {
    for (const origin of [
      'null',
      'http://evil.example',
      `http://evil.example:${PORT}`,
      'https://tts.example.com.evil.example',
      // The Host may omit the port; an Origin without one is port 80 (or 443), another site.
      'http://tts.example.com',
      'http://localhost',
      'http://127.0.0.1',
      'https://127.0.0.1',
      `https://127.0.0.1:${PORT}`,
      'https://tts.example.com:8443',
      `http://localhost:${PORT + 1}`,
    ])
      expect(behindProxy.isAllowedOrigin(origin), origin).toBe(false);
    for (const origin of [
      'https://tts.example.com',
      'http://render-1.internal',
      'https://render-1.internal:9000',
    ])
      expect(publicWithPort.isAllowedOrigin(origin), origin).toBe(false);
  });
});
