/**
 * Audiobook exports as jobs (POST /api/v1/exports): accepted (charged and stored in one
 * transaction), run one at a time per instance (see below) with the book exporter (engine/export), and
 * recorded SUCCESS or FAILURE with the refund of a failure. The queue is the `exports` table, so
 * an accepted export survives a crash: each run is a lease renewed while it runs, and a run
 * that died with its process starts again from the beginning (on SQLite at the next start, on a
 * shared database when its lease runs out). One at a time, because a book is long and the engine
 * pool is shared with the requests, which are short and have people waiting on them; beside it,
 * the first export of a key with none running (leased-worker.ts SPARE_RUNS), so one key's long
 * book does not make another key's wait for it.
 *
 * Files live in `<files dir>/exports/`: `<id>.m4b`, `<id>.mp3` or `<id>.zip` (a folder export:
 * one file per chapter, and the loudness report), and `<id>.loudness.json` beside it.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import type { BookFormat, CoverImage, ExportChapter, ExportFileReport } from '../../shared/book-exports';
import { bookExtension } from '../../shared/book-formats';
import { AppError, isAppError } from '../../shared/errors';
import { secondsLeft } from '../../shared/eta';
import type { ModelId } from '../../shared/options';
import { costMilli } from '../../shared/pricing';
import { findVoice, type LanguageCode } from '../../shared/voices';
import type { BookExportResult, Engine, LexiconRule, NeuralVoice } from '../engine';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import { parseCustomVoiceSnapshot } from '../voices';
import { writeZip } from '../platform/zip-writer';
import type { ExportFinish, ExportRow, NewExportRow, Store } from '../store';
import type { JobEvents } from './events';
import { chargeCredits, lockKeyToCharge, refundCredits } from './credits';
import { customVoiceRender } from './custom-voice-render';
import { createLeasedWorker, newLeasedRun, SPARE_RUNS, type LeasedRun } from './leased-worker';
import { MAX_RUN_ATTEMPTS } from './runner';
import { errorText } from './store-retry';
import { newRequestId } from './submit';
import { redactPaths } from '../platform/redact-paths';
import { storedErrorDetails } from '../platform/error-details';

/** A validated export, ready to be accepted: the settings as the row stores them. */
export interface ExportInput extends Pick<
  NewExportRow,
  | 'characters'
  | 'voice_code'
  | 'model_id'
  | 'speed_rate'
  | 'pitch_rate'
  | 'volume'
  | 'preset'
  | 'format'
  | 'folder_format'
  | 'title'
  | 'author'
> {
  keyId: string;
  /** As the caller sent it; the exporter cleans it. */
  text: string;
  cover: CoverImage | null;
  /**
   * When voice_code names a custom voice: its definition as accepted (JSON of CustomVoice, as
   * the submit path's `spokenBy` makes it); it is priced and spoken as its catalogue voice.
   */
  custom_voice?: string | null;
}

export interface ExportJobsOptions {
  engine: Engine;
  store: Store;
  events: JobEvents;
  /** The data directory's folder of results; exports go to its `exports` subfolder. */
  filesDir: string;
  instanceId: string;
  clock: Clock;
  log: Log;
  /** Base URL of the server, read when a link is built. */
  baseUrl(): string;
  /** Lease of a running export, ms (default 30 000). */
  leaseMs?: number;
  /** How often to look for queued exports and for leases that ran out, ms (default 2000). */
  pollMs?: number;
  neuralVoice?: ((voiceCode: string, modelId: ModelId) => Promise<NeuralVoice | undefined>) | undefined;
  lexicon?: ((language: LanguageCode) => Promise<readonly LexiconRule[]>) | undefined;
  /** A Kokoro mix as an installed Kokoro pack speaks it (a custom voice's blend base). */
  kokoroVoice?: ((mix: string) => Promise<NeuralVoice | undefined>) | undefined;
  /** One speaker of an installed pack (a custom voice's pack base; VoiceLibrary.packVoice). */
  packVoice?: ((packId: string, speaker: string | undefined) => Promise<NeuralVoice | undefined>) | undefined;
}

export interface ExportJobs {
  /**
   * Charges and stores an export; resolves with its row once committed. Rejects with AppError
   * UNAUTHORIZED (key revoked), UNKNOWN_VOICE, TOO_MANY_REQUESTS (`MAX_OPEN_EXPORTS_PER_KEY`),
   * INSUFFICIENT_CREDITS or SHUTTING_DOWN.
   */
  submit(input: ExportInput): Promise<ExportRow>;
  /**
   * Cancels a queued or running export: it ends FAILURE with error_code CANCELLED and its credits
   * are refunded. Resolves once it has ended (on another instance: once that one has seen the
   * request, within a third of the lease). False when it had already finished.
   */
  cancel(id: string): Promise<boolean>;
  /** Removes a finished export's files and row (cancelling it first if it runs). */
  remove(row: ExportRow): Promise<void>;
  /** 0–1 for an export running here; the recorded progress otherwise. */
  progress(row: ExportRow): number;
  /** Seconds left of an export running here, at the rate measured since it began (null until it can be told, or elsewhere); 0 once it succeeded. */
  eta(row: ExportRow): number | null;
  /** Where a finished export's book is (`.m4b`, `.mp3` or `.zip`). */
  bookPath(row: Pick<ExportRow, 'id' | 'format'>): string;
  reportPath(row: Pick<ExportRow, 'id'>): string;
  /** Download addresses (the row's secret token in the path). */
  fileLink(row: Pick<ExportRow, 'id' | 'download_token' | 'format'>): string;
  reportLink(row: Pick<ExportRow, 'id' | 'download_token'>): string;
  /** Looks for queued exports now. */
  kick(): void;
  /** Requeues interrupted exports and starts running them. */
  start(): Promise<void>;
  /** Stops the running exports (they are queued again for the next start) and stops taking new ones. */
  close(): Promise<void>;
}

/** File extension of a book by its format (a folder is delivered as a zip): the formats' table. */
export { bookExtension };

/**
 * Exports of one key queued or running, at most: a key's exports run one at a time, so more would
 * only wait for hours while holding their charge.
 */
const MAX_OPEN_EXPORTS_PER_KEY = 20;

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_POLL_MS = 2000;
const CANCELLED_MESSAGE = 'Cancelled before it finished; the credits were refunded.';

interface Running extends LeasedRun {
  row: ExportRow;
  progress: number;
  /** When this run began (clock ms): its rate, and so the seconds left, is measured from there. */
  startedAt: number;
  lastEmit: number;
  cancelled: boolean;
}

export function createExportJobs(options: ExportJobsOptions): ExportJobs {
  const { engine, store, events, clock, log, instanceId } = options;
  const dir = join(options.filesDir, 'exports');
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  /** The exports running here, by id: one, and beside it the first of a key with none (SPARE_RUNS). */
  const runs = new Map<string, Running>();

  const bookPath = (row: Pick<ExportRow, 'id' | 'format'>) =>
    join(dir, `${row.id}.${bookExtension(row.format)}`);
  const reportPath = (row: Pick<ExportRow, 'id'>) => join(dir, `${row.id}.loudness.json`);
  /** Where a folder export writes its chapters' files before they are zipped. */
  const folderPath = (row: Pick<ExportRow, 'id'>) => join(dir, `${row.id}.folder`);

  const emit = (row: Pick<ExportRow, 'id' | 'key_id'>, status: ExportRow['status'], progress: number) =>
    events.emit('export', { keyId: row.key_id, export_id: row.id, status, progress });

  /** Removes whatever a run of this export left or wrote. */
  const removeFiles = async (row: Pick<ExportRow, 'id' | 'format'>) => {
    await Promise.all([
      rm(bookPath(row), { force: true }),
      rm(reportPath(row), { force: true }),
      rm(folderPath(row), { recursive: true, force: true }),
    ]);
  };

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

  const finishRun = async (entry: Running, finish: Omit<ExportFinish, 'finishedAt'>) => {
    try {
      if (await record(entry.row, finish, false)) emit(entry.row, finish.status, 1);
      else log.warn(`export ${entry.row.id}: its outcome was not recorded: another instance runs it now`);
    } catch (error) {
      // The row stays processing: the next start (or another instance) runs it again.
      log.warn(`export ${entry.row.id}: could not record ${finish.status}: ${errorText(error)}`);
    }
  };

  /** Keeps the lease and records the progress; stops the run when cancelled elsewhere or taken over. */
  const renew = (entry: Running) =>
    worker.keepLease(entry, {
      renew: (lease) => store.exports.renewLease(entry.row.id, lease, entry.progress),
      wanted: () => runs.get(entry.row.id) === entry,
      held: (row) => {
        if (row.cancel_requested && !entry.cancelled) {
          entry.cancelled = true;
          entry.controller.abort(new AppError('CANCELLED', CANCELLED_MESSAGE));
        }
      },
      failed: (error) => log.warn(`export ${entry.row.id}: could not renew its lease: ${errorText(error)}`),
    });

  /** Runs one claimed export to its end. */
  const run = async (entry: Running): Promise<void> => {
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
      // A custom voice speaks as it was when accepted (its snapshot), not as it is now.
      const custom = await customVoiceRender(row.custom_voice, row, options, (message) =>
        log.warn(`export ${row.id}: ${message}`),
      );
      const voiceCode = custom ? custom.resolved.voice_code : row.voice_code;
      const neuralVoice = custom
        ? custom.resolved.neuralVoice
        : await options.neuralVoice?.(voiceCode, row.model_id).catch((error: unknown) => {
            log.warn(`export ${row.id}: voice library unreadable, eSpeak speaks: ${errorText(error)}`);
            return undefined;
          });
      const language = findVoice(voiceCode)?.language;
      const lexicon = custom ? custom.lexicon : language ? await options.lexicon?.(language) : undefined;
      for (const warning of custom?.warnings ?? []) log.warn(`export ${row.id}: ${warning}`);
      const outPath = row.format === 'folder' ? folderPath(row) : bookPath(row);
      const result = await engine.exportBook({
        text: row.input_text,
        voice_code: voiceCode,
        model_id: row.model_id,
        speed_rate: custom ? custom.resolved.speed_rate : row.speed_rate,
        pitch_rate: custom ? custom.resolved.pitch_rate : row.pitch_rate,
        volume: custom ? custom.resolved.volume : row.volume,
        neuralVoice,
        lexicon,
        preset: row.preset,
        format: row.format,
        folderFormat: row.folder_format ?? undefined,
        title: row.title ?? undefined,
        author: row.author ?? undefined,
        cover:
          row.cover_base64 && row.cover_type
            ? {
                data: Buffer.from(row.cover_base64, 'base64'),
                mimeType: row.cover_type as CoverImage['mimeType'],
              }
            : undefined,
        outPath,
        signal: controller.signal,
        onProgress: (fraction) => {
          // The zip of a folder export is the last few per cent.
          entry.progress = row.format === 'folder' ? fraction * 0.97 : fraction;
          const now = clock.now();
          // For people watching: a few updates a second are plenty.
          if (now - entry.lastEmit >= 200) {
            entry.lastEmit = now;
            emit(row, 'processing', entry.progress);
          }
        },
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
      if (worker.closing && controller.signal.aborted) {
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

  /** A folder export's files and its report in `<id>.zip`; the folder is removed. */
  const zipFolder = async (row: ExportRow, result: BookExportResult) => {
    await writeZip(bookPath(row), [
      ...result.files.map((f) => ({ path: f.path, name: basename(f.path) })),
      { path: result.reportPath, name: 'loudness.json' },
    ]);
    await rm(folderPath(row), { recursive: true, force: true });
  };

  const begin = (row: ExportRow) => {
    const entry: Running = {
      ...newLeasedRun(),
      row,
      progress: 0,
      startedAt: clock.now(),
      lastEmit: 0,
      cancelled: false,
    };
    runs.set(row.id, entry);
    renew(entry);
    emit(row, 'processing', 0);
    worker.track(entry, () => run(entry), {
      // run() records its own outcomes and never rejects; should it, the row stays processing.
      failed: (error) =>
        log.warn(`export ${row.id}: ${errorText(error)}; it runs again after the next start`),
      ended: () => runs.delete(row.id),
    });
  };

  /** Exports whose run died with its process go back to the queue. */
  const recover = async () => {
    const requeued = store.exclusive
      ? await store.exports.requeueProcessing()
      : await store.exports.requeueExpired(clock.now());
    if (requeued > 0) log.info(`requeued ${requeued} interrupted export(s)`);
  };

  /**
   * One at a time, and beside it the first export of a key with none running (a key's long book
   * does not hold another key's up): a look while they run waits for one to end.
   */
  const worker = createLeasedWorker({
    instanceId,
    clock,
    leaseMs,
    pollMs,
    full: () => runs.size > SPARE_RUNS,
    claim: () => worker.claimFairly(store.exports, () => [...runs.values()].map((r) => r.row.key_id), begin),
    claimFailed: (error) =>
      log.warn(`exports: could not take the next export from the queue: ${errorText(error)}; trying again`),
    onPoll: async () => {
      if (!store.exclusive) await recover();
    },
    pollFailed: (error) => log.warn(`exports: could not look for exports to take over: ${errorText(error)}`),
  });
  const { pump } = worker;

  const baseLink = (row: Pick<ExportRow, 'id' | 'download_token'>) =>
    `${options.baseUrl()}/files/exports/${row.id}/${row.download_token}`;

  return {
    async submit(input) {
      if (worker.closing) throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
      const custom = parseCustomVoiceSnapshot(input.custom_voice ?? null);
      if (input.custom_voice && !custom)
        throw new AppError('INTERNAL', 'The custom voice of this export could not be read.');
      const voice = findVoice(custom ? custom.voice_code : input.voice_code);
      if (!voice)
        throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${input.voice_code}".`, {
          voice_code: input.voice_code,
        });
      const cost = costMilli(input.characters, voice, input.model_id);
      const id = newRequestId();
      const now = isoTime(clock.now());
      const row = await store.transaction(async (tx) => {
        const key = await lockKeyToCharge(tx, input.keyId);
        const open = await tx.exports.countOpen(key.id);
        if (open >= MAX_OPEN_EXPORTS_PER_KEY) {
          throw new AppError(
            'TOO_MANY_REQUESTS',
            `This key already has ${open} exports waiting or running (limit ${MAX_OPEN_EXPORTS_PER_KEY}). Retry when some finish.`,
            { retry_after_s: 60 },
          );
        }
        await chargeCredits(tx, key, id, cost, 'export', now);
        await tx.exports.insert({
          id,
          key_id: key.id,
          input_text: input.text,
          characters: input.characters,
          voice_code: input.voice_code,
          model_id: input.model_id,
          speed_rate: input.speed_rate,
          pitch_rate: input.pitch_rate,
          volume: input.volume,
          preset: input.preset,
          format: input.format,
          folder_format: input.format === 'folder' ? (input.folder_format ?? 'mp3') : null,
          title: input.title,
          author: input.author,
          cover_type: input.cover?.mimeType ?? null,
          cover_base64: input.cover ? Buffer.from(input.cover.data).toString('base64') : null,
          cost_milli: cost,
          custom_voice: custom ? (input.custom_voice ?? null) : null,
          download_token: randomBytes(24).toString('base64url'),
          created_at: now,
        });
        return (await tx.exports.get(id))!;
      });
      emit(row, 'new', 0);
      pump();
      // Another instance may be idle: it looks at the queue at its next poll.
      return row;
    },
    async cancel(id) {
      const entry = runs.get(id);
      if (entry) {
        entry.cancelled = true;
        entry.controller.abort(new AppError('CANCELLED', CANCELLED_MESSAGE));
        await entry.done;
        return true;
      }
      const row = await store.exports.get(id);
      if (!row) return false;
      if (row.status === 'new') {
        const ok = await record(
          row,
          { status: 'FAILURE', errorCode: 'CANCELLED', errorMessage: CANCELLED_MESSAGE },
          true,
        );
        if (ok) {
          emit(row, 'FAILURE', 1);
          return true;
        }
        // Claimed meanwhile: it runs (here or elsewhere) and is cancelled as a running one.
        return this.cancel(id);
      }
      if (row.status !== 'processing') return false;
      // Running on another instance (or about to start here): its owner sees the request when it
      // renews its lease.
      if (!(await store.exports.requestCancel(id))) return false;
      const deadline = clock.now() + leaseMs * 2;
      for (;;) {
        const latest = await store.exports.get(id);
        if (!latest || latest.status === 'SUCCESS' || latest.status === 'FAILURE') return true;
        if (clock.now() > deadline) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async remove(row) {
      if (row.status === 'new' || row.status === 'processing') await this.cancel(row.id);
      await store.exports.remove(row.id);
      await removeFiles(row);
    },
    progress(row) {
      const live = runs.get(row.id);
      if (live) return live.progress;
      return row.status === 'SUCCESS' || row.status === 'FAILURE' ? 1 : row.progress;
    },
    eta(row) {
      const live = runs.get(row.id);
      if (live) return secondsLeft({ atMs: live.startedAt, fraction: 0 }, clock.now(), live.progress);
      return row.status === 'SUCCESS' ? 0 : null;
    },
    bookPath,
    reportPath,
    fileLink: (row) => `${baseLink(row)}/book.${bookExtension(row.format)}`,
    reportLink: (row) => `${baseLink(row)}/loudness.json`,
    kick: pump,
    start: () =>
      worker.start(async () => {
        await mkdir(dir, { recursive: true });
        await recover();
      }, true),
    // A book can take minutes: it is not waited for, but queued again for the next start.
    close: () => worker.close(() => runs.values()),
  };
}

/** The book's chapters for the record: ms, rounded. */
function chaptersOf(result: BookExportResult): ExportChapter[] {
  return result.chapters.map((c) => ({
    title: c.title,
    start_ms: Math.round(c.startMs),
    end_ms: Math.round(c.endMs),
  }));
}

/** Rounds a level to 0.01 dB. */
function level(value: number | null): number | null {
  return value === null ? null : Math.round(value * 100) / 100;
}

/**
 * Each written file's loudness and the preset's checks, named as the caller downloads them: a
 * folder's files by their names in it, the one book file as `bookName` (default `book.<format>`).
 */
export function fileReportsOf(
  result: BookExportResult,
  outPath: string,
  format: BookFormat,
  bookName = `book.${format}`,
): ExportFileReport[] {
  return result.files.map((f) => ({
    file: format === 'folder' ? relative(outPath, f.path) : bookName,
    duration_ms: Math.round(f.loudness.durationMs),
    integrated_lufs: level(f.loudness.integratedLufs),
    rms_dbfs: level(f.loudness.rmsDbfs),
    peak_dbfs: level(f.loudness.peakDbfs),
    true_peak_dbtp: level(f.loudness.truePeakDbtp),
    noise_floor_dbfs: level(f.loudness.noiseFloorDbfs),
    passes: f.failures.length === 0,
    failures: f.failures,
  }));
}
