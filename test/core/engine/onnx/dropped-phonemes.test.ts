/**
 * Phonemes a Piper voice does not know are left out of its audio, and the render says so: a
 * synthetic model with the real `vi_VN-vivos-x_low.onnx.json` (its 130-symbol map, no tone
 * digits) speaks Vietnamese, and the render result counts every phoneme eSpeak gave that the
 * map lacks; a voice whose map holds every phoneme of its text gives no warning.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../electron/core/engine/create-engine';
import type { Engine, NeuralVoice } from '../../../../electron/core/engine/engine';
import { createWorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { buildPiperModel } from '../../../fixtures/onnx/build-models';
import { piperConfig } from '../../../fixtures/onnx/piper-config';

const VIVOS_CONFIG = join(__dirname, '../../../fixtures/onnx/vi_VN-vivos-x_low.onnx.json');
const VI_TEXT = 'Xin chào các bạn, tôi tên là Nam. Hôm nay trời đẹp quá!';
const EN_TEXT = 'The lighthouse keeper climbed the stairs. The sea rolled in long grey lines.';

let dir: string;
let engine: Engine;
let vivos: NeuralVoice;
let lessac: NeuralVoice;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dropped-phonemes-'));
  const config = JSON.parse(readFileSync(VIVOS_CONFIG, 'utf8')) as { num_speakers: number };
  writeFileSync(
    join(dir, 'vivos.onnx'),
    buildPiperModel({ numSpeakers: config.num_speakers, sampleRate: 16000 }),
  );
  writeFileSync(join(dir, 'vivos.onnx.json'), readFileSync(VIVOS_CONFIG));
  vivos = {
    family: 'piper',
    packId: 'vi_VN-vivos-x_low',
    modelPath: join(dir, 'vivos.onnx'),
    configPath: join(dir, 'vivos.onnx.json'),
    speaker: 3,
  };
  writeFileSync(join(dir, 'lessac.onnx'), buildPiperModel({ sampleRate: 22050 }));
  writeFileSync(join(dir, 'lessac.onnx.json'), JSON.stringify(piperConfig({ espeakVoice: 'en-us' })));
  lessac = {
    family: 'piper',
    packId: 'en_US-lessac-medium',
    modelPath: join(dir, 'lessac.onnx'),
    configPath: join(dir, 'lessac.onnx.json'),
    speaker: 0,
  };
  engine = await createEngine({ poolSize: 1 });
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = { model_id: 'std-v1.6', bitrate: 128, speed_rate: 1, pitch_rate: 1, volume: 100 } as const;

/** eSpeak's phonemes of `text` (the worker pool's own reading), each code point the map lacks, counted. */
async function expectedDropped(text: string, voice: string, map: Record<string, unknown>) {
  const pool = await createWorkerPool({ size: 1 });
  try {
    const counts = new Map<string, number>();
    for (const clause of await pool.phonemize(text, voice)) {
      for (const word of clause.words) {
        for (const cp of Array.from(word.join(''))) {
          if (!(cp in map)) counts.set(cp, (counts.get(cp) ?? 0) + 1);
        }
      }
    }
    return counts;
  } finally {
    await pool.close();
  }
}

describe('phonemes a voice does not know', () => {
  it('are counted per render and reported with the vivos map', async () => {
    const map = (
      JSON.parse(readFileSync(VIVOS_CONFIG, 'utf8')) as { phoneme_id_map: Record<string, unknown> }
    ).phoneme_id_map;
    const expected = await expectedDropped(VI_TEXT, 'vi', map);
    const total = [...expected.values()].reduce((a, b) => a + b, 0);
    // The map has no tone digits; eSpeak's Vietnamese carries some: the test means something.
    expect(total).toBeGreaterThan(0);

    const result = await engine.render({
      ...base,
      voice_code: 'vi_female_thuytrang_mb',
      audio_type: 'wav',
      text: VI_TEXT,
      audioPath: join(dir, 'vi.wav'),
      neuralVoice: vivos,
    });
    expect(result.engine).toBe('piper:vi_VN-vivos-x_low#3');
    expect(Object.fromEntries(result.droppedPhonemes.map((d) => [d.phoneme, d.count]))).toEqual(
      Object.fromEntries(expected),
    );
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toContain(`piper:vi_VN-vivos-x_low#3 does not know ${total} phonemes`);
    for (const [phoneme, count] of expected) expect(result.warnings[0]).toContain(`"${phoneme}" ×${count}`);
  });

  it('are reported again when the render comes from the sentence cache', async () => {
    const cacheDir = join(dir, 'cache');
    const cached = await createEngine({
      poolSize: 1,
      sentenceCache: { dir: cacheDir, maxBytes: 50_000_000 },
    });
    try {
      const render = () =>
        cached.render({
          ...base,
          voice_code: 'vi_female_thuytrang_mb',
          audio_type: 'wav',
          text: VI_TEXT,
          audioPath: join(dir, 'vi-cached.wav'),
          neuralVoice: vivos,
        });
      const first = await render();
      const second = await render();
      expect(first.droppedPhonemes.length).toBeGreaterThan(0);
      expect(second.droppedPhonemes).toEqual(first.droppedPhonemes);
    } finally {
      await cached.close();
    }
  });

  it('give no warning when the voice knows every phoneme', async () => {
    const map = piperConfig().phoneme_id_map as Record<string, unknown>;
    expect((await expectedDropped(EN_TEXT, 'en-us', map)).size).toBe(0);
    const result = await engine.render({
      ...base,
      voice_code: 'en_female_emily_us',
      audio_type: 'wav',
      text: EN_TEXT,
      audioPath: join(dir, 'en.wav'),
      neuralVoice: lessac,
    });
    expect(result.engine).toBe('piper:en_US-lessac-medium#0');
    expect(result.droppedPhonemes).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});
