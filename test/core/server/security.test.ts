/**
 * The security checks of the reliability issue, sentence by sentence, against the real core over
 * HTTP on 127.0.0.1:
 * - requests without or with a wrong key are refused on every key-protected route (the routes
 *   are read from the running server, so a new route cannot be missed);
 * - one key cannot read another key's requests or callback records;
 * - audio links without the right token are refused;
 * - a request whose Host header is not the server's own is refused;
 * - a cross-origin browser request from another site cannot submit or read anything.
 * The slow-down of repeated failed authentication is tested through the app in
 * auth-throttle.test.ts.
 */

import { request } from 'undici';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../electron/core/platform/clock';
import { hashKey, revokeApiKey } from '../../../electron/core/jobs/keys';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { eventually, fetchUrl, startSignedInCore, type SignedInTestCore } from './helpers';
import { signInStudio } from '../../fixtures/studio-session';
import { toHttpResult, type HttpResult, type Method } from './http';

const NO_SUCH_ID = '0'.repeat(32);

let t: SignedInTestCore;
let receiver: CallbackReceiver;
/** Cookie and X-Studio-Session: a signed-in call. */
let studio: Record<string, string>;

beforeAll(async () => {
  receiver = await startReceiver();
  // The failed-authentication slow-down is off here (its own tests below turn it on), so that
  // every refusal seen in these tests is the route's own answer, not the throttle's.
  t = await startSignedInCore({ authThrottle: { baseDelayMs: 0 } });
  ({ headers: studio } = t.studio);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

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
const PUBLIC = new Set([
  'GET /api/v1/health',
  'GET /api/v1/voices',
  // The same catalogue in the cloud service's published shape (cloud-voice-codes.test.ts).
  'GET /api/public/v1/voices',
  // OpenAI's lists of the same catalogue, which Open WebUI reads without a key; a key that is
  // presented is still checked (openai-apps.test.ts).
  'GET /v1/models',
  'GET /v1/models/:id',
  'GET /v1/audio/models',
  'GET /v1/audio/voices',
  // The studio's sign-in takes the token of a sign-in address, not a key (studio.test.ts).
  'POST /api/v1/session/sign-in',
  // Kokoro-FastAPI's download of a `return_download_link` file: as on Kokoro-FastAPI, no key;
  // the name holds the request's download token, the credential of the /files/… links
  // (kokoro-clients.test.ts).
  'GET /v1/download/:file',
  // The same file at the X-Download-Path as it is, from the root (kokoro-clients.test.ts).
  'GET /download/:file',
]);
/** Routes only the signed-in studio may call; bearer keys are refused there. */
const SESSION_ONLY = new Set([
  'GET /api/v1/session',
  'DELETE /api/v1/session',
  'GET /api/v1/settings',
  'PUT /api/v1/settings',
  'GET /api/v1/keys',
  'POST /api/v1/keys',
  'POST /api/v1/keys/:id/revoke',
  'POST /api/v1/keys/:id/rotate-secret',
  'POST /api/v1/keys/:id/credits',
  'POST /api/v1/voice-packs/install',
  'POST /api/v1/voice-packs/:id/cancel',
  'POST /api/v1/voice-packs/:id/remove',
  'PUT /api/v1/voice-packs/assignments/:code',
  'POST /api/v1/voice-packs/import',
  // The studio's audio element plays auditions with GET; apps use the POST with their key.
  'GET /api/v1/voices/:code/audition',
  'GET /api/v1/custom-voices/:code/audition',
  // Keys read and preview the lexicon; only the studio changes it (what every key's listeners hear).
  'POST /api/v1/lexicon',
  'POST /api/v1/lexicon/import',
  'PUT /api/v1/lexicon/:id',
  'DELETE /api/v1/lexicon/:id',
  'GET /api/v1/lexicon/:id/preview',
  'GET /api/v1/lexicon/preview',
  // The sentence cache serves every key's renders: its figures would tell a key whether another
  // spoke a sentence, so only the studio reads them, and only the studio empties it.
  'GET /api/v1/cache',
  'DELETE /api/v1/cache',
]);
const name = (r: Route) => `${r.method === 'HEAD' ? 'GET' : r.method} ${r.url}`;
const fill = (url: string) =>
  url
    .replace(':id/revoke', 'key_000000000000/revoke')
    .replace(':id/rotate-secret', 'key_000000000000/rotate-secret')
    .replace(':id/credits', 'key_000000000000/credits')
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
    return toHttpResult(response.statusCode, response.headers, Buffer.alloc(0));
  }
  return toHttpResult(response.statusCode, response.headers, Buffer.from(await response.body.arrayBuffer()));
}

function expectRefused(res: HttpResult, route: Route, status: number, code: string, why: string): void {
  const label = `${route.method} ${route.url} ${why}`;
  expect(res.status, `${label}: ${res.text}`).toBe(status);
  if (route.method === 'HEAD') return;
  // OpenAI's shape on /v1 and on Kokoro-FastAPI's /dev routes.
  if (/^\/(v1|dev)\//.test(route.url)) expect(res.json?.error?.code, label).toBe(code);
  else expect(res.json, label).toMatchObject({ status: 0, error_code: code });
}

/** The id of a key's row. */
async function keyId(key: string): Promise<string> {
  return (await t.core.store.keys.findByHash(hashKey(key)))!.id;
}

/** Requests of a key in the store, whatever their status. */
async function requestCount(id: string): Promise<number> {
  return (await t.core.store.requests.list({ keyId: id, limit: 1, offset: 0 })).total;
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
    const routes = registeredRoutes(t.core.server).filter((r) => /^\/(api|v1|dev|download)\//.test(r.url));
    for (const route of routes)
      expect(t.core.server.hasRoute(route), `${route.method} ${route.url}`).toBe(true);
    const names = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const known of [
      'POST /api/v1/tts',
      'GET /api/v1/tts/:id/callback-result',
      'POST /v1/audio/speech',
      // A key's or the studio's (neither public nor studio-only): manuscripts-route.test.ts.
      'POST /api/v1/manuscripts/read',
    ])
      expect(names).toContain(known);
    // The exemptions name real routes (a renamed route cannot silently drop out of the checks).
    for (const exempt of [...PUBLIC, ...SESSION_ONLY]) expect(names).toContain(exempt);
  });

  it('answers 401 in the error shape to no key, a malformed, wrong or revoked key; a valid key gets through', async () => {
    const revoked = await t.newKey();
    await revokeApiKey(t.core.store, systemClock, await keyId(revoked));
    expect((await t.call('GET', '/api/v1/usage', { key: revoked })).status).toBe(401);
    const protectedRoutes = registeredRoutes(t.core.server).filter(
      (r) => /^\/(api|v1|dev|download)\//.test(r.url) && !PUBLIC.has(name(r)),
    );
    expect(protectedRoutes.length).toBeGreaterThanOrEqual(20);
    const bad: [string, Record<string, string>][] = [
      ['without Authorization', {}],
      ['with a malformed Authorization', { authorization: `Basic ${Buffer.from('x:y').toString('base64')}` }],
      ['with a wrong key', { authorization: `Bearer nsk_${'w'.repeat(43)}` }],
      ['with a revoked key', { authorization: `Bearer ${revoked}` }],
      // The Authorization header wins over the session cookie: a wrong key is not rescued by it.
      ['with a wrong key beside a valid session', { authorization: 'Bearer nsk_wrong', ...studio }],
      // The cookie reaches any server on 127.0.0.1 (RFC 6265 §8.5): alone it opens nothing.
      ['with the session cookie alone', { cookie: studio.cookie! }],
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
        // Signing out ends its session: that call gets a session of its own.
        const signOut = name(route) === 'DELETE /api/v1/session';
        const session = await send(
          route.method,
          path,
          signOut ? (await signInStudio(t.core.loginUrl)).headers : studio,
          body,
        );
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
    for (const path of ['/api/v1/health', '/api/v1/voices', '/api/public/v1/voices'])
      expect((await send('GET', path)).status).toBe(200);
  });
});

describe('one key cannot reach another key’s requests', () => {
  let keyA: string;
  let keyB: string;
  let idA: string;

  beforeAll(async () => {
    keyA = await t.newKey();
    keyB = await t.newKey();
    idA = await submit(keyA, { callback_url: receiver.url, generate_srt: true });
    await finished(keyA, idA);
    await eventually(async () => {
      const r = await t.call('GET', `/api/v1/tts/${idA}/callback-result`, { key: keyA });
      return r.status === 200 ? true : undefined;
    });
  });

  it('key B gets REQUEST_NOT_FOUND for A’s request, its callback result and attempts, cancel and callback retry', async () => {
    const attemptsBefore = (await t.core.store.callbacks.list(idA)).length;
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
    // The signed-in studio sees every key's traffic (History and Callbacks with key=all), A's too.
    const session = await fetchUrl(`${t.core.url}/api/v1/tts/${idA}`, 'GET', { headers: studio });
    expect(session.status).toBe(200);
    expect(session.json.result.request_id).toBe(idA);
    // The refused retry sent nothing: A's own retry, after it, is the only new attempt.
    const ofA = () =>
      receiver.received.filter((c) => (c.json as { request_id?: string })?.request_id === idA);
    expect((await t.call('POST', `/api/v1/tts/${idA}/callback-retry`, { key: keyA })).status).toBe(200);
    await receiver.waitFor(
      attemptsBefore + 1,
      (c) => (c.json as { request_id?: string })?.request_id === idA,
    );
    // Settled: no delivery of A's callback pending any more (a wrongly accepted retry of B's included).
    await eventually(async () =>
      (await t.core.store.requests.get(idA))!.callback_state !== 'pending' ? true : undefined,
    );
    expect(await t.core.store.callbacks.list(idA)).toHaveLength(attemptsBefore + 1);
    expect(ofA()).toHaveLength(attemptsBefore + 1);
  });

  it('key B cannot cancel A’s queued request', async () => {
    t.core.jobs.runner.pause();
    let queued: string;
    try {
      queued = await submit(keyA);
      const res = await t.call('POST', `/api/v1/tts/${queued}/cancel`, { key: keyB });
      expect(res.status).toBe(404);
      expect((await t.core.store.requests.get(queued))!.status).toBe('new');
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
    /** Reads a key's event stream as it comes. */
    const listen = async (key: string) => {
      const response = await request(`${t.core.url}/api/v1/events`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.statusCode).toBe(200);
      const stream = { seen: '', response, reading: Promise.resolve() };
      stream.reading = (async () => {
        for await (const chunk of response.body) stream.seen += chunk.toString();
      })().catch(() => undefined);
      await eventually(() => (stream.seen.includes(': connected') ? true : undefined));
      return stream;
    };
    const [a, b] = [await listen(keyA), await listen(keyB)];
    try {
      const id = await submit(keyA, { callback_url: receiver.url });
      // A's last event, its delivery, reached A's stream: the events go to every stream at once.
      await eventually(() =>
        /^event: delivery\n/m.test(a.seen) && a.seen.includes(`"request_id":"${id}"`) ? true : undefined,
      );
      // Then one of B's own: B's stream has had all it was sent before it.
      const own = await submit(keyB);
      await eventually(() => (b.seen.includes(own) ? true : undefined));
      expect(b.seen).not.toContain(id);
      const events = b.seen.split('\n\n').filter((e) => e.startsWith('event: '));
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event).toContain(`"request_id":"${own}"`);
    } finally {
      for (const stream of [a, b]) {
        stream.response.body.destroy();
        await stream.reading;
      }
    }
  });
});

describe('one key cannot reach another key’s projects', () => {
  it('key B gets PROJECT_NOT_FOUND on every route of A’s project, and A’s project is unchanged', async () => {
    const keyA = await t.newKey();
    const keyB = await t.newKey();
    const made = await t.call('POST', '/api/v1/projects', {
      key: keyA,
      body: { title: 'A’s book', voice_code: 'en_female_emily_us' },
    });
    expect(made.status).toBe(201);
    const id = made.json.result.project.id as string;
    const narrator = made.json.result.characters[0].id as string;
    const before = (await t.call('GET', `/api/v1/projects/${id}`, { key: keyA })).text;
    // Every route under a project, read from the running server (renders and exports included).
    const routes = registeredRoutes(t.core.server).filter(
      (r) => r.url.startsWith('/api/v1/projects/:id') && r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(15);
    const body = {
      chapter_ids: [],
      segment_id: 'x',
      name: 'B',
      voice_code: 'en_female_emily_us',
      text: 'B was here',
      into: narrator,
      names: ['B'],
    };
    for (const route of routes) {
      const path = route.url
        .replace(':id', id)
        .replace(':cid', 'c'.repeat(32))
        .replace(':sid', 's'.repeat(32))
        .replace(':chid', narrator)
        // Well-formed: a malformed request is refused by its shape before the project is looked up.
        .replace(':eid', 'e'.repeat(32))
        .replace(':kind', 'srt');
      const raw = /\/import$/.test(route.url);
      const res = await t.call(route.method, raw ? `${path}?file_name=b.md` : path, {
        key: keyB,
        ...(raw
          ? { raw: '# B', headers: { 'content-type': 'application/octet-stream' } }
          : route.method === 'POST' || route.method === 'PATCH'
            ? { body }
            : {}),
      });
      expectRefused(res, route, 404, 'PROJECT_NOT_FOUND', 'with another key');
    }
    expect((await t.call('GET', `/api/v1/projects/${id}`, { key: keyA })).text).toBe(before);
    expect((await t.call('GET', '/api/v1/projects', { key: keyB })).json.result.items).toEqual([]);
  });
});

describe('audio and subtitle links need their own token', () => {
  it('refuses no token, a wrong token, another request’s token and a bearer key instead of a token; serves the right one', async () => {
    const key = await t.newKey();
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
        ['the session instead of the token', `/files/${id}/x/${file}`, studio],
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
    const key = await t.newKey();
    const id = await submit(key);
    const link = new URL(String((await finished(key, id)).audio_link));
    const port = t.core.port;
    const foreign = [
      'evil.example',
      `evil.example:${port}`,
      `127.0.0.1:${port === 65535 ? port - 1 : port + 1}`,
      '127.0.0.1:80',
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
      ['GET', '/api/v1/session', studio, undefined],
      ['GET', link.pathname, {}, undefined],
      ['GET', '/', {}, undefined],
      ['GET', `/${new URL(t.spentLoginUrl).search}`, {}, undefined],
      ['GET', '/assets/app-1.js', {}, undefined],
      [
        'POST',
        '/api/v1/tts',
        { authorization: `Bearer ${key}` },
        { input_text: 'Rebound.', voice_code: 'en_female_emily_us' },
      ],
      ['POST', '/v1/audio/speech', { authorization: `Bearer ${key}` }, { input: 'Rebound.', voice: 'nova' }],
    ];
    const before = await requestCount(await keyId(key));
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
    expect(await requestCount(await keyId(key))).toBe(before);
    // The server's own names pass (so the refusals above are about the name, not the route),
    // with its port or none (a reverse proxy forwards the name alone; host-policy.test.ts).
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      '127.0.0.1',
      'localhost',
    ]) {
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
    const key = await t.newKey();
    const keyRow = (await t.core.store.keys.findById(await keyId(key)))!;
    const id = await submit(key);
    await finished(key, id);
    const studioKeyId = (await fetchUrl(`${t.core.url}/api/v1/session`, 'GET', { headers: studio })).json
      .result.key.id as string;
    const counts = () => Promise.all([requestCount(keyRow.id), requestCount(studioKeyId)]);
    const keysBefore = (await t.core.store.keys.list()).length;
    const before = await counts();
    const speak = { input_text: 'From another site.', voice_code: 'en_female_emily_us' };
    for (const origin of origins()) {
      for (const credentials of [{ authorization: `Bearer ${key}` }, studio] as Record<string, string>[]) {
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
          ['POST', `/api/v1/keys/${keyRow.id}/rotate-secret`, {}],
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
    expect(await counts()).toEqual(before);
    expect(await t.core.store.keys.list()).toHaveLength(keysBefore);
    expect((await t.core.store.keys.findById(keyRow.id))!.revoked_at).toBeNull();
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
