import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICES, type LanguageCode } from '../../../../electron/shared/voices';
import { voiceSettings } from '../../../../electron/core/engine/espeak/voices';
import { medianF0, rmsOf, speechSpanMs } from '../../../fixtures/audio-analysis';
import { startEngine, type EngineFixture } from '../../../fixtures/engine';
import { SENTENCES } from '../../../fixtures/sentences';

describe('voice catalogue on the real engine', () => {
  let fx: EngineFixture;
  const measured = new Map<string, { f0: number; rms: number; spanMs: number }>();

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
});
