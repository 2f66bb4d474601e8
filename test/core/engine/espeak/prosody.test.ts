import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICES } from '../../../../electron/shared/voices';
import { clippedSamples, medianF0, rmsOf, speechSpanMs } from '../../../fixtures/audio-analysis';
import { startEngine, type EngineFixture } from '../../../fixtures/engine';
import { SENTENCES } from '../../../fixtures/sentences';
import { DEFAULT_SYNTHESIS } from '../../../../electron/shared/options';

/**
 * Prosody bounds of the API, measured on real output of every voice: every render is made once,
 * in one batch that keeps the pool busy (the base render, at volume 100, is also the volume's).
 */
describe('prosody', () => {
  let fx: EngineFixture;
  type Row = { span: number; f0: number; rms: number; clipped: number };
  const results = new Map<string, Row>();
  const key = (code: string, what: string) => `${code}|${what}`;
  const F0_READ = new Set(['base', 'pitch0.5', 'pitch2']);

  beforeAll(async () => {
    fx = await startEngine();
    const jobs: Promise<void>[] = [];
    for (const v of VOICES) {
      const variants: Array<[string, { speed_rate?: number; pitch_rate?: number; volume?: number }]> = [
        ['base', {}],
        ['speed0.5', { speed_rate: 0.5 }],
        ['speed2', { speed_rate: 2 }],
        ['pitch0.5', { pitch_rate: 0.5 }],
        ['pitch2', { pitch_rate: 2 }],
        ['volume50', { volume: 50 }],
        ['volume150', { volume: 150 }],
      ];
      for (const [what, options] of variants) {
        jobs.push(
          fx
            .renderWav({ text: SENTENCES[v.language], voice_code: v.voice_code, ...options })
            .then(({ pcm, sampleRate }) => {
              results.set(key(v.voice_code, what), {
                span: speechSpanMs(pcm, sampleRate),
                // F0 (autocorrelation, most of this file's CPU) only where a check reads it.
                f0: F0_READ.has(what) ? medianF0(pcm, sampleRate) : Number.NaN,
                rms: rmsOf(pcm),
                clipped: clippedSamples(pcm),
              });
            }),
        );
      }
    }
    await Promise.all(jobs);
  }, 300_000);
  afterAll(() => fx.close());

  const codes = VOICES.map((v) => v.voice_code);

  it.each(codes)('%s: speed 2.0 takes 45–55%% and 0.5 takes 180–220%% of the 1.0 duration', (code) => {
    const base = results.get(key(code, 'base'))!.span;
    expect(results.get(key(code, 'speed2'))!.span / base).toBeGreaterThanOrEqual(0.45);
    expect(results.get(key(code, 'speed2'))!.span / base).toBeLessThanOrEqual(0.55);
    expect(results.get(key(code, 'speed0.5'))!.span / base).toBeGreaterThanOrEqual(1.8);
    expect(results.get(key(code, 'speed0.5'))!.span / base).toBeLessThanOrEqual(2.2);
  });

  it.each(codes)(
    '%s: pitch 2.0 raises median F0 ≥ 1.4×, 0.5 lowers it to ≤ 0.8×, duration within 10%%',
    (code) => {
      const base = results.get(key(code, 'base'))!;
      const high = results.get(key(code, 'pitch2'))!;
      const low = results.get(key(code, 'pitch0.5'))!;
      expect(high.f0 / base.f0).toBeGreaterThanOrEqual(1.4);
      expect(low.f0 / base.f0).toBeLessThanOrEqual(0.8);
      expect(Math.abs(high.span / base.span - 1)).toBeLessThanOrEqual(0.1);
      expect(Math.abs(low.span / base.span - 1)).toBeLessThanOrEqual(0.1);
    },
  );

  it('renders the base at volume 100', () => {
    expect(DEFAULT_SYNTHESIS.volume).toBe(100);
  });

  it.each(codes)('%s: volume 50 and 150 scale RMS by 0.5 and 1.5 (±10%%) without clipping', (code) => {
    const [v50, v100, v150] = ['volume50', 'base', 'volume150'].map((what) => results.get(key(code, what))!);
    expect(v50!.rms / v100!.rms).toBeGreaterThanOrEqual(0.45);
    expect(v50!.rms / v100!.rms).toBeLessThanOrEqual(0.55);
    expect(v150!.rms / v100!.rms).toBeGreaterThanOrEqual(1.35);
    expect(v150!.rms / v100!.rms).toBeLessThanOrEqual(1.65);
    for (const r of [v50, v100, v150]) expect(r!.clipped).toBe(0);
  });
});
