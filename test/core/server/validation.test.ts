/**
 * Every input rule of POST /api/v1/tts and every auth/limit/security error, through the app
 * (`app.inject`, no engine: accepted requests stay queued).
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { RequestRecordSchema } from '../../../electron/shared/api';
import { hashKey, revokeApiKey } from '../../../electron/core/jobs/keys';
import { systemClock } from '../../../electron/core/platform/clock';
import type { HttpResult } from './http';
import { buildTestApp, type TestApp } from './inject';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ maxTextChars: 200, maxQueuedPerKey: 3 });
});
afterAll(async () => {
  await t.close();
});

const valid = { input_text: 'Hello world.', voice_code: 'en_female_emily_us' };

function expectError(res: HttpResult, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('text/json; charset=utf-8');
  // The spec's three fields, and the particulars (error_details, an extension: docs/API.md).
  const { error_details: _details, ...spec } = res.json as Record<string, unknown>;
  expect(Object.keys(spec).sort()).toEqual(['error_code', 'error_message', 'status']);
  expect(res.json.status).toBe(0);
  expect(res.json.error_code).toBe(code);
  expect(typeof res.json.error_message).toBe('string');
  expect(res.text).not.toMatch(/\bat .*\.ts:\d+/); // no stack traces
}

describe('POST /api/v1/tts: accepted requests', () => {
  it('returns the spec record with Content-Type text/json and defaults applied', async () => {
    const res = await t.call('POST', '/api/v1/tts', { body: valid });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/json; charset=utf-8');
    expect(res.json.status).toBe(1);
    expect(Object.keys(res.json).sort()).toEqual(['result', 'status']);
    const r = res.json.result;
    expect(Object.keys(r).sort()).toEqual(
      [
        'audio_type',
        'bitrate',
        'characters',
        'create_at',
        'pitch_rate',
        'request_id',
        'speed_rate',
        'status',
        'voice_code',
      ].sort(),
    );
    expect(r).toMatchObject({
      characters: 12,
      voice_code: 'en_female_emily_us',
      audio_type: 'mp3',
      speed_rate: 1,
      pitch_rate: 1,
      bitrate: 128,
      status: 'new',
    });
    expect(r.request_id).toMatch(/^[0-9a-f]{32}$/);
    expect(r.create_at).toBe(new Date().toISOString().slice(0, 10));
    expect(Value.Check(RequestRecordSchema, r)).toBe(true);
  });

  it('counts characters in code points of the cleaned text (NFC, control characters dropped)', async () => {
    // "e" + combining acute (2 code points) becomes "é" (1) under NFC; the emoji is 1 code point (2 UTF-16 units); NUL is dropped.
    const res = await t.call('POST', '/api/v1/tts', {
      body: { ...valid, input_text: 'Cafe\u0301 \u{1F600}\u0000!' },
    });
    expect(res.json.result.characters).toBe(7);
  });

  it('accepts every boundary value and echoes the options', async () => {
    const cases = [
      { speed_rate: 0.5, pitch_rate: 2.0, volume: 50, bitrate: 8, model_id: 'std-v1' },
      { speed_rate: 2, pitch_rate: 0.5, volume: 150, bitrate: 160, model_id: 'std-v1.5-turbo' },
      { speed_rate: 1.7, pitch_rate: 1.1, volume: 100, bitrate: 16, model_id: 'std-v1.5', audio_type: 'wav' },
      {
        bitrate: 32,
        model_id: 'std-v1.6',
        response_type: 'indirect',
        generate_srt: false,
        callback_url: 'https://example.com/hook?x=1',
      },
      { bitrate: 64, callback_url: 'http://127.0.0.1:9/' },
    ];
    for (const extra of cases) {
      const res = await t.call('POST', '/api/v1/tts', {
        body: { ...valid, ...extra },
        key: await t.newKey(),
      });
      expect(res.status, `${JSON.stringify(extra)} → ${res.text}`).toBe(200);
      for (const field of ['speed_rate', 'pitch_rate', 'bitrate', 'audio_type'] as const) {
        if (field in extra) expect(res.json.result[field]).toBe((extra as Record<string, unknown>)[field]);
      }
    }
  });

  it('carries srt_link in the record when generate_srt is true', async () => {
    const res = await t.call('POST', '/api/v1/tts', {
      body: { ...valid, generate_srt: true },
      key: await t.newKey(),
    });
    expect(res.json.result.srt_link).toMatch(
      new RegExp(`^${t.url}/files/${res.json.result.request_id}/[A-Za-z0-9_-]{32}/subtitles\\.srt$`),
    );
  });

  it('accepts a text/json request body too', async () => {
    const res = await t.call('POST', '/api/v1/tts', {
      raw: JSON.stringify(valid),
      headers: { 'content-type': 'text/json' },
      key: await t.newKey(),
    });
    expect(res.status).toBe(200);
  });
});

describe('POST /api/v1/tts: each rule and its error', () => {
  const invalid: [string, Record<string, unknown>, string][] = [
    ['input_text missing', { voice_code: 'en_female_emily_us' }, 'MISSING_FIELD'],
    ['voice_code missing', { input_text: 'Hi' }, 'MISSING_FIELD'],
    ['input_text not a string', { ...valid, input_text: 42 }, 'INVALID_FIELD'],
    ['voice_code not a string', { ...valid, voice_code: ['en_female_emily_us'] }, 'INVALID_FIELD'],
    ['unknown voice', { ...valid, voice_code: 'en_male_nobody' }, 'UNKNOWN_VOICE'],
    ['model_id not allowed', { ...valid, model_id: 'std-v2' }, 'INVALID_FIELD'],
    ['audio_type ogg', { ...valid, audio_type: 'ogg' }, 'INVALID_FIELD'],
    ['audio_type upper case', { ...valid, audio_type: 'MP3' }, 'INVALID_FIELD'],
    ['bitrate not in set', { ...valid, bitrate: 96 }, 'INVALID_FIELD'],
    ['bitrate as a string that is not a plain decimal', { ...valid, bitrate: '0x80' }, 'INVALID_FIELD'],
    ['speed_rate below range', { ...valid, speed_rate: 0.4 }, 'INVALID_FIELD'],
    ['speed_rate above range', { ...valid, speed_rate: 2.1 }, 'INVALID_FIELD'],
    ['speed_rate two decimals', { ...valid, speed_rate: 1.25 }, 'INVALID_FIELD'],
    ['speed_rate as a string with two decimals', { ...valid, speed_rate: '1.25' }, 'INVALID_FIELD'],
    ['pitch_rate below range', { ...valid, pitch_rate: 0.45 }, 'INVALID_FIELD'],
    ['pitch_rate two decimals', { ...valid, pitch_rate: 1.05 }, 'INVALID_FIELD'],
    ['pitch_rate null', { ...valid, pitch_rate: null }, 'INVALID_FIELD'],
    ['volume below range', { ...valid, volume: 49 }, 'INVALID_FIELD'],
    ['volume above range', { ...valid, volume: 151 }, 'INVALID_FIELD'],
    ['volume not integer', { ...valid, volume: 100.5 }, 'INVALID_FIELD'],
    ['volume as a string with a space', { ...valid, volume: ' 100' }, 'INVALID_FIELD'],
    ['generate_srt as another string', { ...valid, generate_srt: 'yes' }, 'INVALID_FIELD'],
    ['generate_srt as number', { ...valid, generate_srt: 1 }, 'INVALID_FIELD'],
    ['response_type other than indirect or direct', { ...valid, response_type: 'sync' }, 'INVALID_FIELD'],
    ['callback_url ftp', { ...valid, callback_url: 'ftp://example.com/x' }, 'INVALID_FIELD'],
    ['callback_url not a URL', { ...valid, callback_url: 'example.com/hook' }, 'INVALID_FIELD'],
    ['callback_url javascript', { ...valid, callback_url: 'javascript:alert(1)' }, 'INVALID_FIELD'],
    ['callback_url with U+0000', { ...valid, callback_url: 'http://127.0.0.1:9/\u0000x' }, 'INVALID_FIELD'],
    ['callback_url with a newline', { ...valid, callback_url: 'http://127.0.0.1:9/\nx' }, 'INVALID_FIELD'],
    ['callback_url not a string', { ...valid, callback_url: 5 }, 'INVALID_FIELD'],
    ['empty text', { ...valid, input_text: '' }, 'NOTHING_TO_SPEAK'],
    ['only whitespace and control characters', { ...valid, input_text: ' \n\t\u0001 ' }, 'NOTHING_TO_SPEAK'],
  ];
  for (const [name, body, code] of invalid) {
    it(`${name} → 400 ${code}`, async () => {
      const res = await t.call('POST', '/api/v1/tts', { body });
      expectError(res, 400, code);
      if (code === 'INVALID_FIELD') {
        const field = Object.keys(body).find((k) => (valid as Record<string, unknown>)[k] !== body[k])!;
        expect(res.json.error_message).toContain(field);
      }
    });
  }

  it('invalid JSON → 400 INVALID_JSON', async () => {
    expectError(
      await t.call('POST', '/api/v1/tts', {
        raw: '{"input_text": ',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'INVALID_JSON',
    );
  });
  it('a JSON array body → 400 INVALID_JSON', async () => {
    expectError(await t.call('POST', '/api/v1/tts', { body: [valid] }), 400, 'INVALID_JSON');
  });
  it('an empty body → 400 INVALID_JSON', async () => {
    expectError(
      await t.call('POST', '/api/v1/tts', { raw: '', headers: { 'content-type': 'application/json' } }),
      400,
      'INVALID_JSON',
    );
  });
  it('a text/plain body → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    expectError(
      await t.call('POST', '/api/v1/tts', {
        raw: JSON.stringify(valid),
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });
  it('text longer than the limit → 413 TEXT_TOO_LONG', async () => {
    expectError(
      await t.call('POST', '/api/v1/tts', { body: { ...valid, input_text: 'a'.repeat(201) } }),
      413,
      'TEXT_TOO_LONG',
    );
    const ok = await t.call('POST', '/api/v1/tts', {
      body: { ...valid, input_text: 'a'.repeat(200) },
      key: await t.newKey(),
    });
    expect(ok.status).toBe(200);
  });
  it('a body over 1 MiB → 413 BODY_TOO_LARGE', async () => {
    expectError(
      await t.call('POST', '/api/v1/tts', { body: { ...valid, input_text: 'a'.repeat(1024 * 1024) } }),
      413,
      'BODY_TOO_LARGE',
    );
  });
});

describe('auth, credits and quotas', () => {
  it('no Authorization → 401 UNAUTHORIZED', async () => {
    expectError(await t.call('POST', '/api/v1/tts', { body: valid, key: null }), 401, 'UNAUTHORIZED');
  });
  it('unknown key, or not a Bearer header → 401 UNAUTHORIZED', async () => {
    expectError(
      await t.call('POST', '/api/v1/tts', { body: valid, key: 'nsk_not-a-real-key' }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await t.call('POST', '/api/v1/tts', {
        body: valid,
        key: null,
        headers: { authorization: `Basic ${t.key}` },
      }),
      401,
      'UNAUTHORIZED',
    );
  });
  it('auth is checked before the body: an unauthenticated bad body is a 401', async () => {
    expectError(
      await t.call('POST', '/api/v1/tts', { body: { nope: 1 }, key: 'wrong-key-123' }),
      401,
      'UNAUTHORIZED',
    );
  });
  it('a revoked key stops working at once', async () => {
    const key = await t.newKey();
    expect((await t.call('POST', '/api/v1/tts', { body: valid, key })).status).toBe(200);
    const row = (await t.store.keys.findByHash(hashKey(key)))!;
    await revokeApiKey(t.store, systemClock, row.id);
    expectError(await t.call('POST', '/api/v1/tts', { body: valid, key }), 401, 'UNAUTHORIZED');
    expectError(await t.call('GET', '/api/v1/usage', { key }), 401, 'UNAUTHORIZED');
  });
  it('not enough credits → 402 INSUFFICIENT_CREDITS, nothing charged', async () => {
    // 12 characters on a 1000-credit voice cost 12 credits = 12 000 milli; the key has 11 999.
    const key = await t.newKey(11_999);
    expectError(await t.call('POST', '/api/v1/tts', { body: valid, key }), 402, 'INSUFFICIENT_CREDITS');
    const usage = await t.call('GET', '/api/v1/usage', { key });
    expect(usage.json.result.balance_milli).toBe(11_999);
    // The cheap voice costs 1.2 credits: that goes through.
    const cheap = await t.call('POST', '/api/v1/tts', {
      body: { ...valid, voice_code: 'en_male_echo_default' },
      key,
    });
    expect(cheap.status).toBe(200);
  });
  it('more queued requests than the per-key limit → 429 TOO_MANY_REQUESTS', async () => {
    const key = await t.newKey();
    // With the queue paused, requests stay queued: the 4th is over the limit of 3.
    t.jobs.runner.pause();
    try {
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await t.call('POST', '/api/v1/tts', { body: valid, key }));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
      expectError(results[3]!, 429, 'TOO_MANY_REQUESTS');
      // It says when to come back.
      expect(results[3]!.headers['retry-after']).toBe('1');
      // Another key is not affected.
      expect((await t.call('POST', '/api/v1/tts', { body: valid, key: await t.newKey() })).status).toBe(200);
    } finally {
      t.jobs.runner.resume();
    }
  });
});

describe('lookups and security', () => {
  it('unknown route → 404 NOT_FOUND; unknown or foreign request → 404 REQUEST_NOT_FOUND', async () => {
    expectError(await t.call('GET', '/api/v1/nothing'), 404, 'NOT_FOUND');
    expectError(await t.call('GET', `/api/v1/tts/${'0'.repeat(32)}`), 404, 'REQUEST_NOT_FOUND');
    expectError(await t.call('GET', '/api/v1/tts/not-an-id/callback-result'), 404, 'REQUEST_NOT_FOUND');
    const mine = await t.call('POST', '/api/v1/tts', { body: valid, key: await t.newKey() });
    const id = mine.json.result.request_id;
    const other = await t.newKey();
    expectError(await t.call('GET', `/api/v1/tts/${id}`, { key: other }), 404, 'REQUEST_NOT_FOUND');
    expectError(
      await t.call('GET', `/api/v1/tts/${id}/callback-result`, { key: other }),
      404,
      'REQUEST_NOT_FOUND',
    );
    expectError(
      await t.call('POST', `/api/v1/tts/${id}/callback-retry`, { key: other }),
      404,
      'REQUEST_NOT_FOUND',
    );
  });
  it('a Host header that is not this server → 403 FORBIDDEN_HOST (DNS rebinding)', async () => {
    expectError(
      await t.call('GET', '/api/v1/voices', { headers: { host: `evil.example:${t.port}` } }),
      403,
      'FORBIDDEN_HOST',
    );
    expectError(
      await t.call('GET', '/api/v1/voices', { headers: { host: `127.0.0.1:${t.port + 1}` } }),
      403,
      'FORBIDDEN_HOST',
    );
    expect((await t.call('GET', '/api/v1/voices', { headers: { host: `localhost:${t.port}` } })).status).toBe(
      200,
    );
  });
  it('another origin → 403 FORBIDDEN_ORIGIN, and no CORS headers are ever sent', async () => {
    const res = await t.call('POST', '/api/v1/tts', {
      body: valid,
      headers: { origin: 'https://evil.example' },
    });
    expectError(res, 403, 'FORBIDDEN_ORIGIN');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await t.call('OPTIONS', '/api/v1/tts', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.status).toBe(403);
    const same = await t.call('GET', '/api/v1/voices', { headers: { origin: t.url } });
    expect(same.status).toBe(200);
    expect(same.headers['access-control-allow-origin']).toBeUndefined();
  });
});
