/**
 * Chapters of a book's text, and where they fall in the audio.
 *
 * Syntax (docs/USER-GUIDE.md, "Chapters and audiobook export"):
 * - A Markdown heading of level 1 or 2 (`# Title`, `## Title`, up to three spaces before the
 *   marks, optional closing `#`s) starts a chapter named by the heading. The heading stays in the
 *   chapter's text and is spoken once, as its first sentence: the engine drops the `#` marks and
 *   pauses after a heading as a narrator does (PAUSE_MS.heading in text/chunk.ts). Deeper
 *   headings (`###`…) are read in place and start no chapter.
 * - A line `[chapter: Title]` starts a chapter named `Title` and is not spoken: for a text that
 *   already announces its chapters in its own words, or a table of contents that should read
 *   differently from the spoken text. So a title is never spoken twice.
 * - Text before the first chapter line is a chapter of its own (named by the caller, e.g. the
 *   book's title); a text with no chapter lines is one chapter.
 * - Lines inside fenced code blocks (``` or ~~~) are never chapter lines.
 *
 * Offsets are UTF-16 code-unit offsets into the text as given (callers pass cleaned text:
 * `cleanText` in electron/shared/text).
 */

import { hasSpeakableContent } from '../../../shared/text';

/** One chapter of the text. */
export interface Chapter {
  /** The title for tables of contents (ID3 CHAP, MP4 chapters, file names). */
  title: string;
  /** What started the chapter: a heading, an explicit marker, or neither (text before the first). */
  kind: 'heading' | 'marker' | 'untitled';
  /** 1 or 2 for headings (`#`, `##`); 1 otherwise. */
  level: 1 | 2;
  /** The text to speak: a heading's chapter starts with its heading line; a marker's omits the marker. */
  text: string;
  /** Offset of `text` in the parsed text. */
  start: number;
}

export interface ParseChaptersOptions {
  /**
   * Title of a chapter that no heading or marker names (text before the first chapter line, or a
   * text without any), given its 1-based number. Default: `Chapter <n>`.
   */
  untitled?: (index: number) => string;
}

const HEADING_RE = /^ {0,3}(#{1,2})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const MARKER_RE = /^[ \t]*\[chapter:[ \t]*(.*?)[ \t]*\][ \t]*$/i;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;

interface ChapterLine {
  kind: 'heading' | 'marker';
  level: 1 | 2;
  title: string;
  lineStart: number;
  /** Offset just past the line's newline (or the end of the text). */
  next: number;
}

/** The title as plain text: emphasis and code marks dropped, whitespace collapsed. */
function plainTitle(raw: string): string {
  return raw
    .replace(/(\*{1,3}|_{1,3}|`+)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
}

function* chapterLines(text: string): Generator<ChapterLine> {
  let fence: string | undefined;
  for (let lineStart = 0; lineStart < text.length;) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, lineEnd);
    const next = lineEnd + 1;
    const fenceMatch = FENCE_RE.exec(line);
    if (fenceMatch) {
      const mark = fenceMatch[1]!;
      if (fence === undefined) fence = mark;
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
    } else if (fence === undefined) {
      const heading = HEADING_RE.exec(line);
      const marker = heading ? null : MARKER_RE.exec(line);
      const title = plainTitle((heading?.[2] ?? marker?.[1]) || '');
      if (title !== '') {
        yield heading
          ? { kind: 'heading', level: heading[1]!.length as 1 | 2, title, lineStart, next }
          : { kind: 'marker', level: 1, title, lineStart, next };
      }
    }
    lineStart = next;
  }
}

/** `text.slice(start, end)` without the whitespace at either end, with its offset. */
function trimmed(text: string, start: number, end: number): { text: string; start: number } {
  const slice = text.slice(start, end);
  const lead = slice.length - slice.trimStart().length;
  return { text: slice.trim(), start: start + lead };
}

/**
 * The chapters of `text`, in order. Chapters with nothing to speak (no letter or digit: an empty
 * marker chapter, or blank text before the first heading) are left out; a text with nothing to
 * speak at all gives an empty list. Linear time.
 */
export function parseChapters(text: string, options: ParseChaptersOptions = {}): Chapter[] {
  const untitled = options.untitled ?? ((n: number) => `Chapter ${n}`);
  const lines = [...chapterLines(text)];
  const chapters: Chapter[] = [];
  const push = (chapter: Omit<Chapter, 'title'> & { title?: string }) => {
    if (!hasSpeakableContent(chapter.text)) return;
    chapters.push({ ...chapter, title: chapter.title ?? untitled(chapters.length + 1) });
  };
  push({ kind: 'untitled', level: 1, ...trimmed(text, 0, lines[0]?.lineStart ?? text.length) });
  lines.forEach((line, i) => {
    const end = lines[i + 1]?.lineStart ?? text.length;
    // A heading is spoken: its chapter's text starts at the heading line. A marker is not.
    const body = trimmed(text, line.kind === 'heading' ? line.lineStart : line.next, end);
    push({ kind: line.kind, level: line.level, title: line.title, ...body });
  });
  return chapters;
}

/**
 * `text` with each `[chapter: …]` line blanked (spaces, the same length, so every offset stays):
 * a render of the whole text never speaks a marker, and its subtitles never show one.
 */
export function blankMarkerLines(text: string): string {
  let out = '';
  let at = 0;
  for (const line of chapterLines(text)) {
    if (line.kind !== 'marker') continue;
    const end = text[line.next - 1] === '\n' ? line.next - 1 : Math.min(line.next, text.length);
    out += text.slice(at, line.lineStart) + ' '.repeat(end - line.lineStart);
    at = end;
  }
  return out + text.slice(at);
}

/** The whole text as one render speaks it (`say --chapters`): chapter texts, with the offset of each. */
export interface SpokenBook {
  /** Chapter texts joined by blank lines (markers left out). */
  text: string;
  /** Offset of each chapter's text in `text`. */
  starts: number[];
}

/** Joins chapter texts with a blank line (a paragraph break) between them. */
export function spokenBook(chapters: readonly Chapter[]): SpokenBook {
  const starts: number[] = [];
  let text = '';
  for (const chapter of chapters) {
    if (text !== '') text += '\n\n';
    starts.push(text.length);
    text += chapter.text;
  }
  return { text, starts };
}

/** A chapter's place in the audio, ms from the start of the file. */
export interface ChapterTiming {
  title: string;
  startMs: number;
  endMs: number;
}

/** A word's place, as the engine's word timings give it (`WordTiming` in engine/types.ts). */
interface TimedWord {
  startMs: number;
  endMs: number;
  charStart: number;
}

/**
 * Chapter times in one render of `spokenBook(chapters).text`, from its word timings (in order):
 * the first chapter starts at 0; each later one where the previous chapter's last word ends, so
 * the pause before its title belongs to it (a player that jumps to it plays the pause, then the
 * title). The last chapter ends at `durationMs`. A chapter with no timed word starts where the
 * previous one does.
 */
export function chapterTimesFromWords(
  chapters: readonly Chapter[],
  starts: readonly number[],
  words: readonly TimedWord[],
  durationMs: number,
): ChapterTiming[] {
  const startMs: number[] = [];
  let w = 0;
  chapters.forEach((_, i) => {
    if (i === 0) {
      startMs.push(0);
      return;
    }
    const from = starts[i]!;
    let lastBefore: TimedWord | undefined;
    while (w < words.length && words[w]!.charStart < from) lastBefore = words[w++];
    const previous = startMs[i - 1]!;
    startMs.push(Math.min(durationMs, Math.max(previous, lastBefore?.endMs ?? previous)));
  });
  return chapters.map((chapter, i) => ({
    title: chapter.title,
    startMs: startMs[i]!,
    endMs: startMs[i + 1] ?? durationMs,
  }));
}
