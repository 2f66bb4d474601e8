/**
 * Piper's ids from eSpeak's phonemes (the real eSpeak workers, a real Piper phoneme_id_map),
 * checked against Piper's rules (piper-phonemize / piper1-gpl) and Debian's native
 * `espeak-ng --ipa`, and the word spans against the text.
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhonemeClause } from '../../../../electron/core/engine/espeak/protocol';
import {
  alignClauseWords,
  phonemesToPiperIds,
  piperInput,
  type PiperSentenceInput,
} from '../../../../electron/core/engine/onnx/piper-phonemes';
import { createWorkerPool, type WorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { piperPhonemeIdMap } from '../../../fixtures/onnx/piper-config';

const ID_MAP = piperPhonemeIdMap();
const SYMBOL = new Map(Object.entries(ID_MAP).map(([symbol, ids]) => [ids[0], symbol]));
const PAD = 0;
const BOS = 1;
const EOS = 2;

/** The phonemes behind ids, pads and BOS/EOS left out. */
function decode(ids: readonly number[]): string {
  return ids
    .filter((id) => id !== PAD && id !== BOS && id !== EOS)
    .map((id) => SYMBOL.get(id) ?? '?')
    .join('');
}

/** The text and the phonemes of every word span. */
function spans(text: string, sentence: PiperSentenceInput): Array<[string, string]> {
  const cps = Array.from(text);
  return sentence.words.map((w) => [
    cps.slice(w.textPosition - 1, w.textPosition - 1 + w.wordLength).join(''),
    decode(sentence.ids.slice(w.firstId, w.firstId + w.idCount)),
  ]);
}

/** Piper's layout: ^ _ then (phoneme ids, _)* then $. */
function expectPiperLayout(ids: readonly number[]): void {
  expect(ids.slice(0, 2)).toEqual([BOS, PAD]);
  expect(ids[ids.length - 1]).toBe(EOS);
  for (let i = 3; i < ids.length - 1; i += 2) expect(ids[i]).toBe(PAD);
  expect((ids.length - 3) % 2).toBe(0);
}

describe('phonemesToPiperIds', () => {
  it("lays ids out as Piper does: ^, _, each phoneme's ids then _, $", () => {
    const { ids, missing } = phonemesToPiperIds(['h', 'ə', 'l', 'ˈ', 'o', 'ʊ', '!'], ID_MAP);
    expect(ids).toEqual([1, 0, 20, 0, 59, 0, 24, 0, 120, 0, 27, 0, 100, 0, 4, 0, 2]);
    expect(missing).toEqual([]);
  });

  it('skips phonemes missing from the map and reports each occurrence', () => {
    const { ids, missing } = phonemesToPiperIds(['a', 'Q', 'b', 'Q', 'ʦ'], ID_MAP);
    expect(ids).toEqual([1, 0, 14, 0, 15, 0, 2]);
    expect(missing).toEqual(['Q', 'Q', 'ʦ']);
  });

  it('uses every id of a phoneme that maps to several', () => {
    const { ids } = phonemesToPiperIds(['a', 'x'], { ...ID_MAP, x: [7, 8] });
    expect(ids).toEqual([1, 0, 14, 0, 7, 8, 0, 2]);
  });

  it('refuses a map without pad, BOS or EOS', () => {
    const { _: _pad, ...noPad } = ID_MAP;
    expect(() => phonemesToPiperIds(['a'], noPad)).toThrow(RangeError);
  });
});

describe('piperInput from the eSpeak workers', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 1 });
  });
  afterAll(() => pool.close());

  async function input(text: string, voice: string, map = ID_MAP): Promise<PiperSentenceInput[]> {
    return piperInput(text, await pool.phonemize(text, voice), map);
  }

  it('gives one sentence per . ? !, with the clause punctuation Piper keeps', async () => {
    const text = 'Hello there, my friend: look; a test. How are you? Fine!';
    const sentences = await input(text, 'en-us');
    for (const s of sentences) expectPiperLayout(s.ids);
    expect(sentences.map((s) => decode(s.ids))).toEqual([
      'həlˈoʊ ðˈɛɹ, maɪ fɹˈɛnd: lˈʊk; ɐ tˈɛst.',
      'hˈaʊ ɑːɹ juː?',
      'fˈaɪn!',
    ]);
    expect(sentences.every((s) => s.missing.length === 0)).toBe(true);
  });

  it("is eSpeak's own IPA (native espeak-ng --ipa) plus Piper's punctuation", async () => {
    if (!existsSync('/usr/bin/espeak-ng')) return;
    const texts: Array<[string, string]> = [
      ['en-us', 'The quick brown fox jumps over the lazy dog, and then it runs away.'],
      ['en-gb', 'Where are you going tomorrow morning? The lorry was parked outside.'],
      ['fr-fr', "Je voudrais un café au lait, s'il vous plaît."],
      ['es', 'Me gustaría un café con leche, por favor.'],
    ];
    for (const [voice, text] of texts) {
      const native = spawnSync('/usr/bin/espeak-ng', ['--ipa', '-q', '-v', voice, text], { encoding: 'utf8' })
        .stdout.split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const ours = (await input(text, voice)).map((s) => decode(s.ids)).join(' ');
      // Without the clause marks and the spaces Piper adds after them, the phonemes are eSpeak's.
      expect(
        ours
          .replace(/[.,?!:;]/gu, '')
          .replace(/\s+/gu, ' ')
          .trim(),
      ).toBe(native.join(' ').normalize('NFD'));
    }
  });

  it('decomposes phonemes (NFD) as Piper does: nasal vowels use the combining tilde', async () => {
    const [sentence] = await input('Bonjour, ça va bien.', 'fr-fr');
    expect(sentence).toBeDefined();
    expect(sentence!.ids).toContain(ID_MAP['\u0303']?.[0]);
    expect(decode(sentence!.ids)).toBe('bɔ̃ʒˈuʁ, sa vˈa bjˈɛ̃.'.normalize('NFD'));
  });

  it('gives every text word the ids of its eSpeak word when the counts agree', async () => {
    const text = '“Quoted,” she said: the lazy dog sleeps.';
    const [sentence] = await input(text, 'en-us');
    expect(spans(text, sentence!)).toEqual([
      ['Quoted', 'kwˈoʊɾᵻd'],
      ['she', 'ʃiː'],
      ['said', 'sˈɛd'],
      ['the', 'ðə'],
      ['lazy', 'lˈeɪzi'],
      ['dog', 'dˈɑːɡ'],
      ['sleeps', 'slˈiːps'],
    ]);
    // A span starts on a phoneme and ends on the pad after the word's last phoneme.
    for (const w of sentence!.words) {
      expect(w.idCount % 2).toBe(0);
      expect(sentence!.ids[w.firstId + w.idCount - 1]).toBe(PAD);
    }
  });

  it('places words eSpeak merged or split by their own readings', async () => {
    const text = 'I paid 1984 dollars in the garden, at 10:30 with 100% of it.';
    const sentences = await input(text, 'en-gb');
    expect(spans(text, sentences[0]!)).toEqual([
      ['I', 'aɪ'],
      ['paid', 'pˈeɪd'],
      ['1984', 'nˈaɪntiːnhˈʌndɹɪdən ˈeɪti fˈɔː'],
      ['dollars', 'dˈɒləz'],
      ['in', 'ɪn'],
      ['the', 'ðə'],
      ['garden', 'ɡˈɑːdən'],
      ['at', 'at'],
      ['10:30', 'tˈɛn θˈɜːti'],
      ['with', 'wɪð'],
      ['100%', 'wˈɒnhˈʌndɹɪd pəsˈɛnt'],
      ['of', 'ɒv'],
      ['it', 'ɪt'],
    ]);
  });

  it('keeps spans in order, inside the ids, one per text word, on long mixed text', async () => {
    const text =
      'On 12/05/2023 we sold 1 234 567 items worth 9,876,543.21 dollars to 42 clients, ' +
      'across 17 countries and 3 continents; more people than ever before in our history of 150 years.';
    const sentences = await input(text, 'en-us');
    const words = sentences.flatMap((s) => s.words.map((w) => ({ ...w, ids: s.ids.length })));
    const expected = text.split(/\s+/).length;
    expect(words.length).toBe(expected);
    let last = 0;
    for (const w of words) {
      expect(w.textPosition).toBeGreaterThan(last);
      last = w.textPosition;
      expect(w.idCount).toBeGreaterThan(0);
      expect(w.firstId + w.idCount).toBeLessThan(w.ids);
    }
    const pairs = spans(text, sentences[0]!);
    expect(pairs.find(([word]) => word === '9,876,543.21')?.[1]).toMatch(/^nˈaɪn mˈɪliən .* wˈʌn$/u);
    expect(pairs.find(([word]) => word === 'dollars')?.[1]).toBe('dˈɑːlɚz');
    expect(pairs.find(([word]) => word === 'clients')?.[1]).toBe('klˈaɪənts');
  });

  it('counts phonemes the voice lacks and keeps the spans on the ids that remain', async () => {
    const { ɾ: _flap, ...noFlap } = ID_MAP;
    const text = 'It is a better letter.';
    const [sentence] = await input(text, 'en-us', noFlap);
    expect(sentence!.missing).toEqual(['ɾ', 'ɾ', 'ɾ']);
    expect(spans(text, sentence!)).toEqual([
      ['It', 'ɪ'],
      ['is', 'ɪz'],
      ['a', 'ɐ'],
      ['better', 'bˈɛɚ'],
      ['letter', 'lˈɛɚ'],
    ]);
  });

  it("applies a voice's phoneme_map before the ids", async () => {
    const text = 'Ça va.';
    const clauses = await pool.phonemize(text, 'fr-fr');
    const [sentence] = piperInput(text, clauses, ID_MAP, { phonemeMap: { s: ['z'] } });
    expect(decode(sentence!.ids)).toBe('za vˈa.');
  });

  it('ends a sentence at a full-width mark without writing it (as Piper does)', async () => {
    const text = '你好，世界。我很好！';
    const sentences = await input(text, 'cmn');
    expect(sentences.length).toBe(2);
    expect(decode(sentences[0]!.ids)).toMatch(/^\S+ \S+ \S+$/u);
    expect(spans(text, sentences[0]!).map(([word]) => word)).toEqual(['你好', '世界']);
    expect(spans(text, sentences[1]!).map(([word]) => word)).toEqual(['我很好']);
  });

  it('gives nothing for text without words', async () => {
    expect(await input(' ... ', 'en-us')).toEqual([]);
  });
});

describe('alignClauseWords', () => {
  /** A clause of one-slot phonemes: eSpeak word j has `lengths[j]` phonemes. */
  function slots(lengths: number[]): Array<Array<{ start: number; end: number }>> {
    let at = 0;
    return lengths.map((n) =>
      Array.from({ length: n }, () => {
        at += 2;
        return { start: at - 2, end: at };
      }),
    );
  }
  const clause = (words: string[], textWords: PhonemeClause['textWords']) => ({
    words: words.map((w) => Array.from(w)),
    textWords,
  });

  it('pairs in order when the counts agree', () => {
    const spans = alignClauseWords(
      clause(
        ['ab', 'cde'],
        [
          { textPosition: 1, wordLength: 2 },
          { textPosition: 4, wordLength: 3 },
        ],
      ),
      slots([2, 3]),
    );
    expect(spans.map((s) => [s.firstId, s.idCount])).toEqual([
      [0, 4],
      [4, 6],
    ]);
  });

  it('shares a merged eSpeak word between the text words by their readings', () => {
    const spans = alignClauseWords(
      clause(
        ['xx', 'ɪnðə', 'yyy'],
        [
          { textPosition: 1, wordLength: 2, phonemes: 'xx' },
          { textPosition: 4, wordLength: 2, phonemes: 'ɪn' },
          { textPosition: 7, wordLength: 3, phonemes: 'ðə' },
          { textPosition: 11, wordLength: 3, phonemes: 'yyy' },
        ],
      ),
      slots([2, 4, 3]),
    );
    expect(spans.map((s) => [s.firstId / 2, s.idCount / 2])).toEqual([
      [0, 2],
      [2, 2],
      [4, 2],
      [6, 3],
    ]);
  });

  it('gives one text word all the eSpeak words its reading spans', () => {
    const spans = alignClauseWords(
      clause(
        ['ɪn', 'wʌn', 'θaʊzənd', 'twɛnti', 'ðə'],
        [
          { textPosition: 1, wordLength: 2, phonemes: 'ɪn' },
          { textPosition: 4, wordLength: 4, phonemes: 'wʌn θaʊzənd twɛnti' },
          { textPosition: 9, wordLength: 3, phonemes: 'ðə' },
        ],
      ),
      slots([2, 3, 7, 6, 2]),
    );
    expect(spans.map((s) => [s.firstId / 2, s.idCount / 2])).toEqual([
      [0, 2],
      [2, 16],
      [18, 2],
    ]);
  });

  it('falls back to word lengths without readings, and never leaves a word out', () => {
    const spans = alignClauseWords(
      clause(
        ['abcdefghij'],
        [
          { textPosition: 1, wordLength: 3 },
          { textPosition: 5, wordLength: 7 },
        ],
      ),
      slots([10]),
    );
    expect(spans.map((s) => [s.firstId / 2, s.idCount / 2])).toEqual([
      [0, 3],
      [3, 7],
    ]);
    expect(alignClauseWords(clause([], [{ textPosition: 1, wordLength: 1 }]), [])).toEqual([
      { textPosition: 1, wordLength: 1, firstId: 0, idCount: 0 },
    ]);
  });
});
