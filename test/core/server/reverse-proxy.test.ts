/**
 * The server behind a real nginx (Debian's package, started by the test on 127.0.0.1) set up as
 * docs/USER-GUIDE.md says (its nginx block, read from the guide: test/fixtures/reverse-proxies.ts):
 * `--allowed-host tts.example.com --public-url http://tts.example.com:<nginx>`,
 * nginx forwarding `Host: $host` (the name without a port), its buffering left on. The client talks to nginx on
 * 127.0.0.1 and names the public host in its Host header, as a browser resolving the name to the
 * proxy would. Through nginx: the cloud API's submit, its audio_link (built from --public-url)
 * and its download; OpenAI's route, whole and streamed in pieces while it renders (audio and
 * server-sent events); the studio page and a same-origin submit from it; unknown names and
 * foreign origins still refused.
 */

import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from '../../fixtures/reverse-proxies';
import { freePort } from '../../fixtures/postgres';
import { eventually, fetchUrl, readWhileRendering, startTestCore, type TestCore } from './helpers';

const NAME = 'tts.example.com';
const TEXT =
  'The lighthouse keeper climbed the stairs at dusk. The sea rolled in long grey lines. ' +
  'Far out, a ship turned towards the harbour, and the wind rose over the cliffs.';

let t: TestCore;
let nginx: RunningProxy;
let publicUrl: string;

beforeAll(async () => {
  const nginxPort = await freePort();
  publicUrl = `http://${NAME}:${nginxPort}`;
  t = await startTestCore({ allowedHosts: [NAME], publicUrl });
  nginx = await startProxy('nginx', t.core.port, nginxPort);
});
afterAll(async () => {
  await nginx?.close();
  await t?.close();
});

/** A call through nginx, under the public name (or `host`). */
function viaProxy(
  method: string,
  path: string,
  options: { host?: string; headers?: Record<string, string>; body?: unknown; signedOut?: boolean } = {},
) {
  return fetchUrl(`http://127.0.0.1:${nginx.port}${path}`, method, {
    headers: {
      host: options.host ?? `${NAME}:${nginx.port}`,
      ...(options.signedOut ? {} : { authorization: `Bearer ${t.key}` }),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
}

describe('behind nginx (proxy_set_header Host $host)', () => {
  it('accepts a cloud API submit; its audio_link is built from --public-url and downloads through nginx', async () => {
    const submitted = await viaProxy('POST', '/api/v1/tts', {
      body: { input_text: 'Through the proxy.', voice_code: 'en_female_emily_us' },
    });
    expect(submitted.status, submitted.text).toBe(200);
    const id = submitted.json.result.request_id as string;
    const result = await eventually(async () => {
      const res = await viaProxy('GET', `/api/v1/tts/${id}`);
      expect(res.status, res.text).toBe(200);
      return res.json.result.status === 'SUCCESS' ? (res.json.result as Record<string, unknown>) : undefined;
    });
    const link = String(result.audio_link);
    expect(link.startsWith(`${publicUrl}/`), link).toBe(true);
    // The link as a client holds it: to nginx, under the public name.
    const url = new URL(link);
    const audio = await viaProxy('GET', `${url.pathname}${url.search}`, { signedOut: true });
    expect(audio.status, audio.text).toBe(200);
    expect(audio.body.subarray(0, 3).toString('latin1')).toMatch(/^(ID3|\xff\xfb|\xff\xf3)/);
  });

  it('answers OpenAI speech whole, and streamed in pieces while it renders', async () => {
    const whole = await viaProxy('POST', '/v1/audio/speech', {
      body: { model: 'tts-1', voice: 'nova', input: 'Hello through nginx.', response_format: 'wav' },
    });
    expect(whole.status, whole.text).toBe(200);
    expect(whole.body.subarray(0, 4).toString('latin1')).toBe('RIFF');

    const streamed = await request(`http://127.0.0.1:${nginx.port}/v1/audio/speech`, {
      method: 'POST',
      headers: {
        host: `${NAME}:${nginx.port}`,
        authorization: `Bearer ${t.key}`,
        'content-type': 'application/json',
      },
      // A speed of its own: the sentence cache would answer an earlier render at once.
      body: JSON.stringify({
        model: 'tts-1',
        voice: 'nova',
        input: Array(8).fill(TEXT).join(' '),
        response_format: 'mp3',
        speed: 1.37,
        stream_format: 'audio',
      }),
    });
    expect(streamed.statusCode).toBe(200);
    const id = String(streamed.headers['x-request-id']);
    const { pieces, statusAtFirstBytes } = await readWhileRendering(t, id, streamed.body);
    // nginx passed the first bytes on while the request was still rendering, and more followed.
    expect(statusAtFirstBytes).toBe('processing');
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).length).toBeGreaterThan(10_000);
  });

  it('streams server-sent events through nginx', async () => {
    const res = await viaProxy('POST', '/v1/audio/speech', {
      body: { model: 'tts-1', voice: 'shimmer', input: TEXT, response_format: 'mp3', stream_format: 'sse' },
    });
    expect(res.status, res.text).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/^text\/event-stream/);
    const events = res.text
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as { type: string });
    expect(events.filter((e) => e.type === 'speech.audio.delta').length).toBeGreaterThan(1);
    expect(events.at(-1)!.type).toBe('speech.audio.done');
  });

  it('serves the studio page under the public name and takes a submit from the public origin', async () => {
    const page = await viaProxy('GET', '/', { signedOut: true });
    expect(page.status, page.text).toBe(200);
    const fromPage = await viaProxy('POST', '/api/v1/tts', {
      headers: { origin: publicUrl },
      body: { input_text: 'From the page.', voice_code: 'en_female_emily_us' },
    });
    expect(fromPage.status, fromPage.text).toBe(200);
  });

  it('still refuses unknown names (DNS rebinding) and foreign origins through nginx', async () => {
    for (const host of ['evil.example', `evil.example:${nginx.port}`, `${NAME}.evil.example:${nginx.port}`]) {
      for (const [method, path] of [
        ['POST', '/api/v1/tts'],
        ['POST', '/v1/audio/speech'],
        ['GET', '/'],
      ] as const) {
        const res = await viaProxy(method, path, {
          host,
          body: method === 'POST' ? { input_text: 'Rebound.', input: 'Rebound.', voice: 'nova' } : undefined,
        });
        expect(res.status, `${method} ${path} with Host ${host}: ${res.text}`).toBe(403);
        expect(res.text).toContain('FORBIDDEN_HOST');
      }
    }
    for (const origin of [
      'http://evil.example',
      `https://${NAME}.evil.example`,
      `http://${NAME}:${nginx.port + 1}`,
    ]) {
      const res = await viaProxy('POST', '/api/v1/tts', {
        headers: { origin },
        body: { input_text: 'Cross-site.', voice_code: 'en_female_emily_us' },
      });
      expect(res.status, `${origin}: ${res.text}`).toBe(403);
      expect(res.json).toMatchObject({ status: 0, error_code: 'FORBIDDEN_ORIGIN' });
    }
  });
});
