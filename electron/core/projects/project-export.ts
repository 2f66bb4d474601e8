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
 * (names safe on every system, letters of every language kept). An export through the API is a row
 * of kind `project` in the `exports` queue (store/exports-repo.ts), claimed under a lease by the
 * same leased worker as text exports (jobs/leased-worker.ts): one at a time, and beside it the
 * first of a key with none running; one whose process died runs again from the beginning (on
 * SQLite at the next start, on a shared database when its lease runs out). Its files are kept in
 * `<filesDir>/projects/<project id>/exports/<export id>/`: the book (a folder export as
 * `<title>.zip`) and its subtitles. Earlier versions kept each record there as `record.json`:
 * `resume` moves them into the queue (unfinished ones run again).
 */

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
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
import { createLeasedQueue, errorText, fileReportsOf, MAX_RUN_ATTEMPTS, type LeasedQueueRun } from '../jobs';
import { writeZip } from '../platform/zip-writer';
import type { ExportFinish, ExportRow, ProjectRow, Store } from '../store';
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
import { storedDetails, storedErrorDetails } from '../platform/error-details';

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
  /** This instance's id: its leases carry it (default: a random one). */
  instanceId?: string | undefined;
  /** Lease of a running export, ms (default 30 000). */
  leaseMs?: number | undefined;
  /** How often a shared database is polled for queued exports and expired leases, ms (default 2000). */
  pollMs?: number | undefined;
}

export interface ExportTarget {
  format?: BookFormat | undefined;
  folderFormat?: FolderFormat | null | undefined;
}

export interface ProjectExports {
  /** Queues an export kept in the project's folder; resolves with its record once stored. */
  start(projectId: string, keyId: string, target: ExportTarget): Promise<ProjectExportRecord>;
  /**
   * Moves record files of earlier versions into the queue, requeues exports whose process died
   * and starts running queued exports.
   */
  resume(): Promise<void>;
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
      /** The render of what was missing, once submitted. */
      onRender?: (renderId: string) => void;
    },
  ): Promise<{ result: BookExportResult; renderId: string | null }>;
  get(projectId: string, exportId: string): Promise<ProjectExportRecord | undefined>;
  /** The downloadable file of a finished export. */
  filePath(record: ProjectExportRecord): string;
  /** The book-wide subtitles of a finished export, SRT or WebVTT (`<title>.srt` beside its file). */
  subtitlesPath(record: ProjectExportRecord, kind: 'srt' | 'vtt'): string;
  /** Stops taking exports; the running ones stop and are queued again for the next start. */
  close(): Promise<void>;
}

/** A project export's own record fields, kept as JSON in its row's `project_state`. */
interface ProjectExportState {
  /** Where it is while it runs. */
  phase: 'rendering' | 'encoding';
  file_name: string;
  render_id: string | null;
  files: string[];
  subtitles?: string[] | undefined;
}

/** A project export while it runs here. */
interface Running extends LeasedQueueRun<ExportRow> {
  state: ProjectExportState;
  progress: number | undefined;
  eta: number | null;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2000;

function stateOf(row: Pick<ExportRow, 'project_state'>): ProjectExportState {
  return JSON.parse(row.project_state ?? '{}') as ProjectExportState;
}

const EXPORT_ID = /^[0-9a-f]{32}$/;

export function createProjectExports(options: ProjectExportsOptions): ProjectExports {
  const { engine, store, renders, filesDir, clock, log } = options;
  const instanceId = options.instanceId ?? randomBytes(8).toString('hex');
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const dirOf = (projectId: string, exportId: string) =>
    join(filesDir, 'projects', projectId, 'exports', exportId);

  /** The included chapters' segments rendered (a render of what is missing first). */
  const renderMissing = async (
    project: ProjectRow,
    keyId: string,
    onStatus?: (s: string) => void,
    onRender?: (renderId: string) => void,
  ) => {
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
    const { chapters, segments, renderId } = await renderMissing(
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

  /** The record GET …/exports/<id> answers, from its row (and, while it runs here, its progress). */
  const recordOf = (row: ExportRow): ProjectExportRecord => {
    const live = runs.get(row.id);
    const state = live?.state ?? stateOf(row);
    const status =
      row.status === 'SUCCESS'
        ? 'done'
        : row.status === 'FAILURE'
          ? 'failed'
          : row.status === 'new'
            ? 'rendering'
            : state.phase;
    const record: ProjectExportRecord = {
      id: row.id,
      project_id: row.project_id!,
      status,
      format: row.format,
      folder_format: row.folder_format,
      render_id: state.render_id,
      file_name: state.file_name,
      download_url: status === 'done' ? link({ id: row.id, project_id: row.project_id! }) : null,
      files: state.files,
      ...(state.subtitles ? { subtitles: state.subtitles } : {}),
      chapters: row.chapters ? (JSON.parse(row.chapters) as ProjectExportRecord['chapters']) : [],
      report: row.report ? (JSON.parse(row.report) as ProjectExportRecord['report']) : [],
      duration_ms: row.duration_ms,
      file_bytes: row.file_bytes,
      error_code: row.error_code,
      error_message: row.error_message,
      ...storedDetails(row.error_details),
      created_at: row.created_at,
      finished_at: row.finished_at,
    };
    if (status === 'done') Object.assign(record, { progress: 1, eta_seconds: 0 });
    else if (status === 'encoding')
      Object.assign(record, { progress: live?.progress ?? row.progress, eta_seconds: live?.eta ?? null });
    return record;
  };

  /** Records how it ended; false when another instance holds it now. */
  const finishRun = async (entry: Running, finish: Omit<ExportFinish, 'finishedAt'>) => {
    try {
      const ok = await store.exports.finish(entry.row.id, instanceId, {
        ...finish,
        finishedAt: isoTime(clock.now()),
      });
      if (!ok) log.warn(`project export ${entry.row.id}: not recorded: another instance runs it now`);
    } catch (error) {
      // The row stays processing: the next start (or another instance) runs it again.
      log.warn(`project export ${entry.row.id}: could not record its end: ${errorText(error)}`);
    }
  };

  /** Runs one claimed export to its end (never rejects). */
  const run = async (entry: Running): Promise<void> => {
    const { row, state, controller } = entry;
    const projectId = row.project_id!;
    const dir = dirOf(projectId, row.id);
    const base = basename(state.file_name, extname(state.file_name));
    if (row.run_attempts > MAX_RUN_ATTEMPTS) {
      // Its process died each time (the code the studio words as an interrupted export).
      await finishRun(entry, {
        status: 'FAILURE',
        errorCode: 'INTERRUPTED',
        errorMessage: `The export was interrupted ${row.run_attempts - 1} times; export again.`,
      });
      return;
    }
    try {
      // What an earlier run of it left.
      await rm(dir, { recursive: true, force: true });
      await mkdir(dir, { recursive: true });
      const outPath = row.format === 'folder' ? join(dir, base) : join(dir, state.file_name);
      const aborted = new Promise<never>((_, reject) => {
        const { signal } = controller;
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
      aborted.catch(() => undefined);
      // The render an earlier run submitted (queued again when its process died) ends first, so
      // that its segments are not found still rendering.
      if (state.render_id)
        await Promise.race([renders.settled(state.render_id).catch(() => undefined), aborted]);
      const saveState = () =>
        store.exports
          .setProjectState(row.id, instanceId, JSON.stringify(state))
          .catch((error: unknown) =>
            log.warn(`project export ${row.id}: could not record its status: ${errorText(error)}`),
          );
      const work = exportTo(projectId, row.key_id, {
        format: row.format,
        folderFormat: row.folder_format,
        outPath,
        onStatus: (status) => {
          state.phase = status === 'encoding' ? 'encoding' : 'rendering';
          if (state.phase === 'encoding') Object.assign(entry, { progress: 0, eta: null });
          void saveState();
        },
        onRender: (renderId) => {
          state.render_id = renderId;
          void saveState();
        },
        onProgress: (fraction, eta) => {
          entry.progress = fraction;
          entry.eta = eta;
        },
      });
      // A shutdown or a lost lease stops waiting for it (the book is not written in a run abandoned).
      work.catch(() => undefined);
      const { result, renderId } = await Promise.race([work, aborted]);
      const report = fileReportsOf(result, outPath, row.format, state.file_name);
      const subtitles = result.subtitles ? [result.subtitles.srtPath, result.subtitles.vttPath] : [];
      if (row.format === 'folder') {
        await writeZip(join(dir, state.file_name), [
          ...result.files.map((f) => ({ path: f.path, name: basename(f.path) })),
          { path: result.reportPath, name: 'loudness.json' },
          ...subtitles.map((path) => ({ path, name: basename(path) })),
        ]);
        state.files = result.files.map((f) => basename(f.path));
        // The subtitles stay downloadable on their own, beside the zip.
        for (const path of subtitles) await rename(path, join(dir, basename(path)));
        await rm(outPath, { recursive: true, force: true });
        await rm(result.reportPath, { force: true });
      }
      state.render_id = renderId ?? state.render_id;
      if (result.subtitles) state.subtitles = subtitles.map((p) => basename(p));
      controller.signal.throwIfAborted();
      await finishRun(entry, {
        status: 'SUCCESS',
        chapters: JSON.stringify(
          result.chapters.map((c) => ({
            title: c.title,
            start_ms: Math.round(c.startMs),
            end_ms: Math.round(c.endMs),
          })),
        ),
        report: JSON.stringify(report),
        durationMs: Math.round(result.durationMs),
        fileBytes: (await stat(join(dir, state.file_name))).size,
        projectState: JSON.stringify(state),
      });
    } catch (error) {
      if (entry.leaseLost) return;
      if (worker.closing && controller.signal.aborted) {
        // Stopped by a shutdown, not failed: it runs again after the next start.
        await store.exports.requeue(row.id, instanceId).catch((e: unknown) => {
          log.warn(
            `project export ${row.id}: could not requeue it: ${errorText(e)}; it runs after the next start`,
          );
        });
        return;
      }
      const appError = isAppError(error)
        ? error
        : new AppError('OUTPUT_FAILED', `The export failed: ${String(error)}`);
      if (!isAppError(error))
        log.warn(`project export ${row.id}: ${(error as Error)?.stack ?? String(error)}`);
      await finishRun(entry, {
        status: 'FAILURE',
        errorCode: appError.code,
        errorMessage: redactPaths(appError.message),
        errorDetails: storedErrorDetails(appError),
        projectState: JSON.stringify(state),
      });
    }
  };

  const queue = createLeasedQueue<ExportRow, Running>({
    noun: 'project export',
    instanceId,
    clock,
    log,
    leaseMs,
    pollMs,
    exclusive: store.exclusive,
    queue: {
      queued: () => store.exports.queued('project'),
      claim: (id, startedAt, lease) => store.exports.claim(id, startedAt, lease),
    },
    requeue: {
      running: () => store.exports.requeueProcessing('project'),
      expired: (now) => store.exports.requeueExpired(now, 'project'),
    },
    newRun: (row) => ({ state: { ...stateOf(row), phase: 'rendering' }, progress: undefined, eta: null }),
    renewal: (entry) => ({
      renew: (lease) => store.exports.renewLease(entry.row.id, lease, entry.progress ?? 0),
    }),
    run: (entry) => run(entry),
  });
  const { runs, worker, recover } = queue;

  /** A row of the queue for a project export: the text export's settings it has no use for are neutral. */
  const newRow = (
    project: ProjectRow,
    keyId: string,
    id: string,
    format: BookFormat,
    folderFormat: FolderFormat | null,
    state: ProjectExportState,
    createdAt: string,
  ) => ({
    id,
    key_id: keyId,
    input_text: '',
    characters: 0,
    voice_code: '',
    model_id: project.model_id,
    speed_rate: 1,
    pitch_rate: 1,
    volume: 100,
    preset: project.preset,
    format,
    folder_format: folderFormat,
    title: project.title,
    author: project.author,
    cover_type: null,
    cover_base64: null,
    cost_milli: 0,
    custom_voice: null,
    download_token: randomBytes(24).toString('base64url'),
    created_at: createdAt,
    kind: 'project' as const,
    project_id: project.id,
    project_state: JSON.stringify(state),
  });

  /**
   * Moves the `record.json` an earlier version wrote for each export into the queue: a finished
   * one as it ended, an unfinished one queued to run again. Its file is removed once its row is in.
   */
  const convertRecordFiles = async () => {
    const projectsDir = join(filesDir, 'projects');
    const projectIds = await readdir(projectsDir).catch(() => [] as string[]);
    for (const projectId of projectIds) {
      const exportIds = await readdir(join(projectsDir, projectId, 'exports')).catch(() => [] as string[]);
      for (const exportId of exportIds) {
        const path = join(dirOf(projectId, exportId), 'record.json');
        let text: string;
        try {
          text = await readFile(path, 'utf8');
        } catch {
          continue;
        }
        try {
          await convertRecord(JSON.parse(text) as ProjectExportRecord);
          await rm(path, { force: true });
        } catch (error) {
          log.warn(
            `project export ${exportId}: could not move its record into the queue: ${errorText(error)}`,
          );
        }
      }
    }
  };

  const convertRecord = async (record: ProjectExportRecord) => {
    if (!EXPORT_ID.test(record.id) || (await store.exports.get(record.id, 'project'))) return;
    const project = await store.projects.getProject(record.project_id);
    if (!project) return;
    const state: ProjectExportState = {
      phase: 'rendering',
      file_name: record.file_name,
      render_id: record.render_id,
      files: record.files,
      ...(record.subtitles ? { subtitles: record.subtitles } : {}),
    };
    const row = newRow(
      project,
      project.key_id,
      record.id,
      record.format,
      record.folder_format,
      state,
      record.created_at,
    );
    await store.transaction(async (tx) => {
      await tx.exports.insert(row);
      if (record.status !== 'done' && record.status !== 'failed') return;
      // Finished before: claimed and ended at once, in the transaction that adds it.
      const at = record.finished_at ?? record.created_at;
      await tx.exports.claim(record.id, at, { owner: instanceId, until: clock.now() + leaseMs });
      await tx.exports.finish(record.id, instanceId, {
        status: record.status === 'done' ? 'SUCCESS' : 'FAILURE',
        finishedAt: at,
        errorCode: record.error_code,
        errorMessage: record.error_message,
        errorDetails: record.error_details ? JSON.stringify(record.error_details) : null,
        chapters: JSON.stringify(record.chapters),
        report: JSON.stringify(record.report),
        durationMs: record.duration_ms,
        fileBytes: record.file_bytes,
      });
    });
  };

  return {
    async start(projectId, keyId, target) {
      if (worker.closing) throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
      const project = await store.projects.getProject(projectId);
      if (!project) throw projectNotFound(projectId);
      const format = target.format ?? project.format;
      const folderFormat =
        format === 'folder' ? (target.folderFormat ?? project.folder_format ?? 'mp3') : null;
      const id = randomBytes(16).toString('hex');
      const state: ProjectExportState = {
        phase: 'rendering',
        file_name: `${fileNameOf(project.title)}.${bookExtension(format)}`,
        render_id: null,
        files: [],
      };
      await store.exports.insert(
        newRow(project, keyId, id, format, folderFormat, state, isoTime(clock.now())),
      );
      const row = (await store.exports.get(id, 'project'))!;
      worker.pump();
      return recordOf(row);
    },
    resume: () =>
      worker.start(async () => {
        await convertRecordFiles();
        await recover();
      }, true),
    exportTo,
    async get(projectId, exportId) {
      if (!EXPORT_ID.test(exportId)) return undefined;
      const row = await store.exports.get(exportId, 'project');
      if (!row || row.project_id !== projectId) return undefined;
      return recordOf(row);
    },
    filePath: (record) => join(dirOf(record.project_id, record.id), record.file_name),
    subtitlesPath: (record, kind) => {
      const name = record.subtitles?.find((n) => n.endsWith(`.${kind}`));
      if (!name)
        throw new AppError('NOT_FOUND', 'This export has no subtitles (made before they were written).');
      return join(dirOf(record.project_id, record.id), name);
    },
    close: queue.close,
  };
}
