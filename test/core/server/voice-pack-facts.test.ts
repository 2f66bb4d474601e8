/**
 * The Voice library's facts over the API on the full core: each pack's licence source, model
 * card and samples in the listing; a sample heard before downloading (fetched from the local
 * sample mirror on the first request, served from the data folder afterwards, 404 upstream a
 * clear error); and a pack's speed measured on its first render (real-time factor and time to
 * first audio, kept in voices/<id>/speed.json and not measured again).
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCatalogueEntry, sampleUrl } from '../../../electron/core/voices/catalogue';
import type { CatalogueEntry, PackSpeed, VoicePackInfo } from '../../../electron/shared/voice-packs';
import { speakingPiperPack } from '../../fixtures/neural-pack';
import { noise, VoiceMirror } from '../../fixtures/voice-mirror';
import { signInStudio } from '../../fixtures/studio-session';
import { eventually, startTestCore, type TestCore } from './helpers';

const speaking = speakingPiperPack('en_US-lessac-medium');
// The synthetic pack's licence (CC-BY-4.0) with the codes the catalogue gives its entries.
speaking.entry.licence_terms = { name: 'CC-BY-4.0', data_licence: false, qualifiers: [] };
const vivos = findCatalogueEntry('vi_VN-vivos-x_low')!;
const catalogue: CatalogueEntry[] = [speaking.entry, vivos];
let mirror: VoiceMirror;
let t: TestCore;
let signedIn: Record<string, string>;
const samplePath = (speaker: number) =>
  new URL(sampleUrl('http://x', vivos, speaker)!).pathname.replace(/^\//, '');

beforeAll(async () => {
  mirror = await VoiceMirror.start();
  mirror.serve(speaking);
  t = await startTestCore({
    voiceMirror: mirror.url,
    voiceSampleMirror: mirror.url,
    voiceCatalogue: catalogue,
  });
  ({ headers: signedIn } = await signInStudio(t.core.loginUrl));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await mirror?.close();
});

const packs = async (): Promise<VoicePackInfo[]> =>
  (await t.call('GET', '/api/v1/voice-packs')).json.result.packs as VoicePackInfo[];

describe('licence, model card and samples in the listing', () => {
  it('lists where the licence was read, the model card and the speakers with samples', async () => {
    const listed = (await packs()).find((p) => p.id === vivos.id)!;
    expect(listed).toMatchObject({
      licence: vivos.licence,
      licence_source: 'MODEL_CARD: "* License: CC BY-NC-SA 4.0"',
      model_card_url:
        'https://huggingface.co/rhasspy/piper-voices/blob/v1.0.0/vi/vi_VN/vivos/x_low/MODEL_CARD',
      sample_speakers: 65,
      speed: null,
    });
    // The licence as stable codes beside its English words (issue 38): what the studio words.
    expect(listed.licence_terms).toEqual({
      name: 'CC-BY-NC-SA-4.0',
      data_licence: false,
      qualifiers: [{ code: 'non_commercial' }, { code: 'corpus', name: 'VIVOS' }],
    });
    expect(listed.licence).toBe('CC-BY-NC-SA-4.0 (non-commercial; VIVOS corpus)');
    // A pack made without samples offers none.
    expect((await packs()).find((p) => p.id === speaking.entry.id)!.sample_speakers).toBe(0);
  });
});

describe('GET /api/v1/voice-packs/:id/sample', () => {
  it('fetches the sample on the first click and serves the kept copy on the second', async () => {
    const bytes = noise(24_000, 11);
    mirror.put(samplePath(2), bytes);
    const first = await t.call('GET', `/api/v1/voice-packs/${vivos.id}/sample?speaker=2`);
    expect(first.status, first.text).toBe(200);
    expect(first.headers['content-type']).toBe('audio/mpeg');
    expect(first.headers['x-sample-cache']).toBe('miss');
    expect(Buffer.compare(first.body, bytes)).toBe(0);
    const second = await t.call('GET', `/api/v1/voice-packs/${vivos.id}/sample?speaker=2`);
    expect(second.status).toBe(200);
    expect(second.headers['x-sample-cache']).toBe('hit');
    expect(Buffer.compare(second.body, bytes)).toBe(0);
    // The mirror's log: one request for the two clicks.
    expect(mirror.requestsFor(samplePath(2))).toHaveLength(1);
    expect(existsSync(join(t.dir, 'voices', 'samples', vivos.id, 'speaker_2.mp3'))).toBe(true);
  });

  it('answers 404 with a sentence when the publisher has no such sample', async () => {
    const res = await t.call('GET', `/api/v1/voice-packs/${vivos.id}/sample?speaker=9`);
    expect(res.status).toBe(404);
    expect(res.json.error_code ?? res.json.code ?? res.text).toMatch(/VOICE_PACK_NOT_FOUND/);
    expect(res.text).toMatch(/No sample is published for vi_VN-vivos-x_low speaker 9/);
  });

  it('refuses a bad speaker, and answers only with a key or the session', async () => {
    const bad = await t.call('GET', `/api/v1/voice-packs/${vivos.id}/sample?speaker=x`);
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/speaker/);
    const anonymous = await t.call('GET', `/api/v1/voice-packs/${vivos.id}/sample`, { key: null });
    expect(anonymous.status).toBe(401);
  });
});

describe("a pack's speed, measured on its first use", () => {
  it('records RTF and time to first audio after the first render, once', async () => {
    const started = await t.call('POST', '/api/v1/voice-packs/install', {
      key: null,
      headers: signedIn,
      body: { id: speaking.entry.id },
    });
    expect(started.status, started.text).toBe(200);
    await eventually(
      async () => (await packs()).find((p) => p.id === speaking.entry.id && p.state === 'installed'),
      30_000,
    );
    expect((await packs()).find((p) => p.id === speaking.entry.id)!.speed).toBeNull();
    // Installed from the catalogue's very files: the catalogue's licence codes stay with it.
    expect((await packs()).find((p) => p.id === speaking.entry.id)!.licence_terms).toEqual({
      name: 'CC-BY-4.0',
      data_licence: false,
      qualifiers: [],
    });

    const render = async () => {
      const before = performance.now();
      const res = await t.call('POST', '/api/v1/tts', {
        body: {
          input_text: 'The lighthouse keeper climbed the stairs. The lamp was lit at dusk.',
          voice_code: 'en_female_emily_us',
          model_id: 'std-v1.6',
          audio_type: 'wav',
        },
      });
      expect(res.status, res.text).toBe(200);
      const id = res.json.result.request_id as string;
      const detail = await eventually(async () => {
        const d = (await t.call('GET', `/api/v1/tts/${id}`)).json.result;
        return d.status === 'SUCCESS' || d.status === 'FAILURE' ? d : undefined;
      }, 60_000);
      expect(detail.status).toBe('SUCCESS');
      expect(detail.engine).toBe(`piper:${speaking.entry.id}#0`);
      return performance.now() - before;
    };
    const elapsed = await render();
    const speedFile = join(t.dir, 'voices', speaking.entry.id, 'speed.json');
    const kept = JSON.parse(readFileSync(speedFile, 'utf8')) as PackSpeed;
    expect(kept.engine).toBe(`piper:${speaking.entry.id}#0`);
    expect(kept.rtf).toBeGreaterThan(0);
    expect(kept.ttfa_ms).toBeGreaterThan(0);
    expect(kept.ttfa_ms).toBeLessThanOrEqual(kept.wall_ms);
    // The render's wall time lies inside the request's, as the test saw it.
    expect(kept.wall_ms).toBeLessThanOrEqual(elapsed);
    expect(kept.audio_ms).toBeGreaterThan(500);
    expect(kept.rtf).toBeCloseTo(kept.wall_ms / kept.audio_ms, 3);

    const listed = (await packs()).find((p) => p.id === speaking.entry.id)!;
    expect(listed.speed).toEqual(kept);

    // Measured once: a second render leaves the figures as they were.
    await render();
    expect(JSON.parse(readFileSync(speedFile, 'utf8'))).toEqual(kept);
  }, 120_000);
});
