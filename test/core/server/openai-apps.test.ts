/**
 * The OpenAI-compatible lists and names as real apps ask for them, over real HTTP on 127.0.0.1
 * (FACTS.md, "Real apps' requests"): Open WebUI's three keyless GETs, read as it reads them;
 * wyoming_openai's plain voice list (`?legacy=true`); the `openai` npm client listing models
 * and speaking with OpenAI's dated model names; a presented wrong key still refused; and an
 * unknown /v1 route answered in OpenAI's error shape.
 */

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICES } from '../../../electron/shared/voices';
import { KOKORO_V1_VOICES } from '../../../electron/core/voices';
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
