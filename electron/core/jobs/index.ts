/**
 * The job pipeline: accepting (charge + insert), running (engine), delivering (callbacks),
 * and the events they emit. Created by the composition root; `close()` stops accepting,
 * lets renders finish (or requeues them) and waits for deliveries in flight.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AppError } from '../../shared/errors';
import type { Engine } from '../engine';
import type { RequestRow, Store } from '../store';
import { systemClock, type Clock } from '../platform/clock';
import { silentLog, type Log } from '../platform/log';
import { NOT_ALLOWED, OPEN_CALLBACK_TARGETS, type CallbackTargets } from './callback-targets';
import { createDeliverer, type Deliverer, type RetryPolicy } from './delivery';
import { createJobEvents, type JobEvents } from './events';
import { createExportJobs, type ExportJobs } from './export-jobs';
import { createLinks, type Links } from './links';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from './runner';
import { createDirectoryFiles, type ResultFiles } from './result-files';
import { errorText } from './store-retry';
import { shareEvents } from './shared-events';
import type { Idempotency } from './idempotency';
import { createSubmitter, type SubmitInput, type SubmitOutcome } from './submit';

export interface JobsOptions {
  engine: Engine;
  store: Store;
  /** Directory of finished audio and SRT files (shared by the instances of one database). */
  filesDir: string;
  /** This instance's id (leases and the events it shares carry it); default a random one. */
  instanceId?: string;
  /** Lease of a claimed request, ms (default 30 000): see `JobRunnerOptions.leaseMs`. */
  leaseMs?: number;
  /** On a shared database, the slow poll under the notifications, ms (default 2000). */
  pollMs?: number;
  /** Base URL of the server (for audio_link / srt_link), read when a link is built. */
  baseUrl(): string;
  clock?: Clock;
  log?: Log;
  /** Renders in flight at most (default: twice the engine's pool). */
  concurrency?: number;
  /** Requests of one key waiting or running, at most (default 10 000); more → TOO_MANY_REQUESTS. */
  maxQueuedPerKey?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * Where callbacks may go (default: anywhere). A submit whose callback_url is an address the
   * policy refuses is refused with INVALID_FIELD; a name is judged at delivery.
   */
  callbackTargets?: CallbackTargets;
  /** Which neural voice speaks a request (the voice library); default: eSpeak for every request. */
  neuralVoice?: JobRunnerOptions['neuralVoice'];
  /** The Kokoro voice or mix a request named, as an installed Kokoro pack speaks it. */
  kokoroVoice?: JobRunnerOptions['kokoroVoice'];
  /** One speaker of an installed pack, for custom voices (VoiceLibrary.packVoice). */
  packVoice?: JobRunnerOptions['packVoice'];
  /** The pronunciation lexicon's entries of a language; default: none. */
  lexicon?: JobRunnerOptions['lexicon'];
  /** First wait before runner and deliverer try a failing store again, ms (default 1000, doubling to 30 s). */
  storeRetryMs?: number;
}

export interface Jobs {
  readonly events: JobEvents;
  readonly links: Links;
  readonly files: ResultFiles;
  /** This instance's id. */
  readonly instanceId: string;
  readonly runner: JobRunner;
  readonly deliverer: Deliverer;
  /** Audiobook exports (POST /api/v1/exports): their own queue, one at a time per instance. */
  readonly exports: ExportJobs;
  readonly clock: Clock;
  /** Accepts a request (see Submitter.submit). */
  submit(input: SubmitInput): Promise<RequestRow>;
  /** Accepts a request under an Idempotency-Key, and says whether it was a replay (see Submitter.submitIdempotent). */
  submitIdempotent(input: SubmitInput, idempotency: Idempotency | undefined): Promise<SubmitOutcome>;
  /** A client connected to the API (see Submitter.noteConnection). */
  noteConnection(): void;
  /**
   * Resolves with the row once the request is SUCCESS or FAILURE; when `signal` aborts first,
   * with the row as it stands then (the request carries on).
   */
  whenFinished(requestId: string, signal?: AbortSignal): Promise<RequestRow>;
  /**
   * Cancels a queued or running request (see `JobRunner.cancel`), on whichever instance
   * renders it. False when it had already finished.
   */
  cancel(requestId: string): Promise<boolean>;
  /** 0–1 for a request rendering here or on another instance; undefined otherwise. */
  progress(requestId: string): number | undefined;
  /** Starts runner and deliverer (after the server knows its address). */
  start(): Promise<void>;
  /** Stops accepting, drains the runner (up to `graceMs`), then the deliverer. */
  close(graceMs?: number): Promise<void>;
}

const DEFAULT_MAX_QUEUED_PER_KEY = 10_000;

/** A new instance id: the host name and 8 random hex digits, e.g. `render-2-3f9a01c2`. */
export function newInstanceId(): string {
  return `${hostname()
    .replace(/[^A-Za-z0-9.-]/g, '-')
    .slice(0, 40)}-${randomBytes(4).toString('hex')}`;
}

/**
 * The request's row once it has finished (Jobs.whenFinished): on the `finished` event, or a look
 * at the row (at once, and every `pollMs` on a shared database, where the news may come from
 * another instance); at once when `signal` aborts.
 */
function whenRequestFinished(
  store: Store,
  events: JobEvents,
  requestId: string,
  signal: AbortSignal | undefined,
  pollMs: number,
): Promise<RequestRow> {
  return new Promise<RequestRow>((resolve, reject) => {
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      events.off('finished', listener);
      signal?.removeEventListener('abort', settle);
      clearInterval(poll);
      store.requests.get(requestId).then((row) => resolve(row!), reject);
    };
    const listener = (event: { requestId: string }) => {
      if (event.requestId === requestId) settle();
    };
    events.on('finished', listener);
    signal?.addEventListener('abort', settle);
    const isDone = (row: RequestRow | undefined) =>
      row !== undefined && (row.status === 'SUCCESS' || row.status === 'FAILURE');
    // On a shared database the news may come from another instance: a slow look at the
    // row backs the notification up.
    const poll = store.exclusive
      ? undefined
      : setInterval(() => {
          store.requests.get(requestId).then(
            (row) => isDone(row) && settle(),
            () => undefined,
          );
        }, pollMs);
    if (signal?.aborted) return settle();
    store.requests.get(requestId).then(
      (row) => {
        if (isDone(row)) settle();
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        events.off('finished', listener);
        signal?.removeEventListener('abort', settle);
        clearInterval(poll);
        reject(error);
      },
    );
  });
}

export function createJobs(options: JobsOptions): Jobs {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLog;
  const { store, engine } = options;
  const events = createJobEvents();
  const links = createLinks(options.baseUrl);
  const files = createDirectoryFiles(options.filesDir);
  const instanceId = options.instanceId ?? newInstanceId();
  const deliverer = createDeliverer({
    store,
    links,
    events,
    clock,
    log,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.callbackTargets ? { targets: options.callbackTargets } : {}),
    ...(options.storeRetryMs ? { storeRetryMs: options.storeRetryMs } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  const callbackTargets = options.callbackTargets ?? OPEN_CALLBACK_TARGETS;
  /** Refuses, before anything is stored or charged, a callback_url this server may not call. */
  const checkCallback = (input: SubmitInput) => {
    const url = input.callback_url;
    const refusal = url && URL.canParse(url) ? callbackTargets.refusal(new URL(url)) : undefined;
    // Not why: the reason would tell a stranger what this server's network holds.
    if (refusal)
      throw new AppError('INVALID_FIELD', `callback_url is ${NOT_ALLOWED}.`, { field: 'callback_url' });
  };
  const runner = createJobRunner({
    engine,
    store,
    files,
    instanceId,
    events,
    clock,
    log,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    neuralVoice: options.neuralVoice,
    kokoroVoice: options.kokoroVoice,
    packVoice: options.packVoice,
    lexicon: options.lexicon,
    ...(options.storeRetryMs ? { storeRetryMs: options.storeRetryMs } : {}),
    onFinished: (row) => {
      if (row.callback_url) deliverer.kick();
    },
  });
  const exports = createExportJobs({
    engine,
    store,
    events,
    filesDir: options.filesDir,
    instanceId,
    clock,
    log,
    baseUrl: options.baseUrl,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
    neuralVoice: options.neuralVoice,
    kokoroVoice: options.kokoroVoice,
    packVoice: options.packVoice,
    lexicon: options.lexicon,
  });
  const submitter = createSubmitter({
    store,
    clock,
    maxQueuedPerKey: options.maxQueuedPerKey ?? DEFAULT_MAX_QUEUED_PER_KEY,
    onAccepted: (rows) => {
      for (const row of rows) {
        events.emit('request', { keyId: row.key_id, request_id: row.id, status: 'new', progress: 0 });
        // An OpenAI caller waits on this connection for the audio: render it here, streamed.
        if (row.source === 'openai' && !store.exclusive) runner.prefer(row.id);
      }
      runner.kick();
      if (!store.exclusive) shared.wake();
    },
  });
  const shared = shareEvents({
    store,
    events,
    instanceId,
    log,
    onWake: () => {
      runner.kick();
      deliverer.kick();
    },
    // Also heard in the moment between claiming a request and starting its render.
    onCancel: (requestId) => {
      runner
        .cancel(requestId)
        .catch((error: unknown) => log.warn(`request ${requestId}: could not cancel: ${errorText(error)}`));
    },
  });

  let closing: Promise<void> | undefined;
  return {
    events,
    links,
    files,
    instanceId,
    runner,
    deliverer,
    exports,
    clock,
    async submit(input) {
      checkCallback(input);
      return submitter.submit(input);
    },
    async submitIdempotent(input, idempotency) {
      checkCallback(input);
      return submitter.submitIdempotent(input, idempotency);
    },
    noteConnection: () => submitter.noteConnection(),
    whenFinished: (requestId, signal) =>
      whenRequestFinished(store, events, requestId, signal, options.pollMs ?? 2000),
    progress: (requestId) => runner.progress(requestId) ?? shared.progress(requestId),
    async cancel(requestId) {
      if (await runner.cancel(requestId)) return true;
      const row = await store.requests.get(requestId);
      if (!row || row.status !== 'processing' || store.exclusive) return false;
      // Rendering on another instance: it hears the cancel and finishes the request.
      await shared.cancel(requestId);
      return true;
    },
    async start() {
      await files.prepare();
      await shared.start();
      await runner.start();
      await exports.start();
      deliverer.start();
    },
    close(graceMs) {
      closing ??= (async () => {
        await submitter.close();
        await exports.close();
        await runner.close(graceMs);
        await deliverer.close();
        await shared.close();
      })();
      return closing;
    },
  };
}

export type { SubmitInput } from './submit';
export { hashRequest } from './idempotency';
export type { RetryPolicy } from './delivery';
export {
  callbackTargets,
  INTERNAL_CALLBACKS,
  internalAddressKind,
  parseAllowedCallbackHost,
  restrictsCallbacks,
  type InternalCallbacks,
} from './callback-targets';
export {
  chargeCredits,
  creditsToAddError,
  liveBalanceMilli,
  lockKeyToCharge,
  refundCredits,
} from './credits';
export { shownResult } from './delivery';
export { createJobEvents, type JobEventMap, type JobEvents } from './events';
export { bookExtension, fileReportsOf, type ExportInput } from './export-jobs';
export {
  KEY_BUCKET_CHARS,
  KEY_TEXT_RULE,
  addCredits,
  authenticate,
  createApiKey,
  ensureApiKey,
  isValidKeyText,
  keyPrefixHash,
  revokeApiKey,
  rotateSigningSecret,
} from './keys';
export { createLeasedQueue, type LeasedQueueRun } from './leased-queue';
export {
  createLeasedWorker,
  newLeasedRun,
  SPARE_RUNS,
  type LeasedRun,
  type LeasedWorker,
} from './leased-worker';
export { MAX_RUN_ATTEMPTS } from './runner';
export { isoDate, type Links } from './links';
export { readRequestChapters } from './request-chapters';
export { isWordTiming, readTimings, type ResultFiles } from './result-files';
export { errorText };
