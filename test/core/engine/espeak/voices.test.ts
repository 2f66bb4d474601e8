import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICES, type LanguageCode } from '../../../../electron/shared/voices';
import { voiceSettings } from '../../../../electron/core/engine/espeak/voices';
import { medianF0, rmsOf, spectralCentroidHz, speechSpanMs } from '../../../fixtures/audio-analysis';
import { startEngine, type EngineFixture } from '../../../fixtures/engine';
import { SENTENCES } from '../../../fixtures/sentences';

describe('voice catalogue on the real engine', () => {
  let fx: EngineFixture;
  const measured = new Map<string, { f0: number; rms: number; spanMs: number; centroid: number }>();

  beforeAll(async () => {
    fx = await startEngine();
    await Promise.all(
      VOICES.map(async (v) => {
        const { pcm, sampleRate } = await fx.renderWav({
          text: SENTENCES[v.language],
          voice_code: v.voice_code,
        });
        measured.set(v.voice_code, {
          f0: medianF0(pcm, sampleRate),
          rms: rmsOf(pcm),
          spanMs: speechSpanMs(pcm, sampleRate),
          centroid: spectralCentroidHz(pcm, sampleRate),
        });
      }),
    );
  }, 120_000);
  afterAll(() => fx.close());

  it('has the 26 voice codes of the spec with prices and the standard flag', () => {
    expect(VOICES).toHaveLength(26);
    const nonStandard = VOICES.filter((v) => !v.standard).map((v) => v.voice_code);
    expect(nonStandard.sort()).toEqual(
      [
        'en_female_nova_default',
        'en_male_echo_default',
        'en_male_onyx_default',
        'vi_female_nova_default',
        'vi_male_echo_default',
        'vi_male_onyx_default',
      ].sort(),
    );
    expect(VOICES.filter((v) => v.price === 100).every((v) => !v.standard)).toBe(true);
    expect(VOICES.filter((v) => v.accent_approximated).map((v) => v.voice_code)).toEqual(
      expect.arrayContaining(['en_female_jessica_au', 'en_female_meera_indian']),
    );
  });

  it.each(VOICES.map((v) => [v.voice_code, v.language] as const))(
    '%s speaks its language audibly',
    (code, language) => {
      const m = measured.get(code)!;
      expect(m.rms).toBeGreaterThan(500);
      // Plausible speaking time for the sentence: roughly 40–160 ms per character for
      // alphabetic scripts, 150–600 ms per character for CJK.
      const chars = [...SENTENCES[language]].length;
      // (Japanese kana are syllables: shorter per character than Chinese or Korean.)
      const [lo, hi] =
        language === 'ja' ? [50, 400] : ['zh', 'ko'].includes(language) ? [100, 600] : [40, 160];
      expect(m.spanMs / chars).toBeGreaterThan(lo);
      expect(m.spanMs / chars).toBeLessThan(hi);
      expect(m.f0).toBeGreaterThan(50);
    },
  );

  it('uses the southern Vietnamese voice for _mn and a northern one for _mb', () => {
    expect(voiceSettings('vi_female_kieunhi_mn').espeakVoice).toBe('vi-vn-x-south');
    for (const v of VOICES.filter((x) => x.voice_code.endsWith('_mb')))
      expect(voiceSettings(v.voice_code).espeakVoice).toBe('vi');
    expect(voiceSettings('zh_female_liu-ying_default').espeakVoice).toBe('cmn');
  });

  const languages = [...new Set(VOICES.map((v) => v.language))] as LanguageCode[];
  it.each(languages.filter((l) => VOICES.filter((v) => v.language === l).length > 1))(
    'no two %s voices sound the same (variant differs; pitch ≥ 8%% apart or another variant family)',
    (language) => {
      const voices = VOICES.filter((v) => v.language === language);
      const problems: string[] = [];
      for (let i = 0; i < voices.length; i++) {
        for (let j = i + 1; j < voices.length; j++) {
          const a = voices[i]!.voice_code;
          const b = voices[j]!.voice_code;
          const sa = voiceSettings(a);
          const sb = voiceSettings(b);
          const fa = measured.get(a)!.f0;
          const fb = measured.get(b)!.f0;
          const ratio = Math.max(fa, fb) / Math.min(fa, fb);
          if (sa.espeakVoice === sb.espeakVoice && sa.variant === sb.variant)
            problems.push(`${a} = ${b}: same variant`);
          else if (sa.family === sb.family && ratio < 1.08)
            problems.push(
              `${a} (${fa.toFixed(0)} Hz) ~ ${b} (${fb.toFixed(0)} Hz): same family, pitch ${((ratio - 1) * 100).toFixed(1)}% apart`,
            );
        }
      }
      expect(problems).toEqual([]);
    },
  );

  /** Two codes differ when one measure differs by at least this much (as on neural voices). */
  const THRESHOLDS = { f0: 0.03, duration: 0.04, centroid: 0.04 } as const;
  const relative = (a: number, b: number) => Math.max(a, b) / Math.min(a, b) - 1;
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

  it.each(languages.filter((l) => VOICES.filter((v) => v.language === l).length > 1))(
    'every pair of %s codes differs by ≥ 3 %% in median F0, ≥ 4 %% in duration or ≥ 4 %% in spectral centroid',
    (language) => {
      const codes = VOICES.filter((v) => v.language === language).map((v) => v.voice_code);
      const pairs: Array<{ pair: string; f0: number; duration: number; centroid: number }> = [];
      for (let i = 0; i < codes.length; i++) {
        for (let j = i + 1; j < codes.length; j++) {
          const [a, b] = [measured.get(codes[i]!)!, measured.get(codes[j]!)!];
          pairs.push({
            pair: `${codes[i]} / ${codes[j]}`,
            f0: relative(a.f0, b.f0),
            duration: relative(a.spanMs, b.spanMs),
            centroid: relative(a.centroid, b.centroid),
          });
        }
      }
      expect(pairs).toHaveLength((codes.length * (codes.length - 1)) / 2);
      const score = (p: (typeof pairs)[number]) =>
        Math.max(p.f0 / THRESHOLDS.f0, p.duration / THRESHOLDS.duration, p.centroid / THRESHOLDS.centroid);
      const closest = pairs.reduce((best, p) => (score(p) < score(best) ? p : best));
      // The figures docs/VOICES-CHARACTER.md quotes.
      console.log(
        `eSpeak ${language}: ${pairs.length} pairs; closest ${closest.pair}: F0 ${pct(closest.f0)}, ` +
          `duration ${pct(closest.duration)}, centroid ${pct(closest.centroid)}`,
      );
      expect(pairs.filter((p) => score(p) < 1).map((p) => p.pair)).toEqual([]);
    },
  );
});
