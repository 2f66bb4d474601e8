/**
 * The OpenAI-compatible lists and names as real apps ask for them, over real HTTP on 127.0.0.1
 * (FACTS.md, "Real apps' requests"): Open WebUI's three keyless GETs, read as it reads them;
 * wyoming_openai's plain voice list (`?legacy=true`); the `openai` npm client listing models
 * and speaking with OpenAI's dated model names; a presented wrong key still refused; and an
 * unknown /v1 route answered in OpenAI's error shape; LibreChat's split long input, AnythingLLM's
 * generic OpenAI TTS and Home Assistant's sfortis/openai_tts, each with its exact request.
 */

import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICES } from '../../../electron/shared/voices';
import { KOKORO_V1_VOICES } from '../../../electron/core/voices';
import { probeAudio } from '../../fixtures/ffprobe';
import { fetchUrl, startTestCore, type TestCore } from './helpers';

let t: TestCore;
let client: OpenAI;

beforeAll(async () => {
  t = await startTestCore();
  client = new OpenAI({ apiKey: t.key, baseURL: `${t.core.url}/v1`, maxRetries: 0 });
});
afterAll(async () => {
  await t?.close();
});

/** GET as Open WebUI's `requests.get(f"{base}/…")` sends it: no Authorization header. */
const keyless = (path: string) => fetchUrl(`${t.core.url}/v1${path}`, 'GET');

/** A well-formed key of the right length that the server never issued. */
const WRONG_KEY = `nsk_${'x'.repeat(43)}`;

describe('Open WebUI', () => {
  it('reads our voices and models without a key, as it parses them', async () => {
    const voices = await keyless('/audio/voices');
    expect(voices.status).toBe(200);
    // Open WebUI: `{voice['id']: voice['name'] for voice in data.get('voices', [])}`.
    const offered = Object.fromEntries(
      (voices.json.voices as { id: string; name: string }[]).map((voice) => [voice.id, voice.name]),
    );
    for (const voice of VOICES) expect(offered[voice.voice_code]).toContain(voice.name);
    expect(offered.alloy).toMatch(/^alloy \(/);
    // OpenAI's 13 names, our codes, Kokoro v1.0's 54 names (Kokoro-FastAPI's clients send them).
    expect(Object.keys(offered)).toHaveLength(13 + VOICES.length + KOKORO_V1_VOICES.length);
    expect(voices.json.voices).toContainEqual(
      expect.objectContaining({ id: 'en_female_emily_us', language: 'en', gender: 'female' }),
    );

    // Open WebUI: `data.get('models', [])`, each shown by its `id`.
    const models = await keyless('/audio/models');
    expect(models.status).toBe(200);
    const ids = (models.json.models as { id: string }[]).map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'std-v1.6']));

    const list = await keyless('/models');
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ object: 'list' });
    expect(list.json.data).toContainEqual(
      expect.objectContaining({ id: 'tts-1', object: 'model', owned_by: 'narration-studio' }),
    );

    // What it offers speaks, with the key it sends for speech.
    for (const voice of [Object.keys(offered)[0]!, Object.keys(offered).at(-1)!]) {
      const speech = await client.audio.speech.create({ model: ids[0]!, voice, input: 'Hi.' });
      expect(speech.status).toBe(200);
      expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
  });
});

describe('wyoming_openai', () => {
  it('reads the plain list of voice names with ?legacy=true', async () => {
    const plain = await keyless('/audio/voices?legacy=true');
    expect(plain.status).toBe(200);
    const names = plain.json.voices as unknown[];
    expect(names.every((name) => typeof name === 'string')).toBe(true);
    expect(names).toEqual(expect.arrayContaining(['alloy', 'nova', ...VOICES.map((v) => v.voice_code)]));
    // With its key configured, the same answer.
    expect((await t.call('GET', '/v1/audio/voices?legacy=true')).json).toEqual(plain.json);
  });
});

describe('a presented key is still checked', () => {
  it('a wrong key is refused on the public lists, in OpenAI shape, as OpenAI would', async () => {
    for (const path of ['/v1/models', '/v1/audio/voices', '/v1/audio/models']) {
      const res = await t.call('GET', path, { key: WRONG_KEY });
      expect(res.status, path).toBe(401);
      expect(res.json.error).toMatchObject({ type: 'authentication_error', code: 'UNAUTHORIZED' });
    }
    const stranger = new OpenAI({ apiKey: WRONG_KEY, baseURL: `${t.core.url}/v1`, maxRetries: 0 });
    await expect(stranger.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe('the openai client with dated model names', () => {
  it('lists the snapshots and speaks with tts-1-1106, tts-1-hd-1106 and gpt-4o-mini-tts snapshots', async () => {
    const models: string[] = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(
      expect.arrayContaining(['tts-1-1106', 'tts-1-hd-1106', 'gpt-4o-mini-tts-2025-03-20']),
    );
    for (const model of [
      'tts-1-1106',
      'tts-1-hd-1106',
      'gpt-4o-mini-tts-2025-03-20',
      'gpt-4o-mini-tts-2026-10-01',
    ]) {
      const speech = await client.audio.speech.create({ model, voice: 'alloy', input: 'Hi there.' });
      expect(speech.status, model).toBe(200);
      const id = speech.headers.get('x-request-id')!;
      expect((await speech.arrayBuffer()).byteLength).toBeGreaterThan(0);
      const stored = await t.call('GET', `/api/v1/tts/${id}`);
      expect(stored.json.result, model).toMatchObject({ model_id: 'std-v1.6', status: 'SUCCESS' });
    }
    // A later snapshot is a model the list can describe too.
    expect(await client.models.retrieve('gpt-4o-mini-tts-2026-10-01')).toMatchObject({
      id: 'gpt-4o-mini-tts-2026-10-01',
      object: 'model',
    });
    // Unknown names keep their error: before the first snapshot, a non-date, other families.
    for (const model of ['gpt-4o-mini-tts-2024-12-31', 'gpt-4o-mini-tts-2025-13-01', 'tts-2-1106']) {
      await expect(client.audio.speech.create({ model, voice: 'alloy', input: 'Hi.' })).rejects.toMatchObject(
        { status: 400, param: 'model' },
      );
      await expect(client.models.retrieve(model)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    }
  });
});

describe('unknown /v1 routes', () => {
  it('answer 404 in OpenAI error shape; the rest of the API keeps its own', async () => {
    for (const [method, path] of [
      ['GET', '/v1/chat/completions'],
      ['POST', '/v1/audio/transcriptions'],
      ['GET', '/v1'],
    ] as const) {
      const res = await t.call(method, path, { key: null });
      expect(res.status, path).toBe(404);
      expect(res.json, path).toEqual({
        error: {
          message: `No route ${method} ${path}.`,
          type: 'invalid_request_error',
          param: null,
          code: 'NOT_FOUND',
        },
      });
    }
    await expect(client.post('/embeddings', { body: { model: 'x', input: 'y' } })).rejects.toBeInstanceOf(
      OpenAI.NotFoundError,
    );
    const spec = await t.call('GET', '/api/v1/nothing-here', { key: null });
    expect(spec.status).toBe(404);
    expect(spec.json).toMatchObject({ status: 0, error_code: 'NOT_FOUND' });
  });
});

/** Writes audio to a temporary file and decodes it whole with ffmpeg. */
async function decode(audio: Buffer, name: string) {
  const path = join(await mkdtemp(join(tmpdir(), 'ns-apps-')), name);
  await writeFile(path, audio);
  return probeAudio(path);
}

// LibreChat, api/server/services/Files/Audio/streamAudio.js: SEPARATORS and splitTextIntoChunks, copied.
const SEPARATORS = ['.', '?', '!', '۔', '。', '‥', ';', '¡', '¿', '\n'];
function splitTextIntoChunks(text: string, chunkSize = 4000): { text: string; isFinished: boolean }[] {
  const chunks: { text: string; isFinished: boolean }[] = [];
  let startIndex = 0;
  const textLength = text.length;
  while (startIndex < textLength) {
    let endIndex = Math.min(startIndex + chunkSize, textLength);
    let chunkText = text.slice(startIndex, endIndex);
    if (endIndex < textLength) {
      let lastSeparatorIndex = -1;
      for (const separator of SEPARATORS) {
        const index = chunkText.lastIndexOf(separator);
        if (index !== -1) lastSeparatorIndex = Math.max(lastSeparatorIndex, index);
      }
      if (lastSeparatorIndex !== -1) {
        endIndex = startIndex + lastSeparatorIndex + 1;
        chunkText = text.slice(startIndex, endIndex);
      } else {
        const nextSeparatorIndex = text.slice(endIndex).search(/\S/);
        if (nextSeparatorIndex !== -1) {
          endIndex += nextSeparatorIndex;
          chunkText = text.slice(startIndex, endIndex);
        }
      }
    }
    chunkText = chunkText.trim();
    if (chunkText) chunks.push({ text: chunkText, isFinished: endIndex >= textLength });
    else if (chunks.length > 0) chunks[chunks.length - 1]!.isFinished = true;
    startIndex = endIndex;
    while (startIndex < textLength && text[startIndex]!.trim() === '') startIndex++;
  }
  return chunks;
}

describe('LibreChat (TTS provider "openai")', () => {
  it('sends a long input in 1,000-character pieces and the joined MP3 decodes', async () => {
    const input = 'The lighthouse keeper climbed the stairs and lit the lamp again. '.repeat(70);
    expect(input.length).toBeGreaterThanOrEqual(4096); // TTSService.js: `if (input.length < 4096)` else split
    const pieces = splitTextIntoChunks(input, 1000);
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    const parts: Buffer[] = [];
    for (const piece of pieces) {
      // TTSService.js openAIProvider + ttsRequest: axios.post(url, data, { headers }), undefined keys removed.
      const res = await fetchUrl(`${t.core.url}/v1/audio/speech`, 'POST', {
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${t.key}` },
        body: JSON.stringify({ input: piece.text, model: 'tts-1', voice: 'alloy' }),
      });
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(1000);
      parts.push(res.body); // piped into one `audio/mpeg` response
    }
    const joined = await decode(Buffer.concat(parts), 'librechat.mp3');
    expect(joined.errors).toBe('');
    expect(joined.codec).toBe('mp3');
    // Plausible speech over the whole text: 10 to 200 characters per second (measured here: ~18).
    expect(joined.durationMs).toBeGreaterThan((input.length / 200) * 1000);
    expect(joined.durationMs).toBeLessThan((input.length / 10) * 1000);
  });
});

describe('AnythingLLM (generic OpenAI TTS)', () => {
  it('speaks through the openai client as server/utils/TextToSpeech/openAiGeneric/index.js calls it', async () => {
    // new OpenAI({ apiKey, baseURL }); audio.speech.create({ model, voice, input }); Buffer.from(arrayBuffer()).
    const openai = new OpenAI({ apiKey: t.key, baseURL: `${t.core.url}/v1` });
    const result = await openai.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello from AnythingLLM.',
    });
    const audio = Buffer.from(await result.arrayBuffer());
    const probed = await decode(audio, 'anythingllm.mp3');
    expect(probed.errors).toBe('');
    expect(probed.codec).toBe('mp3'); // no response_format sent: OpenAI's default
    expect(probed.durationMs).toBeGreaterThan(300);
  });
});

describe('Home Assistant sfortis/openai_tts', () => {
  it('sends custom_components/openai_tts/openaitts_engine.py get_tts body and headers', async () => {
    const res = await fetchUrl(`${t.core.url}/v1/audio/speech`, 'POST', {
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'HomeAssistant-OpenAI-TTS',
        Authorization: `Bearer ${t.key}`,
      },
      // Python json.dumps: ", " and ": " separators; instructions only when set.
      body: `{"model": "tts-1", "input": "The front door is open.", "voice": "nova", "response_format": "mp3", "speed": 1.0, "instructions": "Speak calmly."}`,
    });
    expect(res.status).toBe(200);
    const probed = await decode(res.body, 'ha.mp3');
    expect(probed.errors).toBe('');
    expect(probed.codec).toBe('mp3');
    expect(probed.durationMs).toBeGreaterThan(300);
  });
});
