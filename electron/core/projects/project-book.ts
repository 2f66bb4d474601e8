/**
 * A project's book made: the included chapters' segments rendered first (what is missing), each
 * chapter's parts in order (spoken heading, pause, segments; the credits first and last), encoded
 * by the engine, its subtitles written from where each part landed.
 */

import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import type { CoverImage } from '../../shared/book-exports';
import { AppError } from '../../shared/errors';
import { projectNotFound } from './project-rows';
import { secondsLeft, type ProgressMark } from '../../shared/eta';
import {
  encodeWav,
  fileNameOf,
  parseWavHeader,
  PRESETS,
  writeBookSubtitles,
  type BookExportResult,
  type SpokenPiece,
} from '../engine';
import type { ProjectRow } from '../store';
import { audioPathOf, timingsPathOf } from './segment-render';
import {
  closingCreditsOf,
  creditTitlesOf,
  hasCredits,
  openingCreditsOf,
  speaksHeadings,
  spokenHeadingOfChapter,
} from './spoken-structure';
import { hasSpeakableContent } from '../../shared/text';
import { storedDetails } from '../platform/error-details';
import type { ChapterRow, SegmentRow } from '../store';
import type { ProjectExports, ProjectExportsOptions } from './project-export';

/** Silence between two segments of a chapter, ms (a paragraph's pause). */
const SEGMENT_GAP_MS = 600;

/** Silence after a chapter's spoken heading, before its text, ms (two segment gaps and a pause WAV). */
const HEADING_PAUSE_MS = 2000;

/** One piece of a chapter's audio: a rendered WAV and, for speech, its text and word timings. */
interface BookPart {
  wavPath: string;
  /** Absent for the pause after a spoken heading. */
  text?: string | undefined;
  timingsPath?: string | undefined;
}

/** A chapter of the exported book: a credits chapter or a project chapter, with its parts in order. */
interface BookChapter {
  title: string;
  parts: BookPart[];
}

/** A WAV file's header (rate, length), read from its first bytes. */
async function wavHeaderOf(path: string): Promise<ReturnType<typeof parseWavHeader>> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return parseWavHeader(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * The exported book's subtitles, from where the export placed each chapter: its speech starts
 * after the preset's head, its parts follow one another with SEGMENT_GAP_MS between. The first
 * cue of each chapter (its spoken heading, or the credits) shows from the chapter's start.
 */
async function subtitlePieces(
  book: readonly BookChapter[],
  result: BookExportResult,
  headMs: number,
): Promise<SpokenPiece[]> {
  const pieces: SpokenPiece[] = [];
  for (const [i, chapter] of book.entries()) {
    const timing = result.chapters[i];
    if (!timing) break;
    let at = timing.startMs + headMs;
    for (const [n, part] of chapter.parts.entries()) {
      const { durationMs } = await wavHeaderOf(part.wavPath);
      if (part.text !== undefined && part.timingsPath !== undefined) {
        pieces.push({
          text: part.text,
          timingsPath: part.timingsPath,
          startMs: at,
          durationMs,
          chapterStartMs: n === 0 ? timing.startMs : undefined,
        });
      }
      at += durationMs + SEGMENT_GAP_MS;
    }
  }
  return pieces;
}

/** The included chapters' segments rendered (a render of what is missing first). */
export async function renderMissing(
  options: ProjectExportsOptions,
  project: ProjectRow,
  keyId: string,
  onStatus?: (s: string) => void,
  onRender?: (renderId: string) => void,
): Promise<{ chapters: ChapterRow[]; segments: SegmentRow[]; renderId: string | null }> {
  const { store, renders } = options;
  const chapters = (await store.projects.chapters(project.id)).filter((c) => c.included === 1);
  if (chapters.length === 0)
    throw new AppError('NOTHING_TO_SPEAK', 'No chapter of this project is included.');
  const ids = chapters.map((c) => c.id);
  let renderId: string | null = null;
  const pending = (await store.projects.segments(project.id)).filter(
    (s) => ids.includes(s.chapter_id) && s.state !== 'done',
  );
  if (pending.length > 0) {
    onStatus?.('rendering');
    const row = await renders.submit(project.id, keyId, { chapterIds: ids });
    renderId = row.id;
    onRender?.(row.id);
    const settled = await renders.settled(row.id);
    if (settled.status !== 'done') {
      // The render's particulars (how many segments failed) name what went wrong in the studio.
      throw new AppError(
        settled.status === 'failed' ? 'ENGINE_FAILED' : 'PROJECT_CONFLICT',
        `The render before the export ended ${settled.status}${settled.error_message ? `: ${settled.error_message}` : ''}.`,
        storedDetails(settled.error_details).error_details,
      );
    }
  }
  const segments = await store.projects.segments(project.id);
  const notDone = segments.filter((s) => ids.includes(s.chapter_id) && s.state !== 'done');
  if (notDone.length > 0) {
    throw new AppError(
      'PROJECT_CONFLICT',
      `${notDone.length} segment(s) are still being rendered; export again when they are done.`,
    );
  }
  return { chapters, segments, renderId };
}

/**
 * The book as exported: each included chapter with segments, its parts its segments' WAVs in
 * order, after its spoken heading and a pause when the project speaks headings; the opening and
 * closing credits first and last when it has credits. The headings and credits are spoken by the
 * narrator (rendered now unless they were before, charged to `keyId`); the pause WAV is written
 * into `temp`.
 */
export async function bookOf(
  options: ProjectExportsOptions,
  project: ProjectRow,
  keyId: string,
  chapters: ChapterRow[],
  segments: SegmentRow[],
  temp: string,
): Promise<BookChapter[]> {
  const { renders, filesDir } = options;
  const book = chapters
    .map((chapter) => ({
      chapter,
      title: chapter.title,
      parts: segments
        .filter((s) => s.chapter_id === chapter.id)
        .sort((a, b) => a.position - b.position)
        .map((segment): BookPart => ({
          wavPath: audioPathOf(filesDir, project.id, segment.audio_key!),
          text: segment.text,
          timingsPath: timingsPathOf(filesDir, project.id, segment.audio_key!),
        })),
    }))
    .filter(({ parts }) => parts.length > 0);
  // A heading with nothing to say ("* * *") is left out: that chapter starts with its text.
  const headings = speaksHeadings(project)
    ? book.map(({ chapter }) => spokenHeadingOfChapter(chapter, project.language))
    : [];
  const headed = headings.filter(hasSpeakableContent);
  const credits = hasCredits(project) ? [openingCreditsOf(project), closingCreditsOf(project)] : [];
  const texts = [...headed, ...credits];
  if (texts.length === 0) return book;
  const spoken = await renders.speakAsNarrator(project.id, keyId, texts);
  const part = (i: number): BookPart => ({
    wavPath: spoken[i]!.wavPath,
    text: spoken[i]!.text,
    timingsPath: spoken[i]!.timingsPath,
  });
  if (headed.length > 0) {
    const { sampleRate } = await wavHeaderOf(spoken[0]!.wavPath);
    const pausePath = join(temp, 'pause.wav');
    const pauseMs = Math.max(0, HEADING_PAUSE_MS - 2 * SEGMENT_GAP_MS);
    const pause = new Int16Array(Math.round((pauseMs / 1000) * sampleRate));
    await writeFile(pausePath, encodeWav(pause, sampleRate));
    let next = 0;
    book.forEach((chapter, i) => {
      if (hasSpeakableContent(headings[i]!)) chapter.parts.unshift(part(next++), { wavPath: pausePath });
    });
  }
  if (credits.length === 0) return book;
  const titles = creditTitlesOf(project.language);
  return [
    { title: titles.opening, parts: [part(headed.length)] },
    ...book,
    { title: titles.closing, parts: [part(headed.length + 1)] },
  ];
}

/** Exports a project to `target.outPath` and waits (see ProjectExports.exportTo). */
export async function exportProjectBook(
  options: ProjectExportsOptions,
  ...[projectId, keyId, target]: Parameters<ProjectExports['exportTo']>
): ReturnType<ProjectExports['exportTo']> {
  const { engine, store, clock } = options;
  const project = await store.projects.getProject(projectId);
  if (!project) throw projectNotFound(projectId);
  const format = target.format ?? project.format;
  const { chapters, segments, renderId } = await renderMissing(
    options,
    project,
    keyId,
    target.onStatus,
    target.onRender,
  );
  target.onStatus?.('encoding');
  const cover: CoverImage | undefined =
    project.cover_base64 && project.cover_type
      ? {
          data: Buffer.from(project.cover_base64, 'base64'),
          mimeType: project.cover_type as CoverImage['mimeType'],
        }
      : undefined;
  const temp = await mkdtemp(join(tmpdir(), 'narration-book-'));
  let result: BookExportResult;
  try {
    const book = await bookOf(options, project, keyId, chapters, segments, temp);
    const hasOpening = hasCredits(project);
    const from: ProgressMark = { atMs: clock.now(), fraction: 0 };
    const onProgress = target.onProgress;
    // On the engine's thread: resampling, mastering and encoding a book stall no HTTP request.
    result = await engine.exportChapters({
      onProgress: onProgress && ((f) => onProgress(f, secondsLeft(from, clock.now(), f))),
      chapters: book.map((c) => ({ title: c.title, wavPaths: c.parts.map((p) => p.wavPath) })),
      gapMs: SEGMENT_GAP_MS,
      preset: project.preset,
      format,
      folderFormat: format === 'folder' ? (target.folderFormat ?? project.folder_format ?? 'mp3') : undefined,
      title: project.title,
      author: project.author ?? undefined,
      cover,
      outPath: target.outPath,
      numberSeparator: ' - ',
      // The opening credits are file 00, so that chapter n is file n.
      ...(hasOpening ? { firstFileNumber: 0 } : {}),
    });
    // The book-wide subtitles beside the export (a folder's at its top), named as the book.
    const base =
      format === 'folder'
        ? join(target.outPath, fileNameOf(project.title))
        : join(dirname(target.outPath), basename(target.outPath, extname(target.outPath)));
    const subtitles = await writeBookSubtitles(
      base,
      await subtitlePieces(book, result, PRESETS[project.preset].headMs),
    );
    result = { ...result, subtitles };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  await options.markExported?.(
    projectId,
    chapters.map((c) => c.id),
  );
  return { result, renderId };
}
