import { describe, expect, it } from 'vitest';
import { cueIndexAt, cuesFromSrt, cueWords, wordIndexAt } from '../../renderer/src/lib/subtitles';

const SRT = `1
00:00:00,000 --> 00:00:02,500
The lighthouse keeper climbed the stairs.

2
00:00:02,500 --> 00:00:05,000
Far below, the sea rolled.

3
00:00:06,000 --> 00:01:02,250
A boat
came home.
`;

describe('subtitle sync', () => {
  const cues = cuesFromSrt(SRT);

  it('parses cues with times in seconds and multi-line text', () => {
    expect(cues).toHaveLength(3);
    expect(cues[1]).toEqual({ index: 2, start: 2.5, end: 5, text: 'Far below, the sea rolled.' });
    expect(cues[2]!.end).toBeCloseTo(62.25);
    expect(cues[2]!.text).toBe('A boat\ncame home.');
  });

  it('accepts CRLF files and skips malformed blocks', () => {
    const parsed = cuesFromSrt(
      '1\r\n00:00:01,000 --> 00:00:02,000\r\nHi\r\n\r\n2\r\nnot a time\r\nBroken\r\n',
    );
    expect(parsed).toEqual([{ index: 1, start: 1, end: 2, text: 'Hi' }]);
  });

  it('finds the cue for a time: start inclusive, end exclusive, -1 in gaps and outside', () => {
    expect(cueIndexAt(cues, 0)).toBe(0);
    expect(cueIndexAt(cues, 2.499)).toBe(0);
    expect(cueIndexAt(cues, 2.5)).toBe(1);
    expect(cueIndexAt(cues, 5.5)).toBe(-1);
    expect(cueIndexAt(cues, 6)).toBe(2);
    expect(cueIndexAt(cues, 100)).toBe(-1);
    expect(cueIndexAt([], 1)).toBe(-1);
  });

  it('highlights words in order through the cue, in proportion to their length', () => {
    const cue = cues[0]!;
    expect(cueWords(cue)).toEqual(['The', 'lighthouse', 'keeper', 'climbed', 'the', 'stairs.']);
    expect(wordIndexAt(cue, 0)).toBe(0);
    expect(wordIndexAt(cue, 0.3)).toBe(1);
    expect(wordIndexAt(cue, 2.49)).toBe(5);
    let last = 0;
    for (let t = 0; t < 2.5; t += 0.05) {
      const i = wordIndexAt(cue, t);
      expect(i).toBeGreaterThanOrEqual(last);
      last = i;
    }
    expect(last).toBe(5);
  });
});
