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
import { join } from 'node:path';
import type { BookFormat, FolderFormat } from '../../shared/book-exports';
import { bookExtension } from '../../shared/book-formats';
import { AppError } from '../../shared/errors';
import { projectNotFound } from './project-rows';
import type { ProjectExportRecord } from '../../shared/projects';
import { fileNameOf, type BookExportResult, type Engine } from '../engine';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import { createLeasedQueue } from '../jobs';
import type { ExportRow, Store } from '../store';
import type { ProjectRenders } from './project-renders';
import { exportProjectBook } from './project-book';
import { createProjectExportRun } from './project-export-run';
import {
  convertRecordFiles,
  EXPORT_ID,
  exportDirOf,
  newRow,
  stateOf,
  type ProjectExportState,
  type Running,
} from './project-export-rows';
import { storedDetails } from '../platform/error-details';

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

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2000;

export function createProjectExports(options: ProjectExportsOptions): ProjectExports {
  const { store, filesDir, clock, log } = options;
  const instanceId = options.instanceId ?? randomBytes(8).toString('hex');
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const dirOf = (projectId: string, exportId: string) => exportDirOf(filesDir, projectId, exportId);

  const link = (record: Pick<ProjectExportRecord, 'id' | 'project_id'>) =>
    `${options.baseUrl?.() ?? ''}/api/v1/projects/${record.project_id}/exports/${record.id}/file`;

  /**
   * The record GET …/exports/<id> answers, from its row (and, while it runs here, its progress):
   * its status and render as recorded, never what a crash could take back.
   */
  const recordOf = (row: ExportRow): ProjectExportRecord => {
    const live = runs.get(row.id);
    const state = stateOf(row);
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
  const run = createProjectExportRun(options, instanceId, () => worker.closing);

  const exportTo: ProjectExports['exportTo'] = (projectId, keyId, target) =>
    exportProjectBook(options, projectId, keyId, target);

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
        await convertRecordFiles(options, instanceId, leaseMs);
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
