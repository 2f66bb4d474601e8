/**
 * Pitch shift that keeps duration, measured: median F0 by autocorrelation, speech span,
 * RMS and clipping (test/fixtures/audio-analysis.ts), on a synthetic voiced signal and on
 * real eSpeak output from the worker pool.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPitchShifter,
  MAX_PITCH_RATIO,
  MIN_PITCH_RATIO,
  shiftPitch,
} from '../../../../electron/core/engine/audio/pitch-shift';
import { createWorkerPool, type WorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { clippedSamples, medianF0, peakOf, rmsOf, speechSpanMs } from '../../../fixtures/audio-analysis';
import { random } from '../../../fixtures/random';

const RATE = 22050;

/**
 * A voiced sound: 150 Hz with 12 harmonics falling off as 1/h, 5 Hz vibrato of ±3%, after
 * 0.5 s of silence and before 0.3 s of it.
 */
function voiced(seconds: number, f0 = 150, rate = RATE, amplitude = 6000): Int16Array {
  const lead = Math.round(0.5 * rate);
  const body = Math.round(seconds * rate);
  const out = new Int16Array(lead + body + Math.round(0.3 * rate));
  let phase = 0;
  for (let i = 0; i < body; i++) {
    phase += (2 * Math.PI * f0 * (1 + 0.03 * Math.sin((2 * Math.PI * 5 * i) / rate))) / rate;
    let v = 0;
    for (let h = 1; h <= 12; h++) v += Math.sin(h * phase) / h;
    out[lead + i] = Math.round(amplitude * v);
  }
  return out;
}

/** Index of the first sample louder than `threshold`. */
function onset(pcm: Int16Array, threshold = 1000): number {
  return pcm.findIndex((s) => Math.abs(s) > threshold);
}

/** What every shift must keep: length, start, loudness, no clipping; and the pitch it moved. */
function expectShifted(input: Int16Array, output: Int16Array, rate: number, ratio: number): void {
  expect(output.length).toBe(input.length);
  expect(Math.abs(onset(output) - onset(input)) / rate).toBeLessThan(0.01);
  const spanIn = speechSpanMs(input, rate);
  expect(Math.abs(speechSpanMs(output, rate) - spanIn) / spanIn).toBeLessThan(0.1);
  const loudness = rmsOf(output) / rmsOf(input);
  expect(loudness).toBeGreaterThan(0.8);
  expect(loudness).toBeLessThan(1.25);
  expect(clippedSamples(output)).toBe(0);
  const f0 = medianF0(output, rate) / medianF0(input, rate);
  if (ratio >= 2) expect(f0).toBeGreaterThanOrEqual(1.4);
  if (ratio <= 0.5) expect(f0).toBeLessThanOrEqual(0.8);
  expect(Math.abs(f0 / ratio - 1)).toBeLessThan(0.03);
}

describe('shiftPitch on a synthetic voiced signal', () => {
  const input = voiced(2.5);

  for (const ratio of [0.5, 0.8, 1.25, 2]) {
    it(`moves F0 by ${ratio} and keeps length, onset, loudness`, () => {
      expect(medianF0(input, RATE)).toBeGreaterThan(145);
      expectShifted(input, shiftPitch(input, RATE, ratio), RATE, ratio);
    });
  }

  it('works at the neural voices’ rates (16 and 24 kHz) and on float samples', () => {
    for (const rate of [16000, 24000]) {
      const pcm = voiced(1.5, 150, rate);
      expectShifted(pcm, shiftPitch(pcm, rate, 1.5), rate, 1.5);
    }
    const floats = Float32Array.from(input, (s) => s / 32768);
    const shifted = shiftPitch(floats, RATE, 2);
    expect(shifted).toBeInstanceOf(Float32Array);
    const asInt = shiftPitch(input, RATE, 2);
    let worst = 0;
    shifted.forEach((v, i) => (worst = Math.max(worst, Math.abs(Math.round(v * 32768) - (asInt[i] ?? 0)))));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('returns the input itself at ratio 1 and refuses ratios out of range', () => {
    expect(shiftPitch(input, RATE, 1)).toBe(input);
    expect(shiftPitch(new Int16Array(0), RATE, 2).length).toBe(0);
    for (const ratio of [MIN_PITCH_RATIO - 0.01, MAX_PITCH_RATIO + 0.01, Number.NaN, 0]) {
      expect(() => shiftPitch(input, RATE, ratio)).toThrow(RangeError);
    }
    expect(() => shiftPitch(input, 22050.5, 2)).toThrow(RangeError);
  });

  it('saturates 16-bit output instead of wrapping around', () => {
    const loud = voiced(1, 150, RATE, 19000);
    expect(peakOf(loud)).toBeGreaterThan(30000);
    const asFloat = shiftPitch(
      Float32Array.from(loud, (v) => v / 32768),
      RATE,
      0.5,
    );
    const asInt = shiftPitch(loud, RATE, 0.5);
    let over = 0;
    let worst = 0;
    asFloat.forEach((v, i) => {
      const exact = Math.round(v * 32768);
      if (exact > 32767 || exact < -32768) over++;
      worst = Math.max(worst, Math.abs(Math.max(-32768, Math.min(32767, exact)) - (asInt[i] ?? 0)));
    });
    expect(worst).toBeLessThanOrEqual(1);
    // The shift does overshoot here, so the test means something.
    expect(over).toBeGreaterThan(0);
  });

  it('streams: chunks of any size give the same pitch and nearly the same length', () => {
    const next = random(11);
    for (const ratio of [0.5, 2]) {
      const shifter = createPitchShifter(RATE, ratio, 'int16');
      const parts: Int16Array[] = [];
      for (let at = 0; at < input.length;) {
        const size = 1 + Math.floor(next() * 3000);
        parts.push(shifter.push(input.subarray(at, at + size)));
        at += size;
      }
      parts.push(shifter.flush());
      shifter.close();
      shifter.close();
      const out = Int16Array.from(parts.flatMap((p) => Array.from(p)));
      expect(Math.abs(out.length - input.length) / RATE).toBeLessThan(0.02);
      expect(Math.abs(medianF0(out, RATE) / medianF0(input, RATE) / ratio - 1)).toBeLessThan(0.03);
      expect(() => shifter.push(input)).toThrow();
    }
  });
});

describe('shiftPitch on eSpeak speech from the pool', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 1 });
  });
  afterAll(() => pool.close());

  for (const [voice, text] of [
    ['en-us', 'The quick brown fox jumps over the lazy dog. She sells sea shells by the sea shore.'],
    ['vi', 'Xin chào các bạn, hôm nay trời rất đẹp và chúng ta sẽ cùng nhau đi dạo.'],
  ] as const) {
    it(`${voice}: an octave up and down, duration kept`, async () => {
      const speech = await pool.synthesize(text, { voice, rate: 175, pitch: 50, range: 50, volume: 60 });
      expect(speech.sampleRate).toBe(RATE);
      for (const ratio of [2, 0.5])
        expectShifted(speech.pcm, shiftPitch(speech.pcm, RATE, ratio), RATE, ratio);
    });
  }
});
