/**
 * Lexicon entries change what the real engine speaks, measured: the phonemes eSpeak reads for
 * the chunk (the worker's, and Debian's native espeak-ng as a yardstick on the same engine
 * text), the length of the audio and of the words, with eSpeak and with a (synthetic) Piper
 * voice, which phonemises through the same eSpeak; while subtitles and word timings keep the
 * words as written.
 */

import { spawnSync } from 'node:child_process';
import { DEFAULT_SYNTHESIS } from '../../../electron/shared/options';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { Engine, LexiconRule, NeuralVoice, RenderRequest } from '../../../electron/core/engine/engine';
import { createWorkerPool, type WorkerPool } from '../../../electron/core/engine/espeak/worker-pool';
import { prepareChunk } from '../../../electron/core/engine/render/speech-plan';
import { resolveVoice } from '../../../electron/core/engine/render/voice';
import { compileLexicon } from '../../../electron/core/engine/text/lexicon';
import { readingOf } from '../../../electron/core/engine/text/reading';
import type { WordTiming } from '../../../electron/core/engine/types';
import { parseSrt } from '../../../electron/shared/srt';
import { writePiperVoice } from '../../fixtures/onnx/piper-voice';

const TEXT = 'Lord Cholmondeley met Saoirse and Nguyen yesterday.';
const LEXICON: LexiconRule[] = [
  // eSpeak reads "kˈoʊməndˌɛli", "sˈɜːʃə" and "nˈuːjɛn".
  { match: 'Cholmondeley', kind: 'ipa', replacement: 'ˈtʃʌmli', case_sensitive: false, whole_word: true },
  { match: 'saoirse', kind: 'ipa', replacement: 'ˈsɪɚʃə', case_sensitive: false, whole_word: true },
  { match: 'Nguyen', kind: 'respell', replacement: 'win', case_sensitive: false, whole_word: true },
];
const VOICE = 'en_female_emily_us';
const BASE = {
  ...DEFAULT_SYNTHESIS,
  audio_type: 'wav',
  voice_code: VOICE,
} as const;

let dir: string;
let engine: Engine;
let pool: WorkerPool;
let piper: NeuralVoice;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexicon-render-'));
  engine = await createEngine({ poolSize: 1 });
  pool = await createWorkerPool({ size: 1 });
  piper = writePiperVoice(dir, 'en_US-test-medium');
});
afterAll(async () => {
  await engine?.close();
  await pool?.close();
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
async function render(request: Partial<RenderRequest>) {
  const name = `out-${++counter}`;
  const result = await engine.render({
    ...BASE,
    text: TEXT,
    audioPath: join(dir, `${name}.wav`),
    srtPath: join(dir, `${name}.srt`),
    timingsPath: join(dir, `${name}.json`),
    ...request,
  });
  const words = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as WordTiming[];
  const cues = parseSrt(readFileSync(join(dir, `${name}.srt`), 'utf8'));
  const length = (word: string) => {
    const w = words.find((t) => t.text === word);
    return w ? w.endMs - w.startMs : Number.NaN;
  };
  return { result, words, cues, length };
}

/** What eSpeak reads for the text as the render prepares it: the worker's IPA, and native espeak-ng's. */
async function phonemes(lexicon: LexiconRule[] | undefined) {
  const { voice, profile } = resolveVoice(BASE);
  const { engineText } = await prepareChunk(TEXT, voice, profile, compileLexicon(lexicon, 'en'));
  const clauses = await pool.phonemize(engineText, 'en-us');
  const worker = clauses.flatMap((c) => c.words.map((w) => w.join(''))).join(' ');
  const native = existsSync('/usr/bin/espeak-ng')
    ? spawnSync('/usr/bin/espeak-ng', ['-q', '--ipa', '-v', 'en-us', engineText], { encoding: 'utf8' })
        .stdout.trim()
        .normalize('NFD')
    : undefined;
  return { engineText, worker, native };
}

describe('lexicon entries in a render', () => {
  it('change the phonemes eSpeak reads: the IPA entries and the respelling, nothing else', async () => {
    const without = await phonemes(undefined);
    const withEntries = await phonemes(LEXICON);
    expect(without.worker).toBe('lˈɔːɹd kˈoʊməndˌɛli mˈɛt sˈɜːʃə ænd nˈuːjɛn jˈɛstɚdˌeɪ'.normalize('NFD'));
    expect(withEntries.engineText).toBe("Lord [['tSVmli]] met [['sI3S@]] and win yesterday.");
    expect(withEntries.worker).toBe('lˈɔːɹd tʃˈʌmli mˈɛt sˈɪɚʃə ænd wˈɪn jˈɛstɚdˌeɪ'.normalize('NFD'));
    // Debian's espeak-ng 1.51 reads the same engine text the same way.
    if (withEntries.native !== undefined) {
      expect(withEntries.native).toBe(withEntries.worker);
      expect(without.native).toBe(without.worker);
    }
  });

  it('change how long eSpeak speaks, and the subtitles keep the words as written', async () => {
    const without = await render({});
    const withEntries = await render({ lexicon: LEXICON });
    // Measured: 2696 → 2531 ms; "Cholmondeley" 528 → 378 ms, "Nguyen" 310 → 253 ms.
    expect(without.result.durationMs - withEntries.result.durationMs).toBeGreaterThan(100);
    expect(without.length('Cholmondeley') - withEntries.length('Cholmondeley')).toBeGreaterThan(80);
    expect(without.length('Nguyen') - withEntries.length('Nguyen')).toBeGreaterThan(30);
    const written = TEXT.match(/\p{L}+/gu);
    expect(withEntries.words.map((w) => w.text)).toEqual(written);
    expect(withEntries.cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ')).toBe(TEXT);
    expect(withEntries.result.engine).toBe('espeak');
  });

  it('reach a neural voice through its eSpeak phonemes', async () => {
    const without = await render({ neuralVoice: piper });
    const withEntries = await render({ neuralVoice: piper, lexicon: LEXICON });
    expect(withEntries.result.engine).toBe('piper:en_US-test-medium#0');
    // The synthetic model speaks one tone per phoneme id: fewer phonemes, shorter audio
    // (measured 1939 → 1602 ms).
    expect(without.result.durationMs - withEntries.result.durationMs).toBeGreaterThan(150);
    expect(without.length('Cholmondeley')).toBeGreaterThan(withEntries.length('Cholmondeley'));
    expect(withEntries.words.map((w) => w.text)).toEqual(TEXT.match(/\p{L}+/gu));
    expect(withEntries.cues.map((c) => c.text.replace(/\n/g, ' ')).join(' ')).toBe(TEXT);
  });

  it('apply to the plain std-v1 model and to auditions too', async () => {
    const plain = await render({ model_id: 'std-v1', lexicon: LEXICON });
    const plainWithout = await render({ model_id: 'std-v1' });
    expect(plainWithout.result.durationMs - plain.result.durationMs).toBeGreaterThan(100);
    const audition = async (lexicon?: LexiconRule[]) =>
      (
        await engine.streamAudition({
          voice_code: VOICE,
          speed_rate: 1,
          pitch_rate: 1,
          volume: 100,
          text: 'Cholmondeley',
          lexicon,
          onAudio: () => undefined,
        })
      ).durationMs;
    expect((await audition()) - (await audition(LEXICON))).toBeGreaterThan(80);
  });
});

describe('unit entries (issue 37, point 3)', () => {
  const KNOT_VI: LexiconRule = {
    match: 'kn',
    kind: 'unit',
    replacement: 'hải lý',
    case_sensitive: true,
    whole_word: true,
  };
  const KNOT_EN: LexiconRule = { ...KNOT_VI, replacement: 'knot|knots' };
  const sound = async (text: string, voice: string) =>
    (await pool.phonemize(text, voice)).flatMap((c) => c.words.map((w) => w.join(''))).join(' ');

  it('a render with a unit entry works, and the subtitles and timings keep "5 kn" as written', async () => {
    const text = 'Tàu chạy 5 kn.';
    const rendered = await render({ text, voice_code: 'vi_female_thuytrang_mb', lexicon: [KNOT_VI] });
    expect(rendered.cues.map((c) => c.text).join(' ')).toBe(text);
    expect(rendered.words.map((w) => w.text)).toEqual(['Tàu', 'chạy', '5', 'kn']);
    expect(rendered.result.durationMs).toBeGreaterThan(500);
  });

  it('"5 kn" is "năm hải lý" with the unit entry', async () => {
    const { reading } = readingOf('Tàu chạy 5 kn.', 'vi', { lexicon: [KNOT_VI] });
    expect(await sound(reading, 'vi')).toBe(await sound('Tàu chạy năm hải lý.', 'vi'));
    // A render reads the unit the same way: as long as the words spelt out (±5 ms).
    const voice_code = 'vi_female_thuytrang_mb';
    const withUnit = await render({ text: 'Tàu chạy 5 kn.', voice_code, lexicon: [KNOT_VI] });
    const spelt = await render({ text: 'Tàu chạy năm hải lý.', voice_code });
    expect(Math.abs(withUnit.result.durationMs - spelt.result.durationMs)).toBeLessThanOrEqual(5);
  });

  it('"5 kn" is "five knots", "1 kn" "one knot"', async () => {
    const five = readingOf('At 5 kn.', 'en', { lexicon: [KNOT_EN] }).reading;
    expect(await sound(five, 'en-us')).toBe(await sound('At five knots.', 'en-us'));
    const one = readingOf('At 1 kn.', 'en', { lexicon: [KNOT_EN] }).reading;
    expect(await sound(one, 'en-us')).toBe(await sound('At one knot.', 'en-us'));
  });
});
