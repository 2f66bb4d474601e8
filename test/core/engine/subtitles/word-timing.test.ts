import { describe, expect, it } from 'vitest';
import { timeChunkWords, tokenizeWords } from '../../../../electron/core/engine/subtitles/word-timing';
import type { EngineWordMark } from '../../../../electron/core/engine/types';
import { tokens } from '../../../fixtures/subtitle-checks';
import { PARAGRAPH, synthMarks } from '../../../fixtures/subtitle-pipeline';

describe('tokenizeWords', () => {
  it('keeps inner apostrophes, hyphens and number punctuation inside words', () => {
    expect(tokens("Don't stop: the well-known value is 3.14, not 1,000 — on 2026-11-21 at 10:30.")).toEqual([
      "Don't",
      'stop',
      'the',
      'well-known',
      'value',
      'is',
      '3.14',
      'not',
      '1,000',
      'on',
      '2026-11-21',
      'at',
      '10:30',
    ]);
  });

  it('attaches quotes, dashes and ellipses to no word', () => {
    expect(tokens("“Wait—don’t go…” she said. 'Really?' -- (maybe) ... end-")).toEqual([
      'Wait',
      'don’t',
      'go',
      'she',
      'said',
      'Really',
      'maybe',
      'end',
    ]);
  });

  it('handles letters outside ASCII and gives offsets in code units', () => {
    const text = 'Xin chào, Việt Nam! 𝒳 café';
    const found = tokenizeWords(text);
    expect(found.map((t) => t.text)).toEqual(['Xin', 'chào', 'Việt', 'Nam', '𝒳', 'café']);
    for (const t of found) expect(text.slice(t.start, t.end)).toBe(t.text);
  });

  it('splits Chinese and Japanese per character unless a mark covers a run', () => {
    expect(tokens('今日は良い天気です。')).toEqual(['今', '日', 'は', '良', 'い', '天', '気', 'で', 'す']);
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 3, audioMs: 0 },
      { sourceStart: 5, sourceEnd: 7, audioMs: 500 },
    ];
    expect(tokenizeWords('今日は良い天気です。', marks).map((t) => t.text)).toEqual([
      '今日は',
      '良',
      'い',
      '天気',
      'で',
      'す',
    ]);
    // A mark spanning punctuation joins only characters that touch.
    expect(
      tokenizeWords('你好，世界', [{ sourceStart: 0, sourceEnd: 5, audioMs: 0 }]).map((t) => t.text),
    ).toEqual(['你好', '世界']);
  });
});

describe('timeChunkWords', () => {
  const base = { textOffset: 0, chunkOffsetMs: 0 };

  it('gives every word exactly one timing, in order, with absolute times and offsets', () => {
    const text = PARAGRAPH.slice(0, 6).join(' ');
    const { marks, speechMs } = synthMarks(text, { drop: 0.05, merge: 0.05, repeat: 0.05, shuffle: true });
    const words = timeChunkWords({
      text,
      textOffset: 1000,
      marks,
      chunkOffsetMs: 50_000,
      speechEndMs: 50_000 + speechMs,
    });
    expect(words.map((w) => w.text)).toEqual(tokens(text));
    for (const [k, w] of words.entries()) {
      expect(text.slice(w.charStart - 1000, w.charEnd - 1000)).toBe(w.text);
      expect(w.startMs).toBeLessThan(w.endMs);
      expect(w.startMs).toBeGreaterThanOrEqual(50_000);
      if (k > 0) expect(w.startMs).toBe(words[k - 1]!.endMs);
      // The true start is charStart × 60 ms; interpolated words land close to it.
      expect(Math.abs(w.startMs - (50_000 + (w.charStart - 1000) * 60))).toBeLessThan(400);
    }
    expect(words.at(-1)!.endMs).toBe(50_000 + speechMs);
  });

  it('takes each marked word’s time exactly and interpolates merged words by length', () => {
    const text = 'it is raining';
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 5, audioMs: 1000 },
      { sourceStart: 6, sourceEnd: 13, audioMs: 1400 },
    ];
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 2000 });
    expect(words.map((w) => [w.text, w.startMs, w.endMs])).toEqual([
      ['it', 1000, 1200],
      ['is', 1200, 1400],
      ['raining', 1400, 2000],
    ]);
  });

  it('starts words before the first mark at the start of speech and spreads them by length', () => {
    const text = 'aa bbbb cc dd';
    const words = timeChunkWords({
      ...base,
      text,
      marks: [{ sourceStart: 8, sourceEnd: 10, audioMs: 600 }],
      chunkOffsetMs: 100,
      speechEndMs: 1100,
    });
    expect(words.map((w) => w.startMs)).toEqual([100, 300, 700, 900]);
    expect(words.at(-1)!.endMs).toBe(1100);
    const none = timeChunkWords({ ...base, text, marks: [], speechEndMs: 1000 });
    expect(none.map((w) => w.startMs)).toEqual([0, 200, 600, 800]);
  });

  it('uses the earliest of repeated marks and ignores marks that break the text order', () => {
    const text = 'On 2026-11-21 we met again.';
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 2, audioMs: 0 },
      { sourceStart: 4, sourceEnd: 8, audioMs: 450 },
      { sourceStart: 3, sourceEnd: 7, audioMs: 200 },
      { sourceStart: 4, sourceEnd: 8, audioMs: 900 },
      { sourceStart: 14, sourceEnd: 16, audioMs: 2300 },
      // A stray mark far too early for its word.
      { sourceStart: 17, sourceEnd: 20, audioMs: 10 },
      { sourceStart: 21, sourceEnd: 26, audioMs: 2700 },
    ];
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 3200 });
    expect(words.map((w) => [w.text, w.startMs])).toEqual([
      ['On', 0],
      ['2026-11-21', 200],
      ['we', 2300],
      ['met', 2460],
      ['again', 2700],
    ]);
  });

  it('maps a mark that starts on punctuation to the next word, and drops marks past the last word', () => {
    const text = '“Hello,” she said.';
    const marks: EngineWordMark[] = [
      { sourceStart: 0, sourceEnd: 6, audioMs: 30 },
      { sourceStart: 7, sourceEnd: 12, audioMs: 500 },
      { sourceStart: 13, sourceEnd: 17, audioMs: 700 },
      { sourceStart: 17, sourceEnd: 18, audioMs: 1200 },
    ];
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 1000 });
    expect(words.map((w) => [w.text, w.startMs, w.endMs])).toEqual([
      ['Hello', 30, 500],
      ['she', 500, 700],
      ['said', 700, 1000],
    ]);
  });

  it('clamps marks beyond the end of speech and keeps times non-decreasing when time is short', () => {
    const text = 'one two three four five';
    const marks = [0, 4, 8, 14, 19].map((p, k) => ({ sourceStart: p, sourceEnd: p + 3, audioMs: k * 1000 }));
    const words = timeChunkWords({ ...base, text, marks, speechEndMs: 2500 });
    expect(words.map((w) => w.startMs)).toEqual([0, 1000, 2000, 2498, 2499]);
    expect(words.at(-1)!.endMs).toBe(2500);
    const cramped = timeChunkWords({ ...base, text, marks, chunkOffsetMs: 10, speechEndMs: 12 });
    for (const [k, w] of cramped.entries()) {
      expect(w.startMs).toBeGreaterThanOrEqual(10);
      expect(w.endMs).toBeLessThanOrEqual(12);
      expect(w.endMs).toBeGreaterThanOrEqual(w.startMs);
      if (k > 0) expect(w.startMs).toBeGreaterThanOrEqual(cramped[k - 1]!.startMs);
    }
  });

  it('returns nothing for a chunk without words', () => {
    expect(timeChunkWords({ ...base, text: '… — !', marks: [], speechEndMs: 100 })).toEqual([]);
  });
});
