/**
 * WebVTT output (W3C WebVTT): the `WEBVTT` header and cues as its blocks, numbered as the SRT
 * file beside it is. Times as in SRT with a full stop before the milliseconds.
 */

import type { SubtitleCue } from '../types';
import { formatTimestamp } from './srt';

/** The first line of a WebVTT file and the blank line after it. */
export const VTT_HEADER = 'WEBVTT\n\n';

/** One WebVTT cue: identifier line (its number), `HH:MM:SS.mmm --> HH:MM:SS.mmm`, text lines, blank line. */
export function formatVttCue(cue: SubtitleCue): string {
  return `${cue.index}\n${formatTimestamp(cue.startMs, '.')} --> ${formatTimestamp(cue.endMs, '.')}\n${cue.text}\n\n`;
}
