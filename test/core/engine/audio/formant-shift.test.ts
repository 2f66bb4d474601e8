/**
 * Formant shift that keeps pitch and length, measured on a synthetic vowel (a 120 Hz pulse
 * train through three formant resonators) and on real eSpeak speech: the spectral centroid
 * moves with the ratio, median F0 and length stay, loudness stays.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_FORMANT_RATIO,
  MIN_FORMANT_RATIO,
  shiftFormants,
} from '../../../../electron/core/engine/audio/formant-shift';
import { createWorkerPool, type WorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { medianF0, rmsOf, spectralCentroidHz } from '../../../fixtures/audio-analysis';

const RATE = 22050;

/** An "a" vowel: pulses at `f0` through resonators at 700, 1220 and 2600 Hz, 1 s, peak ~0.5. */
function vowel(f0 = 120, rate = RATE): Float32Array {
  const n = rate;
  let signal = new Float64Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    phase += f0 / rate;
    if (phase >= 1) {
      phase -= 1;
      signal[i] = 1;
    }
  }
  for (const [hz, bandwidth] of [
    [700, 90],
    [1220, 100],
    [2600, 140],
  ] as const) {
    const r = Math.exp((-Math.PI * bandwidth) / rate);
    const a1 = 2 * r * Math.cos((2 * Math.PI * hz) / rate);
    const a2 = -r * r;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++)
      out[i] = (1 - r) * signal[i]! + a1 * (out[i - 1] ?? 0) + a2 * (out[i - 2] ?? 0);
    signal = out;
  }
  const peak = Math.max(...signal.map(Math.abs));
  return Float32Array.from(signal, (v) => (0.5 * v) / peak);
}

/** 16-bit PCM, saturated as the engine saturates it. */
const toPcm = (samples: Float32Array) =>
  Int16Array.from(samples, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767))));

describe('shiftFormants', () => {
  const source = vowel();
  const pcm = toPcm(source);

  it.each([0.9, 0.94, 1.06, 1.1])(
    'ratio %s: centroid moved 0.6–1.4 times as far, F0 within 1 percent, length and RMS kept',
    (ratio) => {
      const shifted = shiftFormants(source, RATE, ratio);
      expect(shifted.length).toBe(source.length);
      const out = toPcm(shifted);
      const centroid = spectralCentroidHz(out, RATE) / spectralCentroidHz(pcm, RATE);
      // The centroid moves the same way as the formants, by at least 60% of the ratio's move.
      expect(Math.sign(centroid - 1)).toBe(Math.sign(ratio - 1));
      expect(Math.abs(centroid - 1)).toBeGreaterThanOrEqual(0.6 * Math.abs(ratio - 1));
      expect(Math.abs(centroid - 1)).toBeLessThanOrEqual(1.4 * Math.abs(ratio - 1));
      expect(Math.abs(medianF0(out, RATE) / medianF0(pcm, RATE) - 1)).toBeLessThan(0.01);
      expect(rmsOf(out) / rmsOf(pcm)).toBeCloseTo(1, 2);
    },
  );

  it('ratio 1 and empty input come back as they are; ratios and rates out of range are refused', () => {
    expect(shiftFormants(source, RATE, 1)).toBe(source);
    const empty = new Float32Array(0);
    expect(shiftFormants(empty, RATE, 1.1)).toBe(empty);
    expect(() => shiftFormants(source, RATE, MIN_FORMANT_RATIO - 0.01)).toThrow(RangeError);
    expect(() => shiftFormants(source, RATE, MAX_FORMANT_RATIO + 0.01)).toThrow(RangeError);
    expect(() => shiftFormants(source, RATE, Number.NaN)).toThrow(RangeError);
    expect(() => shiftFormants(source, 1000, 1.1)).toThrow(RangeError);
  });

  it('leaves silence silent', () => {
    const quiet = new Float32Array(4000);
    expect(shiftFormants(quiet, RATE, 1.1).every((v) => v === 0)).toBe(true);
  });
});

describe('shiftFormants on eSpeak speech', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 1 });
  });
  afterAll(() => pool?.close());

  it('moves the centroid of a real voice and keeps its F0 (±3%)', async () => {
    const output = await pool.synthesize('Xin chào các bạn, hôm nay trời đẹp quá.', {
      voice: 'vi+f2',
      rate: 175,
      pitch: 50,
      range: 50,
      volume: 100,
    });
    const source = Float32Array.from(output.pcm, (v) => v / 32768);
    const rate = output.sampleRate;
    const base = toPcm(source);
    for (const ratio of [0.92, 1.08]) {
      const out = toPcm(shiftFormants(source, rate, ratio));
      const centroid = spectralCentroidHz(out, rate) / spectralCentroidHz(base, rate);
      expect(Math.sign(centroid - 1)).toBe(Math.sign(ratio - 1));
      expect(Math.abs(centroid - 1)).toBeGreaterThanOrEqual(0.03);
      expect(Math.abs(medianF0(out, rate) / medianF0(base, rate) - 1)).toBeLessThan(0.03);
    }
  });
});
