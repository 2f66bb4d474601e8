/**
 * The cloud service's own clients, unchanged but for their base URL and key, over real HTTP on
 * 127.0.0.1 against the real server (SQLite file, real engine):
 * - they list voices with GET /api/public/v1/voices (the service's published API collection,
 *   twan507/video-pipeline `docs/vbee_api_collection.json`, "List voices": a bearer token and an
 *   `app-id` header, `result.voices[]` and `result.pagination`, `limit` and `cursor`) and page
 *   through every page;
 * - they send the service's own voice codes: a polling client (tunnaduong/audiobook-uploader
 *   `src/services/vbee.ts`: `app_id`, `response_type: "indirect"`, voice
 *   `n_hanoi_female_nguyetnga2_book_vc`, numbers as numbers; polls GET /api/v1/tts/<id> and
 *   logs `result.progress` as a percentage) and a direct one (a public Express handler
 *   `vbeeTTS`: `response_type: "direct"`, voice `hn_female_ngochuyen_full_48k-fhg`,
 *   `speed_rate: "1.0"` as a string).
 * With `--unknown-voices closest` and `--voice-alias` those codes are spoken by our voices and
 * the records keep the codes sent; by default (the spec's behaviour) they are refused.
 */

import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicVoiceListSchema, RequestDetailSchema, type PublicVoice } from '../../../electron/shared/api';
import { VOICES } from '../../../electron/shared/voices';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { eventually, startTestCore, type TestCore } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TEXT = 'Xin chào. Đây là một đoạn văn bản ngắn để thử giọng đọc.';

let closest: TestCore;
let refusing: TestCore;
let receiver: CallbackReceiver;
const logLines: string[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  closest = await startTestCore({
    voiceMapping: {
      unknownVoices: 'closest',
      aliases: { 'sg_male_trungkien_vdts_48k-fhg': 'vi_male_ductrong_mb' },
    },
    log: { info: (m) => logLines.push(m), warn: (m) => logLines.push(m) },
  });
  refusing = await startTestCore();
});
afterAll(async () => {
  await closest?.close();
  await refusing?.close();
  await receiver?.close();
});

/** The clients' requests: JSON, their key as a bearer token (and `app-id` on the voice list). */
async function call(
  core: TestCore,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${core.core.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${core.key}`,
      'app-id': '55e0053d-f86f-4c2b-b791-b1ba6d59a868',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}

describe('GET /api/public/v1/voices (the service published shape)', () => {
  it('pages through every voice, 20 a page, as a client following next_cursor does', async () => {
    const seen: PublicVoice[] = [];
    let cursor: string | null = null;
    let pages = 0;
    for (;;) {
      const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const res = await call(closest, 'GET', `/api/public/v1/voices${query}`);
      expect(res.status).toBe(200);
      expect(res.json.status).toBe(1);
      expect(Value.Check(PublicVoiceListSchema, res.json.result)).toBe(true);
      const { pagination, voices } = res.json.result;
      expect(pagination.has_prev_page).toBe(pages > 0);
      seen.push(...voices);
      pages += 1;
      if (!pagination.has_next_page) {
        expect(pagination.next_cursor).toBeNull();
        break;
      }
      expect(voices).toHaveLength(20);
      cursor = pagination.next_cursor;
    }
    expect(pages).toBe(2);
    expect(seen.map((v) => v.code)).toEqual(VOICES.map((v) => v.voice_code));
    expect(seen[0]).toEqual({
      code: 'vi_male_lehoang_mb',
      name: 'Lê Hoàng',
      gender: 'male',
      language_code: 'vi-VN',
      credit_factor: 1,
      demo: null,
    });
    expect(seen.find((v) => v.code === 'en_male_echo_default')).toMatchObject({ credit_factor: 0.1 });
    expect(seen.find((v) => v.code === 'en_female_elara_br')).toMatchObject({ language_code: 'en-GB' });
  });

  it('goes back with prev_cursor, filters like the collection, and needs no key', async () => {
    const first = (await call(closest, 'GET', '/api/public/v1/voices?limit=5')).json.result;
    const second = (
      await call(closest, 'GET', `/api/public/v1/voices?limit=5&cursor=${first.pagination.next_cursor}`)
    ).json.result;
    const back = (
      await call(closest, 'GET', `/api/public/v1/voices?limit=5&cursor=${second.pagination.prev_cursor}`)
    ).json.result;
    expect(back.voices).toEqual(first.voices);
    expect(back.pagination).toMatchObject({ has_prev_page: false, prev_cursor: null, has_next_page: true });

    // The collection's own example: ?voiceOwnership=VBEE&languageCode=vi-VN
    const vi = (await call(closest, 'GET', '/api/public/v1/voices?voiceOwnership=VBEE&languageCode=vi-VN'))
      .json.result;
    expect(vi.voices).toHaveLength(13);
    expect(vi.voices.every((v: PublicVoice) => v.language_code === 'vi-VN')).toBe(true);
    const women = (await call(closest, 'GET', '/api/public/v1/voices?language_code=vi-VN&gender=female')).json
      .result.voices;
    expect(women.map((v: PublicVoice) => v.code)).toContain('vi_female_kieunhi_mn');
    expect(women.every((v: PublicVoice) => v.gender === 'female')).toBe(true);

    const anonymous = await fetch(`${closest.core.url}/api/public/v1/voices?code=vi_female_hacuc_mb`);
    expect(anonymous.status).toBe(200);
    expect((await anonymous.json()).result.voices.map((v: PublicVoice) => v.code)).toEqual([
      'vi_female_hacuc_mb',
    ]);
  });

  it.each([
    ['cursor=WyI2NmE4OTJiNmFhNTBlYmJhMGRjMmQyMmMiXQ==', 'cursor'],
    ['cursor=not-a-cursor', 'cursor'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['gender=other', 'gender'],
    ['limit=5&limit=6', 'limit'],
  ])('refuses ?%s with INVALID_FIELD in the spec error shape', async (query, field) => {
    const res = await call(closest, 'GET', `/api/public/v1/voices?${query}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });
    expect(res.json.error_message).toMatch(new RegExp(`^${field}\\b`));
  });
});

describe('the service voice codes', () => {
  it('refuses them by default (the spec behaviour), naming the voice list', async () => {
    const res = await call(refusing, 'POST', '/api/v1/tts', {
      app_id: '55e0053d-f86f-4c2b-b791-b1ba6d59a868',
      response_type: 'direct',
      callback_url: receiver.url,
      input_text: TEXT,
      voice_code: 'hn_female_ngochuyen_full_48k-fhg',
      audio_type: 'mp3',
      bitrate: 128,
      speed_rate: '1.0',
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 0, error_code: 'UNKNOWN_VOICE' });
    expect(res.json.error_message).toContain('hn_female_ngochuyen_full_48k-fhg');
  });

  it('a direct client: hn_female_… is spoken by our northern woman; the record keeps the code sent', async () => {
    const res = await call(closest, 'POST', '/api/v1/tts', {
      app_id: '3907419d-0d78-46d8-857c-5a6fe6b17b89',
      response_type: 'direct',
      // The client's default is its own site's hook: here a receiver on 127.0.0.1.
      callback_url: receiver.url,
      input_text: TEXT,
      voice_code: 'hn_female_ngochuyen_full_48k-fhg',
      audio_type: 'mp3',
      bitrate: 128,
      speed_rate: '1.0',
    });
    expect(res.status).toBe(200);
    expect(res.json.status).toBe(1);
    const result = res.json.result;
    expect(result).toMatchObject({
      status: 'SUCCESS',
      progress: 100,
      voice_code: 'hn_female_ngochuyen_full_48k-fhg',
      spoken_voice_code: 'vi_female_thuytrang_mb',
      voice_match: 'closest',
      speed_rate: 1,
    });
    // Priced as the voice that speaks it: 1000 credits per 1000 characters
    expect(result.cost).toBe(result.characters);
    expect(result.engine).toMatch(/^(espeak|piper:|kokoro:)/);
    const audio = await fetch(result.audio_link);
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // The callback carries the code the client sent, as the service's does.
    const callback = await eventually(() =>
      receiver.received.find((c) => (c.json as Json)?.request_id === result.request_id),
    );
    expect((callback.json as Json).voice_code).toBe('hn_female_ngochuyen_full_48k-fhg');
    expect(logLines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `request ${result.request_id}: voice_code "hn_female_ngochuyen_full_48k-fhg" was spoken by vi_female_thuytrang_mb \\(closest\\), engine ${result.engine}`,
        ),
      ),
    );
  });

  it('a polling client: n_hanoi_female_… is submitted, polled with progress 0–100, and listed by its code', async () => {
    // The event stream reports the same percentage.
    const events = new AbortController();
    const stream = await fetch(`${closest.core.url}/api/v1/events`, {
      headers: { authorization: `Bearer ${closest.key}` },
      signal: events.signal,
    });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let streamed = '';
    const streamedProgress = (async () => {
      const seen: { request_id: string; status: string; progress: number }[] = [];
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return seen;
        streamed += value;
        for (const m of streamed.matchAll(/^event: request\ndata: (.*)$/gm)) seen.push(JSON.parse(m[1]!));
        streamed = streamed.slice(streamed.lastIndexOf('\n\n') + 2);
        if (seen.some((e) => e.status === 'SUCCESS' || e.status === 'FAILURE')) return seen;
      }
    })();
    const submitted = await call(closest, 'POST', '/api/v1/tts', {
      app_id: '55e0053d-f86f-4c2b-b791-b1ba6d59a868',
      response_type: 'indirect',
      callback_url: receiver.url,
      input_text: TEXT.repeat(6),
      voice_code: 'n_hanoi_female_nguyetnga2_book_vc',
      audio_type: 'mp3',
      bitrate: 128,
      speed_rate: 1.0,
    });
    expect(submitted.status).toBe(200);
    expect(submitted.json.result).toMatchObject({
      status: 'new',
      voice_code: 'n_hanoi_female_nguyetnga2_book_vc',
    });
    const id = submitted.json.result.request_id as string;
    const progress: number[] = [];
    let result: Json;
    const started = Date.now();
    for (;;) {
      const polled = await call(closest, 'GET', `/api/v1/tts/${id}`);
      expect(polled.json.status).toBe(1);
      result = polled.json.result;
      expect(Value.Check(RequestDetailSchema, result)).toBe(true);
      progress.push(result.progress);
      if (result.status === 'SUCCESS' || result.status === 'FAILURE') break;
      expect(result.progress).toBeLessThan(100);
      if (Date.now() - started > 30_000) throw new Error('not finished in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(result).toMatchObject({
      status: 'SUCCESS',
      progress: 100,
      voice_code: 'n_hanoi_female_nguyetnga2_book_vc',
      spoken_voice_code: 'vi_female_thuytrang_mb',
      voice_match: 'closest',
    });
    expect(progress.every((p, i) => Number.isInteger(p) && (i === 0 || p >= progress[i - 1]!))).toBe(true);
    const seen = (await streamedProgress).filter((e) => e.request_id === id);
    events.abort();
    expect(seen.at(-1)).toMatchObject({ status: 'SUCCESS', progress: 100 });
    expect(seen.every((e) => Number.isInteger(e.progress) && e.progress >= 0 && e.progress <= 100)).toBe(
      true,
    );
    const listed = (await call(closest, 'GET', '/api/v1/tts?voice_code=n_hanoi_female_nguyetnga2_book_vc'))
      .json.result;
    expect(listed.items.map((item: Json) => item.request_id)).toEqual([id]);
  });

  it('an alias wins over closest; a code with no clue is still refused', async () => {
    const aliased = await call(closest, 'POST', '/api/v1/tts', {
      response_type: 'direct',
      input_text: TEXT,
      voice_code: 'sg_male_trungkien_vdts_48k-fhg',
      bitrate: '128',
      speed_rate: '1.0',
    });
    expect(aliased.status).toBe(200);
    expect(aliased.json.result).toMatchObject({
      status: 'SUCCESS',
      voice_code: 'sg_male_trungkien_vdts_48k-fhg',
      spoken_voice_code: 'vi_male_ductrong_mb',
      voice_match: 'alias',
    });
    const southern = await call(closest, 'POST', '/api/v1/tts', {
      input_text: TEXT,
      voice_code: 'sg_female_lantrinh_vdts_48k-fhg',
    });
    expect(southern.status).toBe(200);
    const detail = (await call(closest, 'GET', `/api/v1/tts/${southern.json.result.request_id}`)).json.result;
    expect(detail).toMatchObject({ spoken_voice_code: 'vi_female_kieunhi_mn', voice_match: 'closest' });

    const unknown = await call(closest, 'POST', '/api/v1/tts', {
      input_text: TEXT,
      voice_code: 'my_custom_voice_1',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toMatchObject({ status: 0, error_code: 'UNKNOWN_VOICE' });
    expect(unknown.json.error_message).toMatch(/Its words name no language we speak/);
  });

  it("OpenAI's route takes the same aliases and closest voices", async () => {
    const res = await fetch(`${closest.core.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${closest.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'tts-1',
        input: TEXT,
        voice: 'sg_male_trungkien_vdts_48k-fhg',
        response_format: 'wav',
      }),
    });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const list = (await call(closest, 'GET', '/api/v1/tts?voice_code=sg_male_trungkien_vdts_48k-fhg')).json
      .result.items;
    expect(list.map((item: Json) => [item.spoken_voice_code, item.voice_match])).toContainEqual([
      'vi_male_ductrong_mb',
      'alias',
    ]);
    const refused = await fetch(`${closest.core.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${closest.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', input: TEXT, voice: 'no_clue_here' }),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ param: 'voice' });
  });
});
