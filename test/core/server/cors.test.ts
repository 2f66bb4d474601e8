/**
 * `--allow-origin` over real HTTP: the preflights and answers of a named page or extension get
 * CORS headers (never Access-Control-Allow-Credentials); every other origin is refused as
 * before, in the error shape of its route; a named origin cannot use the studio's session, even
 * with the cookie and the session's value.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStudio, type StudioSession } from '../../fixtures/studio-session';
import { fetchUrl, startSignedInCore, type SignedInTestCore } from './helpers';
import type { HttpResult } from './http';

const PAGE = 'http://127.0.0.1:5001';
const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

/** The values of a comma-separated header, lower case. */
const list = (res: HttpResult, name: string) =>
  String(res.headers[name] ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '');

describe('CORS for the origins named by --allow-origin', () => {
  let t: SignedInTestCore;
  let studio: StudioSession;

  beforeAll(async () => {
    // Written as a user might: upper case and a default port, stored in normal form.
    t = await startSignedInCore({
      allowedOrigins: ['HTTP://127.0.0.1:5001', EXTENSION, 'https://lite.example:443'],
    });
    studio = t.studio;
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetchUrl(`${t.core.url}${path}`, method, {
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const preflight = (path: string, origin: string, extra: Record<string, string> = {}) =>
    send('OPTIONS', path, {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
      ...extra,
    });

  it('answers a named origin’s preflight with the methods and headers it may use', async () => {
    for (const origin of [PAGE, EXTENSION, 'https://lite.example']) {
      for (const path of ['/v1/audio/speech', '/api/v1/tts', '/api/v1/voices', '/v1/no-such-route']) {
        const res = await preflight(path, origin);
        const label = `OPTIONS ${path} from ${origin}`;
        expect(res.status, label).toBe(204);
        expect(res.headers['access-control-allow-origin'], label).toBe(origin);
        expect(list(res, 'vary'), label).toContain('origin');
        expect(list(res, 'access-control-allow-methods'), label).toEqual(
          expect.arrayContaining(['get', 'post', 'put', 'delete']),
        );
        expect(list(res, 'access-control-allow-headers'), label).toEqual(
          expect.arrayContaining([
            'authorization',
            'content-type',
            'idempotency-key',
            'x-requested-with',
            'x-stainless-os',
          ]),
        );
        expect(list(res, 'access-control-allow-headers'), label).not.toContain('x-studio-session');
        expect(Number(res.headers['access-control-max-age']), label).toBeGreaterThan(0);
        expect(res.headers['access-control-allow-credentials'], label).toBeUndefined();
        expect(res.headers['access-control-allow-private-network'], label).toBeUndefined();
        expect(res.text, label).toBe('');
      }
    }
    // Chromium's Private Network Access question, from a public page to this loopback server.
    const pna = await preflight('/v1/audio/speech', 'https://lite.example', {
      'access-control-request-private-network': 'true',
    });
    expect(pna.headers['access-control-allow-private-network']).toBe('true');
  });

  it('answers a named origin’s requests with its origin, exposing the headers a script reads', async () => {
    const speech = await send(
      'POST',
      '/v1/audio/speech',
      { origin: PAGE, authorization: `Bearer ${t.key}` },
      { model: 'tts-1', input: 'Hello from another page.', voice: 'alloy' },
    );
    expect(speech.status, speech.text).toBe(200);
    expect(speech.headers['access-control-allow-origin']).toBe(PAGE);
    expect(list(speech, 'vary')).toContain('origin');
    expect(speech.headers['x-request-id']).toMatch(/\S/);
    expect(list(speech, 'access-control-expose-headers')).toContain('x-request-id');
    expect(speech.headers['access-control-allow-credentials']).toBeUndefined();
    expect(speech.body.length).toBeGreaterThan(1000);

    // A finished request's audio: its download headers are readable too.
    const submitted = await send(
      'POST',
      '/api/v1/tts',
      { origin: PAGE, authorization: `Bearer ${t.key}` },
      { input_text: 'A download.', voice_code: 'en_female_emily_us', response_type: 'direct' },
    );
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.headers['access-control-allow-origin']).toBe(PAGE);
    const link = new URL(submitted.json.result.audio_link as string);
    const download = await send('GET', `${link.pathname}${link.search}`, { origin: PAGE });
    expect(download.status).toBe(200);
    expect(download.headers['access-control-allow-origin']).toBe(PAGE);
    expect(list(download, 'access-control-expose-headers')).toEqual(
      expect.arrayContaining(['content-disposition', 'etag', 'accept-ranges']),
    );
    expect(list(download, 'access-control-expose-headers')).not.toContain('set-cookie');

    // Errors are readable by the page too, in their route's shape.
    const badKey = await send(
      'POST',
      '/v1/audio/speech',
      { origin: PAGE, authorization: `Bearer ${'x'.repeat(40)}` },
      { model: 'tts-1', input: 'Hello.', voice: 'alloy' },
    );
    expect(badKey.status).toBe(401);
    expect(badKey.headers['access-control-allow-origin']).toBe(PAGE);
    expect(badKey.json.error.code).toBeDefined();

    // Without an Origin (a server-side client), no CORS headers; answers still vary by Origin.
    const plain = await send('GET', '/api/v1/voices', { authorization: `Bearer ${t.key}` });
    expect(plain.status).toBe(200);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    expect(list(plain, 'vary')).toContain('origin');
  });

  it('refuses every other origin as before, in the error shape of the route, with no CORS headers', async () => {
    for (const origin of [
      'http://127.0.0.1:5002',
      'http://localhost:5001',
      'https://127.0.0.1:5001',
      'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba',
      'moz-extension://abcdefghijklmnopabcdefghijklmnop',
      'null',
    ]) {
      for (const [method, path] of [
        ['OPTIONS', '/v1/audio/speech'],
        ['POST', '/v1/audio/speech'],
        ['OPTIONS', '/api/v1/tts'],
        ['POST', '/api/v1/tts'],
      ] as const) {
        const res =
          method === 'OPTIONS'
            ? await preflight(path, origin)
            : await send(
                method,
                path,
                { origin, authorization: `Bearer ${t.key}` },
                path.startsWith('/v1/')
                  ? { model: 'tts-1', input: 'Hello.', voice: 'alloy' }
                  : { input_text: 'Hello.', voice_code: 'en_female_emily_us' },
              );
        const label = `${method} ${path} from ${origin}`;
        expect(res.status, label).toBe(403);
        if (path.startsWith('/v1/')) expect(res.json.error.code, label).toBe('FORBIDDEN_ORIGIN');
        else expect(res.json, label).toMatchObject({ status: 0, error_code: 'FORBIDDEN_ORIGIN' });
        for (const name of Object.keys(res.headers))
          expect(name.startsWith('access-control-'), `${label}: ${name}`).toBe(false);
      }
    }
  });

  it('gives a named origin nothing of the studio session, cookie and session value included', async () => {
    // The same calls without an Origin work (so the refusals below are about the origin).
    expect((await send('GET', '/api/v1/keys', studio.headers)).status).toBe(200);
    for (const origin of [PAGE, EXTENSION]) {
      const keys = await send('GET', '/api/v1/keys', { origin, ...studio.headers });
      expect(keys.status).toBe(403);
      expect(keys.json).toMatchObject({ status: 0, error_code: 'FORBIDDEN_ORIGIN' });
      expect(keys.text).not.toContain('whsec_');
      expect((await send('GET', '/api/v1/session', { origin, ...studio.headers })).status).toBe(403);
      expect((await send('POST', '/api/v1/keys', { origin, ...studio.headers }, { name: 'x' })).status).toBe(
        403,
      );
      expect(
        (await send('PUT', '/api/v1/settings', { origin, ...studio.headers }, { port: 9999 })).status,
      ).toBe(403);
      // Submitting as the studio (no key, the session's cookie and value): no key, so refused.
      const submit = await send(
        'POST',
        '/api/v1/tts',
        { origin, ...studio.headers },
        { input_text: 'As the studio?', voice_code: 'en_female_emily_us' },
      );
      expect(submit.status).toBe(401);
      const speech = await send(
        'POST',
        '/v1/audio/speech',
        { origin, ...studio.headers },
        { model: 'tts-1', input: 'As the studio?', voice: 'alloy' },
      );
      expect(speech.status).toBe(401);
      expect(speech.json.error).toBeDefined();
      // Signing in from such a page is refused, and the sign-in address is not spent.
      const signIn = await send(
        'POST',
        '/api/v1/session/sign-in',
        { origin },
        { token: new URL(t.core.loginUrl).searchParams.get('token') },
      );
      expect(signIn.status).toBe(403);
      expect(signIn.headers['set-cookie']).toBeUndefined();
      expect(signIn.json).toMatchObject({ status: 0, error_code: 'FORBIDDEN_ORIGIN' });
    }
    const again = await signInStudio(t.core.loginUrl);
    expect((await send('GET', '/api/v1/keys', again.headers)).status).toBe(200);
  });
});
