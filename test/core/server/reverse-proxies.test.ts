/**
 * The server behind Debian's nginx, Caddy and Apache, each run with the very block
 * docs/USER-GUIDE.md "Behind a reverse proxy" gives for it (test/fixtures/reverse-proxies.ts
 * reads it from the guide): `serve --allowed-host tts.example.com --public-url
 * http://tts.example.com`, the client naming `tts.example.com` in its Host header as a browser
 * on port 80 would, talking to the proxy on 127.0.0.1. nginx keeps its default buffering (the
 * guide's block does not turn it off): streamed answers get through because they say
 * `X-Accel-Buffering: no`.
 *
 * For each proxy:
 * - the event stream's first event (the `: connected` line the server writes when it opens)
 *   comes through on its own: the test produces no later event until it has arrived, so a
 *   proxy that held it back would stall the test here; then a request's events follow, the
 *   first while it is still rendering. Times to the first event are printed (direct and
 *   through each proxy).
 * - OpenAI speech streamed through it: the first bytes arrive while the request is rendering,
 *   in more than one piece, and the whole decodes as MP3 frames.
 * And Caddy speaking HTTP/2 to the client (h2c: HTTP/2 without TLS, as browsers speak it over
 * the TLS a real installation has): the same two checks over one HTTP/2 connection.
 */

import { connect, type ClientHttp2Session } from 'node:http2';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDE_NAME, startProxy, type ProxyKind, type RunningProxy } from '../../fixtures/reverse-proxies';
import { readWhileRendering, startTestCore, type TestCore } from './helpers';

const TEXT =
  'The lighthouse keeper climbed the stairs at dusk. The sea rolled in long grey lines. ' +
  'Far out, a ship turned towards the harbour, and the wind rose over the cliffs.';
const KINDS: ProxyKind[] = ['nginx', 'caddy', 'apache'];

let t: TestCore;
const proxies = new Map<ProxyKind, RunningProxy>();
/** Milliseconds to the first event, per route taken ("direct" or a proxy). */
const firstEventMs: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestCore({ allowedHosts: [GUIDE_NAME], publicUrl: `http://${GUIDE_NAME}` });
  for (const kind of KINDS) proxies.set(kind, await startProxy(kind, t.core.port));
});
afterAll(async () => {
  console.info(
    `time to the event stream's first event (ms): ${Object.entries(firstEventMs)
      .map(([route, ms]) => `${route} ${ms.toFixed(1)}`)
      .join(', ')}`,
  );
  for (const proxy of proxies.values()) await proxy.close();
  await t?.close();
});

/** A request to `port` on 127.0.0.1 under the public name, with the key. */
function call(port: number, method: 'GET' | 'POST', path: string, body?: unknown) {
  return request(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      host: GUIDE_NAME,
      authorization: `Bearer ${t.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function status(id: string): Promise<string> {
  return (await t.call('GET', `/api/v1/tts/${id}`)).json.result.status as string;
}

/** The events of an open stream as they arrive, one parsed block at a time. */
async function* blocksOf(body: AsyncIterable<unknown>): AsyncGenerator<string> {
  let text = '';
  for await (const piece of body) {
    text += Buffer.from(piece as Uint8Array).toString('utf8');
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      yield text.slice(0, end);
      text = text.slice(end + 2);
    }
  }
}

/** Opens the event stream on `port` and returns when its first event has come through. */
async function firstEvent(route: string, port: number) {
  const started = performance.now();
  const response = await call(port, 'GET', '/api/v1/events');
  expect(response.statusCode).toBe(200);
  expect(String(response.headers['content-type'])).toMatch(/^text\/event-stream/);
  const blocks = blocksOf(response.body);
  const first = await blocks.next();
  firstEventMs[route] = performance.now() - started;
  expect(first.value).toContain(': connected');
  return { response, blocks };
}

describe('the event stream, direct', () => {
  it('delivers its first event at once (the yardstick for the proxies)', async () => {
    const { response } = await firstEvent('direct', t.core.port);
    response.body.destroy();
  });
});

describe.each(KINDS)("behind %s, configured as the guide's block", (kind) => {
  const port = () => proxies.get(kind)!.port;

  it('passes the event stream on as it is produced: the first event before any later one exists', async () => {
    const { response, blocks } = await firstEvent(kind, port());
    // Only now is a later event made: a request whose events are read through the proxy.
    const submitted = await t.call('POST', '/api/v1/tts', {
      body: { input_text: Array(2).fill(TEXT).join(' '), voice_code: 'en_female_emily_us', speed_rate: 1.1 },
    });
    expect(submitted.status, submitted.text).toBe(200);
    const id = submitted.json.result.request_id as string;
    const seen: string[] = [];
    let statusAtFirstEvent: string | undefined;
    for (;;) {
      const next = await blocks.next();
      expect(next.done, 'the stream ended').toBe(false);
      const data = /^event: request\ndata: (.*)$/m.exec(next.value as string)?.[1];
      if (!data) continue;
      const event = JSON.parse(data) as { request_id: string; status: string };
      if (event.request_id !== id) continue;
      statusAtFirstEvent ??= await status(id);
      seen.push(event.status);
      if (event.status === 'SUCCESS' || event.status === 'FAILURE') break;
    }
    response.body.destroy();
    // The request's first event came through while it was still under way, and its end followed.
    expect(statusAtFirstEvent).not.toBe('SUCCESS');
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe('SUCCESS');
  });

  it('streams OpenAI speech in pieces while it renders, with its default buffering', async () => {
    const streamed = await call(port(), 'POST', '/v1/audio/speech', {
      model: 'tts-1',
      voice: 'nova',
      input: Array(3).fill(TEXT).join(' '),
      response_format: 'mp3',
      // A speed of each proxy's own: the sentence cache would answer an earlier render at once.
      speed: 1.2 + KINDS.indexOf(kind) / 10,
    });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers['content-type']).toBe('audio/mpeg');
    const id = String(streamed.headers['x-request-id']);
    const { pieces, statusAtFirstBytes } = await readWhileRendering(t, id, streamed.body);
    expect(statusAtFirstBytes).toBe('processing');
    expect(pieces.length).toBeGreaterThan(1);
    const audio = Buffer.concat(pieces);
    expect(audio.length).toBeGreaterThan(10_000);
    // MPEG audio frames from the first byte (the stream has no ID3 tag).
    expect(audio[0]).toBe(0xff);
    expect(audio[1]! & 0xe0).toBe(0xe0);
  });
});

describe('behind Caddy speaking HTTP/2 (h2c) to the client', () => {
  let caddy: RunningProxy;
  let session: ClientHttp2Session;
  beforeAll(async () => {
    caddy = await startProxy('caddy', t.core.port, undefined, { h2c: true });
    session = connect(`http://127.0.0.1:${caddy.port}`);
  });
  afterAll(async () => {
    session?.close();
    await caddy?.close();
  });

  /** An HTTP/2 request under the public name, with the key: its status and its body's pieces. */
  function h2(method: 'GET' | 'POST', path: string, body?: unknown) {
    const stream = session.request({
      ':method': method,
      ':path': path,
      ':authority': GUIDE_NAME,
      authorization: `Bearer ${t.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    });
    stream.end(body === undefined ? undefined : JSON.stringify(body));
    const headers = new Promise<Record<string, unknown>>((resolve, reject) => {
      stream.once('response', resolve);
      stream.once('error', reject);
    });
    return { stream, headers };
  }

  it('passes the event stream on over HTTP/2: the first event before any later one exists', async () => {
    const started = performance.now();
    const { stream, headers } = h2('GET', '/api/v1/events');
    expect((await headers)[':status']).toBe(200);
    const first = await blocksOf(stream).next();
    firstEventMs['caddy h2c'] = performance.now() - started;
    expect(first.value).toContain(': connected');
    stream.close();
  });

  it('streams OpenAI speech over HTTP/2 in pieces while it renders', async () => {
    const { stream, headers } = h2('POST', '/v1/audio/speech', {
      model: 'tts-1',
      voice: 'alloy',
      input: Array(3).fill(TEXT).join(' '),
      response_format: 'mp3',
      speed: 1.8,
    });
    const head = await headers;
    expect(head[':status']).toBe(200);
    expect(head['content-type']).toBe('audio/mpeg');
    const { pieces, statusAtFirstBytes } = await readWhileRendering(t, String(head['x-request-id']), stream);
    expect(statusAtFirstBytes).toBe('processing');
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).length).toBeGreaterThan(10_000);
  });
});
