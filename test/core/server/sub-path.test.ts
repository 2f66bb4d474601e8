/**
 * The server under a reverse proxy's sub-path: a real nginx (Debian's package, started by the
 * test on 127.0.0.1) with `location /tts/ { proxy_pass http://127.0.0.1:<port>/; }` (the path
 * taken off) and the server started with `--public-url http://127.0.0.1:<nginx>/tts`. Through
 * nginx: the studio page and its assets, the sign-in (its cookie's Path is /tts), a submit
 * whose audio_link is under /tts and downloads through nginx, the OpenAPI document's `servers`,
 * the API reference's redirect (Location under /tts). The same server reached directly still
 * answers as without a path (cookie Path=/, Location at the root). The sign-in address is
 * printed under the public URL (the Core's publicLoginUrl, which `serve` prints).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInBody, studioSession } from '../../fixtures/studio-session';
import { startNginx, type Nginx } from '../../fixtures/nginx';
import { freePort } from '../../fixtures/postgres';
import { eventually, fetchUrl, makeStudioUiDir, startTestCore, type TestCore } from './helpers';
import { rmSync } from 'node:fs';

let t: TestCore;
let nginx: Nginx;
let publicUrl: string;
let uiDir: string;

beforeAll(async () => {
  const nginxPort = await freePort();
  publicUrl = `http://127.0.0.1:${nginxPort}/tts`;
  uiDir = makeStudioUiDir();
  t = await startTestCore({ publicUrl, uiDir });
  nginx = await startNginx(t.core.port, nginxPort, { subPath: '/tts/' });
});
afterAll(async () => {
  await nginx?.close();
  await t?.close();
  rmSync(uiDir, { recursive: true, force: true });
});

/** A call through nginx under /tts (`path` as the browser asks for it, without /tts). */
function viaProxy(method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  return fetchUrl(`http://127.0.0.1:${nginx.port}/tts${path}`, method, {
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

describe('under a sub-path behind nginx (location /tts/, --public-url …/tts)', () => {
  it('prints the sign-in address under the public URL, and keeps the one on this machine', () => {
    const token = new URL(t.core.loginUrl).searchParams.get('token');
    expect(t.core.publicLoginUrl).toBe(`${publicUrl}/?token=${token}`);
    expect(t.core.loginUrl).toBe(`${t.core.url}/?token=${token}`);
    expect(t.core.publicUrl).toBe(publicUrl);
  });

  it('serves the studio page and its assets under /tts', async () => {
    const page = await viaProxy('GET', '/', { accept: 'text/html' });
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('<title>studio</title>');
    const asset = await viaProxy('GET', '/assets/app-1.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log(1)');
  });

  it('signs in under /tts with a cookie for /tts only; directly, the cookie is for /', async () => {
    const proxied = await viaProxy(
      'POST',
      '/api/v1/session/sign-in',
      { origin: new URL(publicUrl).origin },
      JSON.parse(signInBody(t.core.publicLoginUrl)),
    );
    const setCookie = String(proxied.headers['set-cookie']);
    expect(setCookie).toMatch(/; Path=\/tts(;|$)/);
    const session = studioSession(proxied.status, proxied.headers['set-cookie'], proxied.json);
    const who = await viaProxy('GET', '/api/v1/session', session.headers);
    expect(who.status, who.text).toBe(200);
    // The studio's API page shows the public URL, sub-path included, as the base of the examples.
    expect(who.json.result.base_url).toBe(publicUrl);
    const out = await viaProxy('DELETE', '/api/v1/session', {
      ...session.headers,
      origin: new URL(publicUrl).origin,
    });
    expect(out.status, out.text).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/Max-Age=0/);
    expect(String(out.headers['set-cookie'])).toMatch(/; Path=\/tts(;|$)/);

    // Behind an nginx that keeps its default Host (its upstream's address, `$proxy_host`), the
    // sign-in arrives as a direct one would, but from a page of the public origin.
    const defaultHost = await fetchUrl(`${t.core.url}/api/v1/session/sign-in`, 'POST', {
      headers: { 'content-type': 'application/json', origin: new URL(publicUrl).origin },
      body: signInBody(t.core.loginUrl),
    });
    expect(defaultHost.status, defaultHost.text).toBe(200);
    expect(String(defaultHost.headers['set-cookie'])).toMatch(/; Path=\/tts(;|$)/);

    const direct = await fetchUrl(`${t.core.url}/api/v1/session/sign-in`, 'POST', {
      headers: { 'content-type': 'application/json' },
      body: signInBody(t.core.loginUrl),
    });
    expect(direct.status, direct.text).toBe(200);
    expect(String(direct.headers['set-cookie'])).toMatch(/; Path=\/(;|$)/);
  });

  it('builds audio_link under /tts; it downloads through nginx', async () => {
    const submitted = await viaProxy(
      'POST',
      '/api/v1/tts',
      { authorization: `Bearer ${t.key}` },
      { input_text: 'Under a sub-path.', voice_code: 'en_female_emily_us' },
    );
    expect(submitted.status, submitted.text).toBe(200);
    const id = submitted.json.result.request_id as string;
    const result = await eventually(async () => {
      const res = await viaProxy('GET', `/api/v1/tts/${id}`, { authorization: `Bearer ${t.key}` });
      return res.json.result.status === 'SUCCESS' ? (res.json.result as Record<string, unknown>) : undefined;
    });
    const link = String(result.audio_link);
    expect(link.startsWith(`${publicUrl}/`), link).toBe(true);
    const audio = await fetchUrl(link, 'GET');
    expect(audio.status, audio.text).toBe(200);
    expect(audio.body.subarray(0, 3).toString('latin1')).toMatch(/^(ID3|\xff\xfb|\xff\xf3)/);
  });

  it('names the public URL, sub-path included, as the OpenAPI server', async () => {
    const doc = await viaProxy('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.json.servers).toEqual([{ url: publicUrl }]);
  });

  it('puts /tts back into redirects through nginx, and not into direct ones', async () => {
    const proxied = await viaProxy('GET', '/api-docs/static/index.html');
    expect(proxied.status).toBe(302);
    expect(proxied.headers.location).toBe('/tts/api-docs/');
    // Followed: the reference page, through nginx.
    const followed = await fetchUrl(
      `http://127.0.0.1:${nginx.port}${String(proxied.headers.location)}`,
      'GET',
    );
    expect(followed.status).toBe(200);
    expect(followed.text).toContain('swagger');

    const direct = await fetchUrl(`${t.core.url}/api-docs/static/index.html`, 'GET');
    expect(direct.status).toBe(302);
    expect(direct.headers.location).toBe('/api-docs/');
  });
});

describe('with a public URL without a path', () => {
  it('behaves as before: cookies for /, the public URL as the OpenAPI server', async () => {
    const root = await startTestCore({ publicUrl: `http://127.0.0.1:${await freePort()}/`, uiDir });
    try {
      expect(root.core.publicLoginUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
      const doc = await fetchUrl(`${root.core.url}/openapi.json`, 'GET');
      expect(doc.json.servers).toEqual([{ url: root.core.publicUrl }]);
      const signIn = await fetchUrl(`${root.core.url}/api/v1/session/sign-in`, 'POST', {
        headers: { 'content-type': 'application/json' },
        body: signInBody(root.core.loginUrl),
      });
      expect(String(signIn.headers['set-cookie'])).toMatch(/; Path=\/(;|$)/);
    } finally {
      await root.close();
    }
  });
});
