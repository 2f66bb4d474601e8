import { describe, expect, it } from 'vitest';
import { formatSrtCue } from '../../../../electron/core/engine/subtitles/srt';
import type { SubtitleCue } from '../../../../electron/core/engine/types';
import { parseSrt } from '../../../../electron/shared/srt';
import { formatSrt } from '../../../fixtures/subtitle-checks';
import { PARAGRAPH, render } from '../../../fixtures/subtitle-pipeline';

describe('SRT', () => {
  const cues: SubtitleCue[] = [
    { index: 1, startMs: 0, endMs: 1500, text: 'Hello, world.' },
    { index: 2, startMs: 1500, endMs: 3_723_456, text: 'Two lines\nof text' },
    { index: 3, startMs: 360_000_000, endMs: 360_001_000, text: '一百小时' },
  ];

  it('formats a cue as index, timing line, text and a blank line', () => {
    expect(formatSrtCue(cues[1]!)).toBe('2\n00:00:01,500 --> 01:02:03,456\nTwo lines\nof text\n\n');
    expect(formatSrtCue(cues[2]!)).toBe('3\n100:00:00,000 --> 100:00:01,000\n一百小时\n\n');
  });

  it('round-trips through parseSrt', () => {
    expect(parseSrt(formatSrt(cues))).toEqual(cues);
    const { cues: rendered } = render(PARAGRAPH);
    expect(parseSrt(formatSrt(rendered))).toEqual(rendered);
  });
});
