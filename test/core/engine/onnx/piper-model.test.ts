import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPiperModel, PIPER_HOP_SAMPLES } from '../../../../electron/core/engine/onnx/piper-model';
import {
  buildPiperModel,
  piperFrames,
  SPEAKER_STEP_HZ,
  TONE_AMPLITUDE,
  toneHz,
} from '../../../fixtures/onnx/build-models';
import { modelDir, type ModelDir } from '../../../fixtures/onnx/model-dir';
import { piperConfig, piperPhonemeIdMap } from '../../../fixtures/onnx/piper-config';
import { dominantHz, spansOf, toneAmplitude } from '../../../fixtures/onnx/tone';

/** "^ _ h _ ə _ l _ oʊ _ $" through the real phoneme_id_map: ids as a Piper voice gets them. */
function phonemeIds(phonemes: string[]): number[] {
  const map = piperPhonemeIdMap();
  const id = (symbol: string) => map[symbol]![0]!;
  return [id('^'), id('_'), ...phonemes.flatMap((p) => [id(p), id('_')]), id('$')];
}

const IDS = phonemeIds(['h', 'ə', 'l', 'o', 'ʊ']);
const DEFAULTS = { lengthScale: 1, noiseScale: 0.667, noiseW: 0.8 };

let dir: ModelDir;
beforeAll(async () => {
  dir = await modelDir();
});
afterAll(() => dir.remove());

describe.each([16000, 22050] as const)('a Piper voice at %i Hz', (sampleRate) => {
  it.each([1, 4])(
    'with %i speaker(s) gives a tone per phoneme id over exactly its durations',
    async (numSpeakers) => {
      const config = piperConfig({ sampleRate, numSpeakers });
      expect(config.num_speakers).toBe(numSpeakers);
      const path = await dir.write(
        `voice-${sampleRate}-${numSpeakers}.onnx`,
        buildPiperModel({ numSpeakers, sampleRate }),
      );
      const model = await openPiperModel(path);
      try {
        expect(model).toMatchObject({ kind: 'piper', multiSpeaker: numSpeakers > 1, hasDurations: true });
        const speakerId = numSpeakers > 1 ? 3 : undefined;
        const { audio, samplesPerId } = await model.run({ ...DEFAULTS, lengthScale: 3, ids: IDS, speakerId });
        expect(Array.from(samplesPerId!)).toEqual(IDS.map((id) => piperFrames(id, 3) * PIPER_HOP_SAMPLES));
        expect(samplesPerId!.reduce((a, b) => a + b, 0)).toBe(audio.length);
        const offset = (speakerId ?? 0) * SPEAKER_STEP_HZ;
        spansOf(audio, samplesPerId!).forEach((span, i) => {
          const expected = toneHz(IDS[i]!, offset);
          expect(Math.abs(dominantHz(span, sampleRate) - expected)).toBeLessThan(3);
          expect(toneAmplitude(span, sampleRate, expected)).toBeCloseTo(TONE_AMPLITUDE, 1);
        });
      } finally {
        await model.close();
      }
    },
  );
});

it("writes a voice's .onnx.json with the real keys and the real phoneme_id_map", () => {
  const config = JSON.parse(
    JSON.stringify(piperConfig({ sampleRate: 16000, numSpeakers: 2, espeakVoice: 'de' })),
  );
  expect(config).toMatchObject({
    audio: { sample_rate: 16000 },
    espeak: { voice: 'de' },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: 'espeak',
    phoneme_map: {},
    num_speakers: 2,
    speaker_id_map: { speaker_0: 0, speaker_1: 1 },
    language: { code: 'de' },
  });
  const map = config.phoneme_id_map as Record<string, number[]>;
  expect(Object.keys(map)).toHaveLength(154);
  expect([map._, map['^'], map.$, map[' '], map['ə'], map['ˈ'], map['\u0303']]).toEqual([
    [0],
    [1],
    [2],
    [3],
    [59],
    [120],
    [141],
  ]);
});

describe('openPiperModel', () => {
  it('makes the audio about twice as long at length_scale 2', async () => {
    const model = await openPiperModel(await dir.write('scale.onnx', buildPiperModel()));
    const once = await model.run({ ...DEFAULTS, ids: IDS });
    const twice = await model.run({ ...DEFAULTS, ids: IDS, lengthScale: 2 });
    await model.close();
    expect(twice.audio.length / once.audio.length).toBeCloseTo(2, 1);
    expect(Array.from(twice.samplesPerId!)).toEqual(Array.from(once.samplesPerId!, (n) => n * 2));
  });

  it('gives each speaker of a multi-speaker voice its own frequency', async () => {
    const model = await openPiperModel(await dir.write('speakers.onnx', buildPiperModel({ numSpeakers: 3 })));
    const ids = phonemeIds(['ɑ']);
    const measure = async (speakerId?: number) => {
      const { audio, samplesPerId } = await model.run({ ...DEFAULTS, lengthScale: 4, ids, speakerId });
      return dominantHz(spansOf(audio, samplesPerId!)[2]!, 22050);
    };
    const [first, byDefault, third] = [await measure(0), await measure(), await measure(2)];
    await model.close();
    expect(byDefault).toBe(first);
    expect(third - first).toBeCloseTo(2 * SPEAKER_STEP_HZ, 0);
  });

  it.each([
    ['has no Ceil node', { withCeil: false }],
    ['has two Ceil nodes', { extraCeilNode: true }],
  ])('gives no durations when the graph %s, and the same audio', async (_, options) => {
    const reference = await openPiperModel(await dir.write('reference.onnx', buildPiperModel()));
    const model = await openPiperModel(await dir.write('no-durations.onnx', buildPiperModel(options)));
    expect(model.hasDurations).toBe(false);
    const result = await model.run({ ...DEFAULTS, ids: IDS, lengthScale: 1.5 });
    const expected = await reference.run({ ...DEFAULTS, ids: IDS, lengthScale: 1.5 });
    await Promise.all([model.close(), reference.close()]);
    expect(result.samplesPerId).toBeUndefined();
    expect(result.audio).toEqual(expected.audio);
  });

  it('runs calls concurrently, closes once and refuses to run after close', async () => {
    const model = await openPiperModel(await dir.write('close.onnx', buildPiperModel()));
    const results = await Promise.all(
      [1, 2, 3].map((lengthScale) => model.run({ ...DEFAULTS, ids: IDS, lengthScale })),
    );
    expect(results.map((r) => r.audio.length)).toEqual(
      [1, 2, 3].map((scale) => IDS.reduce((sum, id) => sum + piperFrames(id, scale) * PIPER_HOP_SAMPLES, 0)),
    );
    await model.close();
    await model.close();
    await expect(model.run({ ...DEFAULTS, ids: IDS })).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('refuses arguments out of range', async () => {
    const model = await openPiperModel(await dir.write('args.onnx', buildPiperModel()));
    await expect(model.run({ ...DEFAULTS, ids: [] })).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(model.run({ ...DEFAULTS, ids: [1, -2] })).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(model.run({ ...DEFAULTS, ids: IDS, lengthScale: 0 })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
    await expect(model.run({ ...DEFAULTS, ids: IDS, noiseW: Number.NaN })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
    await model.close();
  });
});
