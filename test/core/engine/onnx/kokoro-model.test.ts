import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KOKORO_FRAME_SAMPLES,
  KOKORO_SAMPLE_RATE,
  openKokoroModel,
} from '../../../../electron/core/engine/onnx/kokoro-model';
import { buildKokoroModel, kokoroFrames, STYLE_STEP_HZ, toneHz } from '../../../fixtures/onnx/build-models';
import { kokoroVocab, readKokoroStyle, writeKokoroVoice } from '../../../fixtures/onnx/kokoro-data';
import { modelDir, type ModelDir } from '../../../fixtures/onnx/model-dir';
import { dominantHz, spansOf } from '../../../fixtures/onnx/tone';

/** "həlˈO" through Kokoro's real vocab, with the 0 pad at both ends as the caller adds it. */
const VOCAB = kokoroVocab();
const TOKENS = [...'həlˈO'].map((symbol) => VOCAB[symbol]!);
const IDS = [0, ...TOKENS, 0];

let dir: ModelDir;
let voicePath: string;
beforeAll(async () => {
  dir = await modelDir();
  voicePath = join(dir.path, 'af_test.bin');
  await writeKokoroVoice(voicePath, 7);
});
afterAll(() => dir.remove());

describe.each(['input_ids', 'tokens'] as const)('a Kokoro export naming its ids %s', (naming) => {
  it.each([true, false])('with durations %s gives a tone per token at 24 kHz', async (withDurations) => {
    const path = await dir.write(
      `kokoro-${naming}-${withDurations}.onnx`,
      buildKokoroModel({ naming, withDurations }),
    );
    const model = await openKokoroModel(path);
    try {
      expect(model).toMatchObject({
        kind: 'kokoro',
        hasDurations: withDurations,
        tensorNames:
          naming === 'input_ids'
            ? { ids: 'input_ids', audio: 'waveform' }
            : { ids: 'tokens', audio: 'audio' },
      });
      const style = await readKokoroStyle(voicePath, TOKENS.length);
      const { audio, samplesPerId } = await model.run({ ids: IDS, style, speed: 1 });
      const expectedSpans = IDS.map((id) => kokoroFrames(id, 1) * KOKORO_FRAME_SAMPLES);
      expect(audio.length).toBe(expectedSpans.reduce((a, b) => a + b, 0));
      if (!withDurations) {
        expect(samplesPerId).toBeUndefined();
        return;
      }
      expect(Array.from(samplesPerId!)).toEqual(expectedSpans);
      spansOf(audio, samplesPerId!).forEach((span, i) => {
        const expected = toneHz(IDS[i]!, STYLE_STEP_HZ * style[0]!);
        expect(Math.abs(dominantHz(span, KOKORO_SAMPLE_RATE) - expected)).toBeLessThan(3);
      });
    } finally {
      await model.close();
    }
  });
});

describe('openKokoroModel', () => {
  it('makes the audio about half as long at speed 2', async () => {
    const model = await openKokoroModel(
      await dir.write('speed.onnx', buildKokoroModel({ withDurations: true })),
    );
    const style = await readKokoroStyle(voicePath, TOKENS.length);
    const normal = await model.run({ ids: IDS, style, speed: 1 });
    const fast = await model.run({ ids: IDS, style, speed: 2 });
    await model.close();
    expect(fast.audio.length / normal.audio.length).toBeCloseTo(0.5, 1);
  });

  it('sounds different with another style row or voice file', async () => {
    const model = await openKokoroModel(
      await dir.write('style.onnx', buildKokoroModel({ withDurations: true })),
    );
    const other = join(dir.path, 'am_other.bin');
    await writeKokoroVoice(other, 8);
    const styles = [
      await readKokoroStyle(voicePath, TOKENS.length),
      await readKokoroStyle(voicePath, TOKENS.length + 1),
      await readKokoroStyle(other, TOKENS.length),
    ];
    const measured: number[] = [];
    for (const style of styles) {
      const { audio, samplesPerId } = await model.run({ ids: IDS, style, speed: 1 });
      measured.push(dominantHz(spansOf(audio, samplesPerId!)[1]!, KOKORO_SAMPLE_RATE));
    }
    await model.close();
    styles.forEach((style, i) => {
      expect(Math.abs(measured[i]! - toneHz(IDS[1]!, STYLE_STEP_HZ * style[0]!))).toBeLessThan(3);
    });
    expect(new Set(measured.map(Math.round)).size).toBe(3);
  });

  it('refuses arguments out of range', async () => {
    const model = await openKokoroModel(await dir.write('args.onnx', buildKokoroModel()));
    const style = new Float32Array(256);
    await expect(model.run({ ids: [0, 0], style, speed: 1 })).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(model.run({ ids: new Array(513).fill(43), style, speed: 1 })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
    await expect(model.run({ ids: IDS, style: new Float32Array(128), speed: 1 })).rejects.toMatchObject({
      code: 'INTERNAL',
    });
    await expect(model.run({ ids: IDS, style, speed: 0 })).rejects.toMatchObject({ code: 'INTERNAL' });
    await model.close();
  });
});
