/**
 * Our phonemes for the neural voices against the phonemes those voices were trained on,
 * recorded in test/fixtures/phoneme-reference/<lang>.json (docs/VOICES-PHONEMES.md says, per
 * language, what the training reference is and where it comes from). Every sentence must match
 * exactly; a language that cannot lists its differences below, each with its reason.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { piperInput } from '../../../electron/core/engine/onnx/piper-phonemes';
import { createWorkerPool, type WorkerPool } from '../../../electron/core/engine/espeak/worker-pool';
import { piperPhonemeIdMap } from '../../fixtures/onnx/piper-config';

interface Reference {
  voice: string;
  sentences: Array<{ sentence: string; expected: string; source: string }>;
}

const FIXTURES = join(__dirname, '../../fixtures/phoneme-reference');

function reference(lang: string): Reference {
  return JSON.parse(readFileSync(join(FIXTURES, `${lang}.json`), 'utf8')) as Reference;
}

/**
 * Sentences of a language whose phonemes differ from the reference, with the reason. Empty for
 * every language recorded so far: an entry here is a known, explained difference, never a margin.
 */
const HORSE_HOARSE =
  'en-us o@ (four, shore, more): the voices learnt "oːɹ" from eSpeak 1.50/1.51; our newer build writes "ɔːɹ" ' +
  '(espeak-ng 5b01dd86, 2024-04-30, "Implement horse-hoarse merger for en-US")';
const KNOWN_DIFFERENCES: Record<string, Record<string, string>> = {
  vi: {},
  en: {
    'She sells sea shells by the sea shore.': HORSE_HOARSE,
    "I can't believe it's already half past four.": HORSE_HOARSE,
    'The meeting starts at 9:30 on Monday, March 4th.': HORSE_HOARSE,
    'It costs about twenty-five pounds, more or less.': HORSE_HOARSE,
    'Four hundred people attended the concert.': HORSE_HOARSE,
    'The company reported a profit of 3.5 million dollars.': HORSE_HOARSE,
  },
  fr: {},
  es: {},
};

describe('phonemes match the voices’ training reference', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 1 });
  });
  afterAll(() => pool.close());

  for (const lang of Object.keys(KNOWN_DIFFERENCES)) {
    it(`${lang}: every sentence as the reference has it`, async () => {
      const { voice, sentences } = reference(lang);
      expect(sentences.length).toBeGreaterThanOrEqual(50);
      const differing: Record<string, string> = {};
      let exact = 0;
      for (const { sentence, expected } of sentences) {
        const clauses = await pool.phonemize(sentence, voice);
        const ours = clauses.flatMap((c) => c.words.map((w) => w.join(''))).join(' ');
        if (ours === expected) exact++;
        else differing[sentence] = `ours ${ours} | reference ${expected}`;
      }
      const known = KNOWN_DIFFERENCES[lang] ?? {};
      expect(Object.keys(differing).sort()).toEqual(Object.keys(known).sort());
      if (lang === 'en') {
        // The known English differences are that one phoneme and nothing else.
        for (const [sentence, diff] of Object.entries(differing)) {
          const [ours, ref] = diff.replace(/^ours /u, '').split(' | reference ');
          expect(ours, sentence).toBe(ref?.replace(/oːɹ/gu, 'ɔːɹ'));
        }
      }
      expect(exact).toBe(sentences.length - Object.keys(known).length);
    });
  }

  it('vi: the model input of vi_VN-vais1000-medium carries every tone, level and clause-final ones included', async () => {
    // vais1000's phoneme_id_map is lessac's (docs/VOICES-PHONEMES.md): "1" is id 131, "7" id 137.
    const map = piperPhonemeIdMap();
    const text = 'Xin chào các bạn, tôi tên là Nam.';
    const [sentence] = piperInput(text, await pool.phonemize(text, 'vi'), map);
    expect(sentence?.missing).toEqual([]);
    const tones = (sentence?.ids ?? []).filter((id) => id >= 130 && id <= 139).map((id) => String(id - 130));
    // xin 1, chào 2, các ɜ (a letter, not a digit), bạn 6, tôi 1, tên 1, là 2, Nam 7.
    expect(tones).toEqual(['1', '2', '6', '1', '1', '2', '7']);
  });

  it('vi: phonemes written in [[ ]] (lexicon entries) are read as phonemes, before or after a traced clause', async () => {
    const words = (clauses: Awaited<ReturnType<WorkerPool['phonemize']>>) =>
      clauses.map((c) => c.words.map((w) => w.join('')).join(' '));
    // eSpeak's trace reads "[[ ]]" as letters: such a clause is read by text-to-phonemes, without
    // the level tone eSpeak adds itself (docs/VOICES-PHONEMES.md).
    expect(words(await pool.phonemize("[[n'a:m]] đây.", 'vi'))).toEqual(['nˈaːm ɗˈəɪ']);
    expect(words(await pool.phonemize("Xin chào, [[n'a:m]] đây.", 'vi'))).toEqual([
      'sˈi1n tʃˈaː2w',
      'nˈaːm ɗˈəɪ',
    ]);
  });
});
