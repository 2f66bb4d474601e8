/**
 * SRT output: cues as the blocks of an SRT file. Reading SRT back is `parseSrt` in
 * `electron/shared/srt`, shared with the renderer.
 */

import type { SubtitleCue } from '../types';

/** `HH:MM:SS,mmm` (SRT), or with `separator` "." `HH:MM:SS.mmm` (WebVTT). */
export function formatTimestamp(ms: number, separator: ',' | '.' = ','): string {
  const total = Math.max(0, Math.round(ms));
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const seconds = Math.floor(total / 1000) % 60;
  const millis = total % 1000;
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${separator}${pad(millis, 3)}`;
}

/** One SRT block: index line, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, text lines, blank line (LF line ends). */
export function formatSrtCue(cue: SubtitleCue): string {
  return `${cue.index}\n${formatTimestamp(cue.startMs)} --> ${formatTimestamp(cue.endMs)}\n${cue.text}\n\n`;
}
