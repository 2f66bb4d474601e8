/**
 * A neural voice through the whole render pipeline: text → eSpeak phonemes → Piper ids →
 * the (synthetic) model → audio at the voice's rate → word timings → SRT, and the fallback
 * to eSpeak when the voice's files cannot be opened.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../electron/core/engine/create-engine';
import type { Engine, NeuralVoice } from '../../../../electron/core/engine/engine';
import { parseSrt } from '../../../../electron/shared/srt';
import { buildPiperModel } from '../../../fixtures/onnx/build-models';
import { piperConfig } from '../../../fixtures/onnx/piper-config';
import { wavSamples } from '../../../fixtures/audio-analysis';

let dir: string;
let engine: Engine;
const voices: Record<string, NeuralVoice> = {};

function piperPack(name: string, sampleRate: 16000 | 22050, numSpeakers = 1): NeuralVoice {
  const modelPath = join(dir, `${name}.onnx`);
  const configPath = `${modelPath}.json`;
  writeFileSync(modelPath, buildPiperModel({ numSpeakers, sampleRate }));
  writeFileSync(configPath, JSON.stringify(piperConfig({ sampleRate, numSpeakers, espeakVoice: 'en-us' })));
  return { family: 'piper', packId: name, modelPath, configPath, speaker: 0 };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'neural-render-'));
  voices.medium = piperPack('en_US-test-medium', 22050);
  voices.low = piperPack('en_US-test-low', 16000);
  engine = await createEngine({ poolSize: 1 });
});
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const base = {
  voice_code: 'en_female_emily_us',
  model_id: 'std-v1.6',
  bitrate: 128,
  speed_rate: 1,
  pitch_rate: 1,
  volume: 100,
} as const;

describe('a Piper voice in the render pipeline', () => {
  it.each([
    ['medium', 22050],
    ['low', 16000],
  ] as const)('renders a %s voice at its own rate with word timings and subtitles', async (name, rate) => {
    const audioPath = join(dir, `${name}.wav`);
    const srtPath = join(dir, `${name}.srt`);
    const timingsPath = join(dir, `${name}.json`);
    const text = 'The lighthouse keeper climbed the stairs. The sea rolled in long grey lines.';
    const result = await engine.render({
      ...base,
      audio_type: 'wav',
      text,
      audioPath,
      srtPath,
      timingsPath,
      neuralVoice: voices[name],
    });
    expect(result.engine).toBe(`piper:${voices[name]!.packId}#0`);
    const { pcm, sampleRate } = wavSamples(new Uint8Array(readFileSync(audioPath)));
    expect(sampleRate).toBe(rate);
    expect(pcm.length / rate).toBeCloseTo(result.durationMs / 1000, 2);
    const words = JSON.parse(readFileSync(timingsPath, 'utf8')) as Array<{ text: string; startMs: number }>;
    expect(words.map((w) => w.text)).toEqual(text.match(/[\p{L}]+/gu));
    for (let i = 1; i < words.length; i++)
      expect(words[i]!.startMs).toBeGreaterThanOrEqual(words[i - 1]!.startMs);
    const cues = parseSrt(readFileSync(srtPath, 'utf8'));
    expect(cues.length).toBeGreaterThan(0);
    expect(cues.at(-1)!.endMs).toBeLessThanOrEqual(result.durationMs + 1);
  });

  it('finishes a render in flight with its voice when the pack is removed meanwhile', async () => {
    const doomed = piperPack('en_US-doomed-medium', 22050);
    const audioPath = join(dir, 'doomed.mp3');
    let removed = false;
    const result = await engine.render({
      ...base,
      audio_type: 'mp3',
      text: 'The lighthouse keeper climbed the stairs at dusk. '.repeat(30),
      audioPath,
      neuralVoice: doomed,
      onProgress: (fraction) => {
        // The library removes a pack by renaming its folder aside and deleting it.
        if (fraction > 0.2 && !removed && doomed.family === 'piper') {
          removed = true;
          rmSync(doomed.modelPath);
          rmSync(doomed.configPath);
        }
      },
    });
    expect(removed).toBe(true);
    expect(result.engine).toBe('piper:en_US-doomed-medium#0');
    expect(readFileSync(audioPath).length).toBe(result.audioBytes);
  });

  it('falls back to eSpeak, and says so, when the voice files are gone', async () => {
    const gone: NeuralVoice = { ...voices.medium!, modelPath: join(dir, 'missing.onnx') } as NeuralVoice;
    const result = await engine.render({
      ...base,
      audio_type: 'mp3',
      text: 'Still spoken.',
      audioPath: join(dir, 'fallback.mp3'),
      neuralVoice: gone,
    });
    expect(result.engine).toBe('espeak');
    expect(result.durationMs).toBeGreaterThan(300);
  });
});
