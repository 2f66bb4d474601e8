/** Subtitle sync for the preview: the request's SRT as cues, and the cue and word for a playback time. */

import { parseSrt } from '../../../electron/shared/srt';

export interface Cue {
  /** 1-based index from the file. */
  index: number;
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

/** Cues of an SRT file (`parseSrt`), in seconds and in time order; malformed blocks are skipped, not fatal. */
export function cuesFromSrt(srt: string): Cue[] {
  return parseSrt(srt, { skipMalformed: true })
    .map(({ index, startMs, endMs, text }) => ({ index, start: startMs / 1000, end: endMs / 1000, text }))
    .sort((a, b) => a.start - b.start);
}

/** Index of the cue showing at `time` (start ≤ time < end), or -1 between cues. Binary search. */
export function cueIndexAt(cues: readonly Cue[], time: number): number {
  let lo = 0;
  let hi = cues.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const cue = cues[mid]!;
    if (time < cue.start) hi = mid - 1;
    else if (time >= cue.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/** The words of a cue with their character weights (spaces and line breaks are not words). */
export function cueWords(cue: Cue): string[] {
  return cue.text.split(/\s+/).filter((w) => w.length > 0);
}

/**
 * Index of the word being spoken at `time` inside `cue`. The SRT carries cue times only, so
 * the cue's span is shared among its words in proportion to their length (+1 for the gap),
 * which follows speech closely enough to highlight the current word.
 */
export function wordIndexAt(cue: Cue, time: number): number {
  const words = cueWords(cue);
  if (words.length === 0) return -1;
  if (time <= cue.start) return 0;
  if (time >= cue.end) return words.length - 1;
  const weights = words.map((w) => [...w].length + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const target = ((time - cue.start) / (cue.end - cue.start)) * total;
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i]!;
    if (target < sum) return i;
  }
  return words.length - 1;
}
