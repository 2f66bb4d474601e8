import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peakOf as peak, rmsOf as rms } from '../../../fixtures/audio-analysis';
import { random } from '../../../fixtures/random';
import {
  createVolumeProcessor,
  dbfsToAmplitude,
  fadeEdges,
  LIMITER_CEILING_DB,
  silence,
  trimSilence,
} from '../../../../electron/core/engine/audio/dsp';
import { encodeWav } from '../../../../electron/core/engine/audio/wav';
import { speechPcm } from '../../../fixtures/espeak';

const RATE = 22050;
const CEILING = Math.round(dbfsToAmplitude(LIMITER_CEILING_DB));

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Runs a whole buffer through a fresh processor (process + flush). */
function applyVolume(pcm: Int16Array, gain: number): Int16Array {
  const processor = createVolumeProcessor({ gain, sampleRate: RATE });
  return concat([processor.process(pcm), processor.flush()]);
}

/** The same, fed in chunks of random sizes (0 to `max` samples). */
function applyVolumeChunked(pcm: Int16Array, gain: number, seed: number, max: number): Int16Array {
  const next = random(seed);
  const processor = createVolumeProcessor({ gain, sampleRate: RATE });
  const out: Int16Array[] = [];
  for (let offset = 0; offset < pcm.length;) {
    const n = Math.floor(next() * (max + 1));
    out.push(processor.process(pcm.subarray(offset, offset + n)));
    offset += n;
  }
  out.push(processor.flush());
  return concat(out);
}

/** Index of the first sample that differs (or the shorter length), -1 if the arrays are equal. */
function firstDifference(a: Int16Array, b: Int16Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

const clipped = (pcm: Int16Array) => pcm.reduce((n, s) => n + (s >= 32767 || s <= -32768 ? 1 : 0), 0);

function sine(ms: number, hz: number, amplitude: number): Int16Array {
  const out = new Int16Array(Math.round((ms / 1000) * RATE));
  for (let i = 0; i < out.length; i++)
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE));
  return out;
}

const EN =
  'The old lighthouse keeper climbed the stairs every evening, counting each step as the wind rose over the bay. ' +
  '"Do you hear that?" his daughter asked, pressing her face against the cold glass.';
const VI = 'Ngày xưa, có một cô bé sống bên bờ biển. Mỗi sáng, cô ra bãi cát nhặt những vỏ sò đẹp nhất.';

describe('volume and limiter on real engine output', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dsp-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The loudest voices of the catalogue (vi+f2 and belinda peak highest) and a default one.
  it.each([
    { voice: 'en-us', text: EN },
    { voice: 'en-gb-x-rp+belinda', text: EN },
    { voice: 'vi+f2', text: VI },
    { voice: 'vi-vn-x-south+f3', text: VI },
  ])(
    '$voice: volume 50/150 give 0.5×/1.5× the RMS of volume 100 (±10%), no clipped samples',
    async ({ voice, text }) => {
      const pcm = await speechPcm(text, voice);
      expect(pcm.length).toBeGreaterThan(RATE * 3);
      const at = (volume: number) => applyVolume(pcm, volume / 100);
      const [v50, v100, v150] = [at(50), at(100), at(150)];
      for (const out of [v50, v100, v150]) {
        expect(out.length).toBe(pcm.length);
        expect(clipped(out)).toBe(0);
        expect(peak(out)).toBeLessThanOrEqual(CEILING);
      }
      const base = rms(v100);
      expect(base).toBeGreaterThan(500);
      expect(rms(v50) / base).toBeGreaterThan(0.45);
      expect(rms(v50) / base).toBeLessThan(0.55);
      expect(rms(v150) / base).toBeGreaterThan(1.35);
      expect(rms(v150) / base).toBeLessThan(1.65);
      // Volume 150 drives this voice past the ceiling: the limiter, not clipping, held it.
      if (peak(pcm) * 1.5 > CEILING) expect(peak(v150)).toBeGreaterThan(CEILING - 100);
    },
  );

  it('sox agrees on the RMS ratios and reports no clipping in the WAV files', async () => {
    const pcm = await speechPcm(VI, 'vi+f2');
    const stat = (volume: number) => {
      const path = join(dir, `v${volume}.wav`);
      writeFileSync(path, encodeWav(applyVolume(pcm, volume / 100), RATE));
      // `sox … stat` prints to stderr.
      const result = spawnSync('sox', [path, '-n', 'stat'], { encoding: 'utf8' });
      expect(result.status).toBe(0);
      const text = result.stderr;
      const value = (name: string) => Number(new RegExp(`${name}:\\s+(-?[\\d.]+)`).exec(text)?.[1]);
      return {
        rms: value('RMS\\s+amplitude'),
        max: value('Maximum amplitude'),
        min: value('Minimum amplitude'),
      };
    };
    const [s50, s100, s150] = [stat(50), stat(100), stat(150)];
    expect(s100.rms).toBeGreaterThan(0.01);
    expect(s50.rms / s100.rms).toBeCloseTo(0.5, 1);
    expect(Math.abs(s150.rms / s100.rms - 1.5)).toBeLessThan(0.15);
    for (const s of [s50, s100, s150]) {
      expect(s.max).toBeLessThan(0.9);
      expect(s.min).toBeGreaterThan(-0.9);
    }
  });

  it('gives identical output whether the stream is processed whole or in random chunks', async () => {
    const pcm = await speechPcm(VI, 'vi+f2');
    for (const gain of [0.5, 1, 1.5]) {
      const whole = applyVolume(pcm, gain);
      // Chunks far smaller than the look-ahead, around it, and like the engine's (~2206).
      for (const [seed, max] of [
        [1, 7],
        [2, 300],
        [3, 5000],
      ] as const) {
        const chunked = applyVolumeChunked(pcm, gain, seed, max);
        expect(chunked.length).toBe(pcm.length);
        expect(firstDifference(chunked, whole)).toBe(-1);
      }
    }
  });

  it('leaves audio below the ceiling exactly as it was at volume 100', async () => {
    const pcm = await speechPcm(EN, 'en-us');
    expect(peak(pcm)).toBeLessThan(CEILING);
    expect(firstDifference(applyVolume(pcm, 1), pcm)).toBe(-1);
  });
});

describe('limiter behaviour', () => {
  it('scales a loud tone without changing its shape (no hard clipping)', () => {
    const tone = concat([silence(200, RATE), sine(300, 220, 30_000), silence(200, RATE)]);
    const out = applyVolume(tone, 1.5);
    expect(out.length).toBe(tone.length);
    expect(peak(out)).toBeLessThanOrEqual(CEILING);
    expect(clipped(out)).toBe(0);
    // In the steady middle of the tone the applied gain is one constant: a scaled sine, with
    // rounded (not flattened) peaks, at the ceiling.
    const start = Math.round(0.3 * RATE);
    const ratios: number[] = [];
    for (let i = start; i < start + Math.round(0.1 * RATE); i++) {
      if (Math.abs(tone[i]!) > 5000) ratios.push(out[i]! / tone[i]!);
    }
    const spread = Math.max(...ratios) - Math.min(...ratios);
    expect(spread).toBeLessThan(0.01);
    expect(Math.min(...ratios)).toBeGreaterThan(CEILING / 30_000 - 0.01);
    expect(peak(out)).toBeGreaterThan(CEILING - 50);
  });

  it('turns down before a sudden peak (look-ahead) and recovers after it (release)', () => {
    const quiet = 8000;
    const input = concat([sine(300, 150, quiet), sine(20, 150, 32_000), sine(700, 150, quiet)]);
    const out = applyVolume(input, 1.5);
    expect(peak(out)).toBeLessThanOrEqual(CEILING);
    const window = (fromMs: number, toMs: number) =>
      rms(out.subarray(Math.round((fromMs / 1000) * RATE), Math.round((toMs / 1000) * RATE))) /
      rms(input.subarray(Math.round((fromMs / 1000) * RATE), Math.round((toMs / 1000) * RATE)));
    // Well before the burst: full gain. Just before it: already lowered (look-ahead).
    expect(window(100, 280)).toBeCloseTo(1.5, 2);
    expect(window(297, 300)).toBeLessThan(1.4);
    // Half a second after the burst the gain is back to 1.5.
    expect(window(800, 1000)).toBeCloseTo(1.5, 2);
  });

  it('returns exactly as many samples as it was given, even fewer than its look-ahead', () => {
    for (const length of [0, 1, 50, 109, 110, 111, 5000]) {
      const processor = createVolumeProcessor({ gain: 1.2, sampleRate: RATE });
      const input = sine((length / RATE) * 1000, 300, 10_000);
      const head = processor.process(input);
      expect(head.length).toBe(Math.max(0, length - processor.latency));
      const tail = processor.flush();
      expect(head.length + tail.length).toBe(length);
      expect(concat([head, tail])).toEqual(applyVolume(input, 1.2));
    }
  });

  it('can be reused after flush', () => {
    const processor = createVolumeProcessor({ gain: 1.5, sampleRate: RATE });
    const input = sine(100, 440, 25_000);
    const first = concat([processor.process(input), processor.flush()]);
    const second = concat([processor.process(input), processor.flush()]);
    expect(second).toEqual(first);
  });

  it('rejects a negative or non-finite gain', () => {
    expect(() => createVolumeProcessor({ gain: -1, sampleRate: RATE })).toThrow(RangeError);
    expect(() => createVolumeProcessor({ gain: Number.NaN, sampleRate: RATE })).toThrow(RangeError);
  });
});

describe('helpers', () => {
  it('silence has the requested length and is zero', () => {
    expect(silence(1000, RATE).length).toBe(RATE);
    expect(silence(250, RATE).length).toBe(5513);
    expect(silence(0, RATE).length).toBe(0);
    expect(silence(-5, RATE).length).toBe(0);
    expect(peak(silence(100, RATE))).toBe(0);
  });

  it('rms and peak measure levels in sample units', () => {
    expect(rms(new Int16Array(0))).toBe(0);
    expect(rms(Int16Array.from([3, -3, 3, -3]))).toBe(3);
    expect(rms(sine(1000, 441, 10_000))).toBeCloseTo(10_000 / Math.SQRT2, -1);
    expect(peak(Int16Array.from([5, -32768, 7]))).toBe(32768);
  });

  it('fadeEdges ramps both ends to zero over the given time and leaves the middle', () => {
    const pcm = new Int16Array(RATE).fill(10_000);
    fadeEdges(pcm, RATE, 5);
    const ramp = Math.round(0.005 * RATE);
    expect(pcm[0]).toBe(0);
    expect(pcm[pcm.length - 1]).toBe(0);
    for (let i = 1; i < ramp; i++) expect(pcm[i]!).toBeGreaterThanOrEqual(pcm[i - 1]!);
    expect(pcm[ramp]).toBe(10_000);
    expect(pcm[pcm.length - 1 - ramp]).toBe(10_000);
    expect(pcm.subarray(ramp, pcm.length - ramp).every((s) => s === 10_000)).toBe(true);
    // Shorter than two fades: both ends still reach zero, no index runs past the middle.
    const short = new Int16Array(10).fill(1000);
    fadeEdges(short, RATE, 5);
    expect(short[0]).toBe(0);
    expect(short[9]).toBe(0);
    const onlyIn = new Int16Array(1000).fill(1000);
    fadeEdges(onlyIn, RATE, 5, 'in');
    expect(onlyIn[0]).toBe(0);
    expect(onlyIn[999]).toBe(1000);
  });

  it('trimSilence counts the silent samples at each end of engine output', async () => {
    const pcm = await speechPcm('Hello there.', 'en-us');
    const { start, end } = trimSilence(pcm);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(0);
    const threshold = dbfsToAmplitude(-60);
    expect(Math.abs(pcm[start]!)).toBeGreaterThan(threshold);
    expect(Math.abs(pcm[pcm.length - 1 - end]!)).toBeGreaterThan(threshold);
    expect(peak(pcm.subarray(0, start))).toBeLessThanOrEqual(threshold);
    expect(peak(pcm.subarray(pcm.length - end))).toBeLessThanOrEqual(threshold);
    // A higher threshold trims more.
    const loose = trimSilence(pcm, -30);
    expect(loose.start).toBeGreaterThan(start);
    expect(trimSilence(new Int16Array(100))).toEqual({ start: 100, end: 0 });
    expect(trimSilence(new Int16Array(0))).toEqual({ start: 0, end: 0 });
  });
});
