/**
 * Pitch shift and time stretch, measured: median F0 by autocorrelation, speech span, RMS and
 * clipping (test/fixtures/audio-analysis.ts), on a synthetic voiced signal and on real eSpeak
 * output from the worker pool.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PITCH_RATIO, MIN_PITCH_RATIO } from '../../../../electron/core/engine/audio/pitch-limits';
import { stretchAndShift } from '../../../../electron/core/engine/audio/pitch-shift';
import { createWorkerPool, type WorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { clippedSamples, medianF0, rmsOf, speechSpanMs } from '../../../fixtures/audio-analysis';

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

/** 16-bit `pcm` with its pitch × `pitch` and its duration × `duration`, measured as 16-bit. */
function shift(pcm: Int16Array, rate: number, pitch: number, duration = 1): Int16Array {
  const out = stretchAndShift(
    Float32Array.from(pcm, (v) => v / 32768),
    rate,
    pitch,
    duration,
  );
  return Int16Array.from(out, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32768))));
}

/** Index of the first sample louder than `threshold`. */
function onset(pcm: Int16Array, threshold = 1000): number {
  return pcm.findIndex((s) => Math.abs(s) > threshold);
}

/**
 * What every shift must keep: length (× `duration`), start (× `duration`), loudness, no
 * clipping; and the pitch it moved.
 */
function expectShifted(
  input: Int16Array,
  output: Int16Array,
  rate: number,
  ratio: number,
  duration = 1,
): void {
  expect(output.length).toBe(Math.round(input.length * duration));
  expect(Math.abs(onset(output) - onset(input) * duration) / rate).toBeLessThan(0.01);
  const spanIn = speechSpanMs(input, rate) * duration;
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

describe('stretchAndShift on a synthetic voiced signal', () => {
  const input = voiced(2.5);

  for (const ratio of [0.5, 0.8, 1.25, 2]) {
    it(`moves F0 by ${ratio} and keeps length, onset, loudness`, () => {
      expect(medianF0(input, RATE)).toBeGreaterThan(145);
      expectShifted(input, shift(input, RATE, ratio), RATE, ratio);
    });
  }

  for (const [pitch, duration] of [
    [1, 0.7],
    [1, 1.6],
    [1.25, 0.8],
    [0.8, 1.3],
  ] as const) {
    it(`stretches the duration by ${duration} with F0 × ${pitch}`, () => {
      expectShifted(input, shift(input, RATE, pitch, duration), RATE, pitch, duration);
    });
  }

  it('works at the neural voices’ rates (16 and 24 kHz)', () => {
    for (const rate of [16000, 24000]) {
      const pcm = voiced(1.5, 150, rate);
      expectShifted(pcm, shift(pcm, rate, 1.5), rate, 1.5);
    }
  });

  it('returns the input itself when nothing changes, and refuses values out of range', () => {
    const floats = Float32Array.from(input, (v) => v / 32768);
    expect(stretchAndShift(floats, RATE, 1, 1)).toBe(floats);
    expect(stretchAndShift(new Float32Array(0), RATE, 2, 1).length).toBe(0);
    for (const ratio of [MIN_PITCH_RATIO - 0.01, MAX_PITCH_RATIO + 0.01, Number.NaN, 0]) {
      expect(() => stretchAndShift(floats, RATE, ratio, 1)).toThrow(RangeError);
    }
    for (const duration of [0.24, 4.01, Number.NaN]) {
      expect(() => stretchAndShift(floats, RATE, 1, duration)).toThrow(RangeError);
    }
    expect(() => stretchAndShift(floats, 22050.5, 2, 1)).toThrow(RangeError);
  });
});

describe('stretchAndShift on eSpeak speech from the pool', () => {
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
      for (const ratio of [2, 0.5]) expectShifted(speech.pcm, shift(speech.pcm, RATE, ratio), RATE, ratio);
    });
  }
});
