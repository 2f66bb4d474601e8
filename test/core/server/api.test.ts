/**
 * The whole pipeline over real HTTP: submit → engine → files → signed callback to a real
 * receiver → callback-result, downloads with Range, credits and refunds, history, events,
 * and the OpenAI-compatible endpoint.
 */

import { createHmac } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { request } from 'undici';
import {
  CallbackPayloadSchema,
  CallbackResultSchema,
  RequestDetailSchema,
  UsageSchema,
} from '../../../electron/shared/api';
import {
  startReceiver,
  type CallbackReceiver,
  type ReceivedCallback,
} from '../../fixtures/callback-receiver';
import { eventually, FAILING_TEXT, failRendersWith, fetchUrl, startTestCore, type TestCore } from './helpers';
import type { HttpResult } from './http';

let t: TestCore;
let receiver: CallbackReceiver;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

const TEXT_200 =
  'The quick brown fox jumps over the lazy dog near the riverbank. ' +
  'Meanwhile, a small bird sings on the old oak tree, and the children laugh in the garden. ' +
  'Evening falls slowly, painting the sky orange!!';

async function submit(body: Record<string, unknown>, key = t.key): Promise<string> {
  const res = await t.call('POST', '/api/v1/tts', {
    body: { input_text: TEXT_200, voice_code: 'en_female_emily_us', ...body },
    key,
  });
  expect(res.status, res.text).toBe(200);
  return res.json.result.request_id as string;
}

function callbackFor(id: string): Promise<ReceivedCallback> {
  return receiver
    .waitFor(1, (c) => (c.json as { request_id?: string })?.request_id === id)
    .then((list) => list[0]!);
}

function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.json).toMatchObject({ status: 0, error_code: code });
}

describe('submit → callback → download', () => {
  it('delivers the spec payload (signed, no Authorization) and the audio downloads without a key', async () => {
    const id = await submit({ callback_url: receiver.url, bitrate: 128 });
    const call = await callbackFor(id);
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.headers.authorization).toBeUndefined();
    const secret = (await t.core.store.keys.list())[0]!.signing_secret;
    expect(call.headers['x-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(call.body).digest('hex')}`,
    );
    const payload = call.json as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(
      [
        'audio_link',
        'audio_type',
        'bitrate',
        'characters',
        'created_at',
        'pitch_rate',
        'request_id',
        'speed_rate',
        'status',
        'voice_code',
      ].sort(),
    );
    expect(payload).toMatchObject({
      request_id: id,
      characters: 200,
      voice_code: 'en_female_emily_us',
      audio_type: 'mp3',
      speed_rate: 1,
      pitch_rate: 1,
      bitrate: 128,
      status: 'SUCCESS',
    });
    expect(payload.created_at).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Value.Check(CallbackPayloadSchema, payload)).toBe(true);

    const audio = await fetchUrl(payload.audio_link as string, 'GET');
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/mpeg');
    expect(Number(audio.headers['content-length'])).toBe(audio.body.length);
    expect(audio.headers['accept-ranges']).toBe('bytes');
    // An MPEG audio frame sync (or an ID3 tag) opens the file.
    expect(audio.body[0] === 0xff || audio.body.subarray(0, 3).toString() === 'ID3').toBe(true);
    const detail = await t.call('GET', `/api/v1/tts/${id}`);
    expect(detail.json.result.audio_bytes).toBe(audio.body.length);
    // No neural voice is installed here: the base engine spoke, and the record says so.
    expect(detail.json.result.engine).toBe('espeak');
  });

  it('supports HTTP Range on audio: 206 with Content-Range, suffix ranges, 416 past the end, HEAD', async () => {
    const id = await submit({ callback_url: receiver.url, audio_type: 'wav' });
    const link = ((await callbackFor(id)).json as { audio_link: string }).audio_link;
    const full = await fetchUrl(link, 'GET');
    expect(full.headers['content-type']).toBe('audio/wav');
    expect(full.body.subarray(0, 4).toString()).toBe('RIFF');
    const size = full.body.length;

    const part = await fetchUrl(link, 'GET', { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-99/${size}`);
    expect(part.headers['content-length']).toBe('100');
    expect(part.body.equals(full.body.subarray(0, 100))).toBe(true);

    const tail = await fetchUrl(link, 'GET', { headers: { range: 'bytes=-10' } });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(full.body.subarray(size - 10))).toBe(true);

    const open = await fetchUrl(link, 'GET', { headers: { range: `bytes=${size - 5}-` } });
    expect(open.headers['content-range']).toBe(`bytes ${size - 5}-${size - 1}/${size}`);

    const beyond = await fetchUrl(link, 'GET', { headers: { range: `bytes=${size}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);

    const head = await fetchUrl(link, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(size));
    expect(head.body.length).toBe(0);
  });

  it('a wrong token or another file name is a 404', async () => {
    const id = await submit({ callback_url: receiver.url });
    const link = ((await callbackFor(id)).json as { audio_link: string }).audio_link;
    const wrongToken = link.replace(
      /\/files\/([0-9a-f]+)\/([^/]+)\//,
      (_m, rid) => `/files/${rid}/${'A'.repeat(32)}/`,
    );
    expect((await fetchUrl(wrongToken, 'GET')).status).toBe(404);
    expect((await fetchUrl(link.replace('audio.mp3', 'audio.wav'), 'GET')).status).toBe(404);
    expect((await fetchUrl(link.replace('audio.mp3', 'subtitles.srt'), 'GET')).status).toBe(404);
  });

  it('with generate_srt, the payload carries srt_link and the SRT downloads as application/x-subrip', async () => {
    const id = await submit({ callback_url: receiver.url, generate_srt: true });
    const payload = (await callbackFor(id)).json as { srt_link: string; audio_link: string };
    expect(payload.srt_link).toMatch(/\/subtitles\.srt$/);
    const srt = await fetchUrl(payload.srt_link, 'GET');
    expect(srt.status).toBe(200);
    expect(srt.headers['content-type']).toBe('application/x-subrip');
    expect(Number(srt.headers['content-length'])).toBe(srt.body.length);
    expect(srt.text).toMatch(/^1\r?\n\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}\r?\n/);
    const range = await fetchUrl(payload.srt_link, 'GET', { headers: { range: 'bytes=0-0' } });
    expect(range.status).toBe(206);
    expect(range.text).toBe('1');
  });

  it('leaves no partial files behind', async () => {
    await submit({ callback_url: receiver.url }).then(callbackFor);
    const files = readdirSync(t.core.jobs.files.location);
    // Requests' files, and the folder of audiobook exports (their own runner sweeps it).
    expect(files.filter((f) => !/^[0-9a-f]{32}\.(mp3|wav|srt)$/.test(f) && f !== 'exports')).toEqual([]);
  });
});

describe('callback-result', () => {
  it('returns the stored result of the latest attempt with the spec fields', async () => {
    const id = await submit({ callback_url: receiver.url });
    const call = await callbackFor(id);
    const res = await eventually(async () => {
      const r = await t.call('GET', `/api/v1/tts/${id}/callback-result`);
      return r.status === 200 ? r : undefined;
    });
    expect(res.headers['content-type']).toBe('text/json; charset=utf-8');
    expect(res.json.status).toBe(1);
    const result = res.json.result;
    expect(Object.keys(result).sort()).toEqual([
      'callback_url',
      'created_at',
      'payload',
      'request_id',
      'result',
      'status_code',
    ]);
    expect(result).toMatchObject({ request_id: id, callback_url: receiver.url, status_code: 200 });
    expect(result.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(result.payload).toEqual(call.json);
    expect(typeof result.result).toBe('string');
    expect(Value.Check(CallbackResultSchema, result)).toBe(true);
  });

  it('answers NO_CALLBACK_URL for a request without one, CALLBACK_NOT_ATTEMPTED before the first attempt', async () => {
    const plain = await submit({});
    expectError(await t.call('GET', `/api/v1/tts/${plain}/callback-result`), 404, 'NO_CALLBACK_URL');
    t.core.jobs.runner.pause();
    try {
      const queued = await submit({ callback_url: receiver.url });
      expectError(
        await t.call('GET', `/api/v1/tts/${queued}/callback-result`),
        404,
        'CALLBACK_NOT_ATTEMPTED',
      );
      expectError(await t.call('POST', `/api/v1/tts/${queued}/callback-retry`), 409, 'REQUEST_NOT_FINISHED');
    } finally {
      t.core.jobs.runner.resume();
    }
  });

  it('records a connection failure (status_code null, error text), retries with backoff, and retries on demand', async () => {
    const id = await submit({ callback_url: 'http://127.0.0.1:9/hook' });
    const detail = await eventually(async () => {
      const r = await t.call('GET', `/api/v1/tts/${id}`);
      return r.json.result.callback_state === 'failed' ? r.json.result : undefined;
    });
    expect(detail.callback_attempts).toBe(3);
    const res = await t.call('GET', `/api/v1/tts/${id}/callback-result`);
    expect(res.json.result.status_code).toBeNull();
    expect(res.json.result.result).toBe('connection refused');
    const attempts = await t.call('GET', `/api/v1/tts/${id}/callback-attempts`);
    // Newest first.
    expect(attempts.json.result.items.map((a: { attempt: number }) => a.attempt)).toEqual([3, 2, 1]);
    const times = attempts.json.result.items
      .map((a: { created_at: string }) => Date.parse(a.created_at))
      .reverse();
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(25);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(55);

    const retry = await t.call('POST', `/api/v1/tts/${id}/callback-retry`);
    expect(retry.status).toBe(200);
    expect(retry.json.result.callback_state).toBe('pending');
    await eventually(async () => {
      const r = await t.call('GET', `/api/v1/tts/${id}`);
      return r.json.result.callback_state === 'failed' && r.json.result.callback_attempts === 6
        ? true
        : undefined;
    });
  });

  it('a non-2xx answer is a failed delivery, retried until the receiver accepts', async () => {
    let refusals = 0;
    receiver.respond = (call) =>
      (call.json as { voice_code?: string })?.voice_code === 'en_female_alice_default' && refusals++ < 1
        ? 500
        : 200;
    try {
      const id = await submit({ callback_url: receiver.url, voice_code: 'en_female_alice_default' });
      await receiver.waitFor(2, (c) => (c.json as { request_id?: string })?.request_id === id);
      const attempts = await eventually(async () => {
        const r = await t.call('GET', `/api/v1/tts/${id}/callback-attempts`);
        return r.json.result.items.length === 2 ? r.json.result.items : undefined;
      });
      expect(attempts.map((a: { status_code: number }) => a.status_code)).toEqual([200, 500]);
      expect(attempts[1].result).toMatch(/^HTTP 500/);
      const latest = await t.call('GET', `/api/v1/tts/${id}/callback-result`);
      expect(latest.json.result.status_code).toBe(200);
    } finally {
      receiver.respond = () => 200;
    }
  });
});

describe('credits', () => {
  it('charges characters × price / 1000 exactly, halves std-v1.5-turbo on standard voices, and refunds a FAILURE', async () => {
    const key = await t.newKey(1_000_000);
    const usage = async () => (await t.call('GET', '/api/v1/usage', { key })).json.result;
    // 200 chars × 1000 credits / 1000 = 200 credits; turbo: 100; cheap voice (100/1000): 20 credits, turbo does not apply.
    const a = await submit({}, key);
    const b = await submit({ model_id: 'std-v1.5-turbo' }, key);
    const c = await submit({ voice_code: 'en_male_echo_default', model_id: 'std-v1.5-turbo' }, key);
    const costs = await Promise.all(
      [a, b, c].map(async (id) => (await t.call('GET', `/api/v1/tts/${id}`, { key })).json.result.cost),
    );
    expect(costs).toEqual([200, 100, 20]);
    expect((await usage()).balance).toBe(1000 - 320);

    // Punctuation only: refused at submit (nothing to speak), nothing charged.
    const refused = await t.call('POST', '/api/v1/tts', {
      body: { input_text: '?!… —', voice_code: 'en_female_emily_us', callback_url: receiver.url },
      key,
    });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({ status: 0, error_code: 'NOTHING_TO_SPEAK' });
    expect((await usage()).balance).toBe(1000 - 320);
    // A render that fails after it was accepted: FAILURE, refunded, FAILURE callback.
    const restore = failRendersWith(t.core);
    let failing: string;
    try {
      failing = (
        await t.call('POST', '/api/v1/tts', {
          body: { input_text: FAILING_TEXT, voice_code: 'en_female_emily_us', callback_url: receiver.url },
          key,
        })
      ).json.result.request_id as string;
      const payload = (await callbackFor(failing)).json as Record<string, unknown>;
      expect(payload).toMatchObject({ status: 'FAILURE', audio_link: '', error_code: 'ENGINE_FAILED' });
    } finally {
      restore();
    }
    const detail = (await t.call('GET', `/api/v1/tts/${failing}`, { key })).json.result;
    expect(detail).toMatchObject({ status: 'FAILURE', audio_link: null, error_code: 'ENGINE_FAILED' });
    await eventually(async () => ((await usage()).queued === 0 ? true : undefined));
    const final = await usage();
    expect(final.balance).toBe(1000 - 320);
    expect(Value.Check(UsageSchema, final)).toBe(true);
    expect(final.ledger.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([
      ['refund', FAILING_TEXT.length],
      ['charge', -FAILING_TEXT.length],
      ['charge', -20],
      ['charge', -100],
      ['charge', -200],
      ['grant', 1000],
    ]);
  });
});

describe('history, voices, events', () => {
  it('GET /api/v1/tts pages newest first and filters by status and voice', async () => {
    const key = await t.newKey();
    const ids: string[] = [];
    for (const voice of ['en_female_emily_us', 'en_female_alice_default', 'en_female_emily_us']) {
      ids.push(await submit({ voice_code: voice, input_text: `Item for ${voice}.` }, key));
    }
    await eventually(async () => {
      const r = await t.call('GET', '/api/v1/tts?status=SUCCESS', { key });
      return r.json.result.total === 3 ? true : undefined;
    });
    const page1 = (await t.call('GET', '/api/v1/tts?page=1&page_size=2', { key })).json.result;
    expect(page1.total).toBe(3);
    expect(page1.items.map((i: { request_id: string }) => i.request_id)).toEqual([ids[2], ids[1]]);
    const page2 = (await t.call('GET', '/api/v1/tts?page=2&page_size=2', { key })).json.result;
    expect(page2.items.map((i: { request_id: string }) => i.request_id)).toEqual([ids[0]]);
    const emily = (await t.call('GET', '/api/v1/tts?voice_code=en_female_emily_us', { key })).json.result;
    expect(emily.total).toBe(2);
    for (const item of emily.items) expect(Value.Check(RequestDetailSchema, item)).toBe(true);
    expect((await t.call('GET', '/api/v1/tts?status=new', { key })).json.result.total).toBe(0);
    expectError(await t.call('GET', '/api/v1/tts?status=done', { key }), 400, 'INVALID_FIELD');
    expectError(await t.call('GET', '/api/v1/tts?page_size=500', { key }), 400, 'INVALID_FIELD');
    expectError(await t.call('GET', '/api/v1/tts?page=0', { key }), 400, 'INVALID_FIELD');
  });

  it('GET /api/v1/voices lists the 26 voices with prices and flags', async () => {
    const res = await t.call('GET', '/api/v1/voices', { key: null });
    expect(res.status).toBe(200);
    expect(res.json.result.items).toHaveLength(26);
    expect(
      res.json.result.items.find((v: { voice_code: string }) => v.voice_code === 'en_male_echo_default'),
    ).toMatchObject({
      price: 100,
      standard: false,
    });
  });

  it('streams request and delivery changes of the key as server-sent events', async () => {
    const key = await t.newKey();
    const response = await request(`${t.core.url}/api/v1/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const seen: { event: string; data: Record<string, unknown> }[] = [];
    let buffer = '';
    const reading = (async () => {
      for await (const chunk of response.body) {
        buffer += chunk.toString();
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) seen.push({ event, data: JSON.parse(data) });
        }
        if (seen.some((s) => s.event === 'delivery')) break;
      }
    })();
    // Another key's activity must not appear in this stream.
    await submit({});
    const id = await submit({ callback_url: receiver.url }, key);
    await reading;
    response.body.destroy();
    const statuses = seen.filter((s) => s.event === 'request').map((s) => s.data.status);
    expect(statuses[0]).toBe('new');
    expect(statuses).toContain('processing');
    expect(statuses).toContain('SUCCESS');
    for (const s of seen) expect(s.data.request_id).toBe(id);
    expect(seen.find((s) => s.event === 'delivery')?.data).toMatchObject({
      request_id: id,
      attempt: 1,
      status_code: 200,
      callback_state: 'delivered',
    });
  });
});

describe('OpenAI-compatible POST /v1/audio/speech', () => {
  it('returns the audio in the body for an OpenAI voice name, mp3 by default and wav on request', async () => {
    const res = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'tts-1', input: 'Hello from the local studio.', voice: 'nova' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    // Streamed as it renders: chunked, no length up front.
    expect(res.headers['transfer-encoding']).toBe('chunked');
    expect(res.body.length).toBeGreaterThan(1000);
    const wav = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'tts-1-hd', input: 'Hello again.', voice: 'alloy', response_format: 'wav', speed: 3 },
    });
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(wav.body.subarray(0, 4).toString()).toBe('RIFF');
    // Recorded in the history like any request, with the voice it maps to and the speed clamped to 2.0.
    const list = (await t.call('GET', '/api/v1/tts?page_size=1')).json.result.items[0];
    expect(list).toMatchObject({ voice_code: 'en_female_alice_default', speed_rate: 2, audio_type: 'wav' });
  });

  it('answers errors in OpenAI shape', async () => {
    const bad = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'tts-1', input: 'Hi', voice: 'nova', response_format: 'ogg' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'response_format',
      code: 'INVALID_FIELD',
    });
    const voice = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'tts-1', input: 'Hi', voice: 'bob' },
    });
    expect(voice.json.error).toMatchObject({ param: 'voice', code: 'UNKNOWN_VOICE' });
    const auth = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'tts-1', input: 'Hi', voice: 'nova' },
      key: null,
    });
    expect(auth.status).toBe(401);
    expect(auth.json.error.type).toBe('authentication_error');
  });
});
