/**
 * Subtitle cues, built incrementally chunk by chunk from word timings (`./word-timing`) so
 * that hours of audio need no more memory than one chunk plus the two cues held back for
 * merging: where cues break, how long they last and how their lines are laid out.
 *
 * All times here are integer milliseconds on the output audio's timeline (inputs are rounded);
 * all text offsets are UTF-16 code-unit offsets, as in `../types`.
 */

import { isAbbreviation } from '../text/abbreviations';
import type { SubtitleCue, WordTiming } from '../types';

/** Limits of a subtitle cue. */
export interface CueOptions {
  /** Longest line, in display columns (East Asian wide characters count 2); default 42, at least 2. */
  maxLineChars?: number;
  /** Most lines per cue; default 2, at least 1. */
  maxLines?: number;
  /** Shortest cue, ms; default 1000. Only a lone cue (the whole text) may be shorter. */
  minCueMs?: number;
  /** Longest cue, ms; default 7000, more than `minCueMs`. */
  maxCueMs?: number;
}

/** Cue limits with the defaults filled in. */
export type CueLimits = Required<CueOptions>;

/** `options` with defaults filled in; throws RangeError for limits no cue could meet. */
export function resolveCueLimits(options: CueOptions = {}): CueLimits {
  const limits: CueLimits = {
    maxLineChars: options.maxLineChars ?? 42,
    maxLines: options.maxLines ?? 2,
    minCueMs: options.minCueMs ?? 1000,
    maxCueMs: options.maxCueMs ?? 7000,
  };
  if (!(Number.isInteger(limits.maxLineChars) && limits.maxLineChars >= 2))
    throw new RangeError('maxLineChars must be an integer ≥ 2');
  if (!(Number.isInteger(limits.maxLines) && limits.maxLines >= 1))
    throw new RangeError('maxLines must be an integer ≥ 1');
  if (!(limits.minCueMs >= 0 && limits.maxCueMs > limits.minCueMs))
    throw new RangeError('need 0 ≤ minCueMs < maxCueMs');
  return limits;
}

const WIDE_CHAR =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]/u;
const ZERO_WIDTH = /[\p{M}\u200b-\u200f\u2060\ufeff]/u;

/** Whether `text` is ASCII only: one column a character (no wide or zero-width character is ASCII). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Width of a line of text in display columns: East Asian wide characters 2, combining marks 0, others 1. */
export function displayWidth(text: string): number {
  if (isAscii(text)) return text.length;
  let width = 0;
  for (const ch of text) width += ZERO_WIDTH.test(ch) ? 0 : WIDE_CHAR.test(ch) ? 2 : 1;
  return width;
}

/**
 * What separates a word from the next, from strongest to weakest: the start of a chapter or the
 * end of its title line (either always ends a cue, so a title shows alone), a paragraph or sentence break, clause punctuation, plain space, nothing
 * (CJK), or a cut inside one over-long word.
 */
type BreakKind = 'chapter' | 'paragraph' | 'sentence' | 'clause' | 'space' | 'none' | 'inside';

/** Cost of ending a cue at a break of each kind. */
const CUE_END_COST: Record<BreakKind, number> = {
  chapter: 0,
  paragraph: 0,
  sentence: 0,
  clause: 1.5,
  space: 4,
  none: 4,
  inside: 12,
};
/** Cost of a break of each kind inside a cue (only strong breaks cost anything). */
const CUE_INNER_COST: Record<BreakKind, number> = {
  // Never inside a cue: `segment` ends every cue at a chapter's start.
  chapter: Infinity,
  paragraph: 8,
  sentence: 1.5,
  clause: 0,
  space: 0,
  none: 0,
  inside: 0,
};
/** Cost of a line break at a break of each kind. */
const LINE_BREAK_COST: Record<BreakKind, number> = {
  chapter: 0,
  paragraph: 0,
  sentence: 0,
  clause: 0.5,
  space: 2,
  none: 2,
  inside: 4,
};
/** Extra cost of a cue or line ending right after one of these (a break that splits a phrase). */
const WEAK_ENDINGS = new Set('a an the of to in on at for with and or but by from as that'.split(' '));
/** Cost per second of silence inside a cue. */
const SILENCE_COST_PER_S = 1.5;
/** Cues held back by the builder, so the end of one chunk can still merge with the next. */
const CUES_HELD = 2;

/** A word as a subtitle shows it: with the punctuation that clings to it. */
interface Unit {
  text: string;
  width: number;
  startMs: number;
  endMs: number;
  /** Whether a space separates this unit from the previous one on the same line. */
  spaceBefore: boolean;
  breakAfter: BreakKind;
  /** Breaking right after this unit splits a phrase ("of | the"). */
  weakEnd: boolean;
}

/** Sentence ends other than the full stop, which may also end an abbreviation. */
const SENTENCE_END_NOT_STOP = /[!?\u2026\u3002\uff01\uff1f\uff61\u203c\u2047-\u2049]/u;
const PUNCTUATION = /\p{P}/u;
const OPENING = /[\p{Ps}\p{Pi}]/u;
const WHITESPACE_RUN = /\s+/gu;

/**
 * A line that starts a chapter (engine/text/chapters.ts): a Markdown heading of level 1 or 2,
 * or a `[chapter: …]` line, after a line break or at the start of a chunk.
 */
const CHAPTER_LINE = /(?:^|\n)[ \t]{0,3}(?:#{1,2}[ \t]|\[chapter:)/iu;
/** A chunk that opens with a chapter line. */
const CHAPTER_START = /^\s*(?:#{1,2}[ \t]|\[chapter:)/iu;
/** The `#` marks opening a Markdown heading line: not shown, as the engine does not speak them. */
const HEADING_MARKS = /(^|\n)([ \t]{0,3})#{1,6}(?=[ \t])/gu;

/** `text` without the `#` marks of the heading lines it holds. */
function withoutHeadingMarks(text: string): string {
  // Nearly every gap between words has no `#`: no regular expression for those.
  return text.includes('#') ? text.replace(HEADING_MARKS, '$1$2') : text;
}

/** Collapses whitespace runs to one space; `keep` says at which end a space may stay (next to a word). */
function normaliseSpace(text: string, keep: 'start' | 'end' | 'none' = 'none'): string {
  const collapsed = text.replace(WHITESPACE_RUN, ' ');
  if (keep === 'start') return collapsed.trimEnd();
  if (keep === 'end') return collapsed.trimStart();
  return collapsed.trim();
}

/**
 * The kind of break that `gap` (the text between two words) makes; `abbreviations`: the user's
 * (`isAbbreviation`).
 */
function classifyGap(
  gap: string,
  previousWord: string,
  nextWord: string,
  abbreviations: ReadonlySet<string> | undefined,
): BreakKind {
  // The gap between most words: what the tests below find for it, without running them.
  if (gap === ' ') return 'space';
  if (gap.includes('\n') && CHAPTER_LINE.test(gap)) return 'chapter';
  if (/\n\s*\n/u.test(gap)) return 'paragraph';
  if (gap.includes('\n')) return 'sentence';
  const isFullStop = gap.includes('.');
  if (isFullStop || SENTENCE_END_NOT_STOP.test(gap)) {
    // "Dr. Smith", "J. Smith": a full stop after an abbreviation or an initial goes on.
    const abbreviated = /^\p{L}$/u.test(previousWord) || isAbbreviation(previousWord, abbreviations);
    if (abbreviated && /^\.\s+$/u.test(gap)) return 'space';
    // "…and then", "'Why?' she asked": the sentence goes on.
    if (/^\p{Ll}/u.test(nextWord)) return 'clause';
    return 'sentence';
  }
  if (PUNCTUATION.test(gap)) return 'clause';
  return gap.length > 0 ? 'space' : 'none';
}

/** Splits the text between two words into what clings to the word before and to the word after. */
function splitGap(gap: string): { trailing: string; leading: string; spaced: boolean } {
  // The gap between most words, split as below would split it.
  if (gap === ' ') return { trailing: '', leading: '', spaced: true };
  const spaces = [...gap.matchAll(WHITESPACE_RUN)];
  const last = spaces[spaces.length - 1];
  if (last) {
    const cut = last.index;
    return {
      trailing: normaliseSpace(gap.slice(0, cut), 'start'),
      leading: gap.slice(cut + last[0].length),
      spaced: true,
    };
  }
  let cut = gap.length;
  for (let i = 0; i < gap.length; i++) {
    if (OPENING.test(gap[i]!)) {
      cut = i;
      break;
    }
  }
  return { trailing: gap.slice(0, cut), leading: gap.slice(cut), spaced: false };
}

/**
 * Display units of one chunk's words; the last unit's break is at least a sentence (chunks end at
 * sentences). `startsChapter`: the chunk opens with a chapter line.
 */
function unitsOfChunk(
  words: readonly WordTiming[],
  source: string,
  sourceOffset: number,
  abbreviations: ReadonlySet<string> | undefined,
): { units: Unit[]; startsChapter: boolean } {
  const ordered = [...words].sort((a, b) => a.charStart - b.charStart);
  const local = (offset: number) => Math.min(source.length, Math.max(0, offset - sourceOffset));
  const units: Unit[] = [];
  const head = source.slice(0, ordered.length > 0 ? local(ordered[0]!.charStart) : 0);
  const startsChapter = CHAPTER_START.test(source);
  let leading = normaliseSpace(withoutHeadingMarks(head), 'end');
  let spaceBefore = true;
  /** The words so far are on a chapter's title line: its end ends the cue too. */
  let onTitleLine = startsChapter;
  ordered.forEach((word, k) => {
    const next = ordered[k + 1];
    const from = local(word.charEnd);
    const to = next ? Math.max(from, local(next.charStart)) : source.length;
    const gap = withoutHeadingMarks(source.slice(from, to));
    const inSource = source.slice(local(word.charStart), from);
    const body = inSource.length > 0 ? inSource : word.text;
    let breakAfter: BreakKind;
    let trailing: string;
    let nextLeading = '';
    let nextSpaced = true;
    if (next) {
      const parts = splitGap(gap);
      trailing = parts.trailing;
      nextLeading = parts.leading;
      nextSpaced = parts.spaced;
      breakAfter = classifyGap(source.slice(from, to), body, next.text, abbreviations);
    } else {
      trailing = normaliseSpace(gap, 'start');
      breakAfter = /\n\s*\n/u.test(gap) ? 'paragraph' : 'sentence';
    }
    const endsLine = !next || gap.includes('\n');
    if (endsLine && onTitleLine) breakAfter = 'chapter';
    if (endsLine)
      onTitleLine =
        breakAfter === 'chapter' && next !== undefined && CHAPTER_LINE.test(source.slice(from, to));
    const text = `${leading}${body}${trailing}`;
    units.push({
      text,
      width: displayWidth(text),
      startMs: word.startMs,
      endMs: word.endMs,
      spaceBefore,
      breakAfter,
      weakEnd: trailing === '' && WEAK_ENDINGS.has(body.toLowerCase()),
    });
    leading = nextLeading;
    spaceBefore = nextSpaced;
  });
  return { units, startsChapter };
}

/** Cuts a unit too wide for a line, or too long for a cue, into pieces with proportional times. */
function splitOversized(unit: Unit, limits: CueLimits): Unit[] {
  const duration = unit.endMs - unit.startMs;
  const needed = Math.max(Math.ceil(unit.width / limits.maxLineChars), Math.ceil(duration / limits.maxCueMs));
  // Nearly every word fits: no need to take it apart into characters.
  if (needed <= 1) return [unit];
  const chars = [...unit.text];
  const pieces = Math.min(chars.length, needed);
  if (pieces <= 1) return [unit];
  const target = Math.ceil(unit.width / pieces);
  const groups: string[][] = [[]];
  let width = 0;
  for (const ch of chars) {
    const w = displayWidth(ch);
    if (width + w > target && groups[groups.length - 1]!.length > 0) {
      groups.push([]);
      width = 0;
    }
    groups[groups.length - 1]!.push(ch);
    width += w;
  }
  let before = 0;
  return groups.map((group, g) => {
    const text = group.join('');
    const startMs = unit.startMs + Math.round((duration * before) / chars.length);
    before += group.length;
    const endMs = unit.startMs + Math.round((duration * before) / chars.length);
    const last = g === groups.length - 1;
    return {
      text,
      width: displayWidth(text),
      startMs,
      endMs,
      spaceBefore: g === 0 ? unit.spaceBefore : false,
      breakAfter: last ? unit.breakAfter : 'inside',
      weakEnd: last ? unit.weakEnd : false,
    };
  });
}

/** Widths of runs of units, in O(1) per query after O(n) set-up. */
function runWidths(units: readonly Unit[]): (from: number, to: number) => number {
  const widths = new Float64Array(units.length + 1);
  const spaces = new Float64Array(units.length + 1);
  units.forEach((u, k) => {
    widths[k + 1] = widths[k]! + u.width;
    spaces[k + 1] = spaces[k]! + (u.spaceBefore ? 1 : 0);
  });
  // The space before the run's first unit is not part of the run.
  return (from, to) => (to <= from ? 0 : widths[to]! - widths[from]! + spaces[to]! - spaces[from + 1]!);
}

function lineText(units: readonly Unit[], from: number, to: number): string {
  let text = '';
  for (let k = from; k < to; k++) text += (k > from && units[k]!.spaceBefore ? ' ' : '') + units[k]!.text;
  return text;
}

/**
 * Lines of units [from, to): the fewest lines that fit, broken where the lines come out most
 * even and where punctuation already pauses the sentence.
 */
function layoutLines(units: readonly Unit[], from: number, to: number, limits: CueLimits): string[] {
  const m = to - from;
  const run = runWidths(units.slice(from, to));
  let count = 1;
  for (let k = 0, lineStart = 0; k < m; k++) {
    if (k > lineStart && run(lineStart, k + 1) > limits.maxLineChars) {
      count++;
      lineStart = k;
    }
  }
  count = Math.min(count, limits.maxLines);
  if (count <= 1) return [lineText(units, from, to)];
  const average = run(0, m) / count;
  // cost[l][b]: best layout of the first b units in l lines; back[l][b]: where its last line starts.
  const cost = Array.from({ length: count + 1 }, () => new Array<number>(m + 1).fill(Infinity));
  const back = Array.from({ length: count + 1 }, () => new Array<number>(m + 1).fill(-1));
  cost[0]![0] = 0;
  for (let l = 1; l <= count; l++) {
    for (let b = 1; b <= m; b++) {
      const end = units[from + b - 1]!;
      const breakCost = b < m ? LINE_BREAK_COST[end.breakAfter] + (end.weakEnd ? 1 : 0) : 0;
      for (let a = b - 1; a >= 0; a--) {
        const width = run(a, b);
        if (width > limits.maxLineChars) break;
        const previous = cost[l - 1]![a]!;
        if (previous === Infinity) continue;
        const total = previous + (4 * Math.abs(width - average)) / limits.maxLineChars + breakCost;
        if (total < cost[l]![b]!) {
          cost[l]![b] = total;
          back[l]![b] = a;
        }
      }
    }
  }
  if (cost[count]![m] === Infinity) return [lineText(units, from, to)];
  const lines: string[] = [];
  for (let l = count, b = m; l > 0; l--) {
    const a = back[l]![b]!;
    lines.unshift(lineText(units, from + a, from + b));
    b = a;
  }
  return lines;
}

/** A range of units [from, to) that makes one cue. */
interface Segment {
  from: number;
  to: number;
}

/**
 * Best cutting of `units` into cues: dynamic programming over cue ends, each candidate cue
 * extended word by word while it still fits. When `isFinal` is false the last cue's end is open
 * (more text follows), so it is never penalised as short; when true it ends at `finalEndMs`.
 */
function segment(units: readonly Unit[], limits: CueLimits, isFinal: boolean, finalEndMs: number): Segment[] {
  const m = units.length;
  const best = new Array<number>(m + 1).fill(Infinity);
  const back = new Int32Array(m + 1).fill(-1);
  best[0] = 0;
  for (let i = 0; i < m; i++) {
    if (best[i] === Infinity) continue;
    const startMs = units[i]!.startMs;
    let lines = 1;
    let lineWidth = 0;
    let width = 0;
    let inner = 0;
    for (let j = i + 1; j <= m; j++) {
      const last = units[j - 1]!;
      const gap = j - 1 > i && last.spaceBefore ? 1 : 0;
      if (lineWidth > 0 && lineWidth + gap + last.width > limits.maxLineChars) {
        lines++;
        lineWidth = last.width;
      } else {
        lineWidth += gap + last.width;
      }
      width += gap + last.width;
      // A chapter starts a new cue: no cue runs on past one.
      if (j - 1 > i && units[j - 2]!.breakAfter === 'chapter') break;
      if (j - 1 > i) {
        const before = units[j - 2]!;
        // Text shown through a long silence reads ahead of the voice.
        inner +=
          CUE_INNER_COST[before.breakAfter] +
          (SILENCE_COST_PER_S * Math.max(0, last.startMs - before.endMs)) / 1000;
      }
      const naturalEnd = j === m && isFinal ? Math.max(last.endMs, finalEndMs) : last.endMs;
      const span = naturalEnd - startMs;
      const single = j === i + 1;
      // Greedy wrapping only gets worse as words are added, and so does the span: stop here.
      if (!single && (lines > limits.maxLines || span > limits.maxCueMs)) break;
      const available = j < m ? units[j]!.startMs : isFinal ? naturalEnd : Infinity;
      const shown = Math.min(Math.max(naturalEnd, startMs + limits.minCueMs), available) - startMs;
      const shortCost = shown < limits.minCueMs ? 10 + (20 * (limits.minCueMs - shown)) / limits.minCueMs : 0;
      const endCost = j === m ? 0 : CUE_END_COST[last.breakAfter] + (last.weakEnd ? 1 : 0);
      const fill = Math.min(
        1,
        Math.max(width / (limits.maxLines * limits.maxLineChars), span / limits.maxCueMs),
      );
      const total = best[i]! + 1 + endCost + inner + shortCost + 0.5 * (1 - fill) ** 2;
      if (total < best[j]!) {
        best[j] = total;
        back[j] = i;
      }
    }
  }
  const segments: Segment[] = [];
  for (let j = m; j > 0; j = back[j]!) segments.unshift({ from: back[j]!, to: j });
  return segments;
}

/** Builds subtitle cues incrementally from the word timings of successive chunks. */
export interface CueBuilder {
  /**
   * Adds one chunk's words (from `timeChunkWords` in `./word-timing`, offsets absolute) with
   * the chunk's source text, the offset of that text in the whole input, and the chunk's
   * absolute end of speech, ms. `abbreviations`: those of the lexicon the chunk was read with
   * (`CompiledLexicon.abbreviations`), whose full stop does not end a sentence, as the chunker
   * took them. Returns the cues that became final, numbered on from the previous ones; the
   * last two cues are held back so they can still merge with what follows.
   */
  push(
    words: readonly WordTiming[],
    source: string,
    sourceOffset: number,
    speechEndMs: number,
    abbreviations?: ReadonlySet<string>,
  ): SubtitleCue[];
  /** Returns the held-back cues; the last ends at the `speechEndMs` of the last chunk that had words. */
  finish(): SubtitleCue[];
}

/**
 * A cue builder. A chapter (a `#` or `##` heading line, or a `[chapter: …]` line) always starts
 * a new cue, and headings show without their `#` marks. Cues break preferably at sentence, then
 * clause punctuation; each has at most
 * `maxLines` lines of at most `maxLineChars` columns (balanced, broken at word boundaries) and
 * lasts `minCueMs` to `maxCueMs` (a short cue is merged with a neighbour or shown on into the
 * following silence); cue text is the source text with whitespace normalised. Memory is bounded
 * by one chunk plus the held-back cues.
 */
export function createCueBuilder(options?: CueOptions): CueBuilder {
  const limits = resolveCueLimits(options);
  let held: Unit[] = [];
  let nextIndex = 1;
  let previousEndMs = -Infinity;
  let lastSpeechEndMs = 0;
  let finished = false;

  function emit(units: Unit[], segments: readonly Segment[], isFinal: boolean): SubtitleCue[] {
    return segments.map(({ from, to }, s) => {
      const isLast = isFinal && s === segments.length - 1;
      const single = to - from === 1;
      let startMs = Math.max(units[from]!.startMs, previousEndMs);
      let endMs: number;
      if (isLast) {
        endMs = Math.max(lastSpeechEndMs, startMs);
        if (single && endMs - startMs > limits.maxCueMs) startMs = endMs - limits.maxCueMs;
      } else {
        const available = units[to]!.startMs;
        endMs = Math.min(Math.max(units[to - 1]!.endMs, startMs + limits.minCueMs), available);
        if (single) endMs = Math.min(endMs, startMs + limits.maxCueMs);
        endMs = Math.max(endMs, startMs);
      }
      // Last resort for a cue too short to read: show it earlier, in the silence before it.
      if (endMs - startMs < limits.minCueMs && previousEndMs !== -Infinity) {
        startMs = Math.max(previousEndMs, Math.min(startMs, endMs - limits.minCueMs));
      }
      previousEndMs = endMs;
      return { index: nextIndex++, startMs, endMs, text: layoutLines(units, from, to, limits).join('\n') };
    });
  }

  return {
    push(words, source, sourceOffset, speechEndMs, abbreviations) {
      if (finished) throw new Error('cue builder already finished');
      const chunk = unitsOfChunk(words, source, sourceOffset, abbreviations);
      const fresh = chunk.units.flatMap((u) => splitOversized(u, limits));
      if (fresh.length === 0) return [];
      if (chunk.startsChapter && held.length > 0) held[held.length - 1]!.breakAfter = 'chapter';
      lastSpeechEndMs = Math.round(speechEndMs);
      const units = held.concat(fresh);
      const segments = segment(units, limits, false, lastSpeechEndMs);
      const ready = segments.slice(0, Math.max(0, segments.length - CUES_HELD));
      const keepFrom = ready.length > 0 ? ready[ready.length - 1]!.to : 0;
      const cues = emit(units, ready, false);
      held = units.slice(keepFrom);
      return cues;
    },
    finish() {
      if (finished) return [];
      finished = true;
      if (held.length === 0) return [];
      const cues = emit(held, segment(held, limits, true, lastSpeechEndMs), true);
      held = [];
      return cues;
    },
  };
}
