/**
 * Issue 37, point 5: however the text stage rewrites numbers, dates, money, units and
 * abbreviations (the rules, the lexicon's long spelled-out respellings, abbreviation entries),
 * a real render's subtitles show the written text, and its word timings are the written words
 * of the source, in order, at their offsets, monotonic and covering the audio: with eSpeak and
 * with a (synthetic) Piper voice, which reads the same engine text through eSpeak's phonemes.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LexiconRule, NeuralVoice } from '../../../electron/core/engine/engine';
import type { WordTiming } from '../../../electron/core/engine/types';
import { DEFAULT_SYNTHESIS } from '../../../electron/shared/options';
import { parseSrt } from '../../../electron/shared/srt';
import { startEngine, type EngineFixture } from '../../fixtures/engine';
import { writePiperVoice } from '../../fixtures/onnx/piper-voice';
import { expectCoverage, tokens, validateCues } from '../../fixtures/subtitle-checks';

const VI_TEXT =
  'Ngày 15/01/2024, UBND TP. Cần Thơ chi 50.000đ cho 5km đường. ' +
  'Lúc 14h30 thứ 4, GS. TS. Nguyễn Văn An ở Q.1 nhận 1.250.000 VND (tăng 12,5%), gọi 0912 345 678. ' +
  'Cty Minh An bán 2-5 tấn, giá 50.000đ-100.000đ, từ 8h đến 9:15 ngày 30/10, xe chạy 120 km/h lúc trời 30°C.';
const EN_TEXT =
  'On 05/06/2026 at 9:05 a.m., Dr. Smith paid $1,234.56 for 12kg of No. 5 on Elm St. in 1999; ' +
  'call 555-123-4567, about 20–30% off. The Corp. sold 1,250,000 units of 100 m2 on july 25 2012, up 3/4.';

const abbreviation = (match: string, replacement: string): LexiconRule => ({
  match,
  replacement,
  kind: 'abbreviation',
  case_sensitive: true,
  whole_word: true,
});
const respell = (match: string, replacement: string): LexiconRule => ({
  match,
  replacement,
  kind: 'respell',
  case_sensitive: false,
  whole_word: true,
});

/** Entries that spell numbers out at length, as the normalisers do, and expand abbreviations. */
const VI_LEXICON: LexiconRule[] = [
  abbreviation('UBND', 'ủy ban nhân dân'),
  abbreviation('Cty', 'công ty'),
  respell('1.250.000', 'một triệu hai trăm năm mươi nghìn'),
  respell('15/01/2024', 'mười lăm tháng một năm hai nghìn không trăm hai mươi tư'),
];
const EN_LEXICON: LexiconRule[] = [
  abbreviation('Corp.', 'Corporation'),
  respell('1,250,000', 'one million two hundred and fifty thousand'),
  respell('555-123-4567', 'five five five, one two three, four five six seven'),
];

let fx: EngineFixture;
let piper: NeuralVoice;

beforeAll(async () => {
  fx = await startEngine(2);
  piper = writePiperVoice(fx.dir, 'en_US-reading-medium');
});
afterAll(async () => {
  await fx?.close();
});

let counter = 0;
async function render(text: string, voice_code: string, lexicon: LexiconRule[], neuralVoice?: NeuralVoice) {
  const name = `reading-${++counter}`;
  const result = await fx.engine.render({
    ...DEFAULT_SYNTHESIS,
    voice_code,
    audio_type: 'wav',
    text,
    lexicon,
    ...(neuralVoice ? { neuralVoice } : {}),
    audioPath: join(fx.dir, `${name}.wav`),
    srtPath: join(fx.dir, `${name}.srt`),
    timingsPath: join(fx.dir, `${name}.json`),
  });
  const words = JSON.parse(readFileSync(join(fx.dir, `${name}.json`), 'utf8')) as WordTiming[];
  const cues = parseSrt(readFileSync(join(fx.dir, `${name}.srt`), 'utf8'));
  return { result, words, cues };
}

/** The checks of point 5 on one render of `text`. */
function expectExact(text: string, { result, words, cues }: Awaited<ReturnType<typeof render>>) {
  // Subtitles: the written text, every word once, in order, with its punctuation.
  expectCoverage(cues, text);
  expect(validateCues(cues)).toEqual([]);
  // Word timings: the written tokens (numbers as written), in order, at their offsets.
  expect(words.map((w) => w.text)).toEqual(tokens(text));
  for (const w of words) expect(text.slice(w.charStart, w.charEnd)).toBe(w.text);
  // Monotonic, and covering the audio: from its start to its end, no long stretch without a word.
  let previousEnd = 0;
  for (const w of words) {
    expect(w.endMs).toBeGreaterThan(w.startMs);
    expect(w.startMs).toBeGreaterThanOrEqual(previousEnd);
    expect(w.startMs - previousEnd).toBeLessThan(1000);
    previousEnd = w.endMs;
  }
  expect(words[0]?.startMs).toBeLessThan(300);
  expect(Math.abs(previousEnd - result.durationMs)).toBeLessThan(300);
}

describe('word timings and subtitles keep the written text (issue 37, point 5)', () => {
  it('Vietnamese: dates, money, units, times, phone numbers and abbreviations, with eSpeak', async () => {
    const rendered = await render(VI_TEXT, 'vi_female_thuytrang_mb', VI_LEXICON);
    expectExact(VI_TEXT, rendered);
    // The long spelled-out date takes the time of its words (measured ≈ 2.6 s), mapped to "15/01/2024".
    const date = rendered.words.find((w) => w.text === '15/01/2024');
    expect((date?.endMs ?? 0) - (date?.startMs ?? 0)).toBeGreaterThan(1500);
  });

  it('English: dates, money, units, times, phone numbers and abbreviations, with eSpeak', async () => {
    const rendered = await render(EN_TEXT, 'en_female_nova_default', EN_LEXICON);
    expectExact(EN_TEXT, rendered);
  });

  it('English with a neural voice (Piper, phonemised by eSpeak)', async () => {
    const rendered = await render(EN_TEXT, 'en_female_nova_default', EN_LEXICON, piper);
    expect(rendered.result.engine).toBe('piper:en_US-reading-medium#0');
    expectExact(EN_TEXT, rendered);
  });

  it('a full stop after an abbreviation of the lexicon does not end a subtitle cue', async () => {
    // "Cty." is no built-in abbreviation: only the lexicon's entry says its stop ends no sentence.
    const text =
      'Sáng nay đại diện của Cty. Hoàng Long đã đến ký hợp đồng mua gạo với các hộ nông dân ở huyện Cờ Đỏ.';
    const rendered = await render(text, 'vi_female_thuytrang_mb', [abbreviation('Cty', 'công ty')]);
    expectExact(text, rendered);
    expect(rendered.cues.length).toBeGreaterThan(1);
    for (const cue of rendered.cues) expect(cue.text).not.toMatch(/Cty\.$/u);
  });

  it('the same without a lexicon: what the rules alone rewrite maps back too', async () => {
    expectExact(VI_TEXT, await render(VI_TEXT, 'vi_male_lehoang_mb', []));
    expectExact(EN_TEXT, await render(EN_TEXT, 'en_male_onyx_default', []));
  });
});
