/**
 * One claimed project export run to its end: the book made into its folder (a folder export
 * zipped with its report and subtitles), its state saved as it goes, its outcome recorded; a run
 * stopped by a shutdown is queued again.
 */

import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { AppError, isAppError } from '../../shared/errors';
import { isoTime } from '../platform/clock';
import { errorText, fileReportsOf, MAX_RUN_ATTEMPTS } from '../jobs';
import { writeZip } from '../platform/zip-writer';
import type { ExportFinish } from '../store';
import { redactPaths } from '../platform/redact-paths';
import { storedErrorDetails } from '../platform/error-details';
import type { ProjectExportsOptions } from './project-export';
import { exportProjectBook } from './project-book';
import { exportDirOf, type Running } from './project-export-rows';

export function createProjectExportRun(
  options: ProjectExportsOptions,
  instanceId: string,
  closing: () => boolean,
) {
  const { store, renders, clock, log, filesDir } = options;
  const dirOf = (projectId: string, exportId: string) => exportDirOf(filesDir, projectId, exportId);

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
    // Its state recorded one write after another (a pool's connections could commit them out of order).
    let saved = Promise.resolve();
    const saveState = () => {
      const snapshot = JSON.stringify(state);
      saved = saved.then(() =>
        store.exports
          .setProjectState(row.id, instanceId, snapshot)
          .then(() => undefined)
          .catch((error: unknown) =>
            log.warn(`project export ${row.id}: could not record its status: ${errorText(error)}`),
          ),
      );
      return saved;
    };
    try {
      // Rendering again from the start, as recorded (an earlier run may have died encoding).
      await saveState();
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
      // The project's unfinished renders end first, so that their segments are not found still
      // rendering: the one an earlier run submitted (queued again when its process died; it may
      // have died before recording its id, which is saved as the render starts), or one the studio
      // started.
      const unfinished = new Set(
        (await renders.list(projectId))
          .filter((r) => r.status === 'queued' || r.status === 'rendering')
          .map((r) => r.id),
      );
      if (state.render_id) unfinished.add(state.render_id);
      if (unfinished.size > 0)
        await Promise.race([
          Promise.all([...unfinished].map((id) => renders.settled(id).catch(() => undefined))),
          aborted,
        ]);
      const work = exportProjectBook(options, projectId, row.key_id, {
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
      if (closing() && controller.signal.aborted) {
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

  return run;
}
