/**
 * The Voice library's facts in the catalogue: every Piper pack's licence as its own MODEL_CARD
 * states it (with the quoted line as its source), the card's address at the pinned revision,
 * and where the publisher's sample recordings lie; and the samples fetched once through a
 * local mirror, kept, refused when too large, missing (404) or unreachable.
 */

import { createServer } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE, findCatalogueEntry, sampleUrl } from '../../../electron/core/voices/catalogue';
import { createVoiceLibrary, type VoiceLibrary } from '../../../electron/core/voices/library';
import { measuredPackId, readPackSpeed, recordPackSpeed } from '../../../electron/core/voices/pack-speed';
import { appErrorOf, noise, TEST_HTTP, VoiceMirror } from '../../fixtures/voice-mirror';

const piper = CATALOGUE.filter((e) => e.family === 'piper');

describe("the catalogue's licences, model cards and samples", () => {
  it('gives every Piper pack the licence its MODEL_CARD states, quoting the card', () => {
    expect(piper).toHaveLength(45);
    for (const entry of piper) {
      expect(entry.licence_source, entry.id).toMatch(/^MODEL_CARD: "\* License: [^"]+"/);
      expect(entry.licence, entry.id).not.toBe('unknown, see model card');
      // "unknown" only with the reason: the card itself says so.
      if (/unknown/i.test(entry.licence)) expect(entry.licence).toMatch(/model card says "Unknown"/);
      // A card that names no licence is said to, never turned into one.
      if (/"\* License: (See URL|See LICENSE file|Unknown)"/.test(entry.licence_source))
        expect(entry.licence, entry.id).toMatch(/^not stated/);
      else expect(entry.licence, entry.id).not.toMatch(/^not stated/);
    }
    const stated = piper.filter((e) => !e.licence.startsWith('not stated'));
    expect(stated).toHaveLength(34);
    expect(findCatalogueEntry('vi_VN-vivos-x_low')).toMatchObject({
      licence: expect.stringMatching(/^CC-BY-NC-SA-4\.0/),
      licence_source: 'MODEL_CARD: "* License: CC BY-NC-SA 4.0"',
    });
    expect(findCatalogueEntry('vi_VN-25hours_single-low')!.licence).toBe(
      'not stated: the model card says "Unknown"',
    );
    expect(findCatalogueEntry('fr_FR-tom-medium')!.licence).toBe('AGPL-3.0');
    expect(findCatalogueEntry('en_US-ryan-high')!.licence).toMatch(/non-commercial/);
  });

  it("links each pack's own model card at the pinned revision", () => {
    for (const entry of piper) {
      const card = entry.files.find((f) => f.role === 'card')!;
      // The card the pack downloads, read on the repository's page at the same revision.
      expect(entry.model_card_url).toBe(
        `https://huggingface.co/${card.url.replace('/resolve/v1.0.0/', '/blob/v1.0.0/')}`,
      );
    }
    for (const entry of CATALOGUE.filter((e) => e.family === 'kokoro')) {
      expect(entry.model_card_url).toBe(
        'https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX/blob/1939ad2a8e416c0acfeecc08a694d14ef25f2231/README.md',
      );
      expect(entry.samples).toBeNull();
    }
  });

  it("places Piper samples at piper-samples' layout, one per speaker", () => {
    const vivos = findCatalogueEntry('vi_VN-vivos-x_low')!;
    expect(sampleUrl('https://raw.githubusercontent.com/', vivos, 12)).toBe(
      'https://raw.githubusercontent.com/rhasspy/piper-samples/master/samples/vi/vi_VN/vivos/x_low/speaker_12.mp3',
    );
    expect(sampleUrl('https://x', findCatalogueEntry('kokoro-v1.0-q8')!, 0)).toBeUndefined();
  });
});

describe('sample recordings through a local mirror', () => {
  const entry = findCatalogueEntry('vi_VN-vivos-x_low')!;
  const samplePath = (speaker: number) =>
    new URL(sampleUrl('http://x', entry, speaker)!).pathname.replace(/^\//, '');
  let mirror: VoiceMirror;
  let dir: string;
  let library: VoiceLibrary;
  const open = (options: { sampleMirror?: string; sampleLimit?: number } = {}) =>
    createVoiceLibrary({
      dataDir: dir,
      validateModel: async () => undefined,
      sampleMirror: mirror.url,
      http: TEST_HTTP,
      ...options,
    });

  beforeAll(async () => {
    mirror = await VoiceMirror.start();
    dir = mkdtempSync(join(tmpdir(), 'voice-samples-'));
    library = open();
  });
  afterAll(async () => {
    await mirror.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fetches a sample once, then serves it from voices/samples', async () => {
    const bytes = noise(30_000, 7);
    mirror.put(samplePath(3), bytes);
    const first = await library.sample(entry.id, 3);
    expect(first).toMatchObject({ cached: false, size: bytes.length });
    expect(first.path).toBe(join(dir, 'voices', 'samples', entry.id, 'speaker_3.mp3'));
    const second = await library.sample(entry.id, 3);
    expect(second).toMatchObject({ cached: true, size: bytes.length, path: first.path });
    expect(mirror.requestsFor(samplePath(3))).toHaveLength(1);
    // The samples folder is never taken for a pack.
    expect(await library.list()).toEqual([]);
  });

  it('asks for a sample once when two requests come at the same time', async () => {
    mirror.put(samplePath(4), noise(5000, 4));
    const [a, b] = await Promise.all([library.sample(entry.id, 4), library.sample(entry.id, 4)]);
    expect(a.path).toBe(b.path);
    expect(mirror.requestsFor(samplePath(4))).toHaveLength(1);
  });

  it('says so when the publisher has no sample (404), keeping nothing', async () => {
    const error = await appErrorOf(library.sample(entry.id, 5));
    expect(error.code).toBe('VOICE_PACK_NOT_FOUND');
    expect(error.message).toMatch(/No sample is published for vi_VN-vivos-x_low speaker 5 .*404/);
    expect(readdirSync(join(dir, 'voices', 'samples', entry.id))).not.toContain('speaker_5.mp3.part');
  });

  it('refuses a sample over the size limit and keeps no part of it', async () => {
    mirror.put(samplePath(6), noise(20_000, 6));
    const small = open({ sampleLimit: 10_000 });
    const error = await appErrorOf(small.sample(entry.id, 6));
    expect(error.code).toBe('BODY_TOO_LARGE');
    expect(error.message).toMatch(/larger than 10000 bytes/);
    const kept = readdirSync(join(dir, 'voices', 'samples', entry.id));
    expect(kept.filter((name) => name.startsWith('speaker_6'))).toEqual([]);
  });

  it('refuses speakers the pack does not have and packs without samples', async () => {
    expect((await appErrorOf(library.sample(entry.id, 65))).code).toBe('INVALID_FIELD');
    const kokoro = await appErrorOf(library.sample('kokoro-v1.0-q8', 0));
    expect(kokoro.code).toBe('VOICE_PACK_NOT_FOUND');
    expect(kokoro.message).toMatch(/No sample recordings are published for kokoro-v1\.0-q8/);
    expect((await appErrorOf(library.sample('no-such-pack', 0))).code).toBe('VOICE_PACK_NOT_FOUND');
  });

  it('fails with a sentence when the sample host cannot be reached, keeping nothing', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as { port: number };
        server.close(() => resolve(p));
      });
    });
    const offline = open({ sampleMirror: `http://127.0.0.1:${port}` });
    const error = await appErrorOf(offline.sample(entry.id, 7));
    expect(error.code).toBe('VOICE_DOWNLOAD_FAILED');
    expect(error.message).toMatch(/the sample of vi_VN-vivos-x_low \(speaker 7\)/);
    expect(existsSync(join(dir, 'voices', 'samples', entry.id, 'speaker_7.mp3'))).toBe(false);
  });
});

describe('which render measures a pack', () => {
  it('measures a render spoken by one pack alone, never eSpeak or a mix of voices', () => {
    expect(measuredPackId('piper:vi_VN-vais1000-medium#0')).toBe('vi_VN-vais1000-medium');
    expect(measuredPackId('kokoro:kokoro-v1.0-q8#af_heart')).toBe('kokoro-v1.0-q8');
    expect(measuredPackId('espeak')).toBeUndefined();
    expect(measuredPackId('piper:en_US-amy-medium#0,espeak')).toBeUndefined();
    expect(measuredPackId('piper:../x#0')).toBeUndefined();
  });

  it('writes nothing without timings, without audio, or for a pack that is not installed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pack-speed-'));
    try {
      const render = { engine: 'piper:vi_VN-vais1000-medium#0', durationMs: 1000, characters: 10 };
      expect(
        await recordPackSpeed(dir, { ...render, timing: { wallMs: 100, firstAudioMs: 40 } }),
      ).toBeUndefined();
      mkdirSync(join(dir, 'voices', 'vi_VN-vais1000-medium'), { recursive: true });
      expect(await recordPackSpeed(dir, render)).toBeUndefined();
      expect(
        await recordPackSpeed(dir, { ...render, durationMs: 0, timing: { wallMs: 100, firstAudioMs: 40 } }),
      ).toBeUndefined();
      const first = await recordPackSpeed(dir, { ...render, timing: { wallMs: 250, firstAudioMs: 40 } });
      expect(first).toMatchObject({ rtf: 0.25, ttfa_ms: 40, wall_ms: 250, audio_ms: 1000 });
      expect(await readPackSpeed(dir, 'vi_VN-vais1000-medium')).toEqual(first);
      // Once measured, never again.
      expect(
        await recordPackSpeed(dir, { ...render, timing: { wallMs: 900, firstAudioMs: 90 } }),
      ).toBeUndefined();
      expect(await readPackSpeed(dir, 'vi_VN-vais1000-medium')).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
