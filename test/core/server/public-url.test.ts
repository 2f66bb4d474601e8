/**
 * The URL building of `--public-url` with a path (public-url.ts) and which requests came
 * through it (security.ts: isPublicHost): the sub-path goes into what the browser follows only
 * for those; requests to the server's own address keep the root.
 */

import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import {
  cookiePath,
  prefixedLocation,
  publicBase,
  publicPath,
  requestPrefix,
  signInAddress,
} from '../../../electron/core/server/public-url';
import { createHostPolicy } from '../../../electron/core/server/security';

describe('public URL building', () => {
  it('keeps the path of the public URL without its trailing slash', () => {
    expect(publicBase('http://host/tts/')).toBe('http://host/tts');
    expect(publicBase('http://host:8080')).toBe('http://host:8080');
    expect(publicPath('http://host/tts/')).toBe('/tts');
    expect(publicPath('https://host/apps/narration')).toBe('/apps/narration');
    expect(publicPath('http://host/')).toBe('');
    expect(publicPath('http://host')).toBe('');
    expect(publicPath(undefined)).toBe('');
  });

  it('builds the sign-in address under the base', () => {
    expect(signInAddress('http://host/tts', 'abc123')).toBe('http://host/tts/?token=abc123');
    expect(signInAddress('http://host/tts/', 'abc123')).toBe('http://host/tts/?token=abc123');
    expect(signInAddress('http://127.0.0.1:8787', 'abc123')).toBe('http://127.0.0.1:8787/?token=abc123');
  });

  it('puts the prefix before paths of this server only', () => {
    expect(prefixedLocation('/api-docs/', '/tts')).toBe('/tts/api-docs/');
    expect(prefixedLocation('/api-docs/', '')).toBe('/api-docs/');
    expect(prefixedLocation('https://elsewhere.example/x', '/tts')).toBe('https://elsewhere.example/x');
    expect(prefixedLocation('//elsewhere.example/x', '/tts')).toBe('//elsewhere.example/x');
    expect(prefixedLocation('static/index.html', '/tts')).toBe('static/index.html');
    expect(cookiePath('/tts')).toBe('/tts');
    expect(cookiePath('')).toBe('/');
  });
});

describe('requests through the public URL', () => {
  const policy = createHostPolicy({
    host: '127.0.0.1',
    port: () => 8787,
    publicUrl: 'https://tts.example.com/tts',
  });
  const prefix = requestPrefix('https://tts.example.com/tts', (host) => policy.isPublicHost(host));
  const of = (host: string | undefined, origin?: string) =>
    ({ headers: { host, ...(origin ? { origin } : {}) } }) as unknown as FastifyRequest;

  it("are those whose Host names the public URL's host, with its port or none", () => {
    expect(policy.isPublicHost('tts.example.com')).toBe(true);
    expect(policy.isPublicHost('TTS.example.com:443')).toBe(true);
    expect(policy.isPublicHost('tts.example.com:8787')).toBe(false);
    expect(policy.isPublicHost('127.0.0.1:8787')).toBe(false);
    expect(policy.isPublicHost('other.example.com')).toBe(false);
    expect(policy.isPublicHost(undefined)).toBe(false);
    expect(createHostPolicy({ host: '127.0.0.1', port: () => 8787 }).isPublicHost('127.0.0.1')).toBe(false);
  });

  it("get the sub-path (by Host, or by a page's Origin); requests to the server directly get the root", () => {
    expect(prefix(of('tts.example.com'))).toBe('/tts');
    expect(prefix(of('127.0.0.1:8787'))).toBe('');
    expect(prefix(of(undefined))).toBe('');
    // nginx's default Host is its upstream's address: a page's Origin still tells.
    expect(prefix(of('127.0.0.1:8787', 'https://tts.example.com'))).toBe('/tts');
    expect(prefix(of('127.0.0.1:8787', 'http://127.0.0.1:8787'))).toBe('');
    const atRoot = requestPrefix('https://tts.example.com/', (host) => policy.isPublicHost(host));
    expect(atRoot(of('tts.example.com'))).toBe('');
  });
});
