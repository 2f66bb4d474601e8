/**
 * Neural voices through the whole render pipeline in every format: synthetic Piper (16 and
 * 22.05 kHz, one and several speakers, with and without a Ceil durations node) and Kokoro
 * (24 kHz, both input namings, with and without durations) models with the real signatures,
 * rendered by the real engine to WAV and to MP3 (every bitrate at each sample rate), each file
 * decoded by ffmpeg and probed by ffprobe; word timings and SRT without model durations; a cancelled render.
 */

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../electron/core/engine/create-engine';
import type { Engine, NeuralVoice, RenderRequest } from '../../../../electron/core/engine/engine';
import { BITRATES, DEFAULT_SYNTHESIS } from '../../../../electron/shared/options';
import { parseSrt } from '../../../../electron/shared/srt';
import { wavSamples } from '../../../fixtures/audio-analysis';
import { buildKokoroModel, buildPiperModel, SPEAKER_STEP_HZ } from '../../../fixtures/onnx/build-models';
import { kokoroVocab, writeKokoroVoice } from '../../../fixtures/onnx/kokoro-data';
import { piperConfig } from '../../../fixtures/onnx/piper-config';
import { framePeaksHz } from '../../../fixtures/onnx/tone';

const run = promisify(execFile);

const TEXT =
  'The lighthouse keeper climbed the stairs. The sea rolled in long grey lines, and the wind rose.';
const WORDS = TEXT.match(/\p{L}+/gu)!;

let dir: string;
let engine: Engine;
let counter = 0;

function piperVoice(
  name: string,
  options: { sampleRate: 16000 | 22050; numSpeakers?: number; withCeil?: boolean; speaker?: number },
): NeuralVoice {
  const modelPath = join(dir, `${name}.onnx`);
  const { sampleRate, numSpeakers = 1, withCeil = true, speaker = 0 } = options;
  writeFileSync(modelPath, buildPiperModel({ sampleRate, numSpeakers, withCeil }));
  writeFileSync(`${modelPath}.json`, JSON.stringify(piperConfig({ sampleRate, numSpeakers })));
  return { family: 'piper', packId: name, modelPath, configPath: `${modelPath}.json`, speaker };
}

async function kokoroVoice(naming: 'input_ids' | 'tokens', withDurations: boolean): Promise<NeuralVoice> {
  const packId = `kokoro-${naming}-${withDurations ? 'durations' : 'plain'}`;
  const pack = join(dir, packId);
  mkdirSync(pack);
  writeFileSync(join(pack, 'model.onnx'), buildKokoroModel({ naming, withDurations }));
  // One pack keeps tokenizer.json's layout, the other config.json's.
  const vocabPath = join(pack, naming === 'tokens' ? 'tokenizer.json' : 'config.json');
  const vocab = naming === 'tokens' ? { model: { vocab: kokoroVocab() } } : { vocab: kokoroVocab() };
  writeFileSync(vocabPath, JSON.stringify(vocab));
  await writeKokoroVoice(join(pack, 'af_test.bin'), 11);
  return {
    family: 'kokoro',
    packId,
    modelPath: join(pack, 'model.onnx'),
    vocabPath,
    voicePath: join(pack, 'af_test.bin'),
    voiceName: 'af_test',
    espeakVoice: 'en-us',
  };
}

function render(voice: NeuralVoice, request: Partial<RenderRequest> & { audio_type: 'wav' | 'mp3' }) {
  const name = `out-${++counter}`;
  const paths = {
    audioPath: join(dir, `${name}.${request.audio_type}`),
    srtPath: join(dir, `${name}.srt`),
    timingsPath: join(dir, `${name}.json`),
  };
  return engine
    .render({
      ...DEFAULT_SYNTHESIS,
      voice_code: 'en_female_emily_us',
      text: TEXT,
      ...paths,
      ...request,
      neuralVoice: voice,
    })
    .then((result) => ({ result, ...paths }));
}

/** ffmpeg's decode errors (its stderr at -v error) and ffprobe's sample rate and duration. */
async function probe(path: string): Promise<{ errors: string; sampleRate: number; durationMs: number }> {
  const decoded = await run('ffmpeg', ['-v', 'error', '-i', path, '-f', 'null', '-'], { encoding: 'utf8' });
  const { stdout } = await run(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'stream=sample_rate,duration', '-of', 'json', path],
    { encoding: 'utf8' },
  );
  const stream = (JSON.parse(stdout) as { streams: Array<{ sample_rate: string; duration: string }> })
    .streams[0]!;
  return {
    errors: decoded.stderr.trim(),
    sampleRate: Number(stream.sample_rate),
    durationMs: Number(stream.duration) * 1000,
  };
}

interface Timing {
  text: string;
  startMs: number;
  endMs: number;
}
const timingsOf = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Timing[];

const voices: Record<string, { voice: NeuralVoice; rate: number; label: string }> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'neural-formats-'));
  const add = (key: string, voice: NeuralVoice, rate: number, label: string) => {
    voices[key] = { voice, rate, label };
  };
  add('piper 16 kHz', piperVoice('en_US-test-low', { sampleRate: 16000 }), 16000, 'piper:en_US-test-low#0');
  add(
    'piper 22.05 kHz',
    piperVoice('en_US-test-medium', { sampleRate: 22050 }),
    22050,
    'piper:en_US-test-medium#0',
  );
  for (const naming of ['input_ids', 'tokens'] as const) {
    for (const withDurations of [true, false]) {
      const voice = await kokoroVoice(naming, withDurations);
      add(
        `kokoro ${naming} ${withDurations ? 'with' : 'without'} durations`,
        voice,
        24000,
        `kokoro:${voice.packId}#af_test`,
      );
    }
  }
  engine = await createEngine({ poolSize: 2 });
}, 60_000);
afterAll(async () => {
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const FORMATS = [
  { audio_type: 'wav' as const, bitrate: 128 as const },
  ...BITRATES.map((bitrate) => ({ audio_type: 'mp3' as const, bitrate })),
];

/** WAV and MP3 at 128 kbps: the formats of a model kind whose sample rate another kind covers. */
const WAV_AND_ONE_MP3 = FORMATS.filter((f) => f.audio_type === 'wav' || f.bitrate === 128);

describe('every output format at every sample rate, every neural model kind', () => {
  // Every bitrate once per sample rate (the MP3 encoder's limits are per rate: 16 kHz is MPEG-2);
  // the other Kokoro kinds, 24 kHz like the first, differ in their inputs, not their audio.
  it.each([
    ['piper 16 kHz', FORMATS],
    ['piper 22.05 kHz', FORMATS],
    ['kokoro input_ids with durations', FORMATS],
    ['kokoro input_ids without durations', WAV_AND_ONE_MP3],
    ['kokoro tokens with durations', WAV_AND_ONE_MP3],
    ['kokoro tokens without durations', WAV_AND_ONE_MP3],
  ] as const)(
    '%s: WAV and MP3 decode without errors at the voice’s rate and length',
    async (key, formats) => {
      const { voice, rate, label } = voices[key]!;
      for (const format of formats) {
        const { result, audioPath, timingsPath, srtPath } = await render(voice, format);
        const what = `${key} ${format.audio_type} ${format.bitrate}`;
        expect(result.engine, what).toBe(label);
        const probed = await probe(audioPath);
        expect(probed.errors, what).toBe('');
        expect(probed.sampleRate, what).toBe(rate);
        if (format.audio_type === 'wav') {
          expect(Math.abs(probed.durationMs - result.durationMs), what).toBeLessThan(1);
        } else {
          // MP3 adds the encoder's delay and padding: at most 4 frames of 576 samples at these rates.
          expect(probed.durationMs, what).toBeGreaterThanOrEqual(result.durationMs);
          expect(probed.durationMs - result.durationMs, what).toBeLessThan(((4 * 576) / rate) * 1000);
        }
        expect(result.durationMs, what).toBeGreaterThan(2000);
        expect(
          timingsOf(timingsPath).map((w) => w.text),
          what,
        ).toEqual(WORDS);
        expect(parseSrt(readFileSync(srtPath, 'utf8')).length, what).toBeGreaterThan(0);
      }
    },
    120_000,
  );
});

describe('a multi-speaker Piper voice', () => {
  it('speaks each speaker measurably differently (the speaker’s tone offset)', async () => {
    const speakers = [0, 1, 2].map((speaker) =>
      piperVoice(`en_US-multi-${speaker}`, { sampleRate: 22050, numSpeakers: 3, speaker }),
    );
    const peaks: number[][] = [];
    for (const [speaker, voice] of speakers.entries()) {
      const { result, audioPath } = await render(voice, { audio_type: 'wav' });
      expect(result.engine).toBe(`piper:en_US-multi-${speaker}#${speaker}`);
      const { pcm, sampleRate } = wavSamples(new Uint8Array(readFileSync(audioPath)));
      peaks.push(framePeaksHz(pcm, sampleRate));
    }
    // The speakers' timing is the same, so frames match: each speaker adds SPEAKER_STEP_HZ
    // to every tone of the synthetic model (and the engine's fades and pauses are the same).
    for (const speaker of [1, 2]) {
      const shifts = peaks[speaker]!.flatMap((hz, frame) =>
        hz > 0 && peaks[0]![frame]! > 0 ? [hz - peaks[0]![frame]!] : [],
      );
      shifts.sort((a, b) => a - b);
      const median = shifts[Math.floor(shifts.length / 2)]!;
      expect(shifts.length).toBeGreaterThan(50);
      expect(Math.abs(median - speaker * SPEAKER_STEP_HZ)).toBeLessThan(10);
    }
  });
});

describe('a Piper model without a durations (Ceil) node', () => {
  it('still gives word timings (sentences exact, words by phoneme count) and SRT', async () => {
    const timed = await render(voices['piper 22.05 kHz']!.voice, { audio_type: 'wav' });
    const plain = piperVoice('en_US-noceil-medium', { sampleRate: 22050, withCeil: false });
    const untimed = await render(plain, { audio_type: 'wav' });
    // The same audio: −floor(−w) is ceil(w); only the model's durations are missing.
    const a = wavSamples(new Uint8Array(readFileSync(timed.audioPath))).pcm;
    const b = wavSamples(new Uint8Array(readFileSync(untimed.audioPath))).pcm;
    expect(b.length).toBe(a.length);
    expect(
      Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(
        Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      ),
    ).toBe(true);

    const exact = timingsOf(timed.timingsPath);
    const estimated = timingsOf(untimed.timingsPath);
    expect(estimated.map((w) => w.text)).toEqual(WORDS);
    const errors = estimated.map((w, i) => Math.abs(w.startMs - exact[i]!.startMs));
    // Each sentence is its own model run, so its words stay inside it; within it, a word's
    // share of the ids misses its share of the frames by a few 11.6 ms frames (83 ms measured).
    expect(Math.max(...errors)).toBeLessThan(120);
    for (let i = 1; i < estimated.length; i++) {
      expect(estimated[i]!.startMs).toBeGreaterThanOrEqual(estimated[i - 1]!.startMs);
    }
    // Sentence starts are exact: each sentence's first word is the first phoneme after '^'
    // (1 ms measured; a frame is 11.6 ms).
    const sentenceStarts = [0, WORDS.indexOf('The', 1)];
    for (const i of sentenceStarts) {
      expect(Math.abs(estimated[i]!.startMs - exact[i]!.startMs)).toBeLessThan(12);
    }
    const cues = parseSrt(readFileSync(untimed.srtPath, 'utf8'));
    const exactCues = parseSrt(readFileSync(timed.srtPath, 'utf8'));
    expect(cues.length).toBe(exactCues.length);
    expect(cues.map((c) => c.text)).toEqual(exactCues.map((c) => c.text));
    expect(cues.at(-1)!.endMs).toBeLessThanOrEqual(untimed.result.durationMs + 1);
  });
});

describe('a cancelled neural render', () => {
  it.each(['piper 22.05 kHz', 'kokoro input_ids with durations'])(
    '%s: rejects CANCELLED and leaves no files',
    async (key) => {
      const controller = new AbortController();
      const cancelDir = join(dir, `cancel-${++counter}`);
      mkdirSync(cancelDir);
      const text = Array.from({ length: 40 }, (_, i) => `Sentence number ${i + 1} goes on a little.`).join(
        ' ',
      );
      const rendering = engine.render({
        ...DEFAULT_SYNTHESIS,
        voice_code: 'en_female_emily_us',
        audio_type: 'mp3',
        text,
        audioPath: join(cancelDir, 'out.mp3'),
        srtPath: join(cancelDir, 'out.srt'),
        timingsPath: join(cancelDir, 'out.json'),
        neuralVoice: voices[key]!.voice,
        signal: controller.signal,
        onProgress: (fraction) => fraction > 0.1 && controller.abort(),
      });
      await expect(rendering).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(readdirSync(cancelDir)).toEqual([]);
    },
  );
});
