/**
 * How the job runner records a render's outcome: SUCCESS or FAILURE with the refund of a
 * failure, in one transaction, then announced. When the store fails, the outcome waits in
 * memory (its row stays `processing`) and a later try records it; if the process stops
 * first, the next start requeues the row and it renders again.
 */

import { AppError, isAppError } from '../../shared/errors';
import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type { JobEvents } from './events';
import { refundCredits } from './credits';
import { createStoreRetry, errorText } from './store-retry';
import { redactPaths } from '../platform/redact-paths';
import { storedErrorDetails } from '../platform/error-details';

/** How a render ended, as recorded on its row. */
export interface Outcome {
  status: 'SUCCESS' | 'FAILURE';
  errorCode?: string;
  errorMessage?: string;
  /** JSON of a failure's particulars (platform/error-details.ts). */
  errorDetails?: string | null;
  durationMs?: number;
  audioBytes?: number;
  cueCount?: number;
  engine?: string;
  warnings?: string[];
}

/** The outcome of a request cancelled by its owner. */
export const CANCELLED = {
  status: 'FAILURE',
  errorCode: 'CANCELLED',
  errorMessage: 'Cancelled before it finished; the credits were refunded.',
} as const satisfies Outcome;

/** How a render that threw ended, as the runner saw it. */
export interface RenderEnd {
  /** Renewing found the lease gone: another instance runs it now. */
  leaseLost: boolean;
  /** Set by cancel(): the abort that follows is the owner's, not a failure or a shutdown. */
  cancelled: boolean;
  controller: AbortController;
  /** The runner is closing. */
  closing: boolean;
}

/**
 * What a render that threw `error` records: nothing when its lease was lost, CANCELLED when its
 * owner cancelled it, `requeue` when a shutdown interrupted it (it runs after the next start),
 * else FAILURE, kept, shown and sent to the callback without paths of this machine (the log
 * has them).
 */
export function outcomeOfError(
  row: RequestRow,
  error: unknown,
  end: RenderEnd,
  log: Log,
): Outcome | 'requeue' | undefined {
  if (end.leaseLost) return undefined;
  if (end.cancelled) return CANCELLED;
  if (end.closing && (end.controller.signal.aborted || (isAppError(error) && error.code === 'SHUTTING_DOWN')))
    return 'requeue';
  const appError = isAppError(error)
    ? error
    : new AppError('INTERNAL', 'Synthesis failed unexpectedly.', undefined, { cause: error });
  if (!isAppError(error)) log.warn(`request ${row.id}: ${(error as Error)?.stack ?? String(error)}`);
  return {
    status: 'FAILURE',
    errorCode: appError.code,
    errorMessage: redactPaths(appError.message),
    errorDetails: storedErrorDetails(appError),
  };
}

export interface OutcomeRecorderOptions {
  store: Store;
  instanceId: string;
  clock: Clock;
  log: Log;
  events: JobEvents;
  /** Called when a request reached SUCCESS or FAILURE (its callback is now due). */
  onFinished(row: RequestRow): void;
  /** First wait before trying the store again, ms (store-retry.ts). */
  storeRetryMs?: number | undefined;
  /** True once the runner is closing: no more retries are planned. */
  closing(): boolean;
  /** Looks at the queue again (after pending outcomes were recorded). */
  pump(): void;
}

export interface OutcomeRecorder {
  /**
   * Records a render's outcome (with the refund of a failure) and announces it. Never throws:
   * when the store fails, the outcome waits and is recorded by a later try.
   */
  finish(row: RequestRow, outcome: Outcome): Promise<void>;
  /** Records the outcomes the store failed to take earlier; false while it still fails. */
  recordPending(): Promise<boolean>;
  /** After a store failure: records pending outcomes and looks at the queue again, later. */
  retryLater(): void;
  /** The queue was read: with nothing pending, the retry delay starts over. */
  looked(): void;
  /** True while the outcome of this request waits to be recorded. */
  isPending(requestId: string): boolean;
  /** Outcomes waiting to be recorded. */
  readonly pending: number;
  /** Cancels a planned retry. */
  stopRetrying(): void;
}

export function createOutcomeRecorder(options: OutcomeRecorderOptions): OutcomeRecorder {
  const { store, instanceId, clock, log, events, onFinished } = options;
  /** Outcomes the store failed to record, by request id, with the time they happened. */
  const unrecorded = new Map<string, { row: RequestRow; outcome: Outcome; at: number }>();
  const storeRetry = createStoreRetry(options.storeRetryMs);
  let retryTimer: NodeJS.Timeout | undefined;

  const retryLater = () => {
    if (retryTimer || options.closing()) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void recordPending().then((ok) => {
        if (ok) options.pump();
      });
    }, storeRetry.nextDelay());
  };

  /** The outcome in one transaction; the stored row, or undefined when it was not processing. */
  const record = (row: RequestRow, outcome: Outcome, at: number): Promise<RequestRow | undefined> =>
    store.transaction(async (tx) => {
      const ok = await tx.requests.finish(row.id, instanceId, {
        ...outcome,
        finishedAt: isoTime(at),
        callbackDueAt: at,
      });
      if (!ok) return undefined;
      await tx.keys.addQueued(row.key_id, -1);
      if (outcome.status === 'FAILURE') await refundCredits(tx, row, row.cost_milli, isoTime(at));
      return tx.requests.get(row.id);
    });

  /** Announces a recorded outcome, or says why none was (the request is no longer ours). */
  const announce = (row: RequestRow, outcome: Outcome, stored: RequestRow | undefined) => {
    if (!stored) {
      log.warn(
        `request ${row.id}: its outcome was not recorded: another instance took it over after its lease ran out`,
      );
      return;
    }
    events.emit('request', { keyId: row.key_id, request_id: row.id, status: outcome.status, progress: 1 });
    events.emit('finished', { requestId: row.id, keyId: row.key_id });
    onFinished(stored);
  };

  const recordPending = async (): Promise<boolean> => {
    for (const [id, pending] of unrecorded) {
      let stored: RequestRow | undefined;
      try {
        stored = await record(pending.row, pending.outcome, pending.at);
      } catch (error) {
        log.warn(
          `runner: ${unrecorded.size} outcome(s) still not recorded (request ${id} first): ${errorText(error)}`,
        );
        retryLater();
        return false;
      }
      unrecorded.delete(id);
      announce(pending.row, pending.outcome, stored);
    }
    return true;
  };

  return {
    async finish(row, outcome) {
      const at = clock.now();
      let stored: RequestRow | undefined;
      try {
        stored = await record(row, outcome, at);
      } catch (error) {
        log.warn(
          `request ${row.id}: could not record ${outcome.status}: ${errorText(error)}; it stays processing and is recorded when the store works again`,
        );
        unrecorded.set(row.id, { row, outcome, at });
        retryLater();
        return;
      }
      announce(row, outcome, stored);
    },
    recordPending,
    retryLater,
    looked() {
      if (unrecorded.size === 0) storeRetry.reset();
    },
    isPending: (requestId) => unrecorded.has(requestId),
    get pending() {
      return unrecorded.size;
    },
    stopRetrying() {
      clearTimeout(retryTimer);
      retryTimer = undefined;
    },
  };
}
