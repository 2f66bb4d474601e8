/**
 * SSML input rendered by the real engine to real WAV files, measured: breaks add exactly the
 * silence asked for, prosody moves duration, F0 and RMS the way it says, a `<voice>` switch
 * changes the voice mid-file, marks land where they stand, and subtitles show the spoken text.
 */

import { readFile, writeFile } from 'node:fs/promises';
import { DEFAULT_SYNTHESIS } from '../../../electron/shared/options';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarkTiming, NeuralVoice } from '../../../electron/core/engine/engine';
import type { WordTiming } from '../../../electron/core/engine/types';
import { parseSrt } from '../../../electron/shared/srt';
import { medianF0, rmsOf } from '../../fixtures/audio-analysis';
import { startEngine, type EngineFixture } from '../../fixtures/engine';
import { spokenReading } from '../../../electron/core/engine/render/ssml-segments';
import type { SayAs } from '../../../electron/shared/ssml';
import { buildPiperModel } from '../../fixtures/onnx/build-models';
import { piperConfig } from '../../fixtures/onnx/piper-config';

const MALE = 'en_male_onyx_default';
const FEMALE = 'en_female_nova_default';

let fx: EngineFixture;

beforeAll(async () => {
  fx = await startEngine(2);
});

afterAll(async () => {
  await fx.close();
});

const say = (text: string, voice_code = MALE) => fx.renderWav({ text, voice_code });
const ms = (samples: number, rate: number) => (samples / rate) * 1000;

describe('SSML breaks', () => {
  it('adds the silence asked for, replacing the pause it stands in (±20 ms)', async () => {
    const first = await say('<speak>Hello there.</speak>');
    const second = await say('<speak>How are you today?</speak>');
    const joined = await say('<speak>Hello there.<break time="700ms"/>How are you today?</speak>');
    const none = await say('<speak>Hello there.<break time="0ms"/>How are you today?</speak>');
    const sum = first.durationMs + second.durationMs;
    expect(Math.abs(joined.durationMs - (sum + 700))).toBeLessThanOrEqual(20);
    expect(Math.abs(joined.durationMs - none.durationMs - 700)).toBeLessThanOrEqual(20);
  });

  it('cuts a sentence where it stands, with strength mapped to time', async () => {
    const plain = await say('<speak>One two three four five six.</speak>');
    const strong = await say('<speak>One two three <break strength="strong"/>four five six.</speak>');
    // 700 ms, less what cutting the sentence in two changes in the speech itself.
    expect(strong.durationMs - plain.durationMs).toBeGreaterThan(550);
    expect(strong.durationMs - plain.durationMs).toBeLessThan(900);
  });

  it('writes a paragraph pause between <p> elements and a sentence pause between <s>', async () => {
    const para = await say('<speak><p>It rained</p><p>We stayed in</p></speak>');
    const sent = await say('<speak><s>It rained</s><s>We stayed in</s></speak>');
    // Paragraph 700 ms against sentence 300 ms.
    expect(Math.abs(para.durationMs - sent.durationMs - 400)).toBeLessThanOrEqual(20);
  });
});

describe('SSML prosody', () => {
  const SENTENCE = 'The quick brown fox jumps over the lazy dog near the river bank.';

  it('rate changes the duration in its direction, within the API bounds', async () => {
    const base = await say(`<speak>${SENTENCE}</speak>`);
    const slow = await say(`<speak><prosody rate="slow">${SENTENCE}</prosody></speak>`);
    const fast = await say(`<speak><prosody rate="150%">${SENTENCE}</prosody></speak>`);
    expect(slow.durationMs / base.durationMs).toBeGreaterThan(1.2);
    expect(slow.durationMs / base.durationMs).toBeLessThan(1.5);
    expect(fast.durationMs / base.durationMs).toBeLessThan(0.8);
    expect(fast.durationMs / base.durationMs).toBeGreaterThan(0.55);
  });

  it('pitch moves F0 up and down', async () => {
    const base = await say(`<speak>${SENTENCE}</speak>`);
    const high = await say(`<speak><prosody pitch="+50%">${SENTENCE}</prosody></speak>`);
    const low = await say(`<speak><prosody pitch="low">${SENTENCE}</prosody></speak>`);
    const f0 = medianF0(base.pcm, base.sampleRate);
    expect(medianF0(high.pcm, high.sampleRate) / f0).toBeGreaterThan(1.2);
    expect(medianF0(low.pcm, low.sampleRate) / f0).toBeLessThan(0.92);
  });

  it('volume scales RMS, by decibels', async () => {
    const base = await say(`<speak>${SENTENCE}</speak>`);
    const soft = await say(`<speak><prosody volume="-6dB">${SENTENCE}</prosody></speak>`);
    const ratio = rmsOf(soft.pcm) / rmsOf(base.pcm);
    expect(ratio).toBeGreaterThan(0.45);
    expect(ratio).toBeLessThan(0.56);
  });
});

describe('SSML voices, marks and subtitles', () => {
  it('a <voice> switch changes the voice mid-file', async () => {
    const timingsPath = join(fx.dir, 'voices.json');
    const out = await fx.engine.render({
      ...DEFAULT_SYNTHESIS,
      audio_type: 'wav',
      voice_code: MALE,
      text: `<speak>I will read the first part of it. <voice name="${FEMALE}">And I will read the second part of it.</voice></speak>`,
      audioPath: join(fx.dir, 'voices.wav'),
      timingsPath,
    });
    const { pcm, sampleRate } = await import('../../fixtures/audio-analysis').then(async (m) =>
      m.wavSamples(new Uint8Array(await readFile(join(fx.dir, 'voices.wav')))),
    );
    const words = JSON.parse(await readFile(timingsPath, 'utf8')) as WordTiming[];
    const second = words.find((w) => w.text === 'And') as WordTiming;
    const cut = Math.round((second.startMs / 1000) * sampleRate);
    const maleF0 = medianF0(pcm.subarray(0, cut), sampleRate);
    const femaleF0 = medianF0(pcm.subarray(cut), sampleRate);
    expect(femaleF0 / maleF0).toBeGreaterThan(1.4);
    expect(out.engine).toBe('espeak');
  });

  it('marks land where they stand: at a word, and at the start of a break (±30 ms)', async () => {
    const timingsPath = join(fx.dir, 'marks.json');
    const srtPath = join(fx.dir, 'marks.srt');
    await fx.engine.render({
      ...DEFAULT_SYNTHESIS,
      audio_type: 'wav',
      voice_code: MALE,
      text: '<speak>One two <mark name="three"/>three.<mark name="gap"/><break time="800ms"/>Four <emphasis>five</emphasis> six.</speak>',
      audioPath: join(fx.dir, 'marks.wav'),
      timingsPath,
      srtPath,
    });
    const { wavSamples } = await import('../../fixtures/audio-analysis');
    const { pcm, sampleRate } = wavSamples(new Uint8Array(await readFile(join(fx.dir, 'marks.wav'))));
    const items = JSON.parse(await readFile(timingsPath, 'utf8')) as Array<WordTiming | MarkTiming>;
    const marks = items.filter((i): i is MarkTiming => 'mark' in i);
    const words = items.filter((i): i is WordTiming => 'text' in i);
    expect(marks.map((m) => m.mark)).toEqual(['three', 'gap']);
    const three = words.find((w) => w.text === 'three.' || w.text === 'three') as WordTiming;
    expect(Math.abs((marks[0] as MarkTiming).startMs - three.startMs)).toBeLessThanOrEqual(30);
    // The break's silence: the longest run of 10 ms frames under -50 dBFS.
    const frame = Math.round(sampleRate / 100);
    let best = { start: 0, length: 0 };
    let run = { start: 0, length: 0 };
    for (let f = 0; f * frame < pcm.length; f++) {
      const quiet = rmsOf(pcm.subarray(f * frame, (f + 1) * frame)) < 100;
      run = quiet
        ? { start: run.length === 0 ? f : run.start, length: run.length + 1 }
        : { start: f + 1, length: 0 };
      if (run.length > best.length) best = { ...run };
    }
    const silenceStartMs = ms(best.start * frame, sampleRate);
    expect(best.length * 10).toBeGreaterThanOrEqual(780);
    expect(Math.abs((marks[1] as MarkTiming).startMs - silenceStartMs)).toBeLessThanOrEqual(30);
    // The order of the items is text order.
    const offsets = items.map((i) => i.charStart);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    const srt = await readFile(srtPath, 'utf8');
    expect(srt).not.toMatch(/<\/?[a-z]/u);
    expect(
      parseSrt(srt)
        .map((c) => c.text)
        .join(' '),
    ).toContain('Four five six.');
  });

  it('subtitles keep the written words of <sub>, while the alias is what is spoken', async () => {
    const srtPath = join(fx.dir, 'sub.srt');
    const spoken = await say('<speak>Visit the world wide web today.</speak>');
    const request = {
      ...DEFAULT_SYNTHESIS,
      audio_type: 'wav',
      voice_code: MALE,
    } as const;
    const aliased = await fx.engine.render({
      ...request,
      text: '<speak>Visit the <sub alias="world wide web">WWW</sub> today.</speak>',
      audioPath: join(fx.dir, 'sub.wav'),
      srtPath,
    });
    expect(aliased.characters).toBe('Visit the WWW today.'.length);
    const srt = await readFile(srtPath, 'utf8');
    expect(
      parseSrt(srt)
        .map((c) => c.text)
        .join(' '),
    ).toBe('Visit the WWW today.');
    // The alias is read exactly as if it had been written.
    expect(Math.abs(aliased.durationMs - spoken.durationMs)).toBeLessThanOrEqual(5);
  });

  it('say-as reads digits one by one and spells characters', async () => {
    const cardinal = await say('<speak>Room <say-as interpret-as="cardinal">4711</say-as>.</speak>');
    const digits = await say('<speak>Room <say-as interpret-as="digits">4711</say-as>.</speak>');
    // "four seven one one" against "four thousand seven hundred and eleven".
    expect(Math.abs(digits.durationMs - cardinal.durationMs)).toBeGreaterThan(150);
    const word = await say('<speak>The word <say-as interpret-as="characters">cat</say-as>.</speak>');
    const plain = await say('<speak>The word cat.</speak>');
    const spelled = await say('<speak>The word see ay tee.</speak>');
    expect(word.durationMs - plain.durationMs).toBeGreaterThan(120);
    expect(Math.abs(word.durationMs - spelled.durationMs)).toBeLessThan(150);
  });

  it('say-as telephone in Vietnamese is read in Vietnamese digit words, group by group', async () => {
    const VI = 'vi_female_thuytrang_mb';
    const phone = await say(
      '<speak>Gọi <say-as interpret-as="telephone">+84 912 345 678</say-as>.</speak>',
      VI,
    );
    const spelt = await say('<speak>Gọi cộng tám bốn, chín một hai, ba bốn năm, sáu bảy tám.</speak>', VI);
    // The reading is the spelt words exactly (±5 ms): not "plus", nor eSpeak's English digits.
    expect(Math.abs(phone.durationMs - spelt.durationMs)).toBeLessThanOrEqual(5);
  });

  it('reads a malformed document as an SSML_INVALID error, writing nothing', async () => {
    await expect(say('<speak>Hello <emphasis>there</speak>')).rejects.toMatchObject({
      code: 'SSML_INVALID',
      details: { line: 1, column: 29 },
    });
  });
});

describe('SSML with a neural voice', () => {
  it('switches from eSpeak to a Piper voice of another sample rate, resampled into the file', async () => {
    const modelPath = join(fx.dir, 'en_US-ssml-low.onnx');
    await writeFile(modelPath, buildPiperModel({ sampleRate: 16000 }));
    await writeFile(
      `${modelPath}.json`,
      JSON.stringify(piperConfig({ sampleRate: 16000, espeakVoice: 'en-us' })),
    );
    const piper: NeuralVoice = {
      family: 'piper',
      packId: 'en_US-ssml-low',
      modelPath,
      configPath: `${modelPath}.json`,
      speaker: 0,
    };
    const first = await say('<speak>Hello there.</speak>');
    const alone = await fx.renderWav({
      text: '<speak>How are you today?</speak>',
      voice_code: FEMALE,
      neuralVoice: piper,
    });
    expect(alone.sampleRate).toBe(16000);
    const mixed = await fx.renderWav({
      text: `<speak>Hello there.<break time="300ms"/><voice name="${FEMALE}">How are you today?</voice></speak>`,
      voice_code: MALE,
      voices: { [FEMALE]: piper },
    });
    expect(mixed.sampleRate).toBe(22050);
    // The file keeps the first voice's rate; the Piper audio keeps its duration (±10 ms).
    expect(Math.abs(mixed.durationMs - (first.durationMs + 300 + alone.durationMs))).toBeLessThanOrEqual(10);
    const engines = await fx.engine.render({
      ...DEFAULT_SYNTHESIS,
      audio_type: 'wav',
      voice_code: MALE,
      text: `<speak>Hi. <voice name="${FEMALE}">Hello.</voice></speak>`,
      audioPath: join(fx.dir, 'engines.wav'),
      voices: { [FEMALE]: piper },
    });
    expect(engines.engine).toBe('espeak,piper:en_US-ssml-low#0');
  });
});

describe('what <say-as> makes the engine read', () => {
  const read = (
    interpretAs: SayAs,
    written: string,
    language: 'en' | 'fr' | 'es' | 'vi' = 'en',
    format?: string,
  ) =>
    spokenReading(
      { kind: 'say-as', interpretAs, format, start: 0, end: written.length },
      written,
      language,
      {},
    );

  it('writes ordinals as each language reads them, and dates in the order their format gives', () => {
    expect([
      read('ordinal', '3'),
      read('ordinal', '12'),
      read('ordinal', '21'),
      read('ordinal', '102'),
    ]).toEqual(['third', 'twelfth', 'twenty first', 'one hundred second']);
    expect([read('ordinal', '1', 'fr'), read('ordinal', '3', 'fr'), read('ordinal', '3', 'es')]).toEqual([
      '1er',
      '3ème',
      '3º',
    ]);
    expect(read('date', '2026-11-21')).toBe('November twenty first, twenty twenty six');
    expect(read('date', '11/21/2026', 'en', 'mdy')).toBe('November twenty first, twenty twenty six');
    expect(read('date', '21/11/2026', 'fr', 'dmy')).toBe('21 novembre 2026');
    // Numbers that make no date are read as written.
    expect(read('date', '31/31/2026', 'en', 'dmy')).toBeUndefined();
  });

  it('spells, reads digits and telephone numbers one by one', () => {
    expect(read('characters', 'a b1')).toBe('[[eI]] B 1');
    expect(read('spell-out', 'cat', 'fr')).toBe('C A T');
    expect(read('digits', '4 711')).toBe('4 7 1 1');
    // English says 0 "oh" in a phone number; languages without a reading of their own keep the digits.
    expect(read('telephone', '+1 555-0100')).toBe('plus one, five five five, oh one oh oh');
    expect(read('telephone', '+33 1 23', 'fr')).toBe('plus 3 3, 1, 2 3');
    expect(read('cardinal', '1,234')).toBe('one thousand two hundred thirty four');
    // A count, read directly: never a year's pairs, never a decimal point dropped.
    expect(read('cardinal', '1994')).toBe('one thousand nine hundred ninety four');
    expect(read('cardinal', '-1,234.5')).toBe('minus one thousand two hundred thirty four point five');
  });

  it('reads Vietnamese the Vietnamese way: digit words in groups, "thứ nhất", "thứ tư", letter names', () => {
    expect(read('telephone', '0912 345 678', 'vi')).toBe('không chín một hai, ba bốn năm, sáu bảy tám');
    expect(read('telephone', '+84 93-655', 'vi')).toBe('cộng tám bốn, chín ba, sáu năm năm');
    expect(read('digits', '2024', 'vi')).toBe('hai không hai bốn');
    expect([read('ordinal', '1', 'vi'), read('ordinal', '4', 'vi'), read('ordinal', '04', 'vi')]).toEqual([
      'thứ nhất',
      'thứ tư',
      'thứ tư',
    ]);
    // Other ordinals are "thứ" and the number, read by the Vietnamese rules.
    expect(read('ordinal', '5', 'vi')).toMatch(/^thứ /u);
    expect(read('characters', 'VTV', 'vi')).toBe('vê tê vê');
    expect(read('spell-out', 'Đh 3', 'vi')).toBe('đê hát ba');
    // Date and time stay with the rules of the language (ISO dates, clock times).
    expect(read('date', '2026-11-21', 'vi')).toContain('hai mươi mốt tháng mười một năm');
  });
});
