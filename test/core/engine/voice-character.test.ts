/**
 * Every voice code its own on a neural voice: the codes of one language share one synthetic
 * pack (a Piper model with the real vais1000 / lessac phoneme map, and a Kokoro model with the
 * real vocabulary), each speaks with its character from the table (voice-character.ts), and
 * every pair of codes of a language is measured apart in F0, duration or spectral centroid.
 * The models speak a tone per phoneme id, so their "F0" is the most frequent tone
 * (modalToneHz: Piper's pad between phonemes), which a pitch ratio multiplies; duration is
 * the speech span. The engine keeps a sentence cache all along: codes whose keys collided
 * would get each other's audio and measure the same. Also: a voice without a character is the
 * model's audio as it was, and word timings follow a pace ≠ 1.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { Engine, NeuralVoice } from '../../../electron/core/engine/engine';
import { openNeuralBackend, shapingOf } from '../../../electron/core/engine/onnx/neural-backends';
import { createNeuralModels, type NeuralModels } from '../../../electron/core/engine/onnx/neural-models';
import { piperInput } from '../../../electron/core/engine/onnx/piper-phonemes';
import { parsePiperConfig } from '../../../electron/core/engine/onnx/voice-config';
import { createWorkerPool, type WorkerPool } from '../../../electron/core/engine/espeak/worker-pool';
import {
  CHARACTER_LIMITS,
  VOICE_CHARACTERS,
  voiceCharacter,
  type VoiceCharacter,
} from '../../../electron/core/engine/voice-character';
import { DEFAULT_SYNTHESIS } from '../../../electron/shared/options';
import { VOICES, type LanguageCode } from '../../../electron/shared/voices';
import { spectralCentroidHz, speechSpanMs, wavSamples } from '../../fixtures/audio-analysis';
import { buildPiperModel } from '../../fixtures/onnx/build-models';
import { syntheticKokoroVoice } from '../../fixtures/onnx/kokoro-data';
import { piperConfig } from '../../fixtures/onnx/piper-config';
import { modalToneHz } from '../../fixtures/onnx/tone';

/** Two codes differ when one measure differs by at least this much (relative). */
const THRESHOLDS = { f0: 0.03, duration: 0.04, centroid: 0.04 } as const;

const TEXT: Partial<Record<LanguageCode, string>> = {
  vi: 'Xin chào các bạn, hôm nay trời đẹp quá.',
  en: 'The lighthouse keeper climbed the stairs at dusk.',
};

let dir: string;
let engine: Engine;
let counter = 0;
const packs: Record<'vais1000' | 'lessac' | 'kokoro', NeuralVoice> = {} as never;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'voice-character-'));
  // vi_VN-vais1000-medium.onnx.json: 22,050 Hz, one speaker, eSpeak "vi", lessac's 154-symbol map
  // (tone digits included; shared/FACTS.md), which piperConfig writes.
  for (const [name, espeakVoice, languageCode] of [
    ['vi_VN-vais1000-medium', 'vi', 'vi_VN'],
    ['en_US-lessac-medium', 'en-us', 'en_US'],
  ] as const) {
    const modelPath = join(dir, `${name}.onnx`);
    // Ids of 4.4–6.4 frames before rounding (58–81 ms after it, a real phoneme's length): tones of
    // 1–3 frames switch too fast for the pitch shifter's overlap-add to keep them tones.
    writeFileSync(modelPath, buildPiperModel({ sampleRate: 22050, unitOffset: 3.4 }));
    writeFileSync(
      `${modelPath}.json`,
      JSON.stringify(piperConfig({ sampleRate: 22050, espeakVoice, languageCode })),
    );
    packs[espeakVoice === 'vi' ? 'vais1000' : 'lessac'] = {
      family: 'piper',
      packId: name,
      modelPath,
      configPath: `${modelPath}.json`,
      speaker: 0,
    };
  }
  packs.kokoro = await syntheticKokoroVoice(dir, 'kokoro-v1.0-q8', 'af_heart');
  engine = await createEngine({
    poolSize: 2,
    sentenceCache: { dir: join(dir, 'cache'), maxBytes: 64 * 1024 * 1024 },
  });
}, 60_000);
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function render(voiceCode: string, voice: NeuralVoice, options: { timingsPath?: string } = {}) {
  const audioPath = join(dir, `out-${++counter}.wav`);
  const language = VOICES.find((v) => v.voice_code === voiceCode)!.language;
  const result = await engine.render({
    ...DEFAULT_SYNTHESIS,
    voice_code: voiceCode,
    audio_type: 'wav',
    text: TEXT[language]!,
    audioPath,
    neuralVoice: voice,
    ...options,
  });
  expect(result.engine).toMatch(new RegExp(`^${voice.family}:`));
  return { ...wavSamples(new Uint8Array(readFileSync(audioPath))), result };
}

interface Measures {
  f0: number;
  duration: number;
  centroid: number;
}

async function measure(voiceCode: string, pack: NeuralVoice): Promise<Measures> {
  const { pcm, sampleRate } = await render(voiceCode, { ...pack, character: voiceCharacter(voiceCode) });
  return {
    f0: modalToneHz(pcm, sampleRate),
    duration: speechSpanMs(pcm, sampleRate),
    centroid: spectralCentroidHz(pcm, sampleRate),
  };
}

const relative = (a: number, b: number) => Math.max(a, b) / Math.min(a, b) - 1;

/** Every pair of `codes`: each measure's relative difference, and whether one reaches its threshold. */
function pairs(codes: readonly string[], measured: ReadonlyMap<string, Measures>) {
  const out: Array<{ a: string; b: string; f0: number; duration: number; centroid: number; apart: boolean }> =
    [];
  for (let i = 0; i < codes.length; i++) {
    for (let j = i + 1; j < codes.length; j++) {
      const [ma, mb] = [measured.get(codes[i]!)!, measured.get(codes[j]!)!];
      const d = {
        f0: relative(ma.f0, mb.f0),
        duration: relative(ma.duration, mb.duration),
        centroid: relative(ma.centroid, mb.centroid),
      };
      const apart =
        d.f0 >= THRESHOLDS.f0 || d.duration >= THRESHOLDS.duration || d.centroid >= THRESHOLDS.centroid;
      out.push({ a: codes[i]!, b: codes[j]!, ...d, apart });
    }
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

describe('the character table', () => {
  it('names every catalogue code within the limits, neutral for languages with one code', () => {
    expect([...VOICE_CHARACTERS.keys()].sort()).toEqual(VOICES.map((v) => v.voice_code).sort());
    for (const [code, character] of VOICE_CHARACTERS) {
      for (const key of ['pitch', 'pace', 'formant'] as const) {
        const [min, max] = CHARACTER_LIMITS[key];
        expect(character[key], `${code} ${key}`).toBeGreaterThanOrEqual(min);
        expect(character[key], `${code} ${key}`).toBeLessThanOrEqual(max);
      }
      const language = VOICES.find((v) => v.voice_code === code)!.language;
      if (VOICES.filter((v) => v.language === language).length === 1) {
        expect(character, code).toEqual({ pitch: 1, pace: 1, formant: 1 });
      }
    }
  });

  it('keeps the OpenAI-style codes mild (every ratio within 7 %) and male codes lower than female ones', () => {
    for (const v of VOICES) {
      const c = VOICE_CHARACTERS.get(v.voice_code)!;
      if (/_(echo|nova|onyx)_default$/.test(v.voice_code)) {
        for (const ratio of [c.pitch, c.pace, c.formant])
          expect(Math.abs(ratio - 1)).toBeLessThanOrEqual(0.07 + 1e-9);
      }
    }
    for (const language of ['vi', 'en'] as const) {
      const of = (gender: string) =>
        VOICES.filter((v) => v.language === language && v.gender === gender).map((v) =>
          VOICE_CHARACTERS.get(v.voice_code)!,
        );
      const highestMale = Math.max(...of('male').map((c) => c.pitch));
      const lowestFemale = Math.min(...of('female').map((c) => c.pitch));
      expect(highestMale).toBeLessThan(lowestFemale);
      expect(Math.max(...of('male').map((c) => c.formant))).toBeLessThan(1);
    }
  });
});

describe('a character composed with the request', () => {
  const voice = (character?: VoiceCharacter): NeuralVoice => ({
    family: 'piper',
    packId: 'p',
    modelPath: 'm.onnx',
    configPath: 'm.onnx.json',
    speaker: 0,
    ...(character ? { character } : {}),
  });

  it('multiplies speed and pitch, and moves formants to its own ratio', () => {
    expect(shapingOf(voice(), { speed_rate: 1.5, pitch_rate: 0.8 })).toEqual({
      speed: 1.5,
      pace: 1,
      pitch: 0.8,
      formant: 1,
      character: undefined,
    });
    const lehoang = voiceCharacter('vi_male_lehoang_mb')!;
    const shaped = shapingOf(voice(lehoang), { speed_rate: 1.5, pitch_rate: 0.8 });
    expect(shaped.speed).toBeCloseTo(1.5 * lehoang.pace, 12);
    expect(shaped.pitch).toBeCloseTo(0.8 * lehoang.pitch, 12);
    // The shifter moved formants by `pitch`; with the formant shift they end at formant × pitch_rate.
    expect(shaped.pitch * shaped.formant).toBeCloseTo(lehoang.formant * 0.8, 12);
    expect(shaped.character).toEqual(lehoang);
  });

  it("holds the pitch to the shifter's range and a character from elsewhere to the limits", () => {
    const low = shapingOf(voice(voiceCharacter('vi_male_ductrong_mb')), { speed_rate: 1, pitch_rate: 0.5 });
    expect(low.pitch).toBe(0.5);
    expect(low.formant).toBeCloseTo(0.92, 12);
    const wild = shapingOf(voice({ pitch: 5, pace: 0, formant: Number.NaN }), {
      speed_rate: 1,
      pitch_rate: 1,
    });
    expect(wild.character).toEqual({
      pitch: CHARACTER_LIMITS.pitch[1],
      pace: CHARACTER_LIMITS.pace[0],
      formant: 1,
    });
    expect(wild.pitch).toBe(CHARACTER_LIMITS.pitch[1]);
    expect(wild.speed).toBe(CHARACTER_LIMITS.pace[0]);
    expect(
      shapingOf(voice({ pitch: 1, pace: 1, formant: 1 }), { speed_rate: 1, pitch_rate: 1 }).character,
    ).toBeUndefined();
  });
});

const CASES = [
  ['vi', 'vais1000'],
  ['en', 'lessac'],
  ['en', 'kokoro'],
] as const;

describe.each(CASES)('every pair of %s codes on one %s voice', (language, pack) => {
  const codes = VOICES.filter((v) => v.language === language).map((v) => v.voice_code);
  const measured = new Map<string, Measures>();

  beforeAll(async () => {
    // All at once: the engine's workers and the model's threads stay busy (each render is its own).
    const all = await Promise.all(codes.map((code) => measure(code, packs[pack])));
    codes.forEach((code, i) => measured.set(code, all[i]!));
    console.log(
      [...measured]
        .map(
          ([code, m]) =>
            `${pack} ${code}: F0 ${m.f0.toFixed(1)} Hz, ${m.duration.toFixed(0)} ms, centroid ${m.centroid.toFixed(0)} Hz`,
        )
        .join('\n'),
    );
  }, 180_000);

  it(`differs by ≥ ${pct(THRESHOLDS.f0)} in F0, ≥ ${pct(THRESHOLDS.duration)} in duration or ≥ ${pct(THRESHOLDS.centroid)} in spectral centroid`, () => {
    const all = pairs(codes, measured);
    expect(all).toHaveLength((codes.length * (codes.length - 1)) / 2);
    const score = (p: (typeof all)[number]) =>
      Math.max(p.f0 / THRESHOLDS.f0, p.duration / THRESHOLDS.duration, p.centroid / THRESHOLDS.centroid);
    // The pair nearest to its thresholds.
    const closest = all.reduce((best, p) => (score(p) < score(best) ? p : best));
    const minimum = (key: 'f0' | 'duration' | 'centroid') => Math.min(...all.map((p) => p[key]));
    // The figures docs/VOICES-CHARACTER.md quotes.
    console.log(
      `${language} on ${pack}: ${all.length} pairs; closest pair ${closest.a} / ${closest.b}: ` +
        `F0 ${pct(closest.f0)}, duration ${pct(closest.duration)}, centroid ${pct(closest.centroid)}; ` +
        `smallest per measure: F0 ${pct(minimum('f0'))}, duration ${pct(minimum('duration'))}, centroid ${pct(minimum('centroid'))}`,
    );
    expect(all.filter((p) => !p.apart).map((p) => `${p.a} ~ ${p.b}`)).toEqual([]);
  });

  it('moves F0 and duration the way each character says (F0 within 3 %, duration within 4 % of the table)', () => {
    const neutral = codes.find((c) => {
      const ch = VOICE_CHARACTERS.get(c)!;
      return ch.pitch === 1 && ch.pace === 1;
    });
    expect(neutral).toBeDefined();
    const base = measured.get(neutral!)!;
    for (const code of codes) {
      const ch = VOICE_CHARACTERS.get(code)!;
      const m = measured.get(code)!;
      expect(Math.abs(m.f0 / base.f0 / ch.pitch - 1), `${code} F0`).toBeLessThan(0.03);
      expect(Math.abs((m.duration / base.duration) * ch.pace - 1), `${code} duration`).toBeLessThan(0.04);
    }
  });
});

describe('a neural voice without a character', () => {
  let pool: WorkerPool;
  let models: NeuralModels;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 1 });
    models = createNeuralModels({ idleMs: 0 });
  });
  afterAll(async () => {
    await models?.close();
    await pool?.close();
  });

  it('speaks the model audio as it is, bit for bit, under the cache key it always had', async () => {
    const voice = packs.vais1000;
    const prosody = { speed_rate: 1, pitch_rate: 1 };
    const text = TEXT.vi!;
    const plain = await openNeuralBackend(voice, pool, models, prosody);
    const output = await plain.synthesize(text, 'test');

    // The model run by hand on the voice's ids, each float sample as 16-bit.
    const config = parsePiperConfig(
      readFileSync(voice.family === 'piper' ? voice.configPath : '', 'utf8'),
      'config',
    );
    const model = await models.piper(voice.family === 'piper' ? voice.modelPath : '');
    const expected: number[] = [];
    for (const sentence of piperInput(text, await pool.phonemize(text, 'vi'), config.phonemeIdMap)) {
      const { audio } = await model.run({
        ids: sentence.ids,
        lengthScale: config.inference.lengthScale,
        noiseScale: config.inference.noiseScale,
        noiseW: config.inference.noiseW,
      });
      for (const v of audio) expected.push(Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
    }
    expect(output.pcm.length).toBe(expected.length);
    expect(Buffer.from(output.pcm.buffer, output.pcm.byteOffset, output.pcm.byteLength)).toEqual(
      Buffer.from(Int16Array.from(expected).buffer),
    );

    // The key has no character part, and a neutral character is no character.
    const key = JSON.parse(plain.cacheKey!) as unknown[];
    expect(key).toHaveLength(7);
    expect(key.some((part) => Array.isArray(part) && part[0] === 'character')).toBe(false);
    const neutral = await openNeuralBackend(
      { ...voice, character: { pitch: 1, pace: 1, formant: 1 } },
      pool,
      models,
      prosody,
    );
    expect(neutral.cacheKey).toBe(plain.cacheKey);
    const shaped = await openNeuralBackend(
      { ...voice, character: voiceCharacter('vi_male_lehoang_mb') },
      pool,
      models,
      prosody,
    );
    expect(shaped.cacheKey).not.toBe(plain.cacheKey);
  });
});

describe('word timings with a pace other than 1', () => {
  it.each(['piper', 'kokoro'] as const)(
    '%s: every word starts at its pace-1 time ÷ pace, the audio as much shorter',
    async (family) => {
      const pack = family === 'piper' ? packs.lessac : packs.kokoro;
      const character: VoiceCharacter = voiceCharacter('en_female_jessica_au')!;
      expect(character.pace).not.toBe(1);
      const run = async (c: VoiceCharacter) => {
        const timingsPath = join(dir, `timings-${++counter}.json`);
        const { pcm, sampleRate, result } = await render(
          'en_female_jessica_au',
          { ...pack, character: c },
          { timingsPath },
        );
        const words = JSON.parse(readFileSync(timingsPath, 'utf8')) as Array<{
          text: string;
          startMs: number;
          endMs: number;
        }>;
        return { words, span: speechSpanMs(pcm, sampleRate), durationMs: result.durationMs };
      };
      const [paced, even] = [await run(character), await run({ ...character, pace: 1 })];
      expect(paced.words.map((w) => w.text)).toEqual(even.words.map((w) => w.text));
      // Half a frame of rounding per id at most, corrected per sentence: within 40 ms.
      paced.words.forEach((w, i) =>
        expect(Math.abs(w.startMs - even.words[i]!.startMs / character.pace)).toBeLessThan(40),
      );
      expect(Math.abs((paced.span / even.span) * character.pace - 1)).toBeLessThan(0.03);
      expect(paced.words.at(-1)!.endMs).toBeLessThanOrEqual(paced.durationMs + 1);
      expect(paced.words.at(-1)!.endMs).toBeGreaterThan(paced.durationMs * 0.8);
    },
  );
});
