/**
 * The API's prosody bounds on neural voices, measured as on eSpeak's
 * (test/core/engine/espeak/prosody.test.ts): the real engine renders synthetic Piper and
 * Kokoro models (real signatures, a tone per id) at each speed, pitch and volume, and the
 * WAV is measured: speech span, median F0, RMS, clipped samples.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../electron/core/engine/create-engine';
import { speedCorrection } from '../../../../electron/core/engine/onnx/neural-backends';
import type { Engine, NeuralVoice } from '../../../../electron/core/engine/engine';
import { DEFAULT_SYNTHESIS } from '../../../../electron/shared/options';
import { clippedSamples, rmsOf, speechSpanMs, wavSamples } from '../../../fixtures/audio-analysis';
import { buildPiperModel } from '../../../fixtures/onnx/build-models';
import { syntheticKokoroVoice } from '../../../fixtures/onnx/kokoro-data';
import { piperConfig } from '../../../fixtures/onnx/piper-config';
import { medianToneHz } from '../../../fixtures/onnx/tone';

const TEXT =
  'The quick brown fox jumps over the lazy dog, and then it runs away. It hides in the quiet forest near the river.';

let dir: string;
let engine: Engine;
let counter = 0;

const voices: Record<string, NeuralVoice> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'neural-prosody-'));
  const modelPath = join(dir, 'en_US-prosody-medium.onnx');
  writeFileSync(modelPath, buildPiperModel({ sampleRate: 22050 }));
  writeFileSync(`${modelPath}.json`, JSON.stringify(piperConfig({ sampleRate: 22050 })));
  voices.piper = {
    family: 'piper',
    packId: 'prosody',
    modelPath,
    configPath: `${modelPath}.json`,
    speaker: 0,
  };
  voices.kokoro = await syntheticKokoroVoice(dir, 'kokoro', 'af_test');
  engine = await createEngine({ poolSize: 2 });
}, 60_000);
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function renderWav(
  voice: NeuralVoice,
  options: { speed_rate?: number; pitch_rate?: number; volume?: number; timingsPath?: string } = {},
) {
  const audioPath = join(dir, `out-${++counter}.wav`);
  const result = await engine.render({
    ...DEFAULT_SYNTHESIS,
    voice_code: 'en_female_emily_us',
    ...options,
    audio_type: 'wav',
    text: TEXT,
    audioPath,
    neuralVoice: voice,
  });
  const { pcm, sampleRate } = wavSamples(new Uint8Array(readFileSync(audioPath)));
  return { pcm, sampleRate, result };
}

describe.each(['piper', 'kokoro'])('%s voice prosody', (family) => {
  const measured = new Map<string, { span: number; f0: number }>();
  beforeAll(async () => {
    const variants: Array<[string, { speed_rate?: number; pitch_rate?: number }]> = [
      ['base', {}],
      ['speed0.5', { speed_rate: 0.5 }],
      ['speed2', { speed_rate: 2 }],
      ['pitch0.5', { pitch_rate: 0.5 }],
      ['pitch2', { pitch_rate: 2 }],
    ];
    for (const [what, options] of variants) {
      const { pcm, sampleRate, result } = await renderWav(voices[family]!, options);
      expect(result.engine).toMatch(new RegExp(`^${family}:`));
      measured.set(what, { span: speechSpanMs(pcm, sampleRate), f0: medianToneHz(pcm, sampleRate) });
    }
  }, 120_000);

  it('speed 2.0 takes 45–55% and 0.5 takes 180–220% of the 1.0 duration', () => {
    const base = measured.get('base')!.span;
    const fast = measured.get('speed2')!.span / base;
    const slow = measured.get('speed0.5')!.span / base;
    expect(fast).toBeGreaterThanOrEqual(0.45);
    expect(fast).toBeLessThanOrEqual(0.55);
    expect(slow).toBeGreaterThanOrEqual(1.8);
    expect(slow).toBeLessThanOrEqual(2.2);
  });

  it('pitch 2.0 raises median F0 ≥ 1.4×, 0.5 lowers it to ≤ 0.8×, duration within 10%', () => {
    const base = measured.get('base')!;
    const high = measured.get('pitch2')!;
    const low = measured.get('pitch0.5')!;
    expect(base.f0).toBeGreaterThan(0);
    expect(high.f0 / base.f0).toBeGreaterThanOrEqual(1.4);
    expect(low.f0 / base.f0).toBeLessThanOrEqual(0.8);
    expect(Math.abs(high.span / base.span - 1)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(low.span / base.span - 1)).toBeLessThanOrEqual(0.1);
  });

  it('volume 50 and 150 scale RMS by 0.5 and 1.5 (±10%) without clipping', async () => {
    const [v50, v100, v150] = await Promise.all(
      [50, 100, 150].map((volume) => renderWav(voices[family]!, { volume })),
    );
    const r100 = rmsOf(v100!.pcm);
    expect(rmsOf(v50!.pcm) / r100).toBeGreaterThanOrEqual(0.45);
    expect(rmsOf(v50!.pcm) / r100).toBeLessThanOrEqual(0.55);
    expect(rmsOf(v150!.pcm) / r100).toBeGreaterThanOrEqual(1.35);
    expect(rmsOf(v150!.pcm) / r100).toBeLessThanOrEqual(1.65);
    for (const r of [v50, v100, v150]) expect(clippedSamples(r!.pcm)).toBe(0);
  });
});

describe('speed correction of a Piper voice', () => {
  it('speedCorrection: the speed-1 frames (ceil of w × speed) over speed, per frame the model gave', () => {
    // w at speed 2 of ids lasting 1, 2, 3 frames at speed 1: the model gives 1 + 1 + 2 frames.
    expect(speedCorrection(Float32Array.of(0.5, 1, 1.5), 2)).toBeCloseTo(3 / 4, 6);
    expect(speedCorrection(Float32Array.of(2, 4, 6), 0.5)).toBe(1);
    expect(speedCorrection(Float32Array.of(0.5, 1, 1.5), 1)).toBe(1);
    expect(speedCorrection(undefined, 2)).toBe(1);
  });

  it('word timings follow the corrected audio: at speed 2 every word starts at half its speed-1 time', async () => {
    const timings = async (speed_rate: number) => {
      const timingsPath = join(dir, `timings-${speed_rate}.json`);
      await renderWav(voices.piper!, { speed_rate, timingsPath });
      return JSON.parse(readFileSync(timingsPath, 'utf8')) as Array<{ text: string; startMs: number }>;
    };
    const [normal, fast] = [await timings(1), await timings(2)];
    expect(fast.map((w) => w.text)).toEqual(normal.map((w) => w.text));
    // Half a frame of rounding per id at most, and the correction is per sentence: within 40 ms.
    fast.forEach((w, i) => expect(Math.abs(w.startMs - normal[i]!.startMs / 2)).toBeLessThan(40));
  });
});
