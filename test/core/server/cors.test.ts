/**
 * `--allow-origin` over real HTTP: the preflights and answers of a named page, extension or app
 * (its own scheme: `app://obsidian.md`, `capacitor://localhost`, `tauri://localhost`) get CORS
 * headers (never Access-Control-Allow-Credentials), every request header they ask for but the
 * studio session's; every other origin is refused as before, in the error shape of its route; a
 * named origin cannot use the studio's session, even with the cookie and the session's value.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStudio, type StudioSession } from '../../fixtures/studio-session';
import { fetchUrl, startSignedInCore, type SignedInTestCore } from './helpers';
import type { HttpResult } from './http';

const PAGE = 'http://127.0.0.1:5001';
const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
const FIREFOX_EXTENSION = 'moz-extension://0e4b1a8c-5f2d-4c1e-9b7a-1d2e3f4a5b6c';
/** Apps in web views: an Obsidian plugin (Electron), Capacitor on iOS, Tauri on macOS and Linux. */
const APPS = ['app://obsidian.md', 'capacitor://localhost', 'tauri://localhost'];

/**
 * Access-Control-Request-Headers of real clients' preflights. The `openai` package's
 * (6.49, `dangerouslyAllowBrowser`, `audio.speech.create`) is Firefox ESR's own, recorded from
 * it; Chromium leaves user-agent out. openai-speech-stream-player's README request adds
 * Cache-Control.
 */
const OPENAI_PACKAGE_IN_FIREFOX =
  'authorization,content-type,user-agent,x-stainless-arch,x-stainless-lang,x-stainless-os,x-stainless-package-version,x-stainless-retry-count,x-stainless-runtime,x-stainless-runtime-version';
const SPEECH_STREAM_PLAYER = 'authorization,cache-control,content-type';

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
      allowedOrigins: [
        'HTTP://127.0.0.1:5001',
        EXTENSION,
        'https://lite.example:443',
        FIREFOX_EXTENSION,
        'App://Obsidian.md',
        ...APPS.slice(1),
      ],
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
    for (const origin of [PAGE, EXTENSION, 'https://lite.example', FIREFOX_EXTENSION, ...APPS]) {
      for (const path of ['/v1/audio/speech', '/api/v1/tts', '/api/v1/voices', '/v1/no-such-route']) {
        const res = await preflight(path, origin);
        const label = `OPTIONS ${path} from ${origin}`;
        expect(res.status, label).toBe(204);
        expect(res.headers['access-control-allow-origin'], label).toBe(origin);
        expect(list(res, 'vary'), label).toEqual(['origin', 'access-control-request-headers']);
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
            'user-agent',
            'cache-control',
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

  it('grants a named origin’s preflight every header it asks for, but the studio session’s', async () => {
    const allowedHeaders = async (requested: string, origin = PAGE) => {
      const res = await preflight('/v1/audio/speech', origin, {
        'access-control-request-headers': requested,
      });
      expect(res.status, requested).toBe(204);
      expect(list(res, 'vary'), requested).toEqual(['origin', 'access-control-request-headers']);
      return list(res, 'access-control-allow-headers');
    };
    // Real clients' preflights: every header they ask for is granted, for every kind of origin.
    for (const origin of [PAGE, FIREFOX_EXTENSION, ...APPS])
      for (const requested of [OPENAI_PACKAGE_IN_FIREFOX, SPEECH_STREAM_PLAYER])
        expect(await allowedHeaders(requested, origin), `${origin}: ${requested}`).toEqual(
          expect.arrayContaining(requested.split(',')),
        );
    // Headers of the openai package's options and of other clients, one at a time.
    for (const header of [
      'user-agent',
      'cache-control',
      'pragma',
      'openai-organization',
      'openai-project',
      'openai-beta',
      'idempotency-key',
      'x-stainless-timeout',
      'x-stainless-helper-method',
      'range',
      'last-event-id',
      'accept-language',
    ])
      expect(await allowedHeaders(header), header).toContain(header);
    // A header no list names (an app's own) is echoed, in lower case, once.
    expect(await allowedHeaders('X-My-App-Trace, x-my-app-trace , authorization')).toEqual(
      expect.arrayContaining(['x-my-app-trace', 'authorization']),
    );
    expect(
      (await allowedHeaders('x-my-app-trace,X-MY-APP-TRACE')).filter((h) => h === 'x-my-app-trace'),
    ).toHaveLength(1);
    // Never the studio's session header or Cookie, even when asked; names that are not header
    // names are left out.
    const refused = await allowedHeaders('x-studio-session,cookie,authorization,bad name,(x),');
    expect(refused).toContain('authorization');
    for (const name of ['x-studio-session', 'cookie', 'bad name', '(x)', ''])
      expect(refused).not.toContain(name);
  });

  it('speaks for an app of its own scheme named exactly, and refuses one of the same scheme not named', async () => {
    for (const origin of APPS) {
      const speech = await send(
        'POST',
        '/v1/audio/speech',
        {
          origin,
          authorization: `Bearer ${t.key}`,
          'user-agent': 'obsidian-plugin',
          'cache-control': 'no-store',
        },
        { model: 'tts-1', input: 'Hello from an app.', voice: 'alloy' },
      );
      expect(speech.status, `${origin}: ${speech.text}`).toBe(200);
      expect(speech.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(speech.headers['access-control-allow-credentials'], origin).toBeUndefined();
      expect(speech.body.length, origin).toBeGreaterThan(1000);
    }
    for (const origin of [
      'app://obsidian.md.evil.example',
      'app://other.md',
      'capacitor://localhost:8080',
      'tauri://localhost.',
      'ionic://localhost',
      'APP://OBSIDIAN.MD',
    ]) {
      const res = await preflight('/v1/audio/speech', origin);
      expect(res.status, origin).toBe(403);
      expect(res.json.error.code, origin).toBe('FORBIDDEN_ORIGIN');
      for (const name of Object.keys(res.headers))
        expect(name.startsWith('access-control-'), `${origin}: ${name}`).toBe(false);
    }
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
    for (const origin of [PAGE, EXTENSION, APPS[0]!]) {
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

describe('CORS when "*" and "null" are named on their own', () => {
  let t: SignedInTestCore;
  beforeAll(async () => {
    t = await startSignedInCore({ allowedOrigins: ['*', 'null'] });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('grants every site, a local file (null) and an app the API, echoing each one’s origin, and never the studio session', async () => {
    for (const origin of ['https://any.example', 'http://127.0.0.1:5002', 'null', 'tauri://localhost']) {
      const pre = await fetchUrl(`${t.core.url}/v1/audio/speech`, 'OPTIONS', {
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type,user-agent',
        },
      });
      expect(pre.status, origin).toBe(204);
      expect(pre.headers['access-control-allow-origin'], origin).toBe(origin);
      expect(pre.headers['access-control-allow-credentials'], origin).toBeUndefined();
      const keys = await fetchUrl(`${t.core.url}/api/v1/keys`, 'GET', {
        headers: { origin, ...t.studio.headers },
      });
      expect(keys.status, origin).toBe(403);
      expect(keys.json).toMatchObject({ status: 0, error_code: 'FORBIDDEN_ORIGIN' });
    }
  });
});
