/**
 * One claimed audiobook export run to its end: its book made (a folder's zipped), its outcome
 * recorded with the refund of a failure; a run stopped by a shutdown is queued again.
 */

import { mkdir, stat } from 'node:fs/promises';
import { AppError, isAppError } from '../../shared/errors';
import { isoTime } from '../platform/clock';
import { storedErrorDetails } from '../platform/error-details';
import { redactPaths } from '../platform/redact-paths';
import type { ExportFinish, ExportRow } from '../store';
import { refundCredits } from './credits';
import { exportBookOf } from './export-book';
import type { exportFiles } from './export-files';
import {
  CANCELLED_MESSAGE,
  chaptersOf,
  fileReportsOf,
  type ExportJobsOptions,
  type ExportRun,
} from './export-jobs';
import { MAX_RUN_ATTEMPTS } from './runner';
import { errorText } from './store-retry';

export interface ExportRunDeps {
  options: ExportJobsOptions;
  files: ReturnType<typeof exportFiles>;
  emit(row: Pick<ExportRow, 'id' | 'key_id'>, status: ExportRow['status'], progress: number): void;
  /** True once the queue is closing: an aborted run is queued again, not failed. */
  closing(): boolean;
}

export function createExportRun({ options, files, emit, closing }: ExportRunDeps) {
  const { store, clock, log, instanceId } = options;
  const { dir, bookPath, folderPath, removeFiles, zipFolder } = files;

  /** The outcome and, for a failure, the refund, in one transaction; false when no longer ours. */
  const record = (row: ExportRow, finish: Omit<ExportFinish, 'finishedAt'>, queued: boolean) => {
    const at = isoTime(clock.now());
    return store.transaction(async (tx) => {
      const outcome = { ...finish, finishedAt: at };
      const ok = queued
        ? await tx.exports.finishQueued(row.id, outcome)
        : await tx.exports.finish(row.id, instanceId, outcome);
      if (!ok) return false;
      if (finish.status === 'FAILURE') await refundCredits(tx, row, row.cost_milli, at);
      return true;
    });
  };

  const finishRun = async (entry: ExportRun, finish: Omit<ExportFinish, 'finishedAt'>) => {
    try {
      if (await record(entry.row, finish, false)) emit(entry.row, finish.status, 1);
      else log.warn(`export ${entry.row.id}: its outcome was not recorded: another instance runs it now`);
    } catch (error) {
      // The row stays processing: the next start (or another instance) runs it again.
      log.warn(`export ${entry.row.id}: could not record ${finish.status}: ${errorText(error)}`);
    }
  };

  /** Runs one claimed export to its end. */
  const run = async (entry: ExportRun): Promise<void> => {
    const { row, controller } = entry;
    try {
      if (row.run_attempts > MAX_RUN_ATTEMPTS) {
        throw new AppError(
          'ENGINE_FAILED',
          `The export was interrupted ${row.run_attempts - 1} times; given up.`,
        );
      }
      await removeFiles(row);
      await mkdir(dir, { recursive: true });
      const outPath = row.format === 'folder' ? folderPath(row) : bookPath(row);
      const result = await exportBookOf(row, options, log, outPath, controller.signal, (fraction) => {
        // The zip of a folder export is the last few per cent.
        entry.progress = row.format === 'folder' ? fraction * 0.97 : fraction;
        const now = clock.now();
        // For people watching: a few updates a second are plenty.
        if (now - entry.lastEmit >= 200) {
          entry.lastEmit = now;
          emit(row, 'processing', entry.progress);
        }
      });
      controller.signal.throwIfAborted();
      if (row.format === 'folder') await zipFolder(row, result);
      controller.signal.throwIfAborted();
      const fileBytes = (await stat(bookPath(row))).size;
      await finishRun(entry, {
        status: 'SUCCESS',
        chapters: JSON.stringify(chaptersOf(result)),
        report: JSON.stringify(fileReportsOf(result, outPath, row.format)),
        durationMs: Math.round(result.durationMs),
        fileBytes,
      });
    } catch (error) {
      await removeFiles(row).catch(() => undefined);
      if (entry.leaseLost) return;
      if (entry.cancelled) {
        await finishRun(entry, {
          status: 'FAILURE',
          errorCode: 'CANCELLED',
          errorMessage: CANCELLED_MESSAGE,
        });
        return;
      }
      if (closing() && controller.signal.aborted) {
        // Stopped by a shutdown, not failed: it runs again after the next start.
        await store.exports.requeue(row.id, instanceId).catch((e: unknown) => {
          log.warn(`export ${row.id}: could not requeue it: ${errorText(e)}; it runs after the next start`);
        });
        return;
      }
      const appError = isAppError(error)
        ? error
        : new AppError('INTERNAL', 'The export failed unexpectedly.', undefined, { cause: error });
      if (!isAppError(error)) log.warn(`export ${row.id}: ${(error as Error)?.stack ?? String(error)}`);
      await finishRun(entry, {
        status: 'FAILURE',
        errorCode: appError.code,
        errorMessage: redactPaths(appError.message),
        errorDetails: storedErrorDetails(appError),
      });
    }
  };

  return { record, run };
}
