/**
 * The security checks of the reliability issue, sentence by sentence, against the real core over
 * HTTP on 127.0.0.1:
 * - requests without or with a wrong key are refused on every key-protected route (the routes
 *   are read from the running server, so a new route cannot be missed);
 * - one key cannot read another key's requests or callback records;
 * - audio links without the right token are refused;
 * - a request whose Host header is not the server's own is refused;
 * - a cross-origin browser request from another site cannot submit or read anything;
 * - repeated failed authentication is slowed down (without slowing valid keys).
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { request as httpRequest } from 'node:http';
import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthThrottle, type AuthThrottleOptions } from '../../../electron/core/server/auth-throttle';
import { systemClock } from '../../../electron/core/platform/clock';
import { hashKey, revokeApiKey } from '../../../electron/core/jobs/keys';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { eventually, fetchUrl, startTestCore, type HttpResult, type TestCore } from './helpers';

const LOGIN_TOKEN = 'b'.repeat(48);
const NO_SUCH_ID = '0'.repeat(32);

let t: TestCore;
let receiver: CallbackReceiver;
let uiDir: string;
let cookie: string;

beforeAll(async () => {
  uiDir = mkdtempSync(join(tmpdir(), 'ui-security-'));
  mkdirSync(join(uiDir, 'assets'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(join(uiDir, 'assets', 'app-1.js'), 'console.log(1)');
  receiver = await startReceiver();
  // The failed-authentication slow-down is off here (its own tests below turn it on), so that
  // every refusal seen in these tests is the route's own answer, not the throttle's.
  t = await startTestCore({ uiDir, loginToken: LOGIN_TOKEN, authThrottle: { baseDelayMs: 0 } });
  const signIn = await fetchUrl(`${t.core.url}/?token=${LOGIN_TOKEN}`, 'GET');
  expect(signIn.status).toBe(303);
  cookie = String(signIn.headers['set-cookie']).split(';')[0]!;
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  rmSync(uiDir, { recursive: true, force: true });
});

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

interface Route {
  method: Method;
  url: string;
}

/** Every route of the running server, read from fastify's route tree (`printRoutes`). */
function registeredRoutes(server: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of server.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    parents.length = depth;
    const url = (parents[depth - 1] ?? '') + match[2]!;
    parents[depth] = url;
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method: method as Method, url });
  }
  return routes;
}

/** Routes anyone on this machine may call without a key (they reveal nothing of anyone's requests). */
const PUBLIC = new Set(['GET /api/v1/health', 'GET /api/v1/voices']);
/** Routes only the signed-in studio may call; bearer keys are refused there. */
const SESSION_ONLY = new Set([
  'GET /api/v1/session',
  'GET /api/v1/settings',
  'PUT /api/v1/settings',
  'GET /api/v1/keys',
  'POST /api/v1/keys',
  'POST /api/v1/keys/:id/revoke',
]);
const name = (r: Route) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url}`;
const fill = (url: string) =>
  url
    .replace(':id/revoke', 'key_000000000000/revoke')
    .replace(':id', NO_SUCH_ID)
    .replace(':code', 'en_female_emily_us');

/** One call; the body of an event stream is not awaited (it never ends). */
async function send(
  method: Method,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<HttpResult> {
  const response = await request(`${t.core.url}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (String(response.headers['content-type']).startsWith('text/event-stream')) {
    response.body.destroy();
    return {
      status: response.statusCode,
      headers: response.headers,
      text: '',
      body: Buffer.alloc(0),
      json: undefined,
    };
  }
  const buffer = Buffer.from(await response.body.arrayBuffer());
  const text = buffer.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, body: buffer, json };
}

function expectRefused(res: HttpResult, route: Route, status: number, code: string, why: string): void {
  const label = `${route.method} ${route.url} ${why}`;
  expect(res.status, `${label}: ${res.text}`).toBe(status);
  if (route.method === 'HEAD') return;
  if (route.url.startsWith('/v1/')) expect(res.json?.error?.code, label).toBe(code);
  else expect(res.json, label).toMatchObject({ status: 0, error_code: code });
}

/** The id of a key's row. */
function keyId(key: string): string {
  return t.core.store.keys.findByHash(hashKey(key))!.id;
}

/** Requests of a key in the store, whatever their status. */
function requestCount(id: string): number {
  return t.core.store.requests.list({ keyId: id, limit: 1, offset: 0 }).total;
}

async function submit(key: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call('POST', '/api/v1/tts', {
    key,
    body: { input_text: 'A short line to speak.', voice_code: 'en_female_emily_us', ...body },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.result.request_id as string;
}

async function finished(key: string, id: string): Promise<Record<string, unknown>> {
  return eventually(async () => {
    const r = await t.call('GET', `/api/v1/tts/${id}`, { key });
    return r.json.result.status === 'SUCCESS' ? (r.json.result as Record<string, unknown>) : undefined;
  });
}

describe('every key-protected route refuses missing, wrong and revoked keys', () => {
  it('reads the routes from the running server', () => {
    const routes = registeredRoutes(t.core.server).filter((r) => /^\/(api|v1)\//.test(r.url));
    for (const route of routes)
      expect(t.core.server.hasRoute(route), `${route.method} ${route.url}`).toBe(true);
    const names = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const known of ['POST /api/v1/tts', 'GET /api/v1/tts/:id/callback-result', 'POST /v1/audio/speech'])
      expect(names).toContain(known);
    // The exemptions name real routes (a renamed route cannot silently drop out of the checks).
    for (const exempt of [...PUBLIC, ...SESSION_ONLY]) expect(names).toContain(exempt);
  });

  it('answers 401 in the error shape to no key, a malformed, wrong or revoked key; a valid key gets through', async () => {
    const revoked = t.newKey();
    revokeApiKey(t.core.store, systemClock, keyId(revoked));
    expect((await t.call('GET', '/api/v1/usage', { key: revoked })).status).toBe(401);
    const protectedRoutes = registeredRoutes(t.core.server).filter(
      (r) => /^\/(api|v1)\//.test(r.url) && !PUBLIC.has(name(r)),
    );
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(20);
    const bad: [string, Record<string, string>][] = [
      ['without Authorization', {}],
      ['with a malformed Authorization', { authorization: `Basic ${Buffer.from('x:y').toString('base64')}` }],
      ['with a wrong key', { authorization: `Bearer nsk_${'w'.repeat(43)}` }],
      ['with a revoked key', { authorization: `Bearer ${revoked}` }],
      // The Authorization header wins over the session cookie: a wrong key is not rescued by it.
      ['with a wrong key beside a valid session', { authorization: 'Bearer nsk_wrong', cookie }],
    ];
    for (const route of protectedRoutes) {
      const path = fill(route.url);
      const body = route.method === 'POST' || route.method === 'PUT' ? { name: 42 } : undefined;
      for (const [why, headers] of bad) {
        expectRefused(await send(route.method, path, headers, body), route, 401, 'UNAUTHORIZED', why);
      }
      if (route.method === 'HEAD') continue;
      if (SESSION_ONLY.has(name(route))) {
        // Studio-only: even a valid bearer key is refused; the signed-in session is let in.
        const bearer = await send(route.method, path, { authorization: `Bearer ${t.key}` }, body);
        expectRefused(bearer, route, 401, 'UNAUTHORIZED', 'with a valid bearer key');
        const session = await send(route.method, path, { cookie }, body);
        expect([401, 403, 429], `${route.method} ${route.url} with the session`).not.toContain(
          session.status,
        );
      } else {
        // Proves the refusals above are about the key: the same call with a valid key passes the check.
        const valid = await send(route.method, path, { authorization: `Bearer ${t.key}` }, body);
        expect([401, 403, 429], `${route.method} ${route.url} with a valid key: ${valid.text}`).not.toContain(
          valid.status,
        );
        expect(valid.status, `${route.method} ${route.url}: ${valid.text}`).toBeLessThan(500);
      }
    }
    // The public routes really are public (and not by accident: they say nothing about anyone's requests).
    for (const path of ['/api/v1/health', '/api/v1/voices'])
      expect((await send('GET', path)).status).toBe(200);
  });
});

describe('one key cannot reach another key’s requests', () => {
  let keyA: string;
  let keyB: string;
  let idA: string;

  beforeAll(async () => {
    keyA = t.newKey();
    keyB = t.newKey();
    idA = await submit(keyA, { callback_url: receiver.url, generate_srt: true });
    await finished(keyA, idA);
    await eventually(async () => {
      const r = await t.call('GET', `/api/v1/tts/${idA}/callback-result`, { key: keyA });
      return r.status === 200 ? true : undefined;
    });
  });

  it('key B gets REQUEST_NOT_FOUND for A’s request, its callback result and attempts, cancel and callback retry', async () => {
    const attemptsBefore = t.core.store.callbacks.list(idA).length;
    for (const [method, path] of [
      ['GET', `/api/v1/tts/${idA}`],
      ['GET', `/api/v1/tts/${idA}/callback-result`],
      ['GET', `/api/v1/tts/${idA}/callback-attempts`],
      ['POST', `/api/v1/tts/${idA}/cancel`],
      ['POST', `/api/v1/tts/${idA}/callback-retry`],
    ] as const) {
      const res = await t.call(method, path, { key: keyB });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.json).toMatchObject({ status: 0, error_code: 'REQUEST_NOT_FOUND' });
      // The answer is the same as for a request that does not exist: it does not confirm the id.
      expect(res.text).not.toContain(receiver.url);
    }
    // The session acts with the studio key, which is neither A nor B: it does not see A's request either.
    const session = await fetchUrl(`${t.core.url}/api/v1/tts/${idA}`, 'GET', { headers: { cookie } });
    expect(session.status).toBe(404);
    // The refused retry sent nothing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(t.core.store.callbacks.list(idA)).toHaveLength(attemptsBefore);
    expect(
      receiver.received.filter((c) => (c.json as { request_id?: string })?.request_id === idA),
    ).toHaveLength(attemptsBefore);
  });

  it('key B cannot cancel A’s queued request', async () => {
    t.core.jobs.runner.pause();
    let queued: string;
    try {
      queued = await submit(keyA);
      const res = await t.call('POST', `/api/v1/tts/${queued}/cancel`, { key: keyB });
      expect(res.status).toBe(404);
      expect(t.core.store.requests.get(queued)!.status).toBe('new');
    } finally {
      t.core.jobs.runner.resume();
    }
    await finished(keyA, queued);
  });

  it('key B’s history and usage list nothing of A’s', async () => {
    const list = await t.call('GET', '/api/v1/tts?page_size=100', { key: keyB });
    expect(list.status).toBe(200);
    expect(list.json.result.total).toBe(0);
    expect(list.text).not.toContain(idA);
    const usage = await t.call('GET', '/api/v1/usage', { key: keyB });
    expect(usage.json.result.ledger.map((e: { kind: string }) => e.kind)).toEqual(['grant']);
    expect(usage.text).not.toContain(idA);
    // A's own history does list it (the filter above is per key, not empty for everyone).
    expect((await t.call('GET', '/api/v1/tts?page_size=100', { key: keyA })).text).toContain(idA);
  });

  it('key B’s event stream carries nothing of A’s requests or deliveries', async () => {
    const response = await request(`${t.core.url}/api/v1/events`, {
      headers: { authorization: `Bearer ${keyB}` },
    });
    expect(response.statusCode).toBe(200);
    let seen = '';
    const reading = (async () => {
      for await (const chunk of response.body) seen += chunk.toString();
    })().catch(() => undefined);
    await eventually(() => (seen.includes(': connected') ? true : undefined));
    const id = await submit(keyA, { callback_url: receiver.url });
    await receiver.waitFor(1, (c) => (c.json as { request_id?: string })?.request_id === id);
    await new Promise((resolve) => setTimeout(resolve, 200));
    response.body.destroy();
    await reading;
    expect(seen).not.toContain(id);
    expect(seen).not.toMatch(/^event: /m);
  });
});

describe('audio and subtitle links need their own token', () => {
  it('refuses no token, a wrong token, another request’s token and a bearer key instead of a token; serves the right one', async () => {
    const key = t.newKey();
    const id = await submit(key, { generate_srt: true });
    const other = await submit(key, { generate_srt: true });
    const detail = await finished(key, id);
    const otherDetail = await finished(key, other);
    const tokenOf = (link: unknown) => /\/files\/[0-9a-f]{32}\/([^/]+)\//.exec(String(link))![1]!;
    const token = tokenOf(detail.audio_link);
    const otherToken = tokenOf(otherDetail.audio_link);
    expect(otherToken).not.toBe(token);
    const wrong = token.replace(/./g, (c) => (c === 'A' ? 'B' : 'A'));
    for (const file of ['audio.mp3', 'subtitles.srt']) {
      for (const [why, path, headers] of [
        ['no token', `/files/${id}/${file}`, {}],
        ['an empty token', `/files/${id}//${file}`, {}],
        ['a wrong token', `/files/${id}/${wrong}/${file}`, {}],
        ['another request’s token', `/files/${id}/${otherToken}/${file}`, {}],
        [
          'a valid bearer key instead of the token',
          `/files/${id}/x/${file}`,
          { authorization: `Bearer ${key}` },
        ],
        ['the session instead of the token', `/files/${id}/x/${file}`, { cookie }],
      ] as const) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await fetchUrl(`${t.core.url}${path}`, method, { headers });
          expect(res.status, `${method} ${file} with ${why}`).toBe(404);
          expect(res.body.length === 0 || res.json?.error_code === 'NOT_FOUND', why).toBe(true);
          expect(res.headers['content-type'], why).not.toMatch(/^audio|subrip/);
        }
      }
      const right = await fetchUrl(`${t.core.url}/files/${id}/${token}/${file}`, 'GET');
      expect(right.status, file).toBe(200);
      expect(right.headers['content-type']).toBe(
        file === 'audio.mp3' ? 'audio/mpeg' : 'application/x-subrip',
      );
    }
  });
});

describe('a Host header that is not the server’s own is refused', () => {
  it('on API, OpenAI, download and UI routes, for foreign and rebinding-style names and other ports', async () => {
    const key = t.newKey();
    const id = await submit(key);
    const link = new URL(String((await finished(key, id)).audio_link));
    const port = t.core.port;
    const foreign = [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port === 65535 ? port - 1 : port + 1}`,
      '127.0.0.1',
      `localhost:${port + (port === 65535 ? -1 : 1)}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
      `7f000001.c0a80001.rbndr.us:${port}`,
      `[::2]:${port}`,
      `127.0.0.1:${port}@evil.example`,
    ];
    const targets: [Method, string, Record<string, string>, unknown][] = [
      ['GET', `/api/v1/tts/${id}`, { authorization: `Bearer ${key}` }, undefined],
      ['GET', '/api/v1/health', {}, undefined],
      ['GET', '/api/v1/session', { cookie }, undefined],
      ['GET', link.pathname, {}, undefined],
      ['GET', '/', {}, undefined],
      ['GET', `/?token=${LOGIN_TOKEN}`, {}, undefined],
      ['GET', '/assets/app-1.js', {}, undefined],
      [
        'POST',
        '/api/v1/tts',
        { authorization: `Bearer ${key}` },
        { input_text: 'Rebound.', voice_code: 'en_female_emily_us' },
      ],
      ['POST', '/v1/audio/speech', { authorization: `Bearer ${key}` }, { input: 'Rebound.', voice: 'nova' }],
    ];
    const before = requestCount(keyId(key));
    for (const host of foreign) {
      for (const [method, path, headers, body] of targets) {
        const res = await send(method, path, { ...headers, host }, body);
        const label = `${method} ${path} with Host ${host}`;
        expect(res.status, `${label}: ${res.text}`).toBe(403);
        if (path.startsWith('/v1/')) expect(res.json.error.code, label).toBe('FORBIDDEN_HOST');
        else expect(res.json, label).toMatchObject({ status: 0, error_code: 'FORBIDDEN_HOST' });
        expect(res.headers['set-cookie'], label).toBeUndefined();
      }
    }
    expect(requestCount(keyId(key))).toBe(before);
    // The server's own names pass (so the refusals above are about the name, not the route).
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      expect((await send('GET', `/api/v1/tts/${id}`, { host, authorization: `Bearer ${key}` })).status).toBe(
        200,
      );
      expect((await send('GET', link.pathname, { host })).status).toBe(200);
      expect((await send('GET', '/', { host })).status).toBe(200);
    }
  });
});

describe('a cross-origin browser request cannot submit or read anything', () => {
  const origins = () => [
    'http://evil.example',
    'null',
    `http://127.0.0.1:${t.core.port === 65535 ? 1 : t.core.port + 1}`,
    `https://127.0.0.1:${t.core.port}`,
    `http://localhost.evil.example:${t.core.port}`,
  ];

  it('refuses submit, read, keys and settings calls from a foreign Origin, with a key or the session, and creates nothing', async () => {
    const key = t.newKey();
    const keyRow = t.core.store.keys.findById(keyId(key))!;
    const id = await submit(key);
    await finished(key, id);
    const studioKeyId = (await fetchUrl(`${t.core.url}/api/v1/session`, 'GET', { headers: { cookie } })).json
      .result.key.id as string;
    const counts = () => [requestCount(keyRow.id), requestCount(studioKeyId)];
    const keysBefore = t.core.store.keys.list().length;
    const before = counts();
    const speak = { input_text: 'From another site.', voice_code: 'en_female_emily_us' };
    for (const origin of origins()) {
      for (const credentials of [{ authorization: `Bearer ${key}` }, { cookie }] as Record<
        string,
        string
      >[]) {
        for (const [method, path, body] of [
          ['POST', '/api/v1/tts', speak],
          ['GET', '/api/v1/tts', undefined],
          ['GET', `/api/v1/tts/${id}`, undefined],
          ['GET', `/api/v1/tts/${id}/callback-result`, undefined],
          ['POST', `/api/v1/tts/${id}/cancel`, {}],
          ['GET', '/api/v1/usage', undefined],
          ['GET', '/api/v1/events', undefined],
          ['GET', '/api/v1/session', undefined],
          ['GET', '/api/v1/keys', undefined],
          ['POST', '/api/v1/keys', { name: 'from evil' }],
          ['POST', `/api/v1/keys/${keyRow.id}/revoke`, {}],
          ['PUT', '/api/v1/settings', { port: 9999 }],
          ['POST', '/v1/audio/speech', { input: 'From another site.', voice: 'nova' }],
        ] as const) {
          const res = await send(method, path, { ...credentials, origin }, body);
          const label = `${method} ${path} from ${origin} with ${Object.keys(credentials)[0]}`;
          expect(res.status, `${label}: ${res.text}`).toBe(403);
          if (path.startsWith('/v1/')) expect(res.json.error.code, label).toBe('FORBIDDEN_ORIGIN');
          else expect(res.json, label).toMatchObject({ status: 0, error_code: 'FORBIDDEN_ORIGIN' });
          expect(res.text, label).not.toContain(id);
          expect(res.headers['access-control-allow-origin'], label).toBeUndefined();
          expect(res.headers['access-control-allow-credentials'], label).toBeUndefined();
        }
      }
    }
    expect(counts()).toEqual(before);
    expect(t.core.store.keys.list()).toHaveLength(keysBefore);
    expect(t.core.store.keys.findById(keyRow.id)!.revoked_at).toBeNull();
    // Only the studio's own origin is let in (so the refusals above are about the origin).
    const own = await send('GET', `/api/v1/tts/${id}`, {
      authorization: `Bearer ${key}`,
      origin: t.core.url,
    });
    expect(own.status).toBe(200);
  });

  it('a preflight grants nothing: no 2xx, no Access-Control-Allow-* headers', async () => {
    for (const origin of origins()) {
      for (const path of ['/api/v1/tts', `/api/v1/tts/${NO_SUCH_ID}`, '/api/v1/keys', '/v1/audio/speech']) {
        const res = await send('OPTIONS', path, {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        });
        expect(res.status, `OPTIONS ${path} from ${origin}`).toBeGreaterThanOrEqual(400);
        for (const header of Object.keys(res.headers)) expect(header).not.toMatch(/^access-control-allow/);
      }
    }
  });
});

describe('repeated failed authentication is slowed down', () => {
  const wrong = { authorization: `Bearer nsk_${'x'.repeat(43)}` };
  /** Milliseconds from sending to the whole answer. */
  async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
    const started = performance.now();
    const value = await work();
    return { value, ms: performance.now() - started };
  }
  /** A second core on the first one's engine, with the slow-down configured for the test. */
  const throttled = (authThrottle: AuthThrottleOptions) =>
    startTestCore({ engine: t.core.engine, loginToken: LOGIN_TOKEN, authThrottle });

  it('answers the first failures at once, then later and later up to the cap; a valid key is never held back', async () => {
    const s = await throttled({ freeFailures: 3, baseDelayMs: 300, maxDelayMs: 1200, windowMs: 60_000 });
    try {
      const fail = () => timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const { value, ms } = await fail();
        expect(value.status).toBe(401);
        expect(value.json).toMatchObject({ status: 0, error_code: 'UNAUTHORIZED' });
        times.push(ms);
      }
      // Failures 4–7 wait 300, 600, 1200 and (capped) 1200 ms; timers never fire early.
      expect(times[3]).toBeGreaterThanOrEqual(270);
      expect(times[4]).toBeGreaterThanOrEqual(540);
      expect(times[5]).toBeGreaterThanOrEqual(1080);
      expect(times[6]).toBeGreaterThanOrEqual(1080);
      // The cap holds (generous bound: far below the next doubling's 2400 ms).
      expect(times[6]).toBeLessThan(2300);

      // Failing now costs 1200 ms, yet a valid key from the same address is answered at once, even
      // while failed answers are waiting.
      let failedAnswers = 0;
      const waiting = Array.from({ length: 3 }, () =>
        fail().then((r) => {
          failedAnswers++;
          return r;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const valid = await timed(() => s.call('GET', '/api/v1/usage'));
      expect(valid.value.status).toBe(200);
      expect(valid.ms).toBeLessThan(600);
      expect(failedAnswers).toBe(0);
      for (const r of await Promise.all(waiting)) {
        expect(r.value.status).toBe(401);
        expect(r.ms).toBeGreaterThanOrEqual(1080);
      }
      // A missing key is not a guess: refused at once, not counted.
      const missing = await timed(() => s.call('GET', '/api/v1/usage', { key: null }));
      expect(missing.value.status).toBe(401);
      expect(missing.ms).toBeLessThan(600);

      // Failures are counted per address: 127.0.0.2 (also this machine) still has its free failures.
      const elsewhere = await timed(
        () =>
          new Promise<number>((resolve, reject) => {
            const { port } = new URL(s.core.url);
            const call = httpRequest(
              {
                host: '127.0.0.1',
                port,
                path: '/api/v1/usage',
                headers: wrong,
                localAddress: '127.0.0.2',
                agent: false,
              },
              (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
            );
            call.on('error', reject);
            call.end();
          }),
      );
      expect(elsewhere.value).toBe(401);
      expect(elsewhere.ms).toBeLessThan(600);
    } finally {
      await s.close();
    }
  });

  it('counts wrong studio sign-in tokens too, and never delays the right one', async () => {
    const s = await throttled({ freeFailures: 2, baseDelayMs: 800, maxDelayMs: 800 });
    try {
      const signIn = (token: string) => timed(() => fetchUrl(`${s.core.url}/?token=${token}`, 'GET'));
      for (let i = 0; i < 2; i++) expect((await signIn('nope')).value.status).toBe(401);
      const slowed = await signIn('nope');
      expect(slowed.value.status).toBe(401);
      expect(slowed.value.text).toContain('Sign-in link not valid');
      expect(slowed.ms).toBeGreaterThanOrEqual(720);
      const right = await signIn(LOGIN_TOKEN);
      expect(right.value.status).toBe(303);
      expect(right.ms).toBeLessThan(400);
      // The sign-in failures and bearer-key failures share the address's count.
      const key = await timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      expect(key.value.status).toBe(401);
      expect(key.ms).toBeGreaterThanOrEqual(720);
    } finally {
      await s.close();
    }
  });

  it('answers 429 with Retry-After at once when too many failed answers are waiting; valid keys still pass', async () => {
    const s = await throttled({ freeFailures: 0, baseDelayMs: 1500, maxDelayMs: 1500, maxPending: 3 });
    try {
      const answeredAt: number[] = [];
      const started = performance.now();
      const parked = Array.from({ length: 3 }, () =>
        s.call('GET', '/api/v1/usage', { key: null, headers: wrong }).then((r) => {
          answeredAt.push(performance.now() - started);
          return r;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));

      const overflow = await Promise.all([
        s.call('GET', '/api/v1/tts', { key: null, headers: wrong }),
        s.call('POST', '/api/v1/tts', {
          key: null,
          headers: wrong,
          body: { input_text: 'x', voice_code: 'x' },
        }),
        s.call('GET', `/api/v1/tts/${NO_SUCH_ID}/callback-result`, { key: null, headers: wrong }),
      ]);
      for (const res of overflow) {
        expect(res.status, res.text).toBe(429);
        expect(res.json).toMatchObject({ status: 0, error_code: 'TOO_MANY_REQUESTS' });
        expect(res.headers['retry-after']).toBe('2');
      }
      const openai = await s.call('POST', '/v1/audio/speech', {
        key: null,
        headers: wrong,
        body: { input: 'x', voice: 'nova' },
      });
      expect(openai.status).toBe(429);
      expect(openai.json.error).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
      expect(openai.headers['retry-after']).toBe('2');
      const signIn = await fetchUrl(`${s.core.url}/?token=nope`, 'GET');
      expect(signIn.status).toBe(429);
      expect(signIn.headers['content-type']).toMatch(/text\/html/);
      expect(signIn.headers['retry-after']).toBe('2');
      const valid = await s.call('GET', '/api/v1/usage');
      expect(valid.status).toBe(200);
      // All of the above were answered before any of the waiting failures.
      expect(answeredAt).toEqual([]);

      for (const res of await Promise.all(parked)) expect(res.status).toBe(401);
      for (const at of answeredAt) expect(at).toBeGreaterThanOrEqual(1350);
      // With nothing waiting any more, a failure is delayed again rather than refused with 429.
      const next = await timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      expect(next.value.status).toBe(401);
      expect(next.ms).toBeGreaterThanOrEqual(1350);
    } finally {
      await s.close();
    }
  });

  it('forgets failures once they leave the window, so a mistyped key recovers', async () => {
    const s = await throttled({ freeFailures: 1, baseDelayMs: 800, maxDelayMs: 800, windowMs: 1500 });
    try {
      const fail = () => timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
      expect((await fail()).value.status).toBe(401);
      expect((await fail()).ms).toBeGreaterThanOrEqual(720);
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const recovered = await fail();
      expect(recovered.value.status).toBe(401);
      expect(recovered.ms).toBeLessThan(400);
      // The count starts again from there (the throttle is still on).
      expect((await fail()).ms).toBeGreaterThanOrEqual(720);
    } finally {
      await s.close();
    }
  });

  it('does not hold up shutdown: waiting failed answers go out at once on close', async () => {
    const s = await throttled({ freeFailures: 0, baseDelayMs: 5000, maxDelayMs: 5000 });
    const waiting = timed(() => s.call('GET', '/api/v1/usage', { key: null, headers: wrong }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closing = await timed(() => s.close());
    expect(closing.ms).toBeLessThan(3000);
    expect((await waiting).value.status).toBe(401);
  });

  it('keeps its count on the injected clock and bounds what it remembers', async () => {
    let now = 1_000_000;
    const throttle = createAuthThrottle({
      clock: { now: () => now },
      freeFailures: 2,
      baseDelayMs: 1,
      maxDelayMs: 8,
      windowMs: 10_000,
      maxAddresses: 2,
    });
    try {
      for (let i = 0; i < 20; i++) await throttle.failed('a');
      // 2 free + doublings 1→8 ms (3) + 1: older failures cannot change the delay, so are not kept.
      expect(throttle.failures('a')).toBe(6);
      now += 9_999;
      expect(throttle.failures('a')).toBe(6);
      now += 2;
      expect(throttle.failures('a')).toBe(0);
      await throttle.failed('a');
      await throttle.failed('b');
      await throttle.failed('c');
      expect(throttle.failures('a')).toBe(0);
      expect(throttle.failures('c')).toBe(1);
    } finally {
      throttle.close();
    }
  });
});
