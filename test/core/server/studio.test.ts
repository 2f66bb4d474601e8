/**
 * The studio UI and its session sign-in: through the app (no engine) for sign-in, the built UI,
 * the session-only routes and their refusals; on the full core for what the composition adds
 * (the printed sign-in address, where it listens) and for auditions, which need the engine.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrl, startTestCore, type TestCore } from './helpers';
import { buildTestApp, type TestApp } from './inject';

const LOGIN_TOKEN = 'a'.repeat(48);

/** A built UI in a temp folder: index.html and one asset. */
function makeUiDir(): string {
  const uiDir = mkdtempSync(join(tmpdir(), 'ui-'));
  mkdirSync(join(uiDir, 'assets'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(join(uiDir, 'assets', 'app-1.js'), 'console.log(1)');
  return uiDir;
}

describe('studio UI and session sign-in', () => {
  let t: TestApp;
  let uiDir: string;
  let cookie: string;

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

  it('refuses a wrong token with a readable page and sets no cookie', async () => {
    const res = await get('/?token=nope');
    expect(res.status).toBe(401);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.text).toContain('Sign-in link not valid');
  });

  it('signs in with the token: HttpOnly SameSite=Strict cookie and a redirect that strips the token', async () => {
    const res = await get(`/?token=${LOGIN_TOKEN}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    cookie = setCookie.split(';')[0]!;
    expect(cookie).toMatch(new RegExp(`^ns_session_${t.port}=`));
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
    const session = await get('/api/v1/session', { cookie });
    expect(session.status).toBe(200);
    expect(session.json.result.base_url).toBe(t.url);
    expect(session.json.result.data_dir).toBe(t.dir);
    const submit = await post(
      '/api/v1/tts',
      { input_text: 'Hello there.', voice_code: 'en_female_nova_default' },
      { cookie },
    );
    expect(submit.status).toBe(200);
    expect(submit.json.result.status).toBe('new');

    // Control characters are dropped from the name (U+0000 would not even store in PostgreSQL).
    const created = await post('/api/v1/keys', { name: 'c\u0000i\u0007' }, { cookie });
    expect(created.status).toBe(200);
    const { key, info } = created.json.result;
    expect(info.name).toBe('ci');
    // The new key works as a bearer key…
    expect((await get('/api/v1/usage', { authorization: `Bearer ${key}` })).status).toBe(200);
    const list = await get('/api/v1/keys', { cookie });
    expect(list.json.result.items.map((k: { id: string }) => k.id)).toContain(info.id);
    // …until revoked.
    const revoked = await post(`/api/v1/keys/${info.id}/revoke`, {}, { cookie });
    expect(revoked.json.result.revoked_at).not.toBeNull();
    expect((await get('/api/v1/usage', { authorization: `Bearer ${key}` })).status).toBe(401);
  });

  it('never lets a bearer key (or no credentials) manage keys', async () => {
    expect((await t.call('GET', '/api/v1/keys')).status).toBe(401);
    expect((await t.call('POST', '/api/v1/keys', { body: {} })).status).toBe(401);
    expect((await get('/api/v1/keys')).status).toBe(401);
    expect((await get('/api/v1/session', { cookie: `ns_session_${t.port}=forged` })).status).toBe(401);
  });

  it('keeps the Origin check for session requests', async () => {
    const res = await post('/api/v1/keys', {}, { cookie, origin: 'http://evil.example' });
    expect(res.status).toBe(403);
  });
});

describe('the composed core: sign-in address, listening address, auditions', () => {
  let t: TestCore;
  let uiDir: string;
  let cookie: string;

  beforeAll(async () => {
    uiDir = makeUiDir();
    t = await startTestCore({ uiDir, loginToken: LOGIN_TOKEN });
    const signIn = await fetchUrl(`${t.core.url}/?token=${LOGIN_TOKEN}`, 'GET');
    cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(uiDir, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetchUrl(`${t.core.url}${path}`, 'POST', {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('exposes the login URL with its token', () => {
    expect(t.core.loginUrl).toBe(`${t.core.url}/?token=${LOGIN_TOKEN}`);
  });

  it('binds to 127.0.0.1 by default', () => {
    expect(t.core.url).toBe(`http://127.0.0.1:${t.core.port}`);
    expect((t.core.server.server.address() as { address: string }).address).toBe('127.0.0.1');
  });

  it('auditions a voice as a short WAV without charging', async () => {
    const before = (await t.call('GET', '/api/v1/usage')).json.result.balance_milli;
    const res = await post('/api/v1/voices/en_female_emily_us/audition', { speed_rate: 1.2 }, { cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.body.subarray(0, 4).toString()).toBe('RIFF');
    expect(res.body.length).toBeGreaterThan(1000);
    const bearer = await t.call('POST', '/api/v1/voices/en_female_emily_us/audition', { body: {} });
    expect(bearer.status).toBe(200);
    expect((await t.call('GET', '/api/v1/usage')).json.result.balance_milli).toBe(before);
    expect((await post('/api/v1/voices/xx_nobody/audition', {}, { cookie })).json.error_code).toBe(
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
  it('prints "open http://127.0.0.1:<port>/?token=…" after the listening line, and the token signs in', async () => {
    const { startServerProcess } = await import('./process');
    const dir = mkdtempSync(join(tmpdir(), 'serve-ui-'));
    const server = await startServerProcess(['--port', '0', '--data-dir', dir, '--pool-size', '1']);
    try {
      for (let i = 0; i < 100 && !/\nopen /.test(server.stdout()); i++)
        await new Promise((r) => setTimeout(r, 20));
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\nopen (\S+)\n/.exec(server.stdout());
      expect(match).not.toBeNull();
      expect(match![2]).toMatch(new RegExp(`^${match![1]}/\\?token=[0-9a-f]{48}$`));
      const res = await fetchUrl(match![2]!, 'GET');
      expect(res.status).toBe(303);
    } finally {
      server.child.kill('SIGINT');
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
