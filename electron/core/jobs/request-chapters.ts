/**
 * Chapters of a plain request (POST /api/v1/tts): when its text has chapter lines (Markdown `#`
 * and `##` headings, `[chapter: …]` lines; engine/text/chapters.ts), the runner asks the render
 * for its word timings and keeps only where each chapter starts, in `<id>.chapters.json` beside
 * the audio; GET /api/v1/tts/<id>/chapters answers it, and the studio's preview draws the
 * chapters on the waveform. A heading is spoken, so its chapter starts with it; a `[chapter: …]`
 * line is not (the render blanks it), so its chapter starts with the text that follows.
 */

import { readFile, rm } from 'node:fs/promises';
import type { ExportChapter } from '../../shared/book-exports';
import { isSsml } from '../../shared/ssml';
import { cleanText } from '../../shared/text';
import { chapterTimesFromWords, parseChapters, type Chapter } from '../engine';
import { StagedFile } from '../platform/staged-file';
import { isWordTiming, readTimings } from './result-files';

/** A text's chapters and where each one's line starts in the cleaned text (word offsets use it). */
export interface ChapterPlan {
  chapters: Chapter[];
  starts: number[];
}

/** The plan of `text`, or undefined when it has no chapter line (or is SSML, whose offsets differ). */
export function chapterPlanOf(text: string): ChapterPlan | undefined {
  const cleaned = cleanText(text);
  if (isSsml(cleaned)) return undefined;
  const chapters = parseChapters(cleaned);
  if (!chapters.some((c) => c.kind !== 'untitled')) return undefined;
  // The render blanks marker lines in place, so each chapter's text keeps its offset.
  return { chapters, starts: chapters.map((c) => c.start) };
}

/**
 * Reads the word timings a render wrote to `timingsPath`, writes the chapters' times to
 * `chaptersPath` (JSON: `[{title, start_ms, end_ms}]`) and removes the timings (unless
 * `keepTimings`: the request's answer reads them).
 */
export async function writeRequestChapters(
  plan: ChapterPlan,
  timingsPath: string,
  chaptersPath: string,
  durationMs: number,
  { keepTimings = false }: { keepTimings?: boolean } = {},
): Promise<void> {
  // Words only: a text with chapters is never SSML, so its timings hold no marks.
  const words = (await readTimings(timingsPath)).filter(isWordTiming);
  const times = chapterTimesFromWords(plan.chapters, plan.starts, words, durationMs);
  const chapters: ExportChapter[] = times.map((t) => ({
    title: t.title,
    start_ms: Math.round(t.startMs),
    end_ms: Math.round(t.endMs),
  }));
  const file = await StagedFile.create(chaptersPath, 'the chapters file');
  try {
    await file.write(`${JSON.stringify(chapters)}\n`);
    await file.commit();
  } catch (error) {
    await file.discard();
    throw error;
  }
  if (!keepTimings) await rm(timingsPath, { force: true });
}

/** The chapters stored for a request; empty when it has none (or its file is gone). */
export async function readRequestChapters(chaptersPath: string): Promise<ExportChapter[]> {
  try {
    return JSON.parse(await readFile(chaptersPath, 'utf8')) as ExportChapter[];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
