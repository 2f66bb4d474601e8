/**
 * A neural voice pack over the API on the full core: install a synthetic (real-format, really
 * speaking) Piper pack from a local mirror, follow its progress on the event stream, render a
 * request with it (`engine: piper:<id>#0`, a decodable WAV at the pack's rate), remove it, and
 * the next request is eSpeak again.
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VoicePackEvent } from '../../../electron/shared/voice-packs';
import { wavSamples } from '../../fixtures/audio-analysis';
import { speakingPiperPack } from '../../fixtures/neural-pack';
import { buildPiperModel } from '../../fixtures/onnx/build-models';
import { VoiceMirror, zipOf } from '../../fixtures/voice-mirror';
import { eventually, fetchUrl, startTestCore, type TestCore } from './helpers';
import { signInStudio } from '../../fixtures/studio-session';

const pack = speakingPiperPack('en_US-lessac-medium', { cardBytes: 2_000_000 });
let mirror: VoiceMirror;
let t: TestCore;
/** Cookie and X-Studio-Session: a signed-in call. */
let signedIn: Record<string, string>;

beforeAll(async () => {
  mirror = await VoiceMirror.start();
  mirror.serve(pack);
  t = await startTestCore({ voiceMirror: mirror.url, voiceCatalogue: [pack.entry] });
  ({ headers: signedIn } = await signInStudio(t.core.loginUrl));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await mirror?.close();
});

const studio = (method: 'GET' | 'POST', path: string, body?: unknown) =>
  t.call(method, path, { key: null, headers: signedIn, ...(body !== undefined ? { body } : {}) });

/** The studio's event stream, collecting `voice-pack` events until aborted. */
async function followVoicePackEvents(events: VoicePackEvent[], signal: AbortSignal): Promise<void> {
  const res = await request(`${t.core.url}/api/v1/events`, { headers: signedIn, signal });
  expect(res.statusCode).toBe(200);
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of res.body) {
        buffer += (chunk as Buffer).toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.startsWith('event: voice-pack\n')) continue;
          events.push(JSON.parse(block.split('\n')[1]!.slice('data: '.length)) as VoicePackEvent);
        }
      }
    } catch {
      // Aborted at the end of the test.
    }
  })();
}

async function render(voiceCode: string) {
  const res = await t.call('POST', '/api/v1/tts', {
    body: {
      input_text: 'The lighthouse keeper climbed the stairs.',
      voice_code: voiceCode,
      model_id: 'std-v1.6',
      audio_type: 'wav',
    },
  });
  expect(res.status, res.text).toBe(200);
  const id = res.json.result.request_id as string;
  return eventually(async () => {
    const detail = (await t.call('GET', `/api/v1/tts/${id}`)).json.result;
    return detail.status === 'SUCCESS' || detail.status === 'FAILURE' ? detail : undefined;
  }, 60_000);
}

describe('a voice pack installed over the API speaks requests', () => {
  it('installs with progress events, renders with the pack, and after removal with eSpeak', async () => {
    const events: VoicePackEvent[] = [];
    const stop = new AbortController();
    await followVoicePackEvents(events, stop.signal);
    try {
      const started = await studio('POST', '/api/v1/voice-packs/install', { id: pack.entry.id });
      expect(started.status, started.text).toBe(200);
      expect(started.json.result.state).toBe('installing');
      await eventually(() => events.find((e) => e.state !== 'installing'), 30_000);
      expect(events.at(-1)).toEqual({ id: pack.entry.id, state: 'installed' });
      const progress = events.filter((e) => e.state === 'installing').map((e) => e.progress!);
      expect(progress.length).toBeGreaterThan(1);
      expect(progress.some((p) => p.phase === 'download' && p.bytes > 0)).toBe(true);
      for (let i = 1; i < progress.length; i++)
        if (progress[i]!.phase === progress[i - 1]!.phase)
          expect(progress[i]!.bytes).toBeGreaterThanOrEqual(progress[i - 1]!.bytes);

      const list = (await t.call('GET', '/api/v1/voice-packs')).json.result;
      expect(list.packs).toEqual([expect.objectContaining({ id: pack.entry.id, state: 'installed' })]);
      const emily = list.voices.find((v: { voice_code: string }) => v.voice_code === 'en_female_emily_us');
      expect(emily.engine).toBe(`piper:${pack.entry.id}#0`);

      const neural = await render('en_female_emily_us');
      expect(neural.status, JSON.stringify(neural)).toBe('SUCCESS');
      expect(neural.engine).toBe(`piper:${pack.entry.id}#0`);
      const audio = await fetchUrl(neural.audio_link as string, 'GET');
      expect(audio.status).toBe(200);
      const { pcm, sampleRate } = wavSamples(new Uint8Array(audio.body));
      expect(sampleRate).toBe(22050);
      expect(pcm.length).toBeGreaterThan(22050 / 4);

      // The audition speaks with the pack too: a WAV at its rate.
      const sample = await t.call('POST', '/api/v1/voices/en_female_emily_us/audition', { body: {} });
      expect(sample.status).toBe(200);
      expect(wavSamples(new Uint8Array(sample.body)).sampleRate).toBe(22050);

      const removed = await studio('POST', `/api/v1/voice-packs/${pack.entry.id}/remove`, {});
      expect(removed.json.result).toMatchObject({ state: 'available' });
      const basic = await render('en_female_emily_us');
      expect(basic.status).toBe('SUCCESS');
      expect(basic.engine).toBe('espeak');
    } finally {
      stop.abort();
    }
  }, 120_000);
});

describe('an import over the API is checked by speaking', () => {
  const importZip = (raw: Buffer) =>
    t.call('POST', '/api/v1/voice-packs/import', {
      key: null,
      raw,
      headers: { ...signedIn, 'content-type': 'application/zip' },
    });
  const voicesTree = () => {
    const root = join(t.dir, 'voices');
    return existsSync(root) ? readdirSync(root, { recursive: true }).map(String).sort() : [];
  };

  it('refuses a truncated model (first 200 bytes, valid config) with VOICE_PACK_INVALID and leaves nothing', async () => {
    const before = voicesTree();
    const model = pack.files.get(`${pack.entry.id}.onnx`)!;
    const res = await importZip(
      zipOf([
        ['en_US-broken-medium.onnx', model.subarray(0, 200)],
        ['en_US-broken-medium.onnx.json', pack.files.get(`${pack.entry.id}.onnx.json`)!],
      ]),
    );
    expect(res.status, res.text).toBe(422);
    expect(res.json.error_code ?? res.json.error?.code ?? res.text).toContain('VOICE_PACK_INVALID');
    expect(voicesTree()).toEqual(before);
    const list = (await t.call('GET', '/api/v1/voice-packs')).json.result;
    expect(list.packs.map((p: { id: string }) => p.id)).not.toContain('en_US-broken-medium');
  });

  it('installs a model that speaks under its own id when its bytes are not the catalogue pack it names', async () => {
    // Named as the catalogue's pack, but another model (two speakers): not the catalogue's bytes.
    const other = speakingPiperPack('en_US-other-medium');
    const config = JSON.parse(other.files.get('en_US-other-medium.onnx.json')!.toString('utf8')) as Record<
      string,
      unknown
    >;
    const res = await importZip(
      zipOf([
        [`${pack.entry.id}.onnx`, other.files.get('en_US-other-medium.onnx')!],
        [`${pack.entry.id}.onnx.json`, Buffer.from(JSON.stringify({ ...config, dataset: 'not lessac' }))],
      ]),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.id).toMatch(new RegExp(`^${pack.entry.id}-own-[0-9a-f]{8}$`));
    expect(res.json.result.licence).toMatch(/^unknown/);
    const list = (await t.call('GET', '/api/v1/voice-packs')).json.result;
    expect(list.packs.find((p: { id: string }) => p.id === pack.entry.id)?.state ?? 'available').toBe(
      'available',
    );
  });
});

describe('phonemes a voice does not know, in the request record', () => {
  it('a Vietnamese request spoken with a vivos-mapped model carries a warning naming the dropped phonemes', async () => {
    const config = readFileSync(join(__dirname, '../../fixtures/onnx/vi_VN-vivos-x_low.onnx.json'));
    const imported = await t.call('POST', '/api/v1/voice-packs/import', {
      key: null,
      raw: zipOf([
        ['vi_VN-mapped-x_low.onnx', Buffer.from(buildPiperModel({ numSpeakers: 65, sampleRate: 16000 }))],
        ['vi_VN-mapped-x_low.onnx.json', config],
      ]),
      headers: { ...signedIn, 'content-type': 'application/zip' },
    });
    expect(imported.status, imported.text).toBe(200);
    const res = await t.call('POST', '/api/v1/tts', {
      body: {
        input_text: 'Xin chào các bạn, tôi tên là Nam. Hôm nay trời đẹp quá!',
        voice_code: 'vi_female_thuytrang_mb',
        model_id: 'std-v1.5-turbo',
        audio_type: 'wav',
      },
    });
    expect(res.status, res.text).toBe(200);
    const id = res.json.result.request_id as string;
    const detail = await eventually(async () => {
      const d = (await t.call('GET', `/api/v1/tts/${id}`)).json.result;
      return d.status === 'SUCCESS' || d.status === 'FAILURE' ? d : undefined;
    }, 60_000);
    expect(detail.status, JSON.stringify(detail)).toBe('SUCCESS');
    expect(detail.engine).toMatch(/^piper:vi_VN-mapped-x_low#\d+$/);
    expect(detail.warnings).toHaveLength(1);
    expect(detail.warnings[0]).toMatch(
      /^piper:vi_VN-mapped-x_low#\d+ does not know \d+ phonemes? of this text and left (it|them) out: "/,
    );
  }, 120_000);
});
