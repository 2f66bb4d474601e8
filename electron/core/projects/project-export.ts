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
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BookFormat, CoverImage, FolderFormat } from '../../shared/book-exports';
import { AppError, isAppError } from '../../shared/errors';
import { secondsLeft, type ProgressMark } from '../../shared/eta';
import type { ProjectExportRecord } from '../../shared/projects';
import { fileNameOf, type BookExportResult, type ChapterWav, type Engine } from '../engine';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import { fileReportsOf } from '../jobs';
import { writeZip } from '../platform/zip-writer';
import type { ProjectRow, Store } from '../store';
import type { ProjectRenders } from './project-renders';
import { audioPathOf } from './segment-render';
import { redactPaths } from '../platform/redact-paths';
import { errorDetails, storedDetails } from '../platform/error-details';

/** Silence between two segments of a chapter, ms (a paragraph's pause). */
const SEGMENT_GAP_MS = 600;

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

  /** Each chapter's segments' WAV files, in order (the exporter joins them with SEGMENT_GAP_MS between). */
  const chapterWavs = (
    project: ProjectRow,
    chapters: Awaited<ReturnType<typeof renderMissing>>['chapters'],
    segments: Awaited<ReturnType<typeof renderMissing>>['segments'],
  ): ChapterWav[] =>
    chapters.map((chapter) => ({
      title: chapter.title,
      wavPaths: segments
        .filter((s) => s.chapter_id === chapter.id)
        .sort((a, b) => a.position - b.position)
        .map((segment) => audioPathOf(filesDir, project.id, segment.audio_key!)),
    }));

  const exportTo: ProjectExports['exportTo'] = async (projectId, keyId, target) => {
    const project = await store.projects.getProject(projectId);
    if (!project)
      throw new AppError('PROJECT_NOT_FOUND', `No project "${projectId}".`, {
        part: 'project',
        id: projectId,
      });
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
    // On the engine's thread: resampling, mastering and encoding a book stall no HTTP request.
    const from: ProgressMark = { atMs: clock.now(), fraction: 0 };
    const onProgress = target.onProgress;
    const result = await engine.exportChapters({
      onProgress: onProgress && ((f) => onProgress(f, secondsLeft(from, clock.now(), f))),
      chapters: chapterWavs(project, chapters, segments),
      gapMs: SEGMENT_GAP_MS,
      preset: project.preset,
      format,
      folderFormat: format === 'folder' ? (target.folderFormat ?? project.folder_format ?? 'mp3') : undefined,
      title: project.title,
      author: project.author ?? undefined,
      cover,
      outPath: target.outPath,
      numberSeparator: ' - ',
    });
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
      if (!project)
        throw new AppError('PROJECT_NOT_FOUND', `No project "${projectId}".`, {
          part: 'project',
          id: projectId,
        });
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
        file_name: `${base}.${format === 'folder' ? 'zip' : format}`,
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
            ]);
            record.files = result.files.map((f) => basename(f.path));
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
    async close() {
      await Promise.allSettled([...running.values()]);
    },
  };
}
