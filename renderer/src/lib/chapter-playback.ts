/**
 * What the chapter player plays: a chapter's segments one after another, skipping those without
 * audio, and which word of the playing segment is being spoken.
 */

import type { SegmentRecord } from '../../../electron/shared/projects';
import type { SegmentWord } from './projects-api';

/** A segment with audio to play: rendered, or changed since (its old audio is kept until replaced). */
export function hasAudio(segment: Pick<SegmentRecord, 'state' | 'duration_ms'>): boolean {
  return (segment.state === 'done' || segment.state === 'changed') && segment.duration_ms !== null;
}

/** The first segment at or after `from` that has audio, or -1 when none is left. */
export function nextPlayable(
  segments: readonly Pick<SegmentRecord, 'state' | 'duration_ms'>[],
  from: number,
): number {
  for (let i = Math.max(0, from); i < segments.length; i++) if (hasAudio(segments[i]!)) return i;
  return -1;
}

/**
 * The word spoken at `ms` into the segment: the last word started at or before it, while it lasts
 * or until the next one starts (a pause after a word keeps it lit); -1 before the first word.
 */
export function wordIndexAt(words: readonly Pick<SegmentWord, 'startMs' | 'endMs'>[], ms: number): number {
  let lo = 0;
  let hi = words.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (words[mid]!.startMs <= ms) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Where the chapter is at: the playing segment's start (sum of the earlier ones' durations) plus `ms`. */
export function chapterPosition(
  segments: readonly Pick<SegmentRecord, 'duration_ms'>[],
  index: number,
  ms: number,
): number {
  let total = 0;
  for (let i = 0; i < index && i < segments.length; i++) total += segments[i]!.duration_ms ?? 0;
  return total + ms;
}

/**
 * The segment's text cut around one word: before, the word, after (UTF-16 indices; words carry
 * code-point offsets into the segment's text, converted here).
 */
export function splitAtWord(text: string, word: Pick<SegmentWord, 'charStart' | 'charEnd'> | undefined) {
  if (!word) return { before: text, word: '', after: '' };
  const chars = Array.from(text);
  const start = Math.max(0, Math.min(chars.length, word.charStart));
  const end = Math.max(start, Math.min(chars.length, word.charEnd));
  return {
    before: chars.slice(0, start).join(''),
    word: chars.slice(start, end).join(''),
    after: chars.slice(end).join(''),
  };
}
