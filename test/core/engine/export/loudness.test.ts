import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createResampler } from '../../../../electron/core/engine/audio/resampler';
import { encodeWav } from '../../../../electron/core/engine/audio/wav';
import { createLoudnessMeter } from '../../../../electron/core/engine/export/loudness';
import { measureLoudness } from '../../../fixtures/audio-analysis';
import { speechPcm } from '../../../fixtures/espeak';
import { astats, integratedLufs } from './ffmpeg';

const dir = mkdtempSync(join(tmpdir(), 'loudness-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function sine(hz: number, dbfs: number, seconds: number, rate: number, phase = 0): Int16Array {
  const amplitude = 32768 * 10 ** (dbfs / 20);
  return Int16Array.from({ length: Math.round(seconds * rate) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate + phase)),
  );
}

function wavFile(name: string, pcm: Int16Array, rate: number): string {
  const path = join(dir, name);
  writeFileSync(path, encodeWav(pcm, rate));
  return path;
}

describe('loudness measurement', () => {
  it('reads a 997 Hz tone as BS.1770 does: −20 dBFS peak is −23 dBFS RMS and −23.0 LUFS', () => {
    const m = measureLoudness(sine(997, -20, 5, 48000), 48000);
    expect(m.peakDbfs!).toBeCloseTo(-20, 1);
    expect(m.rmsDbfs!).toBeCloseTo(-23.01, 1);
    // BS.1770's K-weighting gains about +0.0 dB at 997 Hz (the calibration point: −3.01 LUFS at 0 dBFS peak).
    expect(m.integratedLufs!).toBeGreaterThan(-23.2);
    expect(m.integratedLufs!).toBeLessThan(-22.8);
  });

  it('gates out silence: a tone with as much silence after it keeps its loudness, not its RMS', () => {
    const rate = 44100;
    const tone = sine(997, -20, 4, rate);
    const padded = new Int16Array(tone.length * 2);
    padded.set(tone);
    const a = measureLoudness(tone, rate);
    const b = measureLoudness(padded, rate);
    // Silent blocks fall under the −70 LUFS gate; the three blocks across the tone's end (¾, ½, ¼
    // tone) stay within 10 LU of the rest: 37 whole and 1.5 blocks' worth over 40 blocks.
    expect(b.integratedLufs! - a.integratedLufs!).toBeCloseTo(10 * Math.log10(38.5 / 40), 2);
    expect(a.rmsDbfs! - b.rmsDbfs!).toBeCloseTo(3.01, 1);
    expect(b.noiseFloorDbfs).toBeNull();
    expect(b.tailMs).toBeCloseTo(4000, -1);
    expect(a.leadInMs).toBeLessThan(1);
  });

  it('finds the true peak between samples (a tone at a quarter of the rate, sampled at ±45°)', () => {
    const m = measureLoudness(sine(11025, -6, 1, 44100, Math.PI / 4), 44100);
    // The samples reach 0.707 of the amplitude; the wave itself 3 dB more.
    expect(m.peakDbfs!).toBeCloseTo(-9.01, 1);
    expect(m.truePeakDbtp!).toBeGreaterThan(-6.3);
    expect(m.truePeakDbtp!).toBeLessThan(-5.7);
  });

  it('gives the same figures whatever the blocks it is fed in', () => {
    const pcm = sine(440, -12, 3, 22050);
    const whole = measureLoudness(pcm, 22050);
    const meter = createLoudnessMeter(22050);
    for (let at = 0; at < pcm.length; at += 777) meter.add(pcm.subarray(at, at + 777));
    expect(meter.result()).toEqual(whole);
  });

  it('agrees with ffmpeg (ebur128, astats) within 0.5 LU on speech at 22.05 and 44.1 kHz', async () => {
    const speech = await speechPcm(
      'The old lighthouse keeper climbed the stairs every evening. He counted each step, and the sea was loud below him.',
    );
    const resampler = await createResampler(22050, 44100);
    const [head, tail] = [resampler.process(speech), resampler.flush()];
    const at44 = new Int16Array(head.length + tail.length);
    at44.set(head);
    at44.set(tail, head.length);
    for (const [pcm, rate] of [
      [speech, 22050],
      [at44, 44100],
    ] as const) {
      const path = wavFile(`speech-${rate}.wav`, pcm, rate);
      const ours = measureLoudness(pcm, rate);
      const ffmpeg = await integratedLufs(path);
      expect(
        Math.abs(ours.integratedLufs! - ffmpeg),
        `ours ${ours.integratedLufs}, ffmpeg ${ffmpeg}`,
      ).toBeLessThan(0.5);
      const stats = await astats(path);
      expect(ours.rmsDbfs!).toBeCloseTo(stats.rmsDbfs, 1);
      expect(ours.peakDbfs!).toBeCloseTo(stats.peakDbfs, 1);
    }
  });
});

describe('the level search’s measurements', () => {
  it('measure one level alone exactly as the whole measurement does, and the true peak whatever the blocks', async () => {
    const pcm = (
      await speechPcm('It was a bright cold day in April, and the clocks were striking thirteen.')
    ).map((v) => Math.max(-32768, Math.min(32767, v * 3)));
    const rate = 22050;
    const whole = createLoudnessMeter(rate);
    whole.add(pcm);
    const all = whole.result();
    const rms = createLoudnessMeter(rate, { only: 'rms' });
    const lufs = createLoudnessMeter(rate, { only: 'lufs' });
    // In odd blocks: a level does not depend on how the stream was cut.
    for (let at = 0; at < pcm.length; at += 1001) {
      rms.add(pcm.subarray(at, at + 1001));
      lufs.add(pcm.subarray(at, at + 1001));
    }
    expect(rms.result().rmsDbfs).toBe(all.rmsDbfs);
    expect(rms.result().integratedLufs).toBeNull();
    expect(lufs.result().integratedLufs).toBeCloseTo(all.integratedLufs!, 10);
    expect(lufs.result().rmsDbfs).toBeNull();
    // The true peak search skips blocks that cannot hold a larger peak: sample by sample (every
    // block one point) it finds the same peak as in one block.
    const bySample = createLoudnessMeter(rate);
    for (let at = 0; at < pcm.length; at++) bySample.add(pcm.subarray(at, at + 1));
    expect(bySample.result().truePeakDbtp).toBe(all.truePeakDbtp);
    expect(all.truePeakDbtp!).toBeGreaterThanOrEqual(all.peakDbfs!);
  });
});
