/**
 * The job pipeline: accepting (charge + insert), running (engine), delivering (callbacks),
 * and the events they emit. Created by the composition root; `close()` stops accepting,
 * lets renders finish (or requeues them) and waits for deliveries in flight.
 */

import type { Engine } from '../engine/engine';
import type { RequestRow, Store } from '../store';
import { systemClock, type Clock } from '../platform/clock';
import { silentLog, type Log } from '../platform/log';
import { createDeliverer, type Deliverer, type RetryPolicy } from './delivery';
import { createJobEvents, type JobEvents } from './events';
import { createLinks, type Links } from './links';
import {
  createJobFiles,
  createJobRunner,
  type JobFiles,
  type JobRunner,
  type JobRunnerOptions,
} from './runner';
import type { Idempotency } from './idempotency';
import { createSubmitter, type SubmitInput, type SubmitOutcome } from './submit';

export interface JobsOptions {
  engine: Engine;
  store: Store;
  /** Directory of finished audio and SRT files. */
  filesDir: string;
  /** Base URL of the server (for audio_link / srt_link), read when a link is built. */
  baseUrl(): string;
  clock?: Clock;
  log?: Log;
  /** Renders in flight at most (default: twice the engine's pool). */
  concurrency?: number;
  /** Requests of one key waiting or running, at most (default 10 000); more → TOO_MANY_REQUESTS. */
  maxQueuedPerKey?: number;
  retry?: Partial<RetryPolicy>;
  /** Which neural voice speaks a request (the voice library); default: eSpeak for every request. */
  neuralVoice?: JobRunnerOptions['neuralVoice'];
  /** First wait before runner and deliverer try a failing store again, ms (default 1000, doubling to 30 s). */
  storeRetryMs?: number;
}

export interface Jobs {
  readonly events: JobEvents;
  readonly links: Links;
  readonly files: JobFiles;
  readonly runner: JobRunner;
  readonly deliverer: Deliverer;
  readonly clock: Clock;
  /** Accepts a request (see Submitter.submit). */
  submit(input: SubmitInput): Promise<RequestRow>;
  /** Accepts a request under an Idempotency-Key, and says whether it was a replay (see Submitter.submitIdempotent). */
  submitIdempotent(input: SubmitInput, idempotency: Idempotency | undefined): Promise<SubmitOutcome>;
  /**
   * Resolves with the row once the request is SUCCESS or FAILURE; when `signal` aborts first,
   * with the row as it stands then (the request carries on).
   */
  whenFinished(requestId: string, signal?: AbortSignal): Promise<RequestRow>;
  /** Starts runner and deliverer (after the server knows its address). */
  start(): void;
  /** Stops accepting, drains the runner (up to `graceMs`), then the deliverer. */
  close(graceMs?: number): Promise<void>;
}

export const DEFAULT_MAX_QUEUED_PER_KEY = 10_000;

export function createJobs(options: JobsOptions): Jobs {
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLog;
  const { store, engine } = options;
  const events = createJobEvents();
  const links = createLinks(options.baseUrl);
  const files = createJobFiles(options.filesDir);
  const deliverer = createDeliverer({
    store,
    links,
    events,
    clock,
    log,
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.storeRetryMs ? { storeRetryMs: options.storeRetryMs } : {}),
  });
  const runner = createJobRunner({
    engine,
    store,
    files,
    events,
    clock,
    log,
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    neuralVoice: options.neuralVoice,
    ...(options.storeRetryMs ? { storeRetryMs: options.storeRetryMs } : {}),
    onFinished: (row) => {
      if (row.callback_url) deliverer.kick();
    },
  });
  const submitter = createSubmitter({
    store,
    clock,
    maxQueuedPerKey: options.maxQueuedPerKey ?? DEFAULT_MAX_QUEUED_PER_KEY,
    onAccepted: (rows) => {
      for (const row of rows)
        events.emit('request', { keyId: row.key_id, request_id: row.id, status: 'new', progress: 0 });
      runner.kick();
    },
  });

  let closing: Promise<void> | undefined;
  return {
    events,
    links,
    files,
    runner,
    deliverer,
    clock,
    submit: (input) => submitter.submit(input),
    submitIdempotent: (input, idempotency) => submitter.submitIdempotent(input, idempotency),
    whenFinished(requestId, signal) {
      return new Promise<RequestRow>((resolve) => {
        const settle = () => {
          events.off('finished', listener);
          signal?.removeEventListener('abort', settle);
          resolve(store.requests.get(requestId)!);
        };
        const listener = (event: { requestId: string }) => {
          if (event.requestId === requestId) settle();
        };
        events.on('finished', listener);
        signal?.addEventListener('abort', settle);
        const row = store.requests.get(requestId);
        if (signal?.aborted || (row && (row.status === 'SUCCESS' || row.status === 'FAILURE'))) settle();
      });
    },
    start() {
      runner.start();
      deliverer.start();
    },
    close(graceMs) {
      closing ??= (async () => {
        submitter.close();
        await runner.close(graceMs);
        await deliverer.close();
      })();
      return closing;
    },
  };
}

export type { SubmitInput, SubmitOutcome } from './submit';
export { hashRequest, IDEMPOTENCY_WINDOW_MS, type Idempotency } from './idempotency';
export type { RetryPolicy } from './delivery';
