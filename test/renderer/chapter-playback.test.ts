import { describe, expect, it } from 'vitest';
import type { SegmentRecord } from '../../electron/shared/projects';
import {
  chapterPosition,
  hasAudio,
  nextPlayable,
  splitAtWord,
  wordIndexAt,
  wordSpans,
} from '../../renderer/src/lib/chapter-playback';

const seg = (state: SegmentRecord['state'], duration_ms: number | null) => ({ state, duration_ms });

describe('chapter player sequencing', () => {
  const chapter = [
    seg('done', 1000),
    seg('not_rendered', null),
    seg('failed', null),
    seg('changed', 800),
    seg('rendering', null),
    seg('done', 1200),
  ];

  it('plays segments with audio: done, and changed (its old audio is kept)', () => {
    expect(chapter.map(hasAudio)).toEqual([true, false, false, true, false, true]);
    expect(hasAudio(seg('done', null))).toBe(false);
  });

  it('goes on to the next segment with audio, skipping those without, and ends after the last', () => {
    const order: number[] = [];
    for (let i = nextPlayable(chapter, 0); i >= 0; i = nextPlayable(chapter, i + 1)) order.push(i);
    expect(order).toEqual([0, 3, 5]);
    expect(nextPlayable(chapter, 1)).toBe(3);
    expect(nextPlayable(chapter, 6)).toBe(-1);
    expect(nextPlayable([seg('not_rendered', null)], 0)).toBe(-1);
  });

  it("tells where in the chapter it is: the earlier segments' durations plus the position", () => {
    expect(chapterPosition(chapter, 0, 250)).toBe(250);
    expect(chapterPosition(chapter, 3, 100)).toBe(1000 + 100);
    expect(chapterPosition(chapter, 5, 0)).toBe(1800);
  });
});

describe('word highlight lookup', () => {
  const words = [
    { startMs: 0, endMs: 300, charStart: 0, charEnd: 3 },
    { startMs: 300, endMs: 700, charStart: 4, charEnd: 10 },
    { startMs: 900, endMs: 1200, charStart: 11, charEnd: 15 },
  ];

  it('finds the word being spoken, keeping it lit through the pause after it', () => {
    expect(wordIndexAt(words, 0)).toBe(0);
    expect(wordIndexAt(words, 299)).toBe(0);
    expect(wordIndexAt(words, 300)).toBe(1);
    expect(wordIndexAt(words, 800)).toBe(1);
    expect(wordIndexAt(words, 900)).toBe(2);
    expect(wordIndexAt(words, 99_999)).toBe(2);
  });

  it('has no word before the first starts, or without timings', () => {
    expect(wordIndexAt([{ startMs: 120, endMs: 300 }], 50)).toBe(-1);
    expect(wordIndexAt([], 500)).toBe(-1);
  });

  it('agrees with a linear scan on a long segment', () => {
    const many = Array.from({ length: 997 }, (_, i) => ({ startMs: i * 37, endMs: i * 37 + 30 }));
    for (const ms of [0, 36, 37, 5000, 12_345, 36_888, 40_000]) {
      let expected = -1;
      many.forEach((w, i) => {
        if (w.startMs <= ms) expected = i;
      });
      expect(wordIndexAt(many, ms)).toBe(expected);
    }
  });

  it('finds each timed word in the segment text by its own text, in order', () => {
    const text = 'The sea, the sea rolled in.';
    const timed = [
      { text: 'The', charStart: 40, charEnd: 43 },
      { text: 'sea', charStart: 44, charEnd: 47 },
      { text: 'the', charStart: 49, charEnd: 52 },
      { text: 'sea', charStart: 53, charEnd: 56 },
      { text: 'rolled', charStart: 57, charEnd: 63 },
    ];
    const spans = wordSpans(text, timed);
    // The second "sea" is the second one in the text, not the first again (offsets of SSML ignored).
    expect(spans.map((s) => (s ? text.slice(s.start, s.end) : null))).toEqual([
      'The',
      'sea',
      'the',
      'sea',
      'rolled',
    ]);
    expect(spans[3]).toEqual({ start: 13, end: 16 });
    expect(splitAtWord(text, spans[4])).toEqual({
      before: 'The sea, the sea ',
      word: 'rolled',
      after: ' in.',
    });
  });

  it('falls back to code-point offsets for a word read differently (a number), emoji included', () => {
    const text = '🌊 Biển 12 động';
    const spans = wordSpans(text, [
      { text: 'Biển', charStart: 2, charEnd: 6 },
      { text: 'mười hai', charStart: 7, charEnd: 9 },
      { text: 'nowhere', charStart: 50, charEnd: 57 },
    ]);
    expect(text.slice(spans[0]!.start, spans[0]!.end)).toBe('Biển');
    // 🌊 is two UTF-16 units but one code point: offsets 7–9 are "12".
    expect(text.slice(spans[1]!.start, spans[1]!.end)).toBe('12');
    expect(spans[2]).toBeNull();
    expect(splitAtWord('abc', null)).toEqual({ before: 'abc', word: '', after: '' });
  });
});
