import { describe, expect, it } from 'vitest';
import { createResampler } from '../../../../electron/core/engine/audio/resampler';
import { concatBytes } from '../../../../electron/core/engine/audio/stream-encoder';
import { fft, rmsOf } from '../../../fixtures/audio-analysis';

/** A sine of `hz` at `amplitude` (32768 = full scale), `count` samples at `rate`. */
function sine(hz: number, amplitude: number, count: number, rate: number): Int16Array {
  const pcm = new Int16Array(count);
  for (let i = 0; i < count; i++) pcm[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
  return pcm;
}

/** `input` through a resampler from `from` to `to` Hz, in blocks of `block`, flushed. */
async function resample(input: Int16Array, from: number, to: number, block = 10_000): Promise<Int16Array> {
  const resampler = await createResampler(from, to);
  const parts: Int16Array[] = [];
  for (let at = 0; at < input.length; at += block)
    parts.push(resampler.process(input.subarray(at, at + block)));
  parts.push(resampler.flush());
  const bytes = concatBytes(parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 1);
}

/** Power spectrum (Hann window) of `pcm[from, from + size)`, `size` a power of two; bin k is k·rate/size Hz. */
function powerSpectrum(pcm: Int16Array, from: number, size: number): Float64Array {
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let i = 0; i < size; i++) re[i] = pcm[from + i]! * (0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
  fft(re, im);
  const power = new Float64Array(size / 2);
  for (let k = 0; k < size / 2; k++) power[k] = re[k]! ** 2 + im[k]! ** 2;
  return power;
}

const SIZE = 16384;

describe('the resampler from the voices’ 24 kHz to the exports’ 44.1 kHz', () => {
  it('keeps a sine’s frequency, level and length, and puts almost nothing above 12 kHz', async () => {
    const seconds = 2;
    const out = await resample(sine(1000, 10_000, 24000 * seconds, 24000), 24000, 44100);
    expect(out.length).toBe(44100 * seconds);

    // Frequency: the spectrum's peak, refined by the parabola through the bins around it.
    const power = powerSpectrum(out, 22050, SIZE);
    let top = 1;
    for (let k = 1; k < power.length - 1; k++) if (power[k]! > power[top]!) top = k;
    const [a, b, c] = [power[top - 1]!, power[top]!, power[top + 1]!].map((p) => Math.log(p)) as [
      number,
      number,
      number,
    ];
    const hz = ((top + (0.5 * (a - c)) / (a - 2 * b + c)) * 44100) / SIZE;
    expect(Math.abs(hz - 1000)).toBeLessThan(1);

    // Level: the RMS of a sine of amplitude A is A/√2; within 0.05 dB.
    const rms = rmsOf(out.subarray(4410, out.length - 4410));
    expect(Math.abs(20 * Math.log10(rms / (10_000 / Math.SQRT2)))).toBeLessThan(0.05);

    // Images and aliases: the power above 12 kHz, relative to the whole, under −80 dB.
    const above = power.slice(Math.ceil((12_000 * SIZE) / 44100)).reduce((n, p) => n + p, 0);
    const all = power.reduce((n, p) => n + p, 0);
    expect(10 * Math.log10(above / all)).toBeLessThan(-80);
  });

  it('keeps a tone near the top of the band (10 kHz) within 0.5 dB, and its image (14 kHz) under −70 dB', async () => {
    const out = await resample(sine(10_000, 10_000, 48000, 24000), 24000, 44100);
    const power = powerSpectrum(out, 22050, SIZE);
    const band = (hz: number) => {
      const k = Math.round((hz * SIZE) / 44100);
      return power.slice(k - 8, k + 9).reduce((n, p) => n + p, 0);
    };
    const rms = rmsOf(out.subarray(4410, out.length - 4410));
    expect(Math.abs(20 * Math.log10(rms / (10_000 / Math.SQRT2)))).toBeLessThan(0.5);
    // Upsampling 24 → 44.1 kHz mirrors 10 kHz about 12 kHz (to 14 kHz) unless the filter removes it.
    expect(10 * Math.log10(band(14_000) / band(10_000))).toBeLessThan(-70);
  });

  it('gives the same samples whatever the blocks it is fed in', async () => {
    const input = sine(440, 8000, 30_000, 24000);
    const whole = await resample(input, 24000, 44100, input.length);
    const small = await resample(input, 24000, 44100, 777);
    expect(small).toEqual(whole);
  });
});
