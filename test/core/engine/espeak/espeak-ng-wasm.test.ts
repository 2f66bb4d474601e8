/**
 * eSpeak NG's WebAssembly build (native/espeak-ng, loaded by engine/espeak/espeak-ng-wasm.ts)
 * against the wasm2js build of the same sources in @echogarden/espeak-ng-emscripten 0.3.5, the
 * engine's eSpeak before it: the same audio sample for sample, the same word and sentence events,
 * the same phoneme trace and text-to-phonemes, in every language the voices speak, with SSML,
 * phonemes in [[ ]], Klatt and variant voices, and other rates, pitches, ranges and volumes. So
 * the sentence cache's entries and every expectation written against the old build hold.
 */

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import load, { type ESpeakModule, type ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import {
  EVENT_SENTENCE,
  EVENT_WORD,
  loadEspeakNg,
  PARAMETER,
  seededAtZero,
  type EspeakNg,
} from '../../../../electron/core/engine/espeak/espeak-ng-wasm';
import { joinSamples } from '../../../fixtures/espeak';

const TEXTS: Array<[voice: string, text: string]> = [
  ['en-us', 'Hello world. The quick brown fox jumps over the lazy dog, 1,234 times!'],
  ['en-us+f3', 'Dr. Smith lives at 221B Baker St.; he said "no" — twice.'],
  ['en-gb-x-rp', 'Colour and flavour, Mr. Brown. Is it?'],
  ['vi', 'Ngày 15 tháng 1 năm 2024, Ủy ban nhân dân thành phố Hà Nội đã họp.'],
  ['vi+klatt', 'Xin chào các bạn, hôm nay trời đẹp quá.'],
  ['vi-vn-x-south', 'Tôi đi học lúc bảy giờ sáng; mười lăm phút sau thì đến.'],
  ['fr', "L'été dernier, nous sommes allés à la plage."],
  ['es', '¿Dónde está la biblioteca? Está allí.'],
  ['cmn', '我们今天去公园散步。'],
  ['ja', 'こんにちは、世界。'],
  ['ko', '안녕하세요, 만나서 반갑습니다.'],
  [
    'en-us',
    '<speak>Some <emphasis>SSML</emphasis> here <break time="300ms"/> and [[h@l\'oU]] phonemes.</speak>',
  ],
  ['en-us+klatt3', 'A voice of the Klatt synthesiser.'],
  // Dictionaries are mounted when first needed (a voice's, another script's, SSML's): these read
  // ones no text above did, in the order a fresh worker meets them.
  ['en-us', 'Moscow is Москва, and alpha is άλφα.'],
  ['de', 'Guten Tag, wie geht es Ihnen?'],
  ['vi', 'Tiếng Nga: Привет.'],
  ['en-us', '<speak>Hello <voice xml:lang="it">buongiorno a tutti</voice>.</speak>'],
];
/** Rate (words a minute), volume, pitch, range. */
const SETTINGS: Array<[number, number, number, number]> = [
  [175, 60, 50, 50],
  [320, 100, 75, 20],
  [90, 140, 30, 90],
];

interface Spoken {
  samples: Int16Array;
  /** Word and sentence events: type, text position, length, audio ms. */
  events: string[];
  trace: string;
  phonemes: string;
}

function speakWasm(
  espeak: EspeakNg,
  voice: string,
  settings: number[],
  text: string,
  options: { byFile?: boolean } = {},
): Spoken {
  expect(espeak.setVoiceByName(voice, options)).toBe(0);
  const [rate = 0, volume = 0, pitch = 0, range = 0] = settings;
  espeak.setParameter(PARAMETER.rate, rate);
  espeak.setParameter(PARAMETER.volume, volume);
  espeak.setParameter(PARAMETER.pitch, pitch);
  espeak.setParameter(PARAMETER.range, range);
  const { samples, events } = espeak.synthesize(text);
  return {
    samples,
    events: events
      .filter((e) => e.type === EVENT_WORD || e.type === EVENT_SENTENCE)
      .map(
        (e) => `${e.type === EVENT_WORD ? 'word' : 'sentence'} ${e.textPosition} ${e.length} ${e.audioMs}`,
      ),
    trace: espeak.phonemeTrace(text) ?? '',
    phonemes: espeak.textToPhonemes(text),
  };
}

function speakWasm2js(
  module: ESpeakModule,
  espeak: ESpeakNGWorker,
  voice: string,
  settings: number[],
  text: string,
): Spoken {
  expect(espeak.set_voice(voice)).toBe(0);
  const [rate = 0, volume = 0, pitch = 0, range = 0] = settings;
  espeak.set_rate(rate);
  espeak.set_volume(volume);
  espeak.set_pitch(pitch);
  espeak.set_range(range);
  const parts: Int16Array[] = [];
  const events: string[] = [];
  espeak.synthesize(text, (samples, heard) => {
    parts.push(samples);
    for (const e of heard) {
      if (e.type === 'word' || e.type === 'sentence') {
        events.push(`${e.type} ${e.text_position} ${e.word_length} ${e.audio_position}`);
      }
    }
    return 0;
  });
  const samples = joinSamples(parts);
  // In the same order as speakWasm: eSpeak reads SSML in text-to-phonemes as the call before said.
  const trace = espeak.synthesize_ipa(text).ipa;
  const { ptr } = espeak.convert_to_phonemes(text, true);
  const heap = module.HEAPU8;
  const phonemes = new TextDecoder().decode(heap.subarray(ptr, heap.indexOf(0, ptr)));
  module._free(ptr);
  return { samples, events, trace, phonemes };
}

describe('eSpeak NG as WebAssembly', () => {
  let wasm: EspeakNg;
  let wasm2jsModule: ESpeakModule;
  let wasm2js: ESpeakNGWorker;
  beforeAll(async () => {
    wasm = await loadEspeakNg();
    wasm2jsModule = await load();
    // Seeded as the engine seeds its own build (eSpeak reads the clock once, when it starts).
    wasm2js = seededAtZero(() => new wasm2jsModule.eSpeakNGWorker());
  });

  it('speaks as the wasm2js build of the same sources: samples, events, trace and phonemes', () => {
    let compared = 0;
    for (const settings of SETTINGS) {
      for (const [voice, text] of TEXTS) {
        const ours = speakWasm(wasm, voice, settings, text);
        const theirs = speakWasm2js(wasm2jsModule, wasm2js, voice, settings, text);
        const about = `${voice} ${settings.join('/')}: ${text}`;
        expect(ours.samples.length, about).toBeGreaterThan(2000);
        expect(ours.samples.length, about).toBe(theirs.samples.length);
        expect(Buffer.from(ours.samples.buffer).equals(Buffer.from(theirs.samples.buffer)), about).toBe(true);
        expect(ours.events, about).toEqual(theirs.events);
        expect(
          ours.events.some((e) => e.startsWith('word ')),
          about,
        ).toBe(true);
        expect(ours.trace, about).toBe(theirs.trace);
        expect(ours.phonemes, about).toBe(theirs.phonemes);
        compared++;
      }
    }
    expect(compared).toBe(TEXTS.length * SETTINGS.length);
  });

  it('loads a voice by its file without its list of voices, and speaks as by its name (text without SSML)', async () => {
    const table = JSON.parse(
      readFileSync(
        new URL('../../../../native/espeak-ng/espeak-ng-data-files.json', import.meta.url),
        'utf8',
      ),
    ) as Array<[string]>;
    const langFiles = table.map(([path]) => path).filter((path) => path.includes('/lang/'));
    expect(langFiles.length).toBeGreaterThan(100);
    // Mounted in lower case: no two may differ only in case.
    expect(new Set(langFiles.map((path) => path.toLowerCase())).size).toBe(langFiles.length);

    // Two fresh instances, the same calls: eSpeak keeps state from call to call.
    const byFile = await loadEspeakNg();
    const byName = await loadEspeakNg();
    let compared = 0;
    for (const settings of SETTINGS) {
      for (const [voice, text] of TEXTS) {
        if (text.includes('<')) continue;
        expect(byFile.loadsVoiceDirectly(voice), voice).toBe(true);
        const ours = speakWasm(byFile, voice, settings, text, { byFile: true });
        const theirs = speakWasm(byName, voice, settings, text);
        const about = `${voice} ${settings.join('/')}: ${text}`;
        expect(ours.samples.length, about).toBeGreaterThan(2000);
        expect(Buffer.from(ours.samples.buffer).equals(Buffer.from(theirs.samples.buffer)), about).toBe(true);
        expect(ours.events, about).toEqual(theirs.events);
        expect(ours.trace, about).toBe(theirs.trace);
        expect(ours.phonemes, about).toBe(theirs.phonemes);
        compared++;
      }
    }
    expect(compared).toBe(TEXTS.filter(([, text]) => !text.includes('<')).length * SETTINGS.length);
    // A language code no file is named after, a voice's "name" line and a path are eSpeak's to find.
    expect(byFile.loadsVoiceDirectly('en-gb')).toBe(false);
    expect(byFile.loadsVoiceDirectly('Vietnamese_Northern')).toBe(false);
    expect(byFile.loadsVoiceDirectly('gmw/en-US+f3')).toBe(true);
    expect(byFile.setVoiceByName('gmw/en-US+f3', { byFile: true })).toBe(0);
    expect(byFile.setVoiceByName('en-gb', { byFile: true })).not.toBe(0);
    // The list still names each file as the package does.
    expect(byFile.listVoices().map((v) => v.identifier)).toContain('gmw/en-US');
  });

  it('lists the same voices, with their languages', () => {
    const theirs = wasm2js.list_voices().map((v) => ({
      identifier: v.identifier,
      languages: v.languages.map((l) => ({ priority: l.priority, name: l.name })),
    }));
    const ours = wasm.listVoices();
    expect(ours.length).toBeGreaterThan(100);
    expect(ours).toEqual(theirs);
    expect(ours.find((v) => v.identifier === 'aav/vi')?.languages).toContainEqual({
      priority: 5,
      name: 'vi',
    });
  });

  it('keeps its voice when a name is unknown, and picks one by language ("fr-fr" is no name)', () => {
    expect(wasm.setVoiceByName('vi')).toBe(0);
    const vietnamese = wasm.textToPhonemes('Xin chào');
    expect(wasm.setVoiceByName('fr-fr')).not.toBe(0);
    expect(wasm.textToPhonemes('Xin chào')).toBe(vietnamese);
    expect(wasm.setVoiceByLanguage('fr-fr')).toBe(0);
    expect(wasm.textToPhonemes('Xin chào')).not.toBe(vietnamese);
  });

  it('reads text with any characters, long or empty, and gives memory back', () => {
    expect(wasm.setVoiceByName('en-us')).toBe(0);
    const before = wasm.heapEnd();
    for (let i = 0; i < 5; i++) wasm.synthesize('Again and again, a sentence. '.repeat(200));
    expect(wasm.synthesize('').samples.every((sample) => sample === 0)).toBe(true);
    expect(wasm.textToPhonemes('\u0000 \u{1F600} \uFFFD')).toBeTypeOf('string');
    // The long texts grew the heap once; later ones reuse it.
    const grown = wasm.heapEnd();
    wasm.synthesize('Again and again, a sentence. '.repeat(200));
    expect(wasm.heapEnd()).toBe(grown);
    expect(grown).toBeGreaterThanOrEqual(before);
  });

  it('never gives memory back: the end of what malloc took only grows (the worker reads no page above it)', () => {
    expect(wasm.setVoiceByName('ru')).toBe(0);
    wasm.synthesize('Привет всем, это длинное предложение. '.repeat(20));
    const russian = wasm.heapEnd();
    // The Russian dictionary (8.5 MB) is freed when another voice is set: an allocator that gives
    // memory back would lower the end here.
    expect(wasm.setVoiceByName('en-us')).toBe(0);
    wasm.synthesize('Hello.');
    expect(wasm.heapEnd()).toBe(russian);
    expect(wasm.setVoiceByName('vi')).toBe(0);
    wasm.synthesize('Xin chào các bạn. '.repeat(300));
    const long = wasm.heapEnd();
    expect(long).toBeGreaterThanOrEqual(russian);
    expect(wasm.setVoiceByName('en-us')).toBe(0);
    wasm.synthesize('Hi.');
    expect(wasm.heapEnd()).toBe(long);
  });
});
