/**
 * Clients written for Kokoro-FastAPI (remsky/Kokoro-FastAPI) against a running core on
 * 127.0.0.1, each with the request its README, examples or users send:
 * - README "OpenAI-Compatible Speech Endpoint": the `openai` client with `model: "kokoro"` and
 *   `voice: "af_bella+af_sky"`; README "Voice Combination": `af_bella(2)+af_sky(1)` by HTTP;
 * - README "Timestamps (word level)" and examples/captioned_speech_example.py: POST
 *   /dev/captioned_speech with `stream: false`, then `stream: true` read line by line;
 * - web/src/services/AudioService.js: `return_download_link: true`, the `x-download-path`
 *   header, then `GET /v1${path}` with no key; its streamAudio() body as it is (no `model`,
 *   `download_format`, `return_timing`), and the path also fetched from the server's root;
 * - README "Streaming Support" (PCM, no `model`) and "Voice Combination" (no `model`), and a
 *   body with neither `model` nor `voice` (the schema's defaults: `kokoro`, `af_heart`);
 * - Open WebUI (backend/open_webui/routers/audio.py) and SillyTavern
 *   (src/endpoints/openai.js, custom/generate-voice) set up for Kokoro: `model: "kokoro"` and
 *   a Kokoro voice name on /v1/audio/speech.
 * (Read in remsky/Kokoro-FastAPI @26eec068: README.md, web/src/services/AudioService.js,
 * api/src/structures/schemas.py `OpenAISpeechRequest`.)
 * Without a Kokoro pack our voice of the name's language and gender speaks (and the
 * X-Narration-Voice header says so); with a synthetic Kokoro pack installed (a real ONNX model
 * whose tone rises 100 Hz per unit of the style vector's first value) the mix's style vector is
 * measured in the audio: the weighted mean of its parts'.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blendKokoroStyles } from '../../../electron/core/engine/onnx/neural-backends';
import { readKokoroStyles } from '../../../electron/core/engine/onnx/neural-models';
import { KOKORO_V1_VOICES, kokoroFallbackVoice, parseKokoroVoice } from '../../../electron/core/voices';
import { findVoice } from '../../../electron/shared/voices';
import { wavSamples } from '../../fixtures/audio-analysis';
import { probeAudio, rmsDbfs } from '../../fixtures/ffprobe';
import { buildKokoroModel } from '../../fixtures/onnx/build-models';
import { kokoroVocab, KOKORO_STYLE_FLOATS, KOKORO_VOICE_ROWS } from '../../fixtures/onnx/kokoro-data';
import { framePeaksHz } from '../../fixtures/onnx/tone';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

const TEXT = 'The lighthouse keeper climbed the stairs at dusk, and the sea rolled in.';

/** The words of `text` as a caption shows them: letters and digits only, lower case. */
const bare = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
const wordsOf = (text: string) => text.split(/\s+/).map(bare).filter(Boolean);

interface Timestamp {
  word: string;
  start_time: number;
  end_time: number;
}

function checkTimestamps(timestamps: Timestamp[], text: string, durationS: number): void {
  expect(timestamps.map((t) => bare(t.word)).filter(Boolean)).toEqual(wordsOf(text));
  let previous = 0;
  for (const t of timestamps) {
    expect(t.start_time).toBeGreaterThanOrEqual(previous);
    expect(t.end_time).toBeGreaterThan(t.start_time);
    previous = t.start_time;
  }
  expect(timestamps.at(-1)!.end_time).toBeLessThanOrEqual(durationS + 0.05);
}

async function decoded(t: TestCore, bytes: Buffer, format: string, name: string) {
  const path = join(t.dir, `${name}.${format}`);
  writeFileSync(path, bytes);
  const probed = await probeAudio(path);
  expect(probed.errors).toBe('');
  return probed;
}

describe('Kokoro-FastAPI names', () => {
  it('knows the 54 voices of Kokoro v1.0 and parses mixes as Kokoro-FastAPI does', () => {
    expect(KOKORO_V1_VOICES).toHaveLength(54);
    expect(new Set(KOKORO_V1_VOICES).size).toBe(54);
    expect(parseKokoroVoice('af_bella+af_sky')).toEqual({
      parts: [
        { name: 'af_bella', weight: 0.5 },
        { name: 'af_sky', weight: 0.5 },
      ],
      text: 'af_bella+af_sky',
    });
    const weighted = parseKokoroVoice('af_bella(2) + af_sky(1)')!;
    expect(weighted.text).toBe('af_bella(2)+af_sky(1)');
    expect(weighted.parts.map((p) => p.weight)).toEqual([2 / 3, 1 / 3]);
    // `-` subtracts; weights are divided by their sum all the same.
    expect(parseKokoroVoice('af_bella(3)-af_sky(1)')!.parts.map((p) => p.weight)).toEqual([0.75, -0.25]);
    expect(parseKokoroVoice('en_female_emily_us')).toBeUndefined();
    expect(parseKokoroVoice('alloy')).toBeUndefined();
    expect(() => parseKokoroVoice('af_bella+af_nobody')).toThrow(/not a Kokoro v1.0 voice/);
    expect(() => parseKokoroVoice('af_bella(0)+af_sky')).toThrow(/positive weight/);
    expect(() => parseKokoroVoice('af_bella++af_sky')).toThrow(/not a voice/);
  });

  it('gives each name our voice of its language and gender when no Kokoro pack holds it', () => {
    const expected: Record<string, [string, string]> = {
      a: ['en', 'American'],
      b: ['en', 'British'],
      e: ['es', 'standard'],
      f: ['fr', 'standard'],
      j: ['ja', 'standard'],
      z: ['zh', 'Mandarin'],
      // No voice of ours speaks Hindi, Italian or Portuguese: English does.
      h: ['en', 'American'],
      i: ['en', 'American'],
      p: ['en', 'American'],
    };
    for (const name of KOKORO_V1_VOICES) {
      const voice = kokoroFallbackVoice(name);
      const [language, accent] = expected[name[0]!]!;
      expect(voice.language, name).toBe(language);
      const gender = name[1] === 'f' ? 'female' : 'male';
      // Our catalogue has male voices in English only (and no British male: an American one).
      if (language === 'en') {
        expect(voice.gender, name).toBe(gender);
        if (gender === 'female') expect(voice.accent, name).toBe(accent);
      }
    }
  });

  it('blends style files row by row with the weights', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kokoro-blend-'));
    try {
      const files = [0, 1, 2].map((seed) => {
        const data = Float32Array.from({ length: KOKORO_VOICE_ROWS * KOKORO_STYLE_FLOATS }, (_, i) =>
          Math.sin(i * (seed + 1) * 0.001),
        );
        const path = join(dir, `v${seed}.bin`);
        writeFileSync(path, new Uint8Array(data.buffer));
        return path;
      });
      const styles = await Promise.all(files.map((f) => readKokoroStyles(f)));
      const weights = parseKokoroVoice('af_bella(2)+af_sky(1)-am_adam(1)')!.parts.map((p) => p.weight);
      expect(weights).toEqual([0.5, 0.25, -0.25]);
      const blend = blendKokoroStyles(styles, weights);
      expect(blend.length).toBe(KOKORO_VOICE_ROWS * KOKORO_STYLE_FLOATS);
      for (const i of [0, 255, 256, 70_000, blend.length - 1]) {
        const mean = 0.5 * styles[0]![i]! + 0.25 * styles[1]![i]! - 0.25 * styles[2]![i]!;
        expect(blend[i]).toBeCloseTo(mean, 6);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a Kokoro-FastAPI client, no Kokoro pack installed', () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startTestCore();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the kokoro model and the Kokoro voices', async () => {
    const models = await t.call('GET', '/v1/models');
    expect((models.json as { data: { id: string }[] }).data.map((m) => m.id)).toContain('kokoro');
    const audioModels = await t.call('GET', '/v1/audio/models');
    expect((audioModels.json as { models: { id: string }[] }).models.map((m) => m.id)).toContain('kokoro');
    const voices = (await t.call('GET', '/v1/audio/voices')).json as { voices: { id: string }[] };
    const ids = voices.voices.map((v) => v.id);
    for (const name of KOKORO_V1_VOICES) expect(ids).toContain(name);
  });

  it("speaks Open WebUI's Kokoro request with our voice of the language and gender, and says so", async () => {
    // Open WebUI's audio router (backend/open_webui/routers/audio.py, speech()): the page's
    // {input, voice} with `model` from its TTS settings, posted as JSON with a bearer key.
    const res = await t.call('POST', '/v1/audio/speech', {
      body: { input: TEXT, voice: 'af_heart', model: 'kokoro' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    expect(res.headers['x-narration-voice']).toBe(
      'espeak; in-place-of=af_heart; voice-code=en_female_emily_us',
    );
    const probed = await decoded(t, res.body, 'mp3', 'webui');
    expect(probed.durationMs).toBeGreaterThan(2000);
    expect(rmsDbfs(probed.samples)).toBeGreaterThan(-40);
    const detail = await t.call('GET', `/api/v1/tts/${res.headers['x-request-id'] as string}`);
    expect((detail.json as { result: object }).result).toMatchObject({
      status: 'SUCCESS',
      voice_code: 'en_female_emily_us',
      kokoro_voice: 'af_heart',
      engine: 'espeak',
    });
  });

  it('refuses a mix naming a voice Kokoro does not have, in OpenAI error shape', async () => {
    const res = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'kokoro', input: TEXT, voice: 'af_bella+af_nobody' },
    });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ error: { type: 'invalid_request_error', param: 'voice' } });
  });

  it('answers /dev/captioned_speech whole (stream: false) with word timestamps in seconds', async () => {
    // README "Timestamps (word level)" and examples/captioned_speech_example.py: this body, then
    // json.loads(response.content); base64-decode "audio"; read "timestamps".
    const res = await t.call('POST', '/dev/captioned_speech', {
      body: {
        model: 'kokoro',
        input: TEXT,
        voice: 'af_bella',
        speed: 1.0,
        response_format: 'mp3',
        stream: false,
      },
    });
    expect(res.status).toBe(200);
    const answer = res.json as { audio: string; audio_format: string; timestamps: Timestamp[] };
    expect(answer.audio_format).toBe('audio/mpeg');
    const probed = await decoded(t, Buffer.from(answer.audio, 'base64'), 'mp3', 'captioned');
    expect(probed.durationMs).toBeGreaterThan(2000);
    expect(rmsDbfs(probed.samples)).toBeGreaterThan(-40);
    checkTimestamps(answer.timestamps, TEXT, probed.durationMs / 1000);
  });

  it('streams /dev/captioned_speech as lines of JSON (stream: true)', async () => {
    // README: requests.post(..., json={... "stream": True}, stream=True); for each non-empty
    // response.iter_lines(): json.loads; append base64-decoded "audio"; read "timestamps".
    const res = await t.call('POST', '/dev/captioned_speech', {
      body: {
        model: 'kokoro',
        input: TEXT,
        voice: 'af_bella',
        speed: 1.0,
        response_format: 'wav',
        stream: true,
      },
    });
    expect(res.status).toBe(200);
    const lines = res.body
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(1);
    const chunks = lines.map((line) => JSON.parse(line) as { audio: string; timestamps: Timestamp[] });
    const audio = Buffer.concat(chunks.map((c) => Buffer.from(c.audio, 'base64')));
    const { pcm, sampleRate } = wavSamples(audio);
    expect(pcm.length / sampleRate).toBeGreaterThan(2);
    expect(rmsDbfs(pcm)).toBeGreaterThan(-40);
    checkTimestamps(
      chunks.flatMap((c) => c.timestamps),
      TEXT,
      pcm.length / sampleRate,
    );
  });

  it('gives a download path for return_download_link, served under /v1 without a key', async () => {
    // web/src/services/AudioService.js: response.headers.get('x-download-path'), later fetched
    // as `/v1${downloadPath}` with no Authorization header.
    const res = await t.call('POST', '/v1/audio/speech', {
      body: {
        model: 'kokoro',
        input: TEXT,
        voice: 'bf_emma',
        response_format: 'mp3',
        download_format: 'mp3',
        speed: 1,
        stream: true,
        return_download_link: true,
      },
    });
    expect(res.status).toBe(200);
    const path = res.headers['x-download-path'] as string;
    expect(path).toMatch(/^\/download\/[0-9a-f]{32}-[\w-]+\.mp3$/);
    const file = await fetchUrl(`${t.core.url}/v1${path}`, 'GET');
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('audio/mpeg');
    expect(file.body.equals(res.body)).toBe(true);
    // A wrong token, a traversal, another extension: not found, in OpenAI's error shape.
    for (const bad of [
      path.replace(/-[\w-]+\./, '-wrongtoken.'),
      path.replace(/\.mp3$/, '.wav'),
      '/download/..%2F..%2Fsettings.json',
      '/download/%2E%2E',
    ]) {
      const answer = await fetchUrl(`${t.core.url}/v1${bad}`, 'GET');
      expect(answer.status, bad).toBe(404);
      expect(answer.json, bad).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  // Kokoro-FastAPI's defaults and its download path from the root.
  it("takes the web player's request (no model) and serves its X-Download-Path under /v1 and from the root", async () => {
    // web/src/services/AudioService.js streamAudio(): this body (lang_code, allow_voice_tags and
    // voice_aliases are undefined, so JSON.stringify leaves them out), then setDownloadPath():
    // `/v1${x-download-path}?name=<voice>_<time>.<format>`, fetched with no Authorization.
    const res = await t.call('POST', '/v1/audio/speech', {
      body: {
        input: TEXT,
        voice: 'af_sky',
        response_format: 'mp3',
        download_format: 'mp3',
        stream: true,
        speed: 1,
        return_download_link: true,
        return_timing: true,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['x-narration-voice']).toBe(
      `espeak; in-place-of=af_sky; voice-code=${kokoroFallbackVoice('af_sky').voice_code}`,
    );
    const detail = await t.call('GET', `/api/v1/tts/${res.headers['x-request-id'] as string}`);
    expect((detail.json as { result: object }).result).toMatchObject({ model_id: 'std-v1.6' });
    const path = res.headers['x-download-path'] as string;
    expect(path).toMatch(/^\/download\/[0-9a-f]{32}-[\w-]+\.mp3$/);
    const name = `?name=${encodeURIComponent('af_sky_2026-11-30T10-00-00-000Z.mp3')}`;
    for (const url of [
      `${t.core.url}/v1${path}${name}`,
      `${t.core.url}${path}${name}`,
      `${t.core.url}${path}`,
    ]) {
      const file = await fetchUrl(url, 'GET');
      expect(file.status, url).toBe(200);
      expect(file.headers['content-type'], url).toBe('audio/mpeg');
      expect(file.body.equals(res.body), url).toBe(true);
    }
    // From the root the same rules as under /v1: the token is the credential, nothing else.
    // (`/download/%2E%2E` is not among them: a URL parser makes it `/`, the studio's page.)
    for (const bad of [
      path.replace(/-[\w-]+\./, '-wrongtoken.'),
      path.replace(/\.mp3$/, '.wav'),
      '/download/..%2F..%2Fsettings.json',
      '/download/%2e%2e%2fsettings.json',
    ]) {
      const answer = await fetchUrl(`${t.core.url}${bad}`, 'GET');
      expect(answer.status, bad).toBe(404);
      expect(answer.json, bad).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
  });

  it("speaks af_heart (the schema's default voice) when no voice is named, with a voice of ours", async () => {
    const res = await t.call('POST', '/v1/audio/speech', { body: { input: TEXT } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mpeg');
    const standIn = kokoroFallbackVoice('af_heart');
    // A real catalogue voice of af_heart's language and gender (American English, female).
    expect(findVoice(standIn.voice_code)).toMatchObject({
      language: 'en',
      gender: 'female',
      accent: 'American',
    });
    expect(res.headers['x-narration-voice']).toBe(
      `espeak; in-place-of=af_heart; voice-code=${standIn.voice_code}`,
    );
    // Spoken as an explicit `model: "kokoro", voice: "af_heart"` is (Open WebUI's request above).
    const explicit = await t.call('POST', '/v1/audio/speech', {
      body: { input: TEXT, voice: 'af_heart', model: 'kokoro' },
    });
    expect(res.body.length).toBeGreaterThan(10_000);
    expect(res.body.equals(explicit.body)).toBe(true);
    const detail = await t.call('GET', `/api/v1/tts/${res.headers['x-request-id'] as string}`);
    expect((detail.json as { result: object }).result).toMatchObject({
      model_id: 'std-v1.6',
      kokoro_voice: 'af_heart',
    });
    // The same defaults on the captioned route.
    const captioned = await t.call('POST', '/dev/captioned_speech', { body: { input: TEXT, stream: false } });
    expect(captioned.status, captioned.text).toBe(200);
    expect(captioned.headers['x-narration-voice']).toBe(res.headers['x-narration-voice']);
  });

  it("takes the README's streamed PCM and voice-mix requests, which name no model", async () => {
    // README "Streaming Support": requests.post(.../v1/audio/speech, json={input, voice:
    // "af_bella", response_format: "pcm"}, stream=True), read with iter_content(1024).
    const pcm = await t.call('POST', '/v1/audio/speech', {
      body: { input: 'Hello world!', voice: 'af_bella', response_format: 'pcm' },
    });
    expect(pcm.status, pcm.text).toBe(200);
    expect(pcm.headers['x-accel-buffering']).toBe('no');
    const samples = new Int16Array(pcm.body.buffer, pcm.body.byteOffset, Math.floor(pcm.body.length / 2));
    expect(samples.length).toBeGreaterThan(10_000);
    expect(rmsDbfs(samples)).toBeGreaterThan(-40);
    // README "Voice Combination": {input, voice: "af_bella(2)+af_sky(1)", response_format: "mp3"}.
    const mix = await t.call('POST', '/v1/audio/speech', {
      body: { input: 'Hello world!', voice: 'af_bella(2)+af_sky(1)', response_format: 'mp3' },
    });
    expect(mix.status, mix.text).toBe(200);
    expect(String(mix.headers['x-narration-voice'])).toContain('in-place-of=af_bella(2)+af_sky(1)');
  });

  it('still refuses a body without input, and a model or voice of the wrong type', async () => {
    for (const [body, param] of [
      [{ voice: 'af_heart' }, 'input'],
      [{ input: TEXT, model: 5 }, 'model'],
      [{ input: TEXT, voice: 7 }, 'voice'],
      [{ input: TEXT, model: 'kokoro-2' }, 'model'],
    ] as const) {
      const res = await t.call('POST', '/v1/audio/speech', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json, JSON.stringify(body)).toMatchObject({
        error: { type: 'invalid_request_error', param },
      });
    }
  });
});

describe('a Kokoro-FastAPI client with a Kokoro pack installed', () => {
  let t: TestCore;
  let client: OpenAI;
  let packId: string;
  /** First style value per voice: the synthetic model's tone is 100 Hz higher per unit. */
  const FIRST: Record<string, number> = { af_bella: 0.9, af_sky: -0.6, bf_emma: 0.2 };

  beforeAll(async () => {
    t = await startTestCore();
    client = new OpenAI({ apiKey: t.key, baseURL: `${t.core.url}/v1`, maxRetries: 0 });
    // Kokoro's export as Hugging Face lays it out: onnx/, voices/, tokenizer.json.
    const folder = join(t.dir, 'kokoro-export');
    mkdirSync(join(folder, 'onnx'), { recursive: true });
    mkdirSync(join(folder, 'voices'), { recursive: true });
    writeFileSync(join(folder, 'onnx', 'model_quantized.onnx'), buildKokoroModel());
    writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify({ model: { vocab: kokoroVocab() } }));
    for (const [name, first] of Object.entries(FIRST)) {
      // Every row's first value is the voice's; the rest are small and differ per voice.
      const data = Float32Array.from({ length: KOKORO_VOICE_ROWS * KOKORO_STYLE_FLOATS }, (_, i) =>
        i % KOKORO_STYLE_FLOATS === 0 ? first : Math.sin(i * first) * 0.01,
      );
      writeFileSync(join(folder, 'voices', `${name}.bin`), new Uint8Array(data.buffer));
    }
    packId = (await t.core.voices.install(folder)).manifest.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function speak(voice: string) {
    const res = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'kokoro', input: TEXT, voice, response_format: 'wav' },
    });
    expect(res.status, res.body.toString()).toBe(200);
    return { ...wavSamples(res.body), voiceHeader: res.headers['x-narration-voice'] as string };
  }

  /** Median over matching frames of how much higher `a`'s tone is than `b`'s. */
  function toneRiseHz(a: Int16Array, b: Int16Array, sampleRate: number): number {
    const pa = framePeaksHz(a, sampleRate);
    const pb = framePeaksHz(b, sampleRate);
    expect(pa.length).toBe(pb.length);
    const rises = pa.flatMap((hz, i) => (hz > 0 && pb[i]! > 0 ? [hz - pb[i]!] : []));
    rises.sort((x, y) => x - y);
    expect(rises.length).toBeGreaterThan(20);
    return rises[Math.floor(rises.length / 2)]!;
  }

  it('speaks a Kokoro name with that Kokoro voice', async () => {
    const bella = await speak('af_bella');
    expect(bella.voiceHeader).toBe(`kokoro:${packId}#af_bella`);
    expect(bella.sampleRate).toBe(24000);
    expect(rmsDbfs(bella.pcm)).toBeGreaterThan(-20);
  });

  it('blends af_bella(2)+af_sky(1): the style fed to the model is the weighted mean', async () => {
    const [bella, sky, mix] = [
      await speak('af_bella'),
      await speak('af_sky'),
      await speak('af_bella(2)+af_sky(1)'),
    ];
    expect(mix.voiceHeader).toBe(`kokoro:${packId}#af_bella(2)+af_sky(1)`);
    const mean = (2 / 3) * FIRST.af_bella! + (1 / 3) * FIRST.af_sky!;
    // The tone is 100 Hz per unit of the style's first value, the same ids at the same times.
    expect(toneRiseHz(bella.pcm, mix.pcm, 24000)).toBeCloseTo(100 * (FIRST.af_bella! - mean), -1);
    expect(toneRiseHz(mix.pcm, sky.pcm, 24000)).toBeCloseTo(100 * (mean - FIRST.af_sky!), -1);
  });

  it("takes the openai client's af_bella+af_sky (Kokoro-FastAPI's README)", async () => {
    // README: client.audio.speech.with_streaming_response.create(model="kokoro",
    // voice="af_bella+af_sky", input=..., response_format="mp3")
    const response = await client.audio.speech.create({
      model: 'kokoro',
      voice: 'af_bella+af_sky',
      input: TEXT,
      response_format: 'mp3',
    });
    expect(response.headers.get('x-narration-voice')).toBe(`kokoro:${packId}#af_bella+af_sky`);
    const probed = await decoded(t, Buffer.from(await response.arrayBuffer()), 'mp3', 'openai-mix');
    expect(probed.durationMs).toBeGreaterThan(1000);
    expect(rmsDbfs(probed.samples)).toBeGreaterThan(-20);
    const detail = await t.call('GET', `/api/v1/tts/${response.headers.get('x-request-id')!}`);
    expect((detail.json as { result: object }).result).toMatchObject({
      kokoro_voice: 'af_bella+af_sky',
      engine: `kokoro:${packId}#af_bella+af_sky`,
    });
  });

  it("speaks SillyTavern's OpenAI-compatible request with the Kokoro voice it names", async () => {
    // SillyTavern src/endpoints/openai.js, custom.post('/generate-voice'): this body, in this
    // order, to its "provider endpoint" with `Authorization: Bearer <key>`.
    const res = await t.call('POST', '/v1/audio/speech', {
      body: { input: TEXT, response_format: 'mp3', voice: 'bf_emma', speed: 1, model: 'kokoro' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-narration-voice']).toBe(`kokoro:${packId}#bf_emma`);
    const probed = await decoded(t, res.body, 'mp3', 'sillytavern');
    expect(probed.sampleRate).toBe(24000);
    expect(probed.durationMs).toBeGreaterThan(1000);
    expect(rmsDbfs(probed.samples)).toBeGreaterThan(-20);
  });

  it('falls back to our voice for a mix the pack cannot make, and says so', async () => {
    const res = await t.call('POST', '/v1/audio/speech', {
      body: { model: 'kokoro', input: TEXT, voice: 'af_bella+am_adam', response_format: 'wav' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-narration-voice']).toMatch(
      /; in-place-of=af_bella\+am_adam; voice-code=en_female_emily_us$/,
    );
  });
});
