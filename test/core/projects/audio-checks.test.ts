/**
 * The automatic checks on real eSpeak NG renders, and on real defects made from them: 3 s of
 * silence spliced in, the audio amplified until it clips, cut to its first 30 %, sped up ×2 by
 * sox's tempo effect (pitch kept) — each flagged with its kind; clean renders flag nothing.
 * Each check records the figures of its message, and the studio words them (check-sentence.ts):
 * in English as the server's message, in Vietnamese with no English word.
 */

import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createIntl } from 'react-intl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSegmentAudio } from '../../../electron/core/projects/audio-checks';
import { encodeWav } from '../../../electron/core/engine/audio/wav';
import type { SegmentCheck } from '../../../electron/shared/projects';
import type { LanguageCode } from '../../../electron/shared/voices';
import en from '../../../renderer/src/i18n/messages/en.json';
import vi from '../../../renderer/src/i18n/messages/vi.json';
import { checkSentence } from '../../../renderer/src/features/projects/check-sentence';
import { englishWords } from '../../fixtures/english-words';
import { wavSamples } from '../../fixtures/audio-analysis';
import { startEngine, type EngineFixture } from '../../fixtures/engine';

const run = promisify(execFile);

const TEXTS: { language: LanguageCode; voice: string; text: string }[] = [
  {
    language: 'en',
    voice: 'en_female_emily_us',
    text: 'The lighthouse keeper climbed the stairs every evening, counting each step, and lit the lamp before the ships came home.',
  },
  {
    language: 'en',
    voice: 'en_male_onyx_default',
    text: '"Will you come back tomorrow?" asked Anna. The old man smiled and said nothing at all.',
  },
  {
    language: 'vi',
    voice: 'vi_female_thuytrang_mb',
    text: 'Người gác hải đăng leo cầu thang mỗi buổi tối, đếm từng bậc, rồi thắp đèn trước khi những con thuyền trở về.',
  },
  {
    language: 'vi',
    voice: 'vi_male_lehoang_mb',
    text: 'Bà ngoại kể rằng ngày xưa làng này chỉ có ba nóc nhà, và mỗi mùa mưa nước lại dâng ngập cánh đồng.',
  },
];

let fixture: EngineFixture;
const renders: { pcm: Int16Array; sampleRate: number; path: string; language: LanguageCode; text: string }[] =
  [];

beforeAll(async () => {
  fixture = await startEngine(2);
  for (const t of TEXTS) {
    const r = await fixture.renderWav({ text: t.text, voice_code: t.voice });
    renders.push({ ...r, language: t.language, text: t.text });
  }
}, 60_000);
afterAll(() => fixture?.close());

/** Every check the defects below made, for the wording test at the end. */
const made: SegmentCheck[] = [];
const kinds = (pcm: Int16Array, sampleRate: number, r: (typeof renders)[number], speedRate = 1) => {
  const checks = checkSegmentAudio({ pcm, sampleRate, text: r.text, language: r.language, speedRate });
  made.push(...checks);
  return checks.map((c) => c.kind);
};

describe('automatic audio checks', () => {
  it('flags nothing in clean renders, English and Vietnamese', () => {
    for (const r of renders) expect(kinds(r.pcm, r.sampleRate, r), r.text).toEqual([]);
  });

  it('flags nothing in a clean render at another speed', async () => {
    const t = TEXTS[0]!;
    for (const speed of [0.7, 1.5]) {
      const r = await fixture.renderWav({ text: t.text, voice_code: t.voice, speed_rate: speed });
      const checks = checkSegmentAudio({ ...r, text: t.text, language: t.language, speedRate: speed });
      expect(checks, `speed ${speed}`).toEqual([]);
    }
  });

  it('flags 3 s of silence spliced into the middle as a long silence, where it is', () => {
    for (const r of renders) {
      const half = Math.floor(r.pcm.length / 2);
      const gap = 3 * r.sampleRate;
      const pcm = new Int16Array(r.pcm.length + gap);
      pcm.set(r.pcm.subarray(0, half));
      pcm.set(r.pcm.subarray(half), half + gap);
      const checks = checkSegmentAudio({
        pcm,
        sampleRate: r.sampleRate,
        text: r.text,
        language: r.language,
        speedRate: 1,
      });
      made.push(...checks);
      expect(checks.map((c) => c.kind)).toEqual(['long_silence']);
      const at = checks[0]!.at_ms!;
      expect(at).toBeLessThanOrEqual((half / r.sampleRate) * 1000 + 10);
      expect(at).toBeGreaterThan((half / r.sampleRate) * 1000 - 1000);
    }
  });

  it('flags audio amplified until it clips', () => {
    for (const r of renders) {
      const pcm = r.pcm.map((s) => Math.max(-32768, Math.min(32767, s * 8)));
      expect(kinds(pcm, r.sampleRate, r)).toEqual(['clipping']);
    }
  });

  it('flags audio cut to its first 30 % as ending early', () => {
    for (const r of renders) {
      const pcm = r.pcm.slice(0, Math.floor(r.pcm.length * 0.3));
      expect(kinds(pcm, r.sampleRate, r)).toEqual(['ends_early']);
    }
  });

  it("flags audio sped up ×2 (sox tempo, pitch kept) as far from the voice's speech rate", async () => {
    for (const [i, r] of renders.entries()) {
      const out = join(fixture.dir, `fast-${i}.wav`);
      await run('sox', [r.path, out, 'tempo', '-s', '2.0']);
      const fast = wavSamples(new Uint8Array(await readFile(out)));
      expect(kinds(fast.pcm, fast.sampleRate, r)).toEqual(['speech_rate']);
    }
  });

  it('flags audio slowed ×0.5 by resampling (pitch lowered) as far from the rate', async () => {
    const r = renders[0]!;
    const slow = new Int16Array(r.pcm.length * 2);
    for (let i = 0; i < slow.length; i++) slow[i] = r.pcm[i >> 1]!;
    await writeFile(join(fixture.dir, 'slow.wav'), encodeWav(slow, r.sampleRate));
    expect(kinds(slow, r.sampleRate, r)).toEqual(['speech_rate']);
  });

  it('records the figures of each message; the studio words them in English as the server does, and in Vietnamese', () => {
    const english = createIntl({ locale: 'en', messages: en });
    const vietnamese = createIntl({ locale: 'vi', messages: vi });
    expect(new Set(made.map((c) => c.kind))).toEqual(
      new Set(['long_silence', 'clipping', 'ends_early', 'speech_rate']),
    );
    for (const check of made) {
      expect(check.figures, check.message).toBeDefined();
      // en-US writes 1,234.5 where the server writes 1234.5: compared without group separators.
      expect(checkSentence(check, english).replace(/(\d),(\d)/g, '$1$2')).toBe(check.message);
      const said = checkSentence(check, vietnamese);
      expect(englishWords(said), said).toEqual([]);
      for (const figure of Object.values(check.figures!))
        expect(said.replace(/\./g, ''), said).toContain(String(figure).replace('.', ','));
    }
    // A check recorded before figures were kept: its message as it is.
    const old = { kind: 'clipping', message: '3 runs of samples at full scale (clipped)', at_ms: 0 } as const;
    expect(checkSentence(old, vietnamese)).toBe(old.message);
  });
});
