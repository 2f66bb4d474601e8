/**
 * The Vietnamese reading as the real eSpeak NG hears it: what it got wrong before ("15" →
 * mười năm, round numbers with "không trăm") is heard right from the reading, and every word the
 * data tables hand it (units, currencies, abbreviations, letter names) is read as Vietnamese (no
 * switch to its English voice, no bare consonant).
 */

import type { ESpeakNGWorker } from '@echogarden/espeak-ng-emscripten';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  VI_ABBREVIATIONS,
  VI_PHONE_WORDS,
} from '../../../../../electron/core/engine/text/languages/vi-abbreviations';
import { viLetterName } from '../../../../../electron/core/engine/text/languages/vi-letters';
import { VI_CURRENCIES, VI_UNITS } from '../../../../../electron/core/engine/text/languages/vi-units';
import { readingOf } from '../../../../../electron/core/engine/text/reading';
import { rewriteForEngine } from '../../../../../electron/core/engine/text/rules';
import { loadEspeak } from '../../../../fixtures/espeak';

let engine: ESpeakNGWorker;

beforeAll(async () => {
  engine = await loadEspeak();
  expect(engine.set_voice('vi')).toBe(0);
});

/** eSpeak's phonemes, without stress marks and with the tone of a phrase's last syllable (7) as level (1). */
function ipa(text: string): string {
  return engine.synthesize_ipa(text).ipa.replace(/[ˈˌ]/g, '').replace(/7/g, '1').replace(/\s+/g, ' ').trim();
}

const heard = (written: string) => ipa(readingOf(written, 'vi').reading);

// The syllables a listener checks for, as eSpeak writes their phonemes.
const LAM = 'l_a1_m'; // lăm
const NAM = 'n_a1_m'; // năm
const MOT = 'm_oɜ_t̪'; // mốt
const TU = 't̪_y1'; // tư
const KHONG_TRAM = /x_o1_ŋ_ ?tʃ_a/;

describe('what eSpeak alone got wrong is heard right', () => {
  it('"15" is mười lăm, not mười năm', () => {
    expect(ipa('15')).toContain(NAM);
    expect(ipa('15')).not.toContain(LAM);
    for (const written of ['15', 'ngày 15/01/2024', '15 nghìn', '15:45', '25', '1.015']) {
      expect(heard(written), written).toContain(LAM);
    }
  });

  it('"21" is hai mươi mốt, "24" hai mươi tư, "thứ 4" thứ tư, "tháng 4" tháng tư', () => {
    expect(heard('21')).toContain(MOT);
    expect(heard('hai mươi mốt')).toBe(heard('21'));
    for (const written of ['24', 'thứ 4', 'tháng 4', '3/4']) expect(heard(written), written).toContain(TU);
  });

  it('round numbers have no "không trăm"', () => {
    expect(ipa('50.000 đồng')).toMatch(KHONG_TRAM);
    for (const written of ['50.000 đồng', '2.000.000', '1.000.000.000', '300.000đ']) {
      expect(heard(written), written).not.toMatch(KHONG_TRAM);
    }
  });

  it('"14h30", "5km", "UBND", "Q.1" are no longer letters', () => {
    expect(heard('14h30')).toBe(ipa('mười bốn giờ ba mươi phút'));
    expect(heard('5km')).toBe(ipa('năm ki lô mét'));
    expect(heard('UBND')).toBe(ipa('ủy ban nhân dân'));
    expect(heard('Q.1')).toBe(ipa('quận một'));
    expect(heard('thế kỷ XXI')).toBe(ipa('thế kỷ hai mươi mốt'));
  });

  it('acronyms said as words are heard as Vietnamese words, not spelt nor in English', () => {
    const words: [string, string][] = [
      ['RAM', 'ram'],
      ['ROM', 'rom'],
      ['RON', 'rôn'],
      ['NATO', 'na tô'],
      ['ASEAN', 'a xê an'],
      ['APEC', 'a péc'],
      ['OPEC', 'ô péc'],
      ['FIFA', 'phi pha'],
      ['COVID', 'cô vít'],
      ['SEA Games', 'xi ghêm'],
      ['NASA', 'na sa'],
    ];
    const wrongAlone: string[] = [];
    for (const [written, said] of words) {
      expect(heard(written), written).toBe(ipa(said));
      if (ipa(written) !== ipa(said)) wrongAlone.push(written);
    }
    // eSpeak alone reads RAM and ROM right; RON as "ron", the others spelt or in English.
    expect(wrongAlone).toEqual([
      'RON',
      'NATO',
      'ASEAN',
      'APEC',
      'OPEC',
      'FIFA',
      'COVID',
      'SEA Games',
      'NASA',
    ]);
  });
});

describe('every word of the tables is read as Vietnamese', () => {
  /** eSpeak marks a switch to another voice with "(en)"; a syllable without a vowel is a bare consonant. */
  function notVietnamese(words: Iterable<string>): string[] {
    const bad: string[] = [];
    for (const w of words) {
      const phonemes = ipa(w);
      if (/\((?!vi\))[a-z-]+\)/.test(phonemes)) bad.push(`${w}: ${phonemes}`);
    }
    return bad;
  }

  it('units and currencies', () => {
    expect(notVietnamese([...VI_UNITS.values(), ...VI_CURRENCIES.values()])).toEqual([]);
  });

  it('abbreviations', () => {
    expect(notVietnamese([...VI_ABBREVIATIONS.values()].map((e) => e.say))).toEqual([]);
    expect(notVietnamese([...VI_PHONE_WORDS.values()].map((e) => e.say))).toEqual([]);
    expect(VI_ABBREVIATIONS.size).toBeGreaterThanOrEqual(150);
  });

  it('letter names, each with its vowel', () => {
    const names = [...'abcdđefghijklmnopqrstuvwxyz'].map((c) => viLetterName(c) as string);
    expect(notVietnamese(names)).toEqual([]);
    for (const name of names) expect(ipa(name), name).toMatch(/[aeiouəɛɔy]/);
  });
});

describe('word timings keep the written words', () => {
  it('maps every word eSpeak speaks back to a written word, in order', () => {
    const source = 'Lúc 14h30 ngày 15/01/2024, UBND Q.1 chi 1,5 triệu đồng cho 5km đường, gọi 0912 345 678.';
    const prepared = rewriteForEngine(source, 'vi');
    const spoken: { start: number; end: number }[] = [];
    engine.synthesize(prepared.engineText, (_samples, events) => {
      for (const e of events)
        if (e.type === 'word') spoken.push(prepared.toSource(e.text_position, e.word_length));
      return 0;
    });
    // Far more words are spoken than written: each maps into one written token.
    const written = [...source.matchAll(/[^\s,.]+(?:[.,][^\s,.]+)*/gu)].map((m) => [
      m.index,
      m.index + m[0].length,
    ]);
    expect(spoken.length).toBeGreaterThan(written.length);
    let last = 0;
    for (const { start, end } of spoken) {
      expect(start).toBeGreaterThanOrEqual(last);
      const token = written.find(([from, to]) => start >= (from as number) && end <= (to as number));
      expect(token, source.slice(start, end)).toBeDefined();
      last = start;
    }
    const heardTokens = new Set(spoken.map(({ start, end }) => source.slice(start, end)));
    for (const token of ['14h30', '15', '01', '2024', 'UBND', '1,5', '5km', '0912', '678']) {
      expect(
        [...heardTokens].some((t) => t.includes(token)),
        token,
      ).toBe(true);
    }
  });
});
