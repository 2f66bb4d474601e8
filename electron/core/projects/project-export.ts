/**
 * Exporting a book project: M4B with chapters, MP3 with ID3 chapters, or a folder of one file per
 * chapter, with the project's title, author, cover, mastering preset and loudness report. Only
 * included chapters; their segments not rendered yet (new, changed, failed) are rendered first
 * through the render queue (charged as any render). Each chapter's speech is its segments' WAVs
 * in order with a pause between them; the engine (`Engine.exportChapters`, on its own thread) joins
 * them, adds the preset's room tone around each chapter, masters and encodes, exactly as it does a
 * text export.
 *
 * Files are named after the book and its chapters: `The Lighthouse.m4b`, `01 - Opening.mp3`
 * (names safe on every system, letters of every language kept). An export through the API is kept
 * in `<filesDir>/projects/<project id>/exports/<export id>/`: the book (a folder export as
 * `<title>.zip`) and `record.json`, the record GET …/exports/<id> answers (no table: a record is
 * written whole, by the one process that runs it; one that died unfinished is reported failed).
 */

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import type { BookFormat, CoverImage, FolderFormat } from '../../shared/book-exports';
import { bookExtension } from '../../shared/book-formats';
import { AppError, isAppError } from '../../shared/errors';
import { projectNotFound } from './project-rows';
import { secondsLeft, type ProgressMark } from '../../shared/eta';
import type { ProjectExportRecord } from '../../shared/projects';
import {
  encodeWav,
  fileNameOf,
  parseWavHeader,
  PRESETS,
  writeBookSubtitles,
  type BookExportResult,
  type Engine,
  type SpokenPiece,
} from '../engine';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import { fileReportsOf } from '../jobs';
import { writeZip } from '../platform/zip-writer';
import type { ProjectRow, Store } from '../store';
import type { ProjectRenders } from './project-renders';
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
import { redactPaths } from '../platform/redact-paths';
import { errorDetails, storedDetails } from '../platform/error-details';

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

export interface ProjectExportsOptions {
  /** Resamples, masters and encodes the book on its own thread. */
  engine: Engine;
  store: Store;
  renders: ProjectRenders;
  filesDir: string;
  clock: Clock;
  log: Log;
  /** Base URL of the server, for download links. */
  baseUrl?: (() => string) | undefined;
  /** Keeps each exported chapter's text (the project service's `markExported`). */
  markExported?: ((projectId: string, chapterIds: readonly string[]) => Promise<void>) | undefined;
}

export interface ExportTarget {
  format?: BookFormat | undefined;
  folderFormat?: FolderFormat | null | undefined;
}

export interface ProjectExports {
  /** Starts an export kept in the project's folder; resolves with its record at once. */
  start(projectId: string, keyId: string, target: ExportTarget): Promise<ProjectExportRecord>;
  /**
   * Exports to `outPath` (the file, or for `folder` the directory of files) and waits. Charges
   * renders of unrendered segments to `keyId`.
   */
  exportTo(
    projectId: string,
    keyId: string,
    target: ExportTarget & {
      outPath: string;
      onStatus?: (status: string) => void;
      /** While encoding: the fraction done (0–1) and the seconds left (null until they can be told). */
      onProgress?: (fraction: number, etaSeconds: number | null) => void;
    },
  ): Promise<{ result: BookExportResult; renderId: string | null }>;
  get(projectId: string, exportId: string): Promise<ProjectExportRecord | undefined>;
  /** The downloadable file of a finished export. */
  filePath(record: ProjectExportRecord): string;
  /** The book-wide subtitles of a finished export, SRT or WebVTT (`<title>.srt` beside its file). */
  subtitlesPath(record: ProjectExportRecord, kind: 'srt' | 'vtt'): string;
  /** Waits for the exports running here. */
  close(): Promise<void>;
}

const EXPORT_ID = /^[0-9a-f]{32}$/;

export function createProjectExports(options: ProjectExportsOptions): ProjectExports {
  const { engine, store, renders, filesDir, clock, log } = options;
  const running = new Map<string, Promise<void>>();
  const dirOf = (projectId: string, exportId: string) =>
    join(filesDir, 'projects', projectId, 'exports', exportId);

  const write = async (record: ProjectExportRecord) => {
    const dir = dirOf(record.project_id, record.id);
    await mkdir(dir, { recursive: true });
    const temp = join(dir, `record.json.${randomBytes(4).toString('hex')}.partial`);
    await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`);
    await rename(temp, join(dir, 'record.json'));
  };

  /** The included chapters' segments rendered (a render of what is missing first). */
  const renderMissing = async (project: ProjectRow, keyId: string, onStatus?: (s: string) => void) => {
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
  };

  /**
   * The book as exported: each included chapter with segments, its parts its segments' WAVs in
   * order, after its spoken heading and a pause when the project speaks headings; the opening and
   * closing credits first and last when it has credits. The headings and credits are spoken by the
   * narrator (rendered now unless they were before, charged to `keyId`); the pause WAV is written
   * into `temp`.
   */
  const bookOf = async (
    project: ProjectRow,
    keyId: string,
    chapters: Awaited<ReturnType<typeof renderMissing>>['chapters'],
    segments: Awaited<ReturnType<typeof renderMissing>>['segments'],
    temp: string,
  ): Promise<BookChapter[]> => {
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
  };

  const exportTo: ProjectExports['exportTo'] = async (projectId, keyId, target) => {
    const project = await store.projects.getProject(projectId);
    if (!project) throw projectNotFound(projectId);
    const format = target.format ?? project.format;
    const { chapters, segments, renderId } = await renderMissing(project, keyId, target.onStatus);
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
      const book = await bookOf(project, keyId, chapters, segments, temp);
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
        folderFormat:
          format === 'folder' ? (target.folderFormat ?? project.folder_format ?? 'mp3') : undefined,
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
  };

  const link = (record: Pick<ProjectExportRecord, 'id' | 'project_id'>) =>
    `${options.baseUrl?.() ?? ''}/api/v1/projects/${record.project_id}/exports/${record.id}/file`;

  return {
    async start(projectId, keyId, target) {
      const project = await store.projects.getProject(projectId);
      if (!project) throw projectNotFound(projectId);
      const format = target.format ?? project.format;
      const id = randomBytes(16).toString('hex');
      const base = fileNameOf(project.title);
      const record: ProjectExportRecord = {
        id,
        project_id: projectId,
        status: 'rendering',
        format,
        folder_format: format === 'folder' ? (target.folderFormat ?? project.folder_format ?? 'mp3') : null,
        render_id: null,
        file_name: `${base}.${bookExtension(format)}`,
        download_url: null,
        files: [],
        chapters: [],
        report: [],
        duration_ms: null,
        file_bytes: null,
        error_code: null,
        error_message: null,
        created_at: isoTime(clock.now()),
        finished_at: null,
      };
      await write(record);
      const dir = dirOf(projectId, id);
      let lastWrite = 0;
      // Writes in order, so that a progress write never lands after the final record.
      let writing: Promise<void> = Promise.resolve();
      const save = (snapshot: ProjectExportRecord) =>
        (writing = writing.then(() => write(snapshot)).catch(() => undefined));
      const job = (async () => {
        try {
          const outPath = format === 'folder' ? join(dir, base) : join(dir, record.file_name);
          const { result, renderId } = await exportTo(projectId, keyId, {
            format,
            folderFormat: record.folder_format,
            outPath,
            onStatus: (status) => {
              record.status = status === 'encoding' ? 'encoding' : 'rendering';
              if (record.status === 'encoding') Object.assign(record, { progress: 0, eta_seconds: null });
              void save({ ...record });
            },
            onProgress: (fraction, eta) => {
              record.progress = fraction;
              record.eta_seconds = eta;
              // The record is rewritten at most once a second (and GET reads it from there).
              const now = clock.now();
              if (now - lastWrite < 1000) return;
              lastWrite = now;
              void save({ ...record });
            },
          });
          const report = fileReportsOf(result, outPath, format, record.file_name);
          if (format === 'folder') {
            await writeZip(join(dir, record.file_name), [
              ...result.files.map((f) => ({ path: f.path, name: basename(f.path) })),
              { path: result.reportPath, name: 'loudness.json' },
              ...(result.subtitles
                ? [result.subtitles.srtPath, result.subtitles.vttPath].map((path) => ({
                    path,
                    name: basename(path),
                  }))
                : []),
            ]);
            record.files = result.files.map((f) => basename(f.path));
            // The subtitles stay downloadable on their own, beside the zip.
            for (const path of result.subtitles ? [result.subtitles.srtPath, result.subtitles.vttPath] : [])
              await rename(path, join(dir, basename(path)));
            await rm(outPath, { recursive: true, force: true });
            await rm(result.reportPath, { force: true });
          }
          Object.assign(record, {
            status: 'done',
            render_id: renderId,
            download_url: link(record),
            chapters: result.chapters.map((c) => ({
              title: c.title,
              start_ms: Math.round(c.startMs),
              end_ms: Math.round(c.endMs),
            })),
            report,
            ...(result.subtitles
              ? { subtitles: [result.subtitles.srtPath, result.subtitles.vttPath].map((p) => basename(p)) }
              : {}),
            duration_ms: Math.round(result.durationMs),
            progress: 1,
            eta_seconds: 0,
            file_bytes: (await stat(join(dir, record.file_name))).size,
            finished_at: isoTime(clock.now()),
          });
        } catch (error) {
          const appError = isAppError(error)
            ? error
            : new AppError('OUTPUT_FAILED', `The export failed: ${String(error)}`);
          if (!isAppError(error))
            log.warn(`project export ${id}: ${(error as Error)?.stack ?? String(error)}`);
          const details = errorDetails(appError);
          Object.assign(record, {
            status: 'failed',
            error_code: appError.code,
            error_message: redactPaths(appError.message),
            ...(details ? { error_details: details } : {}),
            finished_at: isoTime(clock.now()),
          });
        }
        await writing;
        await write(record).catch((error: unknown) =>
          log.warn(`project export ${id}: could not write its record: ${String(error)}`),
        );
      })().finally(() => running.delete(id));
      running.set(id, job);
      return { ...record };
    },
    exportTo,
    async get(projectId, exportId) {
      if (!EXPORT_ID.test(exportId)) return undefined;
      try {
        const record = JSON.parse(
          await readFile(join(dirOf(projectId, exportId), 'record.json'), 'utf8'),
        ) as ProjectExportRecord;
        if ((record.status === 'rendering' || record.status === 'encoding') && !running.has(exportId)) {
          // Its process ended before it did.
          return {
            ...record,
            status: 'failed',
            error_code: 'INTERRUPTED',
            error_message: 'The export was interrupted; export again.',
          };
        }
        return record;
      } catch {
        return undefined;
      }
    },
    filePath: (record) => join(dirOf(record.project_id, record.id), record.file_name),
    subtitlesPath: (record, kind) => {
      const name = record.subtitles?.find((n) => n.endsWith(`.${kind}`));
      if (!name)
        throw new AppError('NOT_FOUND', 'This export has no subtitles (made before they were written).');
      return join(dirOf(record.project_id, record.id), name);
    },
    async close() {
      await Promise.allSettled([...running.values()]);
    },
  };
}
