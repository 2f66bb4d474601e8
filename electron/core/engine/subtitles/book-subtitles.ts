/**
 * A book's subtitles, SRT and WebVTT, on the exported book's timeline: built from pieces of speech
 * already rendered (a book project's spoken headings, credits and segments), each with its text,
 * its word timings (the engine's timings file) and where it starts in the book. Each piece's cues
 * are made as a render makes them (./cues), moved to its place; a piece that begins a chapter (its
 * spoken heading, the credits) shows from the chapter's start, so its cue starts with the chapter
 * mark. Written beside the export with the same base name: `Book.m4b` → `Book.srt`, `Book.vtt`.
 */

import { readFile } from 'node:fs/promises';
import { cleanText } from '../../../shared/text';
import { StagedFile } from '../../platform/staged-file';
import type { SubtitleCue, WordTiming } from '../types';
import { createCueBuilder } from './cues';
import { formatSrtCue } from './srt';
import { formatVttCue, VTT_HEADER } from './vtt';

/** A piece of rendered speech placed on the book's timeline. */
export interface SpokenPiece {
  /** What was spoken, as it was sent (plain text). */
  text: string;
  /** The engine's word timings file of its render (JSON array of word and mark timings). */
  timingsPath: string;
  /** Where its audio starts in the book, ms. */
  startMs: number;
  /** Its audio's length, ms. */
  durationMs: number;
  /** It begins a chapter that starts at this time, ms: its first cue shows from there. */
  chapterStartMs?: number | undefined;
}

/** The word timings of a timings file that fall on `source` (marks and words of other text left out). */
async function wordsOf(timingsPath: string, source: string): Promise<WordTiming[]> {
  let items: unknown;
  try {
    items = JSON.parse(await readFile(timingsPath, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(items)) return [];
  return (items as Partial<WordTiming>[]).filter(
    (w): w is WordTiming =>
      typeof w.text === 'string' &&
      typeof w.charStart === 'number' &&
      typeof w.charEnd === 'number' &&
      typeof w.startMs === 'number' &&
      source.slice(w.charStart, w.charEnd) === w.text,
  );
}

/** The cues of one piece, on its own timeline (0 = its audio's start). */
async function pieceCues(piece: SpokenPiece): Promise<SubtitleCue[]> {
  const source = cleanText(piece.text);
  const words = await wordsOf(piece.timingsPath, source);
  if (words.length === 0) {
    const text = source.replace(/\s+/gu, ' ').trim();
    return text ? [{ index: 1, startMs: 0, endMs: piece.durationMs, text }] : [];
  }
  const builder = createCueBuilder();
  return [...builder.push(words, source, 0, piece.durationMs), ...builder.finish()];
}

/** The book's cues, numbered from 1, in the order of `pieces` (which are in the book's order). */
export async function bookCues(pieces: readonly SpokenPiece[]): Promise<SubtitleCue[]> {
  const cues: SubtitleCue[] = [];
  for (const piece of pieces) {
    const own = await pieceCues(piece);
    own.forEach((cue, i) => {
      const startMs =
        i === 0 && piece.chapterStartMs !== undefined ? piece.chapterStartMs : piece.startMs + cue.startMs;
      cues.push({
        index: cues.length + 1,
        startMs: Math.round(startMs),
        endMs: Math.round(piece.startMs + cue.endMs),
        text: cue.text,
      });
    });
  }
  return cues;
}

/**
 * Writes the book's cues as `<base>.srt` and `<base>.vtt` (staged: never half written); resolves
 * to their paths.
 */
export async function writeBookSubtitles(
  base: string,
  pieces: readonly SpokenPiece[],
): Promise<{ srtPath: string; vttPath: string }> {
  const cues = await bookCues(pieces);
  const srtPath = `${base}.srt`;
  const vttPath = `${base}.vtt`;
  const files = [
    { path: srtPath, text: cues.map(formatSrtCue).join('') },
    { path: vttPath, text: VTT_HEADER + cues.map(formatVttCue).join('') },
  ];
  for (const file of files) {
    const staged = await StagedFile.create(file.path, 'the subtitles');
    try {
      await staged.write(file.text);
      await staged.commit();
    } catch (error) {
      await staged.discard();
      throw error;
    }
  }
  return { srtPath, vttPath };
}
