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

/** Where a word stands in the segment's text: UTF-16 indices, end exclusive. */
export interface WordSpan {
  start: number;
  end: number;
}

/**
 * Where each timed word stands in the segment's text. The words are looked up in order by their
 * own text (the engine may have read SSML made from the segment, so its offsets need not be the
 * text's); a word not found where expected falls back to its code-point offsets, or to none.
 */
export function wordSpans(
  text: string,
  words: readonly Pick<SegmentWord, 'text' | 'charStart' | 'charEnd'>[],
): (WordSpan | null)[] {
  const lower = text.toLowerCase();
  let cursor = 0;
  return words.map((word) => {
    const needle = word.text.trim().toLowerCase();
    const at = needle ? lower.indexOf(needle, cursor) : -1;
    if (at >= 0) {
      cursor = at + needle.length;
      return { start: at, end: at + needle.length };
    }
    const chars = Array.from(text);
    if (word.charStart < 0 || word.charEnd > chars.length || word.charEnd <= word.charStart) return null;
    const start = chars.slice(0, word.charStart).join('').length;
    return { start, end: start + chars.slice(word.charStart, word.charEnd).join('').length };
  });
}

/** The segment's text cut around one word: before, the word, after. */
export function splitAtWord(text: string, span: WordSpan | null | undefined) {
  if (!span) return { before: text, word: '', after: '' };
  return {
    before: text.slice(0, span.start),
    word: text.slice(span.start, span.end),
    after: text.slice(span.end),
  };
}
