/**
 * IPA → eSpeak phoneme names (`ipaToEspeak`), checked against the real engine: the eSpeak
 * workers phonemise `[[names]]` (the way the engine speaks an IPA entry) and read them back as
 * IPA. Two yardsticks: every supported symbol is spoken in every language (eSpeak silences a
 * whole word when one name is unknown to the language's table), and eSpeak's own reading of
 * real words, converted back from its IPA, is read the same again.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPool } from '../../electron/core/engine/espeak/worker-pool';
import { ipaToEspeak, SUPPORTED_IPA } from '../../electron/shared/lexicon-ipa';
import type { LanguageCode } from '../../electron/shared/voices';

let pool: WorkerPool;
beforeAll(async () => {
  pool = await createWorkerPool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
});

/** eSpeak's IPA for a text: its words joined by spaces, phonemes run together. */
async function espeakIpa(text: string, voice: string): Promise<string> {
  const clauses = await pool.phonemize(text, voice);
  return clauses.flatMap((c) => c.words.map((w) => w.join(''))).join(' ');
}

function converted(ipa: string, language: LanguageCode): string {
  const result = ipaToEspeak(ipa, language);
  if (!result.ok) throw new Error(result.message);
  return result.phonemes;
}

describe('ipaToEspeak', () => {
  it('converts IPA to the names of the language’s eSpeak table', () => {
    expect(converted('ʃɪˈvɔːn', 'en')).toBe("SI'vO:n");
    expect(converted('/ˈbɑːθ/', 'en')).toBe("'bA:T");
    expect(converted('[ˈtʃɜːtʃ]', 'en')).toBe("'tS3:tS");
    expect(converted("'dʒʌdʒ", 'en')).toBe("'dZVdZ");
    // A diphthong, an r-coloured vowel at the end, and the same ɛ + ɹ before a vowel.
    expect(converted('ˈfeɪs ˈskwɛɹ ˈvɛɹi', 'en')).toBe("'feIs 'skwe@ 'vEri");
    // French nasal vowels and ʁ; the same ɑ is A: in English, A in Chinese, a in French.
    expect(converted('pʁɛ̃tɑ̃', 'fr')).toBe('prE~tA~');
    expect(converted('ɑ', 'zh')).toBe('A');
    expect(converted('ɑ', 'fr')).toBe('a');
    // Spanish: r is the trill, ɾ the tap.
    expect(converted('ˈpero', 'es')).toBe("'peRo");
    expect(converted('ˈpeɾo', 'es')).toBe("'pero");
    // Japanese し and ん; Vietnamese tone numbers as eSpeak writes them.
    expect(converted('ɕiˈũbɯᵝɴ', 'ja')).toBe("s\\i'u~buN\\");
    expect(converted('vˈiɛ6t̪', 'vi')).toBe("v'iE6t[");
    // Korean has no long vowels: the length mark is dropped.
    expect(converted('saːɾaŋ', 'ko')).toBe('sa*aN');
  });

  it('accepts what transcriptions carry besides phonemes, and drops it', () => {
    expect(converted('  /ˈkʰæ.t̚/  ', 'en')).toBe("'kat");
    expect(converted('t͡ʃiːz', 'en')).toBe('tSi:z');
    expect(converted('ˌnjuː ˈjɔːk', 'en')).toBe(",nju: 'jO:k");
  });

  it('names the symbol it cannot read and where it stands', () => {
    const unknown = ipaToEspeak('ʃɪˈvɔːn ʘ', 'en');
    expect(unknown).toMatchObject({ ok: false, position: 9 });
    expect(!unknown.ok && unknown.message).toContain('"ʘ" (U+0298, character 9)');
    const tone = ipaToEspeak('ma˥˩', 'zh');
    expect(tone).toMatchObject({ ok: false, position: 3 });
    expect(!tone.ok && tone.message).toMatch(/Tone marks .* not supported/);
    // Tone numbers are Vietnamese only.
    expect(ipaToEspeak('ma2', 'zh').ok).toBe(false);
    expect(ipaToEspeak('ˈ ː', 'en')).toMatchObject({ ok: false, message: 'The IPA has no phonemes.' });
    expect(ipaToEspeak('', 'en').ok).toBe(false);
    // A capital letter is not IPA.
    expect(ipaToEspeak('Siobhan', 'en')).toMatchObject({ ok: false, position: 1 });
  });
});

/** eSpeak voices of each language (the phoneme table its voices use). */
const VOICES: [LanguageCode, string][] = [
  ['en', 'en-us'],
  ['en', 'en-gb-x-rp'],
  ['fr', 'fr'],
  ['es', 'es'],
  ['vi', 'vi'],
  ['zh', 'cmn'],
  ['ko', 'ko'],
  ['ja', 'ja'],
];

describe('IPA entries as the real engine reads them', () => {
  it.each(VOICES)('every supported symbol is spoken in %s (%s)', async (language, voice) => {
    const silent: string[] = [];
    const plain = await espeakIpa('[[tata]]', voice);
    for (const symbol of SUPPORTED_IPA) {
      const names = converted(`taˈ${symbol}ta`, language);
      const ipa = await espeakIpa(`[[${names}]]`, voice);
      // The word would vanish (or lose the symbol) if a name were unknown to the table.
      if (ipa.split(' ').length !== 1 || [...ipa].length <= [...plain].length)
        silent.push(`${symbol}=${names}→${ipa}`);
    }
    expect(silent).toEqual([]);
  });

  // eSpeak reads each word; its IPA converted back and spoken in [[ ]] must read the same.
  const WORDS: [string, LanguageCode, string[]][] = [
    [
      'en-us',
      'en',
      [
        'banana',
        'thought',
        'measure',
        'church',
        'judge',
        'singing',
        'father',
        'bird',
        'house',
        'boy',
        'time',
        'face',
        'goat',
        'cure',
        'near',
        'square',
        'thin',
        'this',
        'yes',
        'water',
        'butter',
        'nurse',
        'happy',
        'comma',
        'letter',
        'strut',
        'foot',
        'goose',
        'kit',
        'dress',
        'trap',
        'lot',
        'cloth',
        'north',
        'force',
        'start',
        'palm',
        'very',
      ],
    ],
    [
      'en-gb-x-rp',
      'en',
      ['banana', 'thought', 'lot', 'goat', 'bath', 'square', 'near', 'cure', 'nurse', 'letter'],
    ],
    [
      'fr',
      'fr',
      [
        'bonjour',
        'merci',
        'fromage',
        'grenouille',
        'pain',
        'brun',
        'lundi',
        'heureux',
        'soeur',
        'oiseau',
        'champagne',
        'rouge',
        'fille',
        'vingt',
      ],
    ],
    [
      'es',
      'es',
      [
        'perro',
        'pero',
        'niño',
        'calle',
        'jamón',
        'zapato',
        'gracias',
        'hablar',
        'cuchillo',
        'agua',
        'lluvia',
        'ciudad',
      ],
    ],
    ['vi', 'vi', ['xin', 'chào', 'cảm', 'ơn', 'người', 'Việt', 'Nam']],
    ['ko', 'ko', ['안녕하세요', '감사합니다', '사랑']],
    ['ja', 'ja', ['こんにちは', 'ありがとう', 'さようなら', 'しんぶん']],
  ];

  it.each(WORDS)(
    'eSpeak’s own %s readings come back the same through IPA',
    async (voice, language, words) => {
      const differing: string[] = [];
      for (const word of words) {
        const ipa = await espeakIpa(word, voice);
        const names = converted(ipa, language);
        const back = await espeakIpa(
          names
            .split(' ')
            .map((w) => `[[${w}]]`)
            .join(' '),
          voice,
        );
        if (back !== ipa) differing.push(`${word}: ${ipa} → ${names} → ${back}`);
      }
      expect(differing).toEqual([]);
    },
  );
});
