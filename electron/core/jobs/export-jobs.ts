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
import type { BookFormat, CoverImage, ExportChapter, ExportFileReport } from '../../shared/book-exports';
import { bookExtension } from '../../shared/book-formats';
import { mkdir } from 'node:fs/promises';
import { relative } from 'node:path';
import { AppError } from '../../shared/errors';
import { secondsLeft } from '../../shared/eta';
import type { ModelId } from '../../shared/options';
import { costMilli } from '../../shared/pricing';
import { findVoice, type LanguageCode } from '../../shared/voices';
import type { BookExportResult, Engine, LexiconRule, NeuralVoice } from '../engine';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import { parseCustomVoiceSnapshot } from '../voices';
import type { ExportRow, NewExportRow, Store } from '../store';
import type { JobEvents } from './events';
import { chargeCredits, lockKeyToCharge } from './credits';
import { exportFiles } from './export-files';
import { createExportRun } from './export-run';
import { createLeasedQueue, type LeasedQueueRun } from './leased-queue';
import { newRequestId } from './submit';

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
export const CANCELLED_MESSAGE = 'Cancelled before it finished; the credits were refunded.';

export interface ExportRun extends LeasedQueueRun<ExportRow> {
  progress: number;
  /** When this run began (clock ms): its rate, and so the seconds left, is measured from there. */
  startedAt: number;
  lastEmit: number;
  cancelled: boolean;
}

export function createExportJobs(options: ExportJobsOptions): ExportJobs {
  const { store, events, clock, log, instanceId } = options;
  const files = exportFiles(options.filesDir);
  const { dir, bookPath, reportPath, removeFiles } = files;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;

  const emit = (row: Pick<ExportRow, 'id' | 'key_id'>, status: ExportRow['status'], progress: number) =>
    events.emit('export', { keyId: row.key_id, export_id: row.id, status, progress });

  const { record, run } = createExportRun({ options, files, emit, closing: () => worker.closing });

  /** Keeps the lease and records the progress; stops the run when cancelled elsewhere or taken over. */
  const queue = createLeasedQueue<ExportRow, ExportRun>({
    noun: 'export',
    instanceId,
    clock,
    log,
    leaseMs,
    pollMs,
    exclusive: store.exclusive,
    queue: store.exports,
    requeue: {
      running: () => store.exports.requeueProcessing(),
      expired: (now) => store.exports.requeueExpired(now),
    },
    newRun: () => ({ progress: 0, startedAt: clock.now(), lastEmit: 0, cancelled: false }),
    renewal: (entry: ExportRun) => ({
      renew: (lease) => store.exports.renewLease(entry.row.id, lease, entry.progress),
      held: (row) => {
        if (row.cancel_requested && !entry.cancelled) {
          entry.cancelled = true;
          entry.controller.abort(new AppError('CANCELLED', CANCELLED_MESSAGE));
        }
      },
    }),
    begun: (entry) => emit(entry.row, 'processing', 0),
    // run() records its own outcomes and never rejects; should it, the row stays processing.
    run: (entry) => run(entry),
  });
  const { runs, worker, recover } = queue;
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
        await tx.exports.insert(
          newExportRow(input, key.id, id, cost, now, custom ? (input.custom_voice ?? null) : null),
        );
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
      // ExportRun on another instance (or about to start here): its owner sees the request when it
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
    close: queue.close,
  };
}

/** The row an accepted export stores: its settings as validated, its charge and its download token. */
function newExportRow(
  input: ExportInput,
  keyId: string,
  id: string,
  cost: number,
  now: string,
  /** The custom voice snapshot, when the voice is one. */
  customVoice: string | null,
): NewExportRow {
  return {
    id,
    key_id: keyId,
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
    custom_voice: customVoice,
    download_token: randomBytes(24).toString('base64url'),
    created_at: now,
  };
}

/** The book's chapters for the record: ms, rounded. */
export function chaptersOf(result: BookExportResult): ExportChapter[] {
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
