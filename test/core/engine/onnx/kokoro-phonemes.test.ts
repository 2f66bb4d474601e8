/**
 * Kokoro v1.0's tokens from eSpeak's phonemes (the real eSpeak workers, Kokoro's real
 * vocabulary): misaki's rewrites of eSpeak's IPA, the text's punctuation, ≤ 510 ids per call,
 * and word spans.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KOKORO_MAX_TOKENS,
  kokoroInput,
  kokoroWord,
  type KokoroOptions,
  type KokoroPiece,
} from '../../../../electron/core/engine/onnx/kokoro-phonemes';
import { createWorkerPool, type WorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import { kokoroVocab } from '../../../fixtures/onnx/kokoro-data';

const VOCAB = kokoroVocab();
const SYMBOL = new Map(Object.entries(VOCAB).map(([symbol, id]) => [id, symbol]));

function decode(ids: readonly number[]): string {
  return ids.map((id) => SYMBOL.get(id) ?? '?').join('');
}

function spans(text: string, piece: KokoroPiece): Array<[string, string]> {
  const cps = Array.from(text);
  return piece.words.map((w) => [
    cps.slice(w.textPosition - 1, w.textPosition - 1 + w.wordLength).join(''),
    decode(piece.ids.slice(w.firstId, w.firstId + w.idCount)),
  ]);
}

describe('kokoroWord: eSpeak phonemes as misaki writes them', () => {
  it('writes diphthongs and affricates eSpeak has as one phoneme as one symbol', () => {
    expect(kokoroWord(['h', 'ə', 'l', 'ˈoʊ'], 'us')).toBe('həlˈO');
    expect(kokoroWord(['h', 'ə', 'l', 'ˈəʊ'], 'gb')).toBe('həlˈQ');
    expect(kokoroWord(['b', 'ɹ', 'ˈaʊ', 'n'], 'us')).toBe('bɹˈWn');
    expect(kokoroWord(['f', 'ˈaɪ', 'n'], 'us')).toBe('fˈIn');
    expect(kokoroWord(['dʒ', 'ˈʌ', 'm', 'p', 's'], 'us')).toBe('ʤˈʌmps');
    expect(kokoroWord(['tʃ', 'ˈɔɪ', 's'], 'us')).toBe('ʧˈYs');
    // Outside English also ts and dz; a separate t + s stays as it is.
    expect(kokoroWord(['ts', 'a'])).toBe('ʦa');
    expect(kokoroWord(['t', 's', 'a'])).toBe('tsa');
    expect(kokoroWord(['l', 'ə-'])).toBe('lə');
  });

  it("applies misaki's English rules: American and British", () => {
    expect(kokoroWord(['w', 'ˈɜː', 'l', 'd'], 'us')).toBe('wˈɜɹld');
    expect(kokoroWord(['ˌoʊ', 'v', 'ɚ'], 'us')).toBe('ˌOvəɹ');
    expect(kokoroWord(['m', 'ˈɔː', 'ɹ'], 'us')).toBe('mˈɔɹ');
    expect(kokoroWord(['b', 'ˈɑː', 'ɾ', 'əl'], 'us')).toBe('bˈɑɾᵊl');
    expect(kokoroWord(['w', 'ˌeə', 'ɹ'], 'gb')).toBe('wˌɛːɹ');
    expect(kokoroWord(['ɐ', 'b', 'ˈaʊ', 't'], 'gb')).toBe('əbˈWt');
    expect(kokoroWord(['r', 'ˈoʊ', 'm'], 'us')).toBe('ɹˈOm');
    // Not in English: r, ɐ and length marks stay.
    expect(kokoroWord(['p', 'ˈe', 'r', 'o'])).toBe('pˈero');
  });

  it('turns NFD ç back into the vocabulary symbol', () => {
    expect(kokoroWord(['ɪ', 'ç'.normalize('NFD')])).toBe('ɪç');
    expect(VOCAB['ç']).toBe(78);
  });
});

describe('kokoroInput from the eSpeak workers', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({ size: 1 });
  });
  afterAll(() => pool.close());

  async function input(text: string, voice: string, options: KokoroOptions = {}): Promise<KokoroPiece[]> {
    return kokoroInput(text, await pool.phonemize(text, voice), VOCAB, options);
  }

  it("gives Kokoro's phoneme string with the text's punctuation, ids without pads", async () => {
    const text = 'Hello there! The quick brown fox — "really?" — jumps, nobody knows why...';
    const [piece, ...rest] = await input(text, 'en-us', { english: 'us' });
    expect(rest).toEqual([]);
    expect(piece!.phonemes).toBe('həlˈO ðˈɛɹ! ðə kwˈɪk bɹˈWn fˈɑks — "ɹˈiəli?" — ʤˈʌmps, nˈObɑdi nˈOz wˈI…');
    expect(decode(piece!.ids)).toBe(piece!.phonemes);
    expect(piece!.ids).not.toContain(0);
    expect(piece!.missing).toEqual([]);
  });

  it('maps full-width marks to the ASCII ones Kokoro knows', async () => {
    const [piece] = await input('こんにちは、せかい。', 'ja');
    expect(piece!.phonemes).toMatch(/^\S+, \S+\.$/u);
  });

  it('gives each text word the ids of its eSpeak word', async () => {
    const text = 'Where are you going tomorrow morning? I think it is fine in the garden.';
    const [piece] = await input(text, 'en-gb', { english: 'gb' });
    expect(spans(text, piece!)).toEqual([
      ['Where', 'wˌɛːɹ'],
      ['are', 'ɑː'],
      ['you', 'juː'],
      ['going', 'ɡˌQɪŋ'],
      ['tomorrow', 'təmˈɒɹQ'],
      ['morning', 'mˈɔːnɪŋ'],
      ['I', 'I'],
      ['think', 'θˈɪŋk'],
      ['it', 'ɪt'],
      ['is', 'ɪz'],
      ['fine', 'fˈIn'],
      ['in', 'ɪn'],
      ['the', 'ðə'],
      ['garden', 'ɡˈɑːdən'],
    ]);
  });

  it('phonemises other languages with the general rules', async () => {
    const [french] = await input("Je voudrais un café au lait, s'il vous plaît.", 'fr-fr');
    expect(french!.phonemes).toBe('ʒə vudʁˈɛz œ̃ kafˈe o lˈɛ, sil vu plˈɛ.');
    const [spanish] = await input('¿Qué tal? Me gustaría un café con leche.', 'es');
    expect(spanish!.phonemes).toBe('kˈe tˈal? me ɣˌustaɾˈia ˈun kafˈe kon lˈeʧe.');
    expect(spanish!.missing).toEqual([]);
  });

  it('counts symbols the vocabulary lacks', async () => {
    const [german] = await input('Ein Stück Kuchen.', 'de');
    expect(german!.missing).toContain('ʏ');
    expect(german!.phonemes).toContain('ʏ');
    expect(decode(german!.ids)).toBe(german!.phonemes.replace(/ʏ/gu, ''));
  });

  it('cuts long text into calls of at most 510 ids, between clauses, keeping every word once', async () => {
    const sentence =
      'This is a fairly long sentence, with several clauses, that keeps going; it has many words. ';
    const text = sentence.repeat(16);
    const pieces = await input(text, 'en-us', { english: 'us' });
    expect(pieces.length).toBeGreaterThan(2);
    for (const piece of pieces) {
      expect(piece.ids.length).toBeLessThanOrEqual(KOKORO_MAX_TOKENS);
      expect(piece.phonemes).toMatch(/^\S.*[.,;]$/u);
      for (const w of piece.words) expect(w.firstId + w.idCount).toBeLessThanOrEqual(piece.ids.length);
    }
    const words = pieces.flatMap((p) => p.words.map((w) => w.textPosition));
    expect(words.length).toBe(text.trim().split(/\s+/).length);
    expect(new Set(words).size).toBe(words.length);
    expect([...words].sort((a, b) => a - b)).toEqual(words);
  });

  it('cuts a clause longer than a call between words', async () => {
    const text = `${'word '.repeat(200)}end.`;
    const pieces = await input(text, 'en-us', { english: 'us', maxTokens: 100 });
    expect(pieces.length).toBeGreaterThan(5);
    for (const piece of pieces) {
      expect(piece.ids.length).toBeLessThanOrEqual(100);
      expect(piece.phonemes).toMatch(/^wˈɜɹd( wˈɜɹd)*( ˈɛnd\.)?$/u);
    }
    expect(pieces.reduce((n, p) => n + p.words.length, 0)).toBe(201);
  });
});
