/**
 * The job runner's recovery of renders that died with their instance: at start and, on a shared
 * database, at every poll, their rows go back to the queue and the half-written files of
 * interrupted renders are swept; a request cut off too many times is given up as FAILURE.
 */

import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import type { Lease } from './leased-worker';
import type { Outcome } from './request-outcomes';
import type { ResultFiles } from './result-files';

/** Leftover temporary files older than this are swept from a shared data directory, ms. */
const PARTIAL_MAX_AGE_MS = 15 * 60_000;

export interface RecoveryOptions {
  store: Store;
  files: ResultFiles;
  clock: Clock;
  log: Log;
  /** A new lease of this instance. */
  lease(): Lease;
  /** Records an outcome (request-outcomes.ts). */
  finish(row: RequestRow, outcome: Outcome): Promise<void>;
  /** Crashes a request's render may be cut off by before it is given up (runner.ts). */
  maxRunAttempts: number;
}

export function createRecovery(options: RecoveryOptions) {
  const { store, files, clock, log, lease, finish } = options;
  let lastSweep = 0;

  /**
   * Rows whose render died with its instance go back to the queue: every `processing` row on
   * SQLite (this process is its only user, so they are its own from before a crash), the rows
   * whose lease ran out on a shared database. Repeat offenders are given up.
   */
  const recover = async () => {
    if (store.exclusive) {
      const requeued = await store.requests.requeueProcessing();
      if (requeued > 0) log.info(`requeued ${requeued} interrupted request(s)`);
    } else {
      const requeued = await store.requests.requeueExpired(clock.now());
      if (requeued.length > 0)
        log.info(`took over ${requeued.length} request(s) whose instance stopped renewing its lease`);
    }
    for (const row of await store.requests.exhausted(options.maxRunAttempts)) {
      if (!(await store.requests.claim([row.id], isoTime(clock.now()), lease()))) continue;
      await finish(row, {
        status: 'FAILURE',
        errorCode: 'ENGINE_FAILED',
        errorMessage: `Synthesis was interrupted ${row.run_attempts} times; given up.`,
      });
    }
  };

  return {
    /** At start: sweeps what a crash left and requeues the interrupted requests. */
    async atStart() {
      // Half-written files of renders a crash interrupted (those requests run again). On a
      // shared directory only old ones: the others may be live renders of other instances.
      await files.sweepPartials(store.exclusive ? 0 : PARTIAL_MAX_AGE_MS);
      lastSweep = clock.now();
      await recover();
    },
    /** On a shared database: takes over dead instances' work and sweeps their leftovers. */
    async onPoll() {
      await recover();
      if (clock.now() - lastSweep > PARTIAL_MAX_AGE_MS) {
        lastSweep = clock.now();
        await files.sweepPartials(PARTIAL_MAX_AGE_MS);
      }
    },
  };
}
