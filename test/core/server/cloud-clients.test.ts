/**
 * POST /api/v1/tts as the cloud service's real clients use it, over real HTTP on 127.0.0.1 with
 * plain `fetch`: a polling client (submit, poll GET /api/v1/tts/<id> until SUCCESS, download
 * `audio_link`), and a direct client (`response_type: "direct"`, numbers as strings, an extra
 * `app_id`: the links are in the submit answer). A direct request is stored, charged, listed and
 * called back exactly as an indirect one. A failed direct render, a bad body, and a direct answer
 * that cannot wait (wait limit, a client that goes away, a server that stops):
 * direct-mode.test.ts, on the fake engine.
 */

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectRecordSchema, RequestRecordSchema } from '../../../electron/shared/api';
import {
  startReceiver,
  type CallbackReceiver,
  type ReceivedCallback,
} from '../../fixtures/callback-receiver';
import { eventually, startTestCore, type TestCore } from './helpers';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TEXT =
  'The quick brown fox jumps over the lazy dog near the riverbank, ' +
  'while a small bird sings on the old oak tree.';

let receiver: CallbackReceiver;
let t: TestCore;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestCore();
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

/** A client as the service's are written: fetch, JSON in and out, the key as a bearer token. */
function client(baseUrl: string, key: string) {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    async post(path: string, body: unknown, signal?: AbortSignal): Promise<{ status: number; json: Json }> {
      const res = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        ...(signal ? { signal } : {}),
      });
      return { status: res.status, json: await res.json() };
    },
    async get(path: string): Promise<{ status: number; json: Json }> {
      const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: headers.authorization } });
      return { status: res.status, json: await res.json() };
    },
  };
}

/** Downloads a link as a client does (no key) into the test's folder. */
async function download(link: string, name: string): Promise<{ path: string; contentType: string }> {
  const res = await fetch(link);
  expect(res.status).toBe(200);
  const path = join(t.dir, name);
  writeFileSync(path, Buffer.from(await res.arrayBuffer()));
  return { path, contentType: res.headers.get('content-type') ?? '' };
}

/** ffprobe's codec and duration (s) of the first audio stream. */
function probe(path: string): { codec: string; duration: number } {
  const out = execFileSync(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=codec_name:format=duration', '-of', 'json', path],
    { encoding: 'utf8' },
  );
  const json = JSON.parse(out) as { streams: { codec_name: string }[]; format: { duration: string } };
  return { codec: json.streams[0]!.codec_name, duration: Number(json.format.duration) };
}

/** Speech of `characters` at speed 1 lasts roughly characters / 15 s; allow a wide band. */
function expectPlausibleDuration(seconds: number, characters: number): void {
  expect(seconds).toBeGreaterThan(characters / 40);
  expect(seconds).toBeLessThan(characters / 5);
}

function callbacksFor(id: string): ReceivedCallback[] {
  return receiver.received.filter((c) => (c.json as { request_id?: string })?.request_id === id);
}

describe('a polling client', () => {
  // WAV here, MP3 in the direct client's test: one render each.
  it('submits, polls GET /api/v1/tts/<id> until SUCCESS and downloads a playable wav', async () => {
    const api = client(t.core.url, t.key);
    const submitted = await api.post('/api/v1/tts', {
      input_text: TEXT,
      voice_code: 'en_female_emily_us',
      audio_type: 'wav',
    });
    expect(submitted.status).toBe(200);
    expect(submitted.json.status).toBe(1);
    expect(Value.Check(RequestRecordSchema, submitted.json.result)).toBe(true);
    const id = submitted.json.result.request_id as string;

    let result: Json;
    const started = Date.now();
    for (;;) {
      const polled = await api.get(`/api/v1/tts/${id}`);
      expect(polled.status).toBe(200);
      result = polled.json.result;
      if (result.status === 'SUCCESS' || result.status === 'FAILURE') break;
      expect(['new', 'processing']).toContain(result.status);
      expect(result.audio_link).toBeNull();
      // A deadline under the test's own timeout (60 s), not a speed check: polling is the subject.
      if (Date.now() - started > 55_000) throw new Error('not finished in 55 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(result.status).toBe('SUCCESS');
    const file = await download(result.audio_link as string, 'polled.wav');
    expect(file.contentType).toContain('audio/wav');
    const probed = probe(file.path);
    expect(probed.codec).toBe('pcm_s16le');
    expectPlausibleDuration(probed.duration, TEXT.length);
  });
});

describe('a direct client (response_type "direct", numbers as strings)', () => {
  it('gets the links in the submit answer; the request is listed, charged once and called back', async () => {
    const key = await t.newKey(1_000_000);
    const api = client(t.core.url, key);
    const submitted = await api.post('/api/v1/tts', {
      app_id: 'my-app-123',
      response_type: 'direct',
      callback_url: receiver.url,
      input_text: TEXT,
      voice_code: 'en_female_emily_us',
      audio_type: 'mp3',
      bitrate: '64',
      speed_rate: '1.0',
      pitch_rate: '1.2',
      volume: '100',
      generate_srt: 'true',
    });
    expect(submitted.status).toBe(200);
    expect(submitted.json.status).toBe(1);
    const record = submitted.json.result;
    expect(Value.Check(DirectRecordSchema, record)).toBe(true);
    expect(record).toMatchObject({
      status: 'SUCCESS',
      progress: 100,
      characters: TEXT.length,
      voice_code: 'en_female_emily_us',
      audio_type: 'mp3',
      bitrate: 64,
      speed_rate: 1,
      pitch_rate: 1.2,
      volume: 100,
      generate_srt: true,
      callback_url: receiver.url,
      error_code: null,
      create_at: new Date().toISOString().slice(0, 10),
    });
    const id = record.request_id as string;

    // The links are the ones a poll answers and the callback carries.
    const polled = (await api.get(`/api/v1/tts/${id}`)).json.result;
    expect(polled.audio_link).toBe(record.audio_link);
    expect(polled.srt_link).toBe(record.srt_link);
    const { create_at: _createAt, ...detailFields } = record;
    for (const field of [
      'request_id',
      'status',
      'characters',
      'cost',
      'created_at',
      'finished_at',
      'audio_bytes',
    ]) {
      expect(polled[field], field).toEqual(detailFields[field]);
    }

    const audio = await download(record.audio_link as string, 'direct.mp3');
    const probed = probe(audio.path);
    expect(probed.codec).toBe('mp3');
    expectPlausibleDuration(probed.duration, TEXT.length);
    const srt = await fetch(record.srt_link as string);
    expect(srt.status).toBe(200);
    expect(await srt.text()).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> /);

    // Listed like any request.
    const list = (await api.get('/api/v1/tts')).json.result;
    expect(list.items.map((item: Json) => item.request_id)).toEqual([id]);

    // Charged once, at 1000 credits per 1000 characters.
    const usage = (await api.get('/api/v1/usage')).json.result;
    const charges = usage.ledger.filter((e: Json) => e.request_id === id);
    expect(charges.map((e: Json) => [e.kind, e.amount])).toEqual([['charge', -TEXT.length]]);
    expect(usage.balance).toBe(1000 - TEXT.length);

    // Called back exactly as an indirect request.
    const [callback] = await receiver.waitFor(1, (c) => (c.json as Json)?.request_id === id);
    expect(callback!.json).toMatchObject({
      request_id: id,
      status: 'SUCCESS',
      audio_link: record.audio_link,
      srt_link: record.srt_link,
      bitrate: 64,
      pitch_rate: 1.2,
    });
    const result = await eventually(async () => {
      const res = await api.get(`/api/v1/tts/${id}/callback-result`);
      return res.status === 200 ? res.json.result : undefined;
    });
    expect(result).toMatchObject({ request_id: id, callback_url: receiver.url, status_code: 200 });
    // Once: one attempt recorded, one call received.
    expect((await api.get(`/api/v1/tts/${id}`)).json.result.callback_attempts).toBe(1);
    expect(callbacksFor(id)).toHaveLength(1);
  });
});
