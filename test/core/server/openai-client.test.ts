/**
 * OpenAI's official `openai` npm client against a running core on 127.0.0.1: speech in every
 * response_format, read whole and read as a stream, and as server-sent events; each answer
 * decoded by ffmpeg with 0 errors, at the format's sample rate, as long as the stored file;
 * the model and voice lists; errors as the client raises them.
 */

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIO_FORMATS, type AudioFormat } from '../../../electron/shared/options';
import { probeAudio, rmsDbfs } from '../../fixtures/ffprobe';
import { startTestCore, type TestCore } from './helpers';

const TEXT =
  'The lighthouse keeper climbed the stairs at dusk. The sea rolled in long grey lines. ' +
  'Far out, a ship turned towards the harbour, and the wind rose over the cliffs.';

/** What ffprobe reports for each format (eSpeak speaks at 22050 Hz; Opus always decodes at 48 kHz). */
const EXPECTED: Record<AudioFormat, { codec: string; sampleRate: number }> = {
  mp3: { codec: 'mp3', sampleRate: 22050 },
  wav: { codec: 'pcm_s16le', sampleRate: 22050 },
  opus: { codec: 'opus', sampleRate: 48000 },
  aac: { codec: 'aac', sampleRate: 22050 },
  flac: { codec: 'flac', sampleRate: 22050 },
  pcm: { codec: 'pcm_s16le', sampleRate: 24000 },
};

/** How far a format's decoded length may stray from the render's (AAC keeps its 1024 priming samples). */
const LENGTH_TOLERANCE_MS: Record<AudioFormat, number> = {
  mp3: 100,
  wav: 2,
  opus: 25,
  aac: 110,
  flac: 2,
  pcm: 5,
};

let t: TestCore;
let client: OpenAI;
let n = 0;

beforeAll(async () => {
  t = await startTestCore();
  client = new OpenAI({ apiKey: t.key, baseURL: `${t.core.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await t?.close();
});

async function storedRequest(
  id: string,
): Promise<{ duration_ms: number; audio_type: string; status: string }> {
  const res = await t.call('GET', `/api/v1/tts/${id}`);
  return (res.json as { result: { duration_ms: number; audio_type: string; status: string } }).result;
}

async function check(format: AudioFormat, bytes: Buffer, requestId: string): Promise<void> {
  const path = join(t.dir, `answer-${n++}.${format}`);
  writeFileSync(path, bytes);
  const probed = await probeAudio(path, format === 'pcm' ? { sampleRate: 24000 } : undefined);
  expect(probed.errors, `${format}: ffmpeg errors`).toBe('');
  expect(probed.codec).toBe(EXPECTED[format].codec);
  expect(probed.sampleRate).toBe(EXPECTED[format].sampleRate);
  expect(probed.channels).toBe(1);
  const stored = await storedRequest(requestId);
  expect(stored).toMatchObject({ status: 'SUCCESS', audio_type: format });
  expect(Math.abs(probed.durationMs - stored.duration_ms), `${format}: length`).toBeLessThanOrEqual(
    LENGTH_TOLERANCE_MS[format],
  );
  // Speech, not silence or noise bursts: a plausible level.
  expect(rmsDbfs(probed.samples)).toBeGreaterThan(-40);
  expect(rmsDbfs(probed.samples)).toBeLessThan(-3);
}

describe('the openai client', () => {
  for (const format of AUDIO_FORMATS) {
    it(`speaks ${format}, read whole`, async () => {
      const response = await client.audio.speech.create({
        model: 'tts-1',
        voice: 'alloy',
        input: TEXT,
        response_format: format,
      });
      const id = response.headers.get('x-request-id')!;
      await check(format, Buffer.from(await response.arrayBuffer()), id);
    });

    it(`speaks ${format}, read as a stream while it renders`, async () => {
      const response = await client.audio.speech.create({
        model: 'gpt-4o-mini-tts',
        voice: 'nova',
        input: Array(3).fill(TEXT).join(' '),
        // A speed of its own per format: the sentence cache would answer what an earlier format
        // rendered at once, before there is anything to stream.
        speed: 1 + AUDIO_FORMATS.indexOf(format) / 10,
        response_format: format,
        instructions: 'Speak calmly.',
        stream_format: 'audio',
      });
      const id = response.headers.get('x-request-id')!;
      const reader = response.body!.getReader();
      const pieces: Buffer[] = [];
      let statusAtFirstBytes: string | undefined;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (pieces.length === 0) statusAtFirstBytes = (await storedRequest(id)).status;
        pieces.push(Buffer.from(value));
      }
      // The first bytes came while the request was still rendering, in more than one piece.
      expect(statusAtFirstBytes).toBe('processing');
      expect(pieces.length).toBeGreaterThan(1);
      await check(format, Buffer.concat(pieces), id);
    });
  }

  it('streams server-sent events: speech.audio.delta with base64 audio, then speech.audio.done', async () => {
    const response = await client.audio.speech.create({
      model: 'gpt-4o-mini-tts',
      voice: 'shimmer',
      input: TEXT,
      response_format: 'mp3',
      stream_format: 'sse',
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const id = response.headers.get('x-request-id')!;
    const events = (await response.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>);
    const deltas = events.filter((e) => e.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(1);
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: 'speech.audio.done', usage: { input_tokens: TEXT.length } });
    await check('mp3', Buffer.concat(deltas.map((d) => Buffer.from(d.audio as string, 'base64'))), id);
  });

  it('accepts a voice object, our own voice codes and speed over OpenAI range', async () => {
    const slow = await client.audio.speech.create({
      model: 'tts-1-hd',
      voice: { id: 'en_male_onyx_default' },
      input: 'Slowly now.',
      response_format: 'wav',
      speed: 0.25,
    });
    const id = slow.headers.get('x-request-id')!;
    await slow.arrayBuffer();
    const res = await t.call('GET', `/api/v1/tts/${id}`);
    // OpenAI's 0.25–4.0 is clamped into the engine's 0.5–2.0.
    expect(res.json).toMatchObject({ result: { voice_code: 'en_male_onyx_default', speed_rate: 0.5 } });
  });

  it('lists models and voices as apps expect', async () => {
    const models: string[] = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(expect.arrayContaining(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'std-v1.6']));
    const one = await client.models.retrieve('tts-1');
    expect(one).toMatchObject({ id: 'tts-1', object: 'model' });
    await expect(client.models.retrieve('dall-e-3')).rejects.toBeInstanceOf(OpenAI.NotFoundError);

    const voices = await t.call('GET', '/v1/audio/voices');
    expect(voices.status).toBe(200);
    const names = (voices.json as { voices: { id: string }[] }).voices.map((voice) => voice.id);
    expect(names).toEqual(expect.arrayContaining(['alloy', 'nova', 'en_female_emily_us']));
    // Every listed name speaks.
    for (const voice of [names[0]!, names.at(-1)!]) {
      const response = await client.audio.speech.create({ model: 'tts-1', voice, input: 'Hi.' });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
  });

  it('raises the client errors OpenAI would: bad format, unknown voice, wrong key', async () => {
    const bad = client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hi.',
      response_format: 'ogg' as AudioFormat,
    });
    await expect(bad).rejects.toMatchObject({ status: 400, param: 'response_format' });
    await expect(
      client.audio.speech.create({ model: 'tts-1', voice: 'nobody', input: 'Hi.' }),
    ).rejects.toMatchObject({ status: 400, param: 'voice' });
    const stranger = new OpenAI({ apiKey: 'sk-wrong', baseURL: `${t.core.url}/v1`, maxRetries: 0 });
    await expect(
      stranger.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi.' }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
