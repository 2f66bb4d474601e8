/**
 * The studio UI and its session sign-in: through the app (no engine) for sign-in, the built UI,
 * the session-only routes and their refusals; on the full core for what the composition adds
 * (the printed sign-in address, where it listens) and for auditions, which need the engine.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchUrl,
  makeStudioUiDir as makeUiDir,
  startSignedInCore,
  startFakeEngineCore,
  type SignedInTestCore,
} from './helpers';
import { buildTestApp, type TestApp } from './inject';
import { signInStudio, type StudioSession } from '../../fixtures/studio-session';

const LOGIN_TOKEN = 'a'.repeat(48);

describe('studio UI and session sign-in', () => {
  let t: TestApp;
  let uiDir: string;
  let cookie: string;
  /** Cookie and X-Studio-Session: a signed-in call. */
  let studio: Record<string, string>;

  beforeAll(async () => {
    uiDir = makeUiDir();
    t = await buildTestApp({ uiDir, loginToken: LOGIN_TOKEN });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    t.call('GET', path, { key: null, headers });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    t.call('POST', path, {
      key: null,
      headers: { 'content-type': 'application/json', ...headers },
      raw: JSON.stringify(body),
    });

  it('refuses a wrong token in the API error shape and sets no cookie', async () => {
    const res = await post('/api/v1/session/sign-in', { token: 'nope' });
    expect(res.status).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
    expect((await post('/api/v1/session/sign-in', {})).json.error_code).toBe('INVALID_FIELD');
  });

  it('opening the sign-in address only serves the page: the page spends the token', async () => {
    const page = await get(`/?token=${LOGIN_TOKEN}`);
    expect(page.status).toBe(200);
    expect(page.headers['set-cookie']).toBeUndefined();
    expect(t.loginPath).toBe(`/?token=${LOGIN_TOKEN}`);
  });

  it('signs in once with the token: HttpOnly SameSite=Strict cookie and the session value', async () => {
    const res = await post('/api/v1/session/sign-in', { token: LOGIN_TOKEN });
    expect(res.status).toBe(200);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    cookie = setCookie.split(';')[0]!;
    expect(cookie).toMatch(new RegExp(`^ns_session_${t.port}=`));
    expect(res.json.result).toEqual({
      session: expect.stringMatching(/^[\w-]{43}$/),
      idle_timeout_s: 2_592_000,
    });
    studio = { cookie, 'x-studio-session': res.json.result.session };

    // The attack: the same address again (from the browser's history) signs nobody in.
    const again = await post('/api/v1/session/sign-in', { token: LOGIN_TOKEN });
    expect(again.status).toBe(401);
    expect(again.json.error_message).toMatch(/already used/);
    expect(again.headers['set-cookie']).toBeUndefined();
    // A new address took its place, and works once too.
    expect(t.loginPath).not.toBe(`/?token=${LOGIN_TOKEN}`);
    expect(t.loginPath).toMatch(/^\/\?token=[0-9a-f]{48}$/);
  });

  it('serves the built UI and its assets, and nothing outside the folder', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toMatch(/text\/html/);
    expect(index.headers['content-security-policy']).toContain("default-src 'self'");
    const asset = await get('/assets/app-1.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect((await get('/assets/..%2f..%2fetc%2fpasswd')).status).toBe(404);
  });

  it('lets the session call the API with the studio key, and manage keys', async () => {
    const session = await get('/api/v1/session', studio);
    expect(session.status).toBe(200);
    expect(session.json.result.base_url).toBe(t.url);
    expect(session.json.result.data_dir).toBe(t.dir);
    const submit = await post(
      '/api/v1/tts',
      { input_text: 'Hello there.', voice_code: 'en_female_nova_default' },
      studio,
    );
    expect(submit.status).toBe(200);
    expect(submit.json.result.status).toBe('new');

    // Control characters are dropped from the name (U+0000 would not even store in PostgreSQL).
    const created = await post('/api/v1/keys', { name: 'c\u0000i\u0007' }, studio);
    expect(created.status).toBe(200);
    const { key, info } = created.json.result;
    expect(info.name).toBe('ci');
    // The new key works as a bearer key…
    expect((await get('/api/v1/usage', { authorization: `Bearer ${key}` })).status).toBe(200);
    const list = await get('/api/v1/keys', studio);
    expect(list.json.result.items.map((k: { id: string }) => k.id)).toContain(info.id);
    // …until revoked.
    const revoked = await post(`/api/v1/keys/${info.id}/revoke`, {}, studio);
    expect(revoked.json.result.revoked_at).not.toBeNull();
    expect((await get('/api/v1/usage', { authorization: `Bearer ${key}` })).status).toBe(401);
  });

  it('refuses the session cookie alone, or with a wrong value, on every session route', async () => {
    const wrong = { cookie, 'x-studio-session': 'x'.repeat(43) };
    for (const headers of [{ cookie }, wrong]) {
      for (const res of [
        await get('/api/v1/session', headers),
        await get('/api/v1/keys', headers),
        await post('/api/v1/keys', {}, headers),
        await get('/api/v1/usage', headers),
        await post('/api/v1/tts', { input_text: 'Hi.', voice_code: 'en_female_nova_default' }, headers),
      ]) {
        expect(res.status).toBe(401);
        expect(res.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
      }
    }
    // The value alone (without its cookie) is not enough either.
    expect((await get('/api/v1/keys', { 'x-studio-session': studio['x-studio-session']! })).status).toBe(401);
  });

  it('never lets a bearer key (or no credentials) manage keys', async () => {
    expect((await t.call('GET', '/api/v1/keys')).status).toBe(401);
    expect((await t.call('POST', '/api/v1/keys', { body: {} })).status).toBe(401);
    expect((await get('/api/v1/keys')).status).toBe(401);
    expect((await get('/api/v1/session', { ...studio, cookie: `ns_session_${t.port}=forged` })).status).toBe(
      401,
    );
  });

  it('keeps the Origin check for session requests', async () => {
    const res = await post('/api/v1/keys', {}, { ...studio, origin: 'http://evil.example' });
    expect(res.status).toBe(403);
  });

  it('signs out: the session ends and its cookie is cleared', async () => {
    const other = await t.signIn();
    const out = await t.call('DELETE', '/api/v1/session', { key: null, headers: other.headers });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/^ns_session_\d+=; .*Max-Age=0/);
    expect((await get('/api/v1/session', other.headers)).status).toBe(401);
    expect((await t.call('DELETE', '/api/v1/session', { key: null, headers: other.headers })).status).toBe(
      401,
    );
    // Other sessions go on.
    expect((await get('/api/v1/session', studio)).status).toBe(200);
  });
});

describe('studio sessions end after their idle period without a request (here 12 hours)', () => {
  it('keeps a session alive while used, ends it after the idle period', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const t = await buildTestApp({ clock: { now: () => now }, sessionIdleMs: 12 * 3_600_000 });
    try {
      const { headers } = await t.signIn();
      const session = () => t.call('GET', '/api/v1/session', { key: null, headers });
      now += 12 * 3_600_000 - 1;
      expect((await session()).status).toBe(200);
      // That request was activity: the period starts again.
      now += 12 * 3_600_000 - 1;
      expect((await session()).status).toBe(200);
      now += 12 * 3_600_000;
      expect((await session()).status).toBe(401);
      // Gone for good, even once the clock is back within the period.
      now -= 1_000;
      expect((await session()).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe("sign-in addresses expire after 10 minutes (on the sessions' clock)", () => {
  const signIn = (t: TestApp, token: string) =>
    t.call('POST', '/api/v1/session/sign-in', {
      key: null,
      headers: { 'content-type': 'application/json' },
      raw: JSON.stringify({ token }),
    });

  it('refuses an address older than 10 minutes, even unused; works within them', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const t = await buildTestApp({ loginToken: LOGIN_TOKEN, clock: { now: () => now } });
    try {
      // The attack: an address found later (scroll-back, shell history, a screenshot).
      now += 10 * 60_000;
      const late = await signIn(t, LOGIN_TOKEN);
      expect(late.status).toBe(401);
      expect(late.json.error_message).toMatch(/older than 10 minutes/);
      expect(late.headers['set-cookie']).toBeUndefined();
      // A new address replaced it, and works within its 10 minutes, once.
      const fresh = t.loginPath.slice('/?token='.length);
      expect(fresh).toMatch(/^[0-9a-f]{48}$/);
      expect(fresh).not.toBe(LOGIN_TOKEN);
      now += 10 * 60_000 - 1;
      expect((await signIn(t, fresh)).status).toBe(200);
      expect((await signIn(t, fresh)).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('the session cookie behind an https public URL', () => {
  it('is Secure when --public-url is https, and not on plain http', async () => {
    const uiDir = makeUiDir();
    try {
      for (const [publicUrl, secure] of [
        ['https://localhost:8443', true],
        ['http://localhost:8080', false],
      ] as const) {
        const t = await startFakeEngineCore({ uiDir, loginToken: LOGIN_TOKEN, publicUrl });
        try {
          const res = await fetchUrl(`${t.core.url}/api/v1/session/sign-in`, 'POST', {
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ token: LOGIN_TOKEN }),
          });
          expect(res.status, res.text).toBe(200);
          const attributes = String(res.headers['set-cookie']).split(/;\s*/);
          expect(attributes.includes('Secure'), publicUrl).toBe(secure);
          expect(attributes).toContain('HttpOnly');
        } finally {
          await t.close();
        }
      }
    } finally {
      rmSync(uiDir, { recursive: true, force: true });
    }
  });
});

describe('the composed core prints a new sign-in address when an expired one is tried', () => {
  it('tells onLoginUrl (serve prints it) and the new address signs in', async () => {
    const uiDir = makeUiDir();
    let offset = 0;
    const t = await startFakeEngineCore({
      uiDir,
      loginToken: LOGIN_TOKEN,
      clock: { now: () => Date.now() + offset },
    });
    try {
      const printed: string[] = [];
      t.core.onLoginUrl((url) => printed.push(url));
      offset = 10 * 60_000;
      const late = await fetchUrl(`${t.core.url}/api/v1/session/sign-in`, 'POST', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: LOGIN_TOKEN }),
      });
      expect(late.status).toBe(401);
      expect(printed).toHaveLength(1);
      expect(printed[0]).toBe(t.core.loginUrl);
      expect((await signInStudio(printed[0]!)).headers.cookie).toMatch(/^ns_session_/);
    } finally {
      await t.close();
      rmSync(uiDir, { recursive: true, force: true });
    }
  });
});

describe('the composed core: sign-in address, listening address, auditions', () => {
  let t: SignedInTestCore;
  let studio: StudioSession;

  beforeAll(async () => {
    t = await startSignedInCore({ loginToken: LOGIN_TOKEN });
    studio = t.studio;
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetchUrl(`${t.core.url}${path}`, 'POST', {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('names the next sign-in address once the first was used', async () => {
    expect(t.core.loginUrl).not.toBe(`${t.core.url}/?token=${LOGIN_TOKEN}`);
    expect(t.core.loginUrl).toMatch(new RegExp(`^${t.core.url}/\\?token=[0-9a-f]{48}$`));
  });

  it('refuses the session cookie replayed without its header, over real HTTP', async () => {
    // What another server on this machine receives from the browser: the cookie, nothing else.
    const replay = (path: string, init: RequestInit = {}) =>
      fetch(`${t.core.url}${path}`, {
        ...init,
        headers: { cookie: studio.cookie, 'content-type': 'application/json' },
      });
    const keysBefore = (await t.core.store.keys.list()).length;
    const secrets = await replay('/api/v1/keys');
    expect(secrets.status).toBe(401);
    expect(await secrets.text()).not.toContain('whsec_');
    const create = await replay('/api/v1/keys', { method: 'POST', body: '{}' });
    expect(create.status).toBe(401);
    expect((await create.json()).error_code).toBe('UNAUTHORIZED');
    expect(await t.core.store.keys.list()).toHaveLength(keysBefore);
    // The studio itself, with its header, reads and creates.
    const withHeader = await fetch(`${t.core.url}/api/v1/keys`, { headers: studio.headers });
    expect(withHeader.status).toBe(200);
    expect(await withHeader.text()).toContain('whsec_');
    const created = await post('/api/v1/keys', {}, studio.headers);
    expect(created.status).toBe(200);
  });

  it('binds to 127.0.0.1 by default', () => {
    expect(t.core.url).toBe(`http://127.0.0.1:${t.core.port}`);
    expect((t.core.server.server.address() as { address: string }).address).toBe('127.0.0.1');
  });

  it('auditions a voice as a short WAV without charging', async () => {
    const before = (await t.call('GET', '/api/v1/usage')).json.result.balance_milli;
    const res = await post('/api/v1/voices/en_female_emily_us/audition', { speed_rate: 1.2 }, studio.headers);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.body.subarray(0, 4).toString()).toBe('RIFF');
    expect(res.body.length).toBeGreaterThan(1000);
    const bearer = await t.call('POST', '/api/v1/voices/en_female_emily_us/audition', { body: {} });
    expect(bearer.status).toBe(200);
    expect((await t.call('GET', '/api/v1/usage')).json.result.balance_milli).toBe(before);
    expect((await post('/api/v1/voices/xx_nobody/audition', {}, studio.headers)).json.error_code).toBe(
      'UNKNOWN_VOICE',
    );
    expect((await post('/api/v1/voices/en_female_emily_us/audition', {}, {})).status).toBe(401);
  });
});

describe('studio UI not built', () => {
  it('answers / with a 503 page that says how to build it', async () => {
    const t = await buildTestApp({ uiDir: join(tmpdir(), 'no-such-ui-dir') });
    try {
      const res = await t.call('GET', '/', { key: null });
      expect(res.status).toBe(503);
      expect(res.text).toContain('npm run build:ui');
    } finally {
      await t.close();
    }
  });
});

describe('serve prints the sign-in address', () => {
  it('prints "open http://127.0.0.1:<port>/?token=…" after the listening line; each address signs in once', async () => {
    const { startServerProcess } = await import('./process');
    const dir = mkdtempSync(join(tmpdir(), 'serve-ui-'));
    const server = await startServerProcess(['--port', '0', '--data-dir', dir, '--pool-size', '1']);
    try {
      for (let i = 0; i < 100 && !/\nopen /.test(server.stdout()); i++)
        await new Promise((r) => setTimeout(r, 20));
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\nopen (\S+)\n/.exec(server.stdout());
      expect(match).not.toBeNull();
      expect(match![2]).toMatch(new RegExp(`^${match![1]}/\\?token=[0-9a-f]{48}$`));
      await signInStudio(match![2]!);
      await expect(signInStudio(match![2]!)).rejects.toThrow(/HTTP 401/);
      // After a sign-in, serve prints the next address.
      for (let i = 0; i < 100 && !/the next sign-in address:\nopen /.test(server.stdout()); i++)
        await new Promise((r) => setTimeout(r, 20));
      const next = /the next sign-in address:\nopen (\S+)\n/.exec(server.stdout());
      expect(next).not.toBeNull();
      expect(next![1]).not.toBe(match![2]);
      await signInStudio(next![1]!);
    } finally {
      server.child.kill('SIGINT');
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
