/**
 * Word timings: which words a chunk has and when each is spoken, from the engine's word marks
 * (which may be missing, repeated, merged or out of order).
 *
 * All times here are integer milliseconds on the output audio's timeline (inputs are rounded);
 * all text offsets are UTF-16 code-unit offsets, as in `../types`.
 */

import type { EngineWordMark, WordTiming } from '../types';

/** A word of a text: a range of code units. */
export interface WordToken {
  /** The word exactly as it stands in the text. */
  text: string;
  /** Offset of the first code unit. */
  start: number;
  /** Offset just past the last code unit. */
  end: number;
}

/** Longest mark (code points) that may join CJK characters into one word; longer ones are engine noise. */
const MAX_CJK_RUN = 12;

const CJK_CHAR = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\u30fc\uff70]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const DIGIT = /\p{Nd}/u;
/** Joiners kept inside a word when a word character follows: "don't", "well-known". */
const INNER_JOINER = /['\u2019\u02bc\-\u2010\u2011]/u;
/** Joiners kept only between digits: "3.14", "1,000", "10:30", "21/11/2026". */
const DIGIT_JOINER = /[.,:/]/u;

// ASCII, most of most texts, is answered without the regular expressions: these run on every
// character of a render's text (a few percent of a render from the sentence cache).

function isCjk(ch: string): boolean {
  return ch.charCodeAt(0) >= 0x80 && CJK_CHAR.test(ch);
}

function isWordChar(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0x80) {
    const letter = code | 0x20;
    return (code >= 0x30 && code <= 0x39) || (letter >= 0x61 && letter <= 0x7a);
  }
  return WORD_CHAR.test(ch) && !isCjk(ch);
}

function charAt(text: string, i: number): string {
  const cp = text.codePointAt(i);
  return cp === undefined ? '' : String.fromCodePoint(cp);
}

/** The code point just before offset `i`, or "" at the start. */
function charBefore(text: string, i: number): string {
  if (i <= 0) return '';
  const low = text.charCodeAt(i - 1);
  if (i >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(i - 2, i);
  }
  return text.slice(i - 1, i);
}

function codePointLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Splits a text into words: runs of letters, marks and digits, with inner apostrophes and
 * hyphens ("don't", "well-known") and, between digits, `.`, `,`, `:`, `/` ("3.14", "2026-11-21").
 * Punctuation and whitespace belong to no word. Chinese and Japanese characters are one word
 * each, except that characters covered together by one engine mark (`marks`, offsets in `text`)
 * form one word, as the engine grouped them.
 */
export function tokenizeWords(text: string, marks: readonly EngineWordMark[] = []): WordToken[] {
  const tokens: WordToken[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = charAt(text, i);
    if (isCjk(ch)) {
      tokens.push({ text: ch, start: i, end: i + ch.length });
      i += ch.length;
      continue;
    }
    if (!isWordChar(ch)) {
      i += ch.length || 1;
      continue;
    }
    const start = i;
    i += ch.length;
    for (;;) {
      const next = charAt(text, i);
      if (next && isWordChar(next)) {
        i += next.length;
        continue;
      }
      if (!next) break;
      const after = charAt(text, i + next.length);
      if (!after || !isWordChar(after)) break;
      const joins =
        INNER_JOINER.test(next) ||
        (DIGIT_JOINER.test(next) && DIGIT.test(charBefore(text, i)) && DIGIT.test(after));
      if (!joins) break;
      i += next.length;
    }
    tokens.push({ text: text.slice(start, i), start, end: i });
  }
  return marks.length > 0 ? joinCjkRuns(text, tokens, marks) : tokens;
}

/** Joins adjacent single-character CJK tokens that one mark covers together. */
function joinCjkRuns(text: string, tokens: WordToken[], marks: readonly EngineWordMark[]): WordToken[] {
  // joined[k]: token k and token k+1 belong to the same word.
  const joined = new Uint8Array(tokens.length);
  let any = false;
  for (const mark of marks) {
    const { sourceStart: s, sourceEnd: e } = mark;
    if (!(e > s) || codePointLength(text.slice(s, e)) > MAX_CJK_RUN) continue;
    for (let k = firstTokenAtOrAfter(tokens, s); k + 1 < tokens.length; k++) {
      const a = tokens[k]!;
      const b = tokens[k + 1]!;
      if (b.end > e) break;
      if (a.end === b.start && isCjk(a.text) && isCjk(b.text)) {
        joined[k] = 1;
        any = true;
      }
    }
  }
  if (!any) return tokens;
  const out: WordToken[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const first = tokens[k]!;
    let end = first.end;
    while (joined[k]) end = tokens[++k]!.end;
    out.push({ text: text.slice(first.start, end), start: first.start, end });
  }
  return out;
}

/** Index of the first token whose start is at or after `offset` (tokens.length if none). */
function firstTokenAtOrAfter(tokens: readonly WordToken[], offset: number): number {
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid]!.start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The token a mark speaks: the one containing its start, else the next one (a mark that starts
 * on punctuation or space before a word); -1 past the last word.
 */
function tokenForMark(tokens: readonly WordToken[], offset: number): number {
  const k = firstTokenAtOrAfter(tokens, offset + 1) - 1;
  if (k >= 0 && tokens[k]!.end > offset) return k;
  return k + 1 < tokens.length ? k + 1 : -1;
}

/** Indexes (into `times`) of a longest non-decreasing subsequence. */
function longestNonDecreasing(times: readonly number[]): Set<number> {
  const tailIndex: number[] = [];
  const previous = new Int32Array(times.length).fill(-1);
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    let lo = 0;
    let hi = tailIndex.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[tailIndex[mid]!]! <= t) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tailIndex[lo - 1]!;
    tailIndex[lo] = i;
  }
  const keep = new Set<number>();
  for (let i = tailIndex[tailIndex.length - 1] ?? -1; i >= 0; i = previous[i]!) keep.add(i);
  return keep;
}

/** Input of {@link timeChunkWords}. */
export interface ChunkTimingInput {
  /** The chunk's source text. */
  text: string;
  /** Offset of `text` in the whole cleaned input (code units). */
  textOffset: number;
  /** Engine marks with offsets in `text` and times within the chunk's audio; any order, gaps and duplicates allowed. */
  marks: readonly EngineWordMark[];
  /** Where the chunk's audio time 0 falls on the output timeline, ms. */
  chunkOffsetMs: number;
  /** End of the chunk's speech on the output timeline (absolute, not within the chunk), ms. */
  speechEndMs: number;
  /** Earliest time a word may start, absolute ms; default `chunkOffsetMs`. */
  speechStartMs?: number;
}

/** Shortest word duration the timings keep when there is room for it, ms. */
const MIN_WORD_MS = 1;

/**
 * Times every word of one chunk. Returns one {@link WordTiming} per word of
 * {@link tokenizeWords}(text, marks), in text order, with absolute times (integer ms,
 * non-decreasing, within [speechStartMs, speechEndMs]) and absolute offsets. A word with marks
 * starts at its earliest mark; marks that break the text order are ignored; words without a
 * usable mark are placed between the known times around them in proportion to their length in
 * code points. Each word ends where the next starts; the last ends at `speechEndMs`. Words last
 * at least 1 ms unless the chunk has too little time for that.
 */
export function timeChunkWords(input: ChunkTimingInput): WordTiming[] {
  const { text, textOffset, marks } = input;
  const tokens = tokenizeWords(text, marks);
  const n = tokens.length;
  if (n === 0) return [];
  const floor = Math.round(input.speechStartMs ?? input.chunkOffsetMs);
  const end = Math.max(floor, Math.round(input.speechEndMs));
  const clamp = (t: number) => Math.min(end, Math.max(floor, t));

  const earliest = new Array<number | undefined>(n).fill(undefined);
  for (const mark of marks) {
    if (!Number.isFinite(mark.audioMs) || !Number.isFinite(mark.sourceStart)) continue;
    const k = tokenForMark(tokens, mark.sourceStart);
    if (k < 0) continue;
    const t = clamp(input.chunkOffsetMs + mark.audioMs);
    const seen = earliest[k];
    earliest[k] = seen === undefined ? t : Math.min(seen, t);
  }
  const knownIndex: number[] = [];
  const knownTime: number[] = [];
  earliest.forEach((t, k) => {
    if (t !== undefined) {
      knownIndex.push(k);
      knownTime.push(t);
    }
  });
  const consistent = longestNonDecreasing(knownTime);

  // Anchors: (token index, start time); a virtual one at n marks the end of speech.
  const anchors: Array<[number, number]> = [];
  knownIndex.forEach((k, i) => {
    if (consistent.has(i)) anchors.push([k, knownTime[i]!]);
  });
  if (anchors[0]?.[0] !== 0) anchors.unshift([0, floor]);
  anchors.push([n, end]);

  const weight = tokens.map((t) => Math.max(1, codePointLength(t.text)));
  const starts = new Array<number>(n).fill(0);
  for (let a = 0; a + 1 < anchors.length; a++) {
    const [from, fromMs] = anchors[a]!;
    const [to, toMs] = anchors[a + 1]!;
    let total = 0;
    for (let k = from; k < to; k++) total += weight[k]!;
    let before = 0;
    for (let k = from; k < to; k++) {
      starts[k] = fromMs + ((toMs - fromMs) * before) / total;
      before += weight[k]!;
    }
  }

  for (let k = 0; k < n; k++) starts[k] = Math.round(starts[k]!);
  for (let k = 1; k < n; k++) starts[k] = Math.max(starts[k]!, starts[k - 1]! + MIN_WORD_MS);
  for (let k = n - 1; k >= 0; k--)
    starts[k] = Math.min(starts[k]!, (k + 1 < n ? starts[k + 1]! : end) - MIN_WORD_MS);
  for (let k = 0; k < n; k++) starts[k] = Math.min(end, Math.max(starts[k]!, k > 0 ? starts[k - 1]! : floor));

  return tokens.map((token, k) => ({
    text: token.text,
    startMs: starts[k]!,
    endMs: k + 1 < n ? starts[k + 1]! : end,
    charStart: textOffset + token.start,
    charEnd: textOffset + token.end,
  }));
}
