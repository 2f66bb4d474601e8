/** Subtitle sync for the preview: parse the request's SRT, find the cue and word for a playback time. */

export interface Cue {
  /** 1-based index from the file. */
  index: number;
  /** Seconds. */
  start: number;
  end: number;
  text: string;
}

const TIME = /(\d+):(\d{2}):(\d{2})[,.](\d{3})/;

function seconds(stamp: string): number | undefined {
  const m = TIME.exec(stamp);
  if (!m) return undefined;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) + Number(m[4]) / 1000;
}

/** Cues of an SRT file in time order; malformed blocks are skipped, not fatal. */
export function parseSrt(text: string): Cue[] {
  const cues: Cue[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.trim().split('\n');
    const timingLine = lines.findIndex((l) => l.includes('-->'));
    if (timingLine < 0) continue;
    const [from, to] = lines[timingLine]!.split('-->');
    const start = seconds(from ?? '');
    const end = seconds(to ?? '');
    if (start === undefined || end === undefined) continue;
    const index = timingLine > 0 ? Number(lines[0]) || cues.length + 1 : cues.length + 1;
    cues.push({ index, start, end, text: lines.slice(timingLine + 1).join('\n') });
  }
  return cues.sort((a, b) => a.start - b.start);
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
