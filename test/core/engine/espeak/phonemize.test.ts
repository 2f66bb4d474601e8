/**
 * Phonemes from the eSpeak workers (`WorkerPool.phonemize`): clauses with their place in the
 * text and their punctuation, words as eSpeak reads them, the voice fallback by language, and
 * agreement with Debian's native `espeak-ng --ipa` (the same engine, version 1.51; the shipped
 * WASM build is newer). Known differences, allowed below:
 * - en-us: 1.51 writes "oːɹ" where the newer build writes "ɔːɹ" (shore, more, four).
 * - vi: none. Vietnamese is read from eSpeak's phoneme trace, as native `espeak-ng -x` reads it,
 *   so the level tone "1" and the clause-final "7" are there (test/core/engine/phoneme-reference).
 * - cmn: Debian's 1.51 lacks the Mandarin dictionary and spells Han characters out in English,
 *   so there is nothing to compare; our output is checked for tone numbers instead.
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSettings, PhonemeClause } from '../../../../electron/core/engine/espeak/protocol';
import { createWorkerPool, type WorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { settleOnFakeTimers } from '../../../fixtures/fake-timeouts';
import { medianF0, rmsOf } from '../../../fixtures/audio-analysis';
import { SENTENCES } from '../../../fixtures/sentences';

const NATIVE = '/usr/bin/espeak-ng';
const hasNative = existsSync(NATIVE);

/** The text of a clause's words, by its code point position. */
function clauseText(text: string, clause: PhonemeClause): string {
  return Array.from(text)
    .slice(clause.textPosition - 1, clause.textPosition - 1 + clause.textLength)
    .join('');
}

/** Native eSpeak's IPA: one line per clause, words split at spaces, NFD. */
function nativeIpa(voice: string, text: string): string[][] {
  const out = spawnSync(NATIVE, ['--ipa', '-q', '-v', voice, text], { encoding: 'utf8' });
  expect(out.status).toBe(0);
  return out.stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => line.normalize('NFD').split(/\s+/));
}

const CORPUS: Record<string, string[]> = {
  'en-us': [
    SENTENCES.en,
    'She sells sea shells by the sea shore, and the shells she sells are surely seashells.',
    'Where are you going tomorrow morning? I think it is fine in the garden.',
    'Dr. Smith paid 1,250 dollars for 3 new computers in 2023!',
    'The weather was beautiful; nobody wanted to leave — not even the children.',
  ],
  'en-gb': [
    SENTENCES.en,
    "I can't find the tomato in the garden, but the water is warm.",
    'Where are you going tomorrow morning? The lorry was parked outside.',
  ],
  vi: [SENTENCES.vi, 'Tôi đang học tiếng Việt ở Hà Nội.', 'Hôm nay trời đẹp quá! Bạn có khỏe không?'],
  'fr-fr': [
    SENTENCES.fr,
    "Je voudrais un café au lait, s'il vous plaît.",
    'Où est la gare? Il y a vingt-cinq personnes ici.',
  ],
  es: [
    SENTENCES.es,
    'Me gustaría un café con leche, por favor.',
    '¿Qué tal? El perro corre rápidamente por el parque.',
  ],
  ja: [SENTENCES.ja, 'わたしはにほんごをべんきょうしています。', 'カタカナもよめます。'],
};

/** The known differences of Debian's 1.51, undone on its side. */
const NATIVE_FIX: Record<string, (word: string) => string> = {
  'en-us': (word) => word.replace(/oːɹ/gu, 'ɔːɹ'),
};

describe('phonemes from the eSpeak workers', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 2 });
  });
  afterAll(() => pool.close());

  it('gives clauses with their place in the text, punctuation and terminator', async () => {
    const text = 'Hello there, it is a test. How are you?! Fine… "Quoted," she said — twice: yes; no';
    const clauses = await pool.phonemize(text, 'en-us');
    expect(clauses.map((c) => [clauseText(text, c), c.punctuation, c.terminator, c.endsSentence])).toEqual([
      ['Hello there', ',', ',', false],
      ['it is a test', '.', '.', true],
      ['How are you', '?!', '!', true],
      ['Fine', '…', '', false],
      ['"Quoted', ',"', ',', false],
      ['she said', '—', ';', false],
      ['twice', ':', ':', false],
      ['yes', ';', ';', false],
      ['no', '', '', true],
    ]);
    expect(clauses[0]?.words).toEqual([
      ['h', 'ə', 'l', 'ˈoʊ'],
      ['ð', 'ˈɛɹ'],
    ]);
    expect(clauses[0]?.textWords).toEqual([
      { textPosition: 1, wordLength: 5 },
      { textPosition: 7, wordLength: 5 },
    ]);
  });

  it('ends clauses where eSpeak does: not at "D.C. today", at "Dr. Smith", at full-width marks', async () => {
    const text = 'Dr. Smith went to Washington D.C. today. 你好，世界。';
    const english = await pool.phonemize('Dr. Smith went to Washington D.C. today.', 'en-us');
    expect(english.map((c) => clauseText(text, c))).toEqual(['Dr', 'Smith went to Washington D.C. today']);
    const chinese = await pool.phonemize('你好，世界。我很好！', 'cmn');
    expect(chinese.map((c) => [c.punctuation, c.terminator, c.endsSentence])).toEqual([
      ['，', '', false],
      ['。', '', true],
      ['！', '', true],
    ]);
    // A blank line ends a sentence; a single line break does not.
    const lines = await pool.phonemize('One\ntwo\n\nthree', 'en-us');
    expect(lines.map((c) => [c.words.length, c.endsSentence])).toEqual([
      [2, true],
      [1, true],
    ]);
  });

  it('writes phonemes without separators or language flags, in NFD, with positions in code points', async () => {
    const text = '😀 Bonjour, la forêt! Ça va? I like the word "weekend".';
    const clauses = await pool.phonemize(text, 'fr-fr');
    for (const clause of clauses) {
      for (const word of clause.words) {
        for (const unit of word) {
          expect(unit).not.toMatch(/[_()|\s]/u);
          expect(unit).toBe(unit.normalize('NFD'));
        }
      }
    }
    // The emoji is one code point (two UTF-16 units): "Bonjour" starts at code point 3.
    expect(clauseText(text, clauses[0]!)).toBe('😀 Bonjour');
    expect(clauses[0]?.textWords).toMatchObject([{ textPosition: 3, wordLength: 7 }]);
    // "Ça" decomposed: s + a (eSpeak's "sa").
    expect(clauses.find((c) => clauseText(text, c) === 'Ça va')?.words[0]?.join('')).toBe('sa');
  });

  it('gives each text word its own reading when eSpeak merges or splits words', async () => {
    const [clause] = await pool.phonemize('I paid 1984 dollars in the garden', 'en-gb');
    expect(clause).toBeDefined();
    expect(clause!.textWords.length).toBe(7);
    expect(clause!.words.length).not.toBe(7); // "1984" is three words, "in the" one
    // Read alone, as eSpeak reads it alone ("nineteen hundred and eighty-four" in British English).
    expect(clause!.textWords.map((w) => w.phonemes)).toEqual([
      'ˈaɪ',
      'pˈeɪd',
      'nˈaɪntiːnhˈʌndɹɪdən ˈeɪti fˈɔː',
      'dˈɒləz',
      'ˈɪn',
      'ðə',
      'ɡˈɑːdən',
    ]);
    const same = await pool.phonemize('The lazy dog sleeps.', 'en-us');
    expect(same[0]?.textWords.every((w) => w.phonemes === undefined)).toBe(true);
  });

  it('finds voices by language when no voice file has the name, and never uses a wrong voice', async () => {
    const word = (clauses: PhonemeClause[]) => clauses.map((c) => c.words.map((w) => w.join('')).join(' '));
    expect(word(await pool.phonemize('Bonjour.', 'fr-fr'))).toEqual(
      word(await pool.phonemize('Bonjour.', 'fr')),
    );
    expect(word(await pool.phonemize('Tomato.', 'en-gb'))).toEqual(['təmˈɑːtəʊ']);
    expect(word(await pool.phonemize('Tomato.', 'en-us+f3'))).toEqual(['təmˈeɪɾoʊ']);
    expect(word(await pool.phonemize('你好。', 'zh'))).toEqual(word(await pool.phonemize('你好。', 'cmn')));
    for (const voice of ['en-au', 'xx-nope', '']) {
      await expect(pool.phonemize('Hello.', voice)).rejects.toMatchObject({ code: 'UNKNOWN_VOICE' });
    }
  });

  it('leaves synthesis as it was: same voice and timing after phonemising with another voice', async () => {
    const settings: EngineSettings = { voice: 'en-us+f3', rate: 190, pitch: 60, range: 40, volume: 70 };
    const small = await createWorkerPool({ size: 1 });
    try {
      const before = await small.synthesize('The same sentence, twice.', settings);
      const french = await small.phonemize('Bonjour tout le monde.', 'fr-fr');
      expect(french[0]?.words.flat().join('')).toMatch(/ʁ/u);
      await expect(small.phonemize('x', 'xx-nope')).rejects.toMatchObject({ code: 'UNKNOWN_VOICE' });
      const after = await small.synthesize('The same sentence, twice.', settings);
      // eSpeak's output varies by a few samples from call to call; voice, rate and pitch must not.
      expect(after.words).toEqual(before.words);
      expect(Math.abs(after.pcm.length - before.pcm.length)).toBeLessThan(before.pcm.length * 0.002);
      expect(medianF0(after.pcm, after.sampleRate)).toBeCloseTo(medianF0(before.pcm, before.sampleRate), -1);
      expect(rmsOf(after.pcm) / rmsOf(before.pcm)).toBeGreaterThan(0.95);
      expect(rmsOf(after.pcm) / rmsOf(before.pcm)).toBeLessThan(1.05);
    } finally {
      await small.close();
    }
  });

  it('handles empty, punctuation-only and long text', async () => {
    expect(await pool.phonemize('', 'en-us')).toEqual([]);
    expect(await pool.phonemize(' ... !!! — ', 'en-us')).toEqual([]);
    const long = 'This sentence has nine words in it, more or less. '.repeat(40);
    const clauses = await pool.phonemize(long, 'en-us');
    expect(clauses.length).toBe(80);
    expect(clauses.reduce((n, c) => n + c.textWords.length, 0)).toBe(400);
  });

  describe.skipIf(!hasNative)("agreement with Debian's espeak-ng --ipa", () => {
    for (const [voice, texts] of Object.entries(CORPUS)) {
      it(`${voice}: same clauses, same words (known differences aside)`, async () => {
        const fix = NATIVE_FIX[voice] ?? ((w: string) => w);
        let same = 0;
        let total = 0;
        for (const text of texts) {
          const ours = (await pool.phonemize(text, voice)).map((c) => c.words.map((w) => w.join('')));
          const native = nativeIpa(voice, text).map((clause) => clause.map(fix));
          expect(ours.length).toBe(native.length);
          const a = ours.flat();
          const b = native.flat();
          expect(a.length).toBe(b.length);
          a.forEach((w, i) => {
            total++;
            if (w === b[i]) same++;
          });
        }
        // Measured: every word the same for all six once the known differences are undone.
        expect(same / total).toBe(1);
      });
    }

    it('cmn: Han characters read as Mandarin syllables with tone numbers (native 1.51 cannot)', async () => {
      const clauses = await pool.phonemize(SENTENCES.zh, 'cmn');
      const syllables = clauses.flatMap((c) => c.words.map((w) => w.join('')));
      expect(syllables.length).toBeGreaterThan(6);
      for (const s of syllables) expect(s).toMatch(/[1-5ɜ]/u);
    });
  });
});

describe('phonemes under faults', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({
      size: 1,
      workerUrl: new URL('../../../fixtures/faulty-worker.ts', import.meta.url),
    });
  });
  afterAll(() => pool.close());

  it('replaces a crashed or hung worker and keeps phonemising', async () => {
    await expect(pool.phonemize('__crash__', 'en-us')).rejects.toMatchObject({ code: 'ENGINE_FAILED' });
    expect((await pool.phonemize('Still here.', 'en-us')).length).toBe(1);
    // The default 60 s task timer, run out on a fake clock: no real task meets a short limit.
    const hung = await settleOnFakeTimers(() => pool.phonemize('__hang__', 'en-us'), 60_000);
    expect(hung).toMatchObject({ status: 'rejected', reason: { code: 'ENGINE_TIMEOUT' } });
    expect((await pool.phonemize('Back again.', 'en-us')).length).toBe(1);
  });
});

describe("phonemes among other owners' work", () => {
  // Its own pool of one worker: eight sentences queued behind each other.
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 1 });
  });
  afterAll(() => pool.close());

  it("takes turns with other owners' synthesis and is cancelled with its owner", async () => {
    const settings: EngineSettings = { voice: 'en-us', rate: 175, pitch: 50, range: 50, volume: 60 };
    const order: string[] = [];
    const long = Array.from({ length: 8 }, (_, i) =>
      pool.synthesize(`Long job sentence ${i} with several more words in it.`, settings, 'long').then(() => {
        order.push('synth');
      }),
    );
    await new Promise((r) => setTimeout(r, 0));
    const phonemes = pool.phonemize('Short.', 'en-us', 'short').then(() => order.push('phonemes'));
    await Promise.all([...long, phonemes]);
    expect(order.indexOf('phonemes')).toBeLessThan(3);

    const doomed = Array.from({ length: 4 }, (_, i) => pool.phonemize(`Queued ${i}.`, 'en-us', 'doomed'));
    const settled = Promise.allSettled(doomed);
    expect(pool.cancel('doomed')).toBeGreaterThanOrEqual(3);
    const outcomes = await settled;
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThanOrEqual(3);
  });
});
