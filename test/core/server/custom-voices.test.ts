/**
 * The custom voices' routes on a real core (engine, database, HTTP on 127.0.0.1): create, list,
 * read, replace, delete; reserved and taken codes (409), bad input (400 in the API's error
 * shape), unknown codes (404); an audition that speaks with the voice's prosody.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { medianF0, speechSpanMs, wavSamples } from '../../fixtures/audio-analysis';
import OpenAI from 'openai';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
});

const BASE = '/api/v1/custom-voices';
const input = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  name: `Giọng ${code}`,
  base: { kind: 'code', voice_code: 'en_female_emily_us' },
  ...extra,
});

describe('custom voice routes', () => {
  it('creates, lists, reads, replaces and deletes a voice', async () => {
    const created = await t.call('POST', BASE, {
      body: input('crud-voice', {
        prosody: { speed: 1.2 },
        lexicon: [{ match: 'Nguyen', kind: 'respell', replacement: 'Win' }],
        note: ' for tests ',
      }),
    });
    expect(created.status).toBe(201);
    const voice = created.json.result;
    expect(voice).toMatchObject({
      code: 'crud-voice',
      name: 'Giọng crud-voice',
      voice_code: 'en_female_emily_us',
      language: 'en',
      gender: 'female',
      prosody: { speed: 1.2, pitch: 1, volume: 100 },
      lexicon: [
        { match: 'Nguyen', kind: 'respell', replacement: 'Win', case_sensitive: false, whole_word: true },
      ],
      note: 'for tests',
    });
    const list = await t.call('GET', BASE);
    expect(list.status).toBe(200);
    expect(list.json.result.voices.map((v: { code: string }) => v.code)).toContain('crud-voice');
    expect((await t.call('GET', `${BASE}/crud-voice`)).json.result).toEqual(voice);

    const replaced = await t.call('PUT', `${BASE}/crud-voice`, {
      body: input('crud-voice', { name: 'Renamed', prosody: { pitch: 0.8 } }),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.json.result).toMatchObject({
      name: 'Renamed',
      prosody: { speed: 1, pitch: 0.8, volume: 100 },
      lexicon: [],
    });
    expect(replaced.json.result.created_at).toBe(voice.created_at);

    const other = await t.call('PUT', `${BASE}/crud-voice`, { body: input('other-code') });
    expect(other.status).toBe(400);
    expect(other.json).toMatchObject({ status: 0, error_code: 'INVALID_FIELD' });

    expect((await t.call('DELETE', `${BASE}/crud-voice`)).status).toBe(204);
    const gone = await t.call('GET', `${BASE}/crud-voice`);
    expect(gone.status).toBe(404);
    expect(gone.json).toMatchObject({ status: 0, error_code: 'CUSTOM_VOICE_NOT_FOUND' });
    expect((await t.call('DELETE', `${BASE}/crud-voice`)).status).toBe(404);
    expect((await t.call('PUT', `${BASE}/crud-voice`, { body: input('crud-voice') })).status).toBe(404);
  });

  it('refuses reserved and taken codes with 409', async () => {
    for (const code of ['en_female_emily_us', 'alloy', 'af_heart']) {
      const res = await t.call('POST', BASE, { body: input(code) });
      expect(res.status, code).toBe(409);
      expect(res.json).toMatchObject({ status: 0, error_code: 'CUSTOM_VOICE_CONFLICT' });
    }
    expect((await t.call('POST', BASE, { body: input('twice') })).status).toBe(201);
    const again = await t.call('POST', BASE, { body: input('twice') });
    expect(again.status).toBe(409);
    expect(again.json.error_code).toBe('CUSTOM_VOICE_CONFLICT');
  });

  it('refuses bad input with 400 naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [input('Bad Code'), /^code: .*lower-case letters/],
      [input('ok-code', { name: '' }), /^name: /],
      [
        input('ok-code', { base: { kind: 'code', voice_code: 'xx_nobody' } }),
        /Unknown voice_code "xx_nobody"/,
      ],
      [input('ok-code', { prosody: { speed: 3 } }), /^prosody\.speed: /],
      [
        input('ok-code', {
          base: { kind: 'kokoro_blend', parts: [{ voice: 'zz_nobody', weight: 1 }] },
          voice_code: 'en_female_emily_us',
        }),
        /"zz_nobody" is not a Kokoro v1\.0 voice/,
      ],
      [
        input('ok-code', {
          base: { kind: 'kokoro_blend', parts: [{ voice: 'af_bella', weight: 1 }] },
          voice_code: 'vi_female_thuytrang_mb',
        }),
        /speaks Vietnamese; the base speaks en/,
      ],
      [
        input('ok-code', { base: { kind: 'kokoro_blend', parts: [{ voice: 'af_bella', weight: 1 }] } }),
        /voice_code is required/,
      ],
      [
        input('ok-code', {
          base: { kind: 'pack', pack_id: 'no-such-pack' },
          voice_code: 'en_female_emily_us',
        }),
        /No voice pack "no-such-pack"/,
      ],
      [
        input('ok-code', { lexicon: [{ match: '!!', kind: 'respell', replacement: 'x' }] }),
        /^lexicon\[0\]: match must hold a letter/,
      ],
      ['not an object', /^body: /],
    ];
    for (const [body, message] of cases) {
      const res = await t.call('POST', BASE, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toMatchObject({
        status: 0,
        error_code: expect.stringMatching(/^(INVALID_FIELD|MISSING_FIELD)$/),
      });
      expect(res.json.error_message, JSON.stringify(body)).toMatch(message);
    }
    expect((await t.call('GET', `${BASE}/ok-code`)).status).toBe(404);
  });

  it('needs a key', async () => {
    expect((await t.call('GET', BASE, { key: null })).status).toBe(401);
    expect((await t.call('POST', BASE, { key: null, body: input('nokey') })).status).toBe(401);
  });

  it('auditions with the voice prosody: slower and lower than its base', async () => {
    await t.call('POST', BASE, { body: input('slow-low', { prosody: { speed: 0.6, pitch: 0.7 } }) });
    const text = 'The lighthouse keeper climbed the stairs at dusk, and the sea rolled in.';
    const custom = await t.call('POST', `${BASE}/slow-low/audition`, { body: { text } });
    const base = await t.call('POST', '/api/v1/voices/en_female_emily_us/audition', { body: { text } });
    expect(custom.status).toBe(200);
    expect(custom.headers['content-type']).toContain('audio/wav');
    const a = wavSamples(custom.body);
    const b = wavSamples(base.body);
    const ratio = speechSpanMs(a.pcm, a.sampleRate) / speechSpanMs(b.pcm, b.sampleRate);
    const f0Ratio = medianF0(a.pcm, a.sampleRate) / medianF0(b.pcm, b.sampleRate);
    console.log(`custom audition: duration ×${ratio.toFixed(2)}, F0 ×${f0Ratio.toFixed(2)}`);
    expect(ratio).toBeGreaterThan(1.3);
    expect(f0Ratio).toBeLessThan(0.85);
    expect((await t.call('POST', `${BASE}/nobody/audition`, { body: {} })).status).toBe(404);
  });

  it('speaks wherever a voice code is taken: the spec route and OpenAI, priced as its voice_code, kept as accepted', async () => {
    const text = 'The lighthouse keeper climbed the stairs at dusk, and the sea rolled in long grey lines.';
    await t.call('POST', BASE, {
      body: input('fast-high', {
        prosody: { speed: 1.5, pitch: 1.4 },
        base: { kind: 'code', voice_code: 'en_male_onyx_default' },
      }),
    });
    const direct = async (voice: string, extra: Record<string, unknown> = {}) => {
      const res = await t.call('POST', '/api/v1/tts', {
        body: { input_text: text, voice_code: voice, audio_type: 'wav', response_type: 'direct', ...extra },
      });
      expect(res.status, res.text).toBe(200);
      return res.json.result as { request_id: string; audio_link: string; voice_code: string };
    };
    const wavOf = async (link: string) => wavSamples((await fetchUrl(link, 'GET')).body);
    const custom = await direct('fast-high');
    const plain = await direct('en_male_onyx_default');
    expect(custom.voice_code).toBe('fast-high');
    const detail = (await t.call('GET', `/api/v1/tts/${custom.request_id}`)).json.result;
    const plainDetail = (await t.call('GET', `/api/v1/tts/${plain.request_id}`)).json.result;
    expect(detail).toMatchObject({
      voice_code: 'fast-high',
      spoken_voice_code: 'en_male_onyx_default',
      voice_match: 'custom',
      status: 'SUCCESS',
    });
    expect(detail.speed_rate).toBe(1);
    expect(detail.cost).toBe(plainDetail.cost);
    const a = await wavOf(custom.audio_link);
    const b = await wavOf(plain.audio_link);
    const speed = speechSpanMs(b.pcm, b.sampleRate) / speechSpanMs(a.pcm, a.sampleRate);
    const pitch = medianF0(a.pcm, a.sampleRate) / medianF0(b.pcm, b.sampleRate);
    console.log(`spec route: speed ×${speed.toFixed(2)} (asked 1.5), F0 ×${pitch.toFixed(2)} (asked 1.4)`);
    expect(speed).toBeGreaterThan(1.3);
    expect(speed).toBeLessThan(1.7);
    expect(pitch).toBeGreaterThan(1.2);

    // The request's own prosody is multiplied and clamped: 1.5 × 1.5 → 2.0.
    const clamped = await direct('fast-high', { speed_rate: 1.5 });
    const c = await wavOf(clamped.audio_link);
    const clampedSpeed = speechSpanMs(b.pcm, b.sampleRate) / speechSpanMs(c.pcm, c.sampleRate);
    console.log(`spec route, speed_rate 1.5 on a ×1.5 voice: ×${clampedSpeed.toFixed(2)} (clamped to 2.0)`);
    expect(clampedSpeed).toBeGreaterThan(1.75);

    // OpenAI's client: the same voice by its code, and listed among the voices.
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.core.url}/v1`, maxRetries: 0 });
    const speech = Buffer.from(
      await (
        await client.audio.speech.create({
          model: 'tts-1',
          voice: 'fast-high',
          input: text,
          response_format: 'wav',
        })
      ).arrayBuffer(),
    );
    const o = wavSamples(speech);
    const openAiSpeed = speechSpanMs(b.pcm, b.sampleRate) / speechSpanMs(o.pcm, o.sampleRate);
    console.log(`OpenAI route: speed ×${openAiSpeed.toFixed(2)}`);
    expect(openAiSpeed).toBeGreaterThan(1.3);
    // Listed to the key that made it (without a key, only the studio's voices are).
    const listed = await t.call('GET', '/v1/audio/voices');
    expect(listed.json.voices).toContainEqual(
      expect.objectContaining({ id: 'fast-high', voice_code: 'en_male_onyx_default', language: 'en' }),
    );

    // Accepted requests keep the definition: edit and delete change nothing already accepted.
    const queued = await t.call('POST', '/api/v1/tts', {
      body: { input_text: text, voice_code: 'fast-high', audio_type: 'wav' },
    });
    expect(queued.status).toBe(200);
    const id = queued.json.result.request_id as string;
    await t.call('PUT', `${BASE}/fast-high`, { body: input('fast-high', { prosody: { speed: 0.5 } }) });
    await t.call('DELETE', `${BASE}/fast-high`);
    let done: { status: string; audio_link: string | null } | undefined;
    for (let i = 0; i < 200; i++) {
      done = (await t.call('GET', `/api/v1/tts/${id}`)).json.result;
      if (done!.status === 'SUCCESS' || done!.status === 'FAILURE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done!.status).toBe('SUCCESS');
    const kept = await wavOf(done!.audio_link!);
    const keptSpeed = speechSpanMs(b.pcm, b.sampleRate) / speechSpanMs(kept.pcm, kept.sampleRate);
    console.log(`snapshot after edit and delete: speed ×${keptSpeed.toFixed(2)}`);
    expect(keptSpeed).toBeGreaterThan(1.3);
    // The deleted code is no voice any more.
    const after = await t.call('POST', '/api/v1/tts', {
      body: { input_text: text, voice_code: 'fast-high' },
    });
    expect(after.status).toBe(400);
    expect(after.json.error_code).toBe('UNKNOWN_VOICE');
  });
});
