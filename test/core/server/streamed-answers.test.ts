/**
 * Every answer sent while it is produced says `X-Accel-Buffering: no` (so a default nginx, which
 * buffers, passes it on at once; see reverse-proxies.test.ts) and `Cache-Control: no-store`,
 * checked on real HTTP against one core: OpenAI speech streamed as audio, as PCM and as SSE
 * events, Kokoro-FastAPI's captioned speech as lines of JSON, the event stream and each kind of
 * audition (a catalogue voice, a custom voice, a lexicon preview). A whole answer (a JSON
 * result) does not carry it.
 */

import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCore, type TestCore } from './helpers';

const TEXT = 'The tide came in over the flat sand. Gulls rose from the rocks and the lamps were lit.';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
  const custom = await t.call('POST', '/api/v1/custom-voices', {
    body: {
      code: 'streamed-voice',
      name: 'Giọng streamed',
      base: { kind: 'code', voice_code: 'en_female_emily_us' },
    },
  });
  expect(custom.status, custom.text).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

/** Opens `path` with the key and reads its status line and headers (the body is left unread). */
async function open(method: 'GET' | 'POST', path: string, body?: unknown) {
  const response = await request(`${t.core.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${t.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return response;
}

describe('streamed answers tell proxies not to buffer', () => {
  it.each([
    [
      'OpenAI speech, audio',
      '/v1/audio/speech',
      { model: 'tts-1', voice: 'nova', input: TEXT },
      /^audio\/mpeg/,
    ],
    [
      'OpenAI speech, PCM',
      '/v1/audio/speech',
      { model: 'tts-1', voice: 'nova', input: TEXT, response_format: 'pcm', speed: 1.1 },
      /^audio\/pcm/,
    ],
    [
      'OpenAI speech, SSE events',
      '/v1/audio/speech',
      { model: 'tts-1', voice: 'nova', input: TEXT, stream_format: 'sse', speed: 1.2 },
      /^text\/event-stream/,
    ],
    [
      "Kokoro-FastAPI's captioned speech, lines of JSON",
      '/dev/captioned_speech',
      { model: 'kokoro', voice: 'af_bella', input: TEXT, stream: true, speed: 1.3 },
      /^application\/json/,
    ],
    ['a voice audition', '/api/v1/voices/en_female_emily_us/audition', { text: TEXT }, /^audio\/wav/],
    [
      'a custom voice audition',
      '/api/v1/custom-voices/streamed-voice/audition',
      { text: TEXT },
      /^audio\/wav/,
    ],
    [
      'a lexicon preview',
      '/api/v1/lexicon/preview',
      {
        language: 'en',
        match: 'tide',
        kind: 'respell',
        replacement: 'tyde',
        voice_code: 'en_female_emily_us',
      },
      /^audio\/wav/,
    ],
  ] as const)('%s', async (_name, path, body, type) => {
    const response = await open('POST', path, body);
    const bytes = Buffer.from(await response.body.arrayBuffer());
    expect(response.statusCode, bytes.toString()).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(type);
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(bytes.length).toBeGreaterThan(1000);
  });

  it('the event stream', async () => {
    const response = await open('GET', '/api/v1/events');
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toMatch(/^text\/event-stream/);
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['cache-control']).toBe('no-store');
    response.body.destroy();
  });

  it('a speech request answered from its finished file as SSE (a replay) says it too', async () => {
    const body = { model: 'tts-1', voice: 'echo', input: TEXT, stream_format: 'sse', speed: 0.9 };
    const headers = { 'idempotency-key': 'streamed-answers-replay' };
    const first = await t.call('POST', '/v1/audio/speech', { body, headers });
    expect(first.status, first.text).toBe(200);
    const replay = await t.call('POST', '/v1/audio/speech', { body, headers });
    expect(replay.status, replay.text).toBe(200);
    expect(replay.headers['x-request-id']).toBe(first.headers['x-request-id']);
    expect(String(replay.headers['content-type'])).toMatch(/^text\/event-stream/);
    expect(replay.headers['x-accel-buffering']).toBe('no');
    expect(replay.text).toContain('speech.audio.done');
  });

  it('a whole JSON answer does not', async () => {
    const voices = await t.call('GET', '/api/v1/voices');
    expect(voices.status).toBe(200);
    expect(voices.headers['x-accel-buffering']).toBeUndefined();
  });
});
