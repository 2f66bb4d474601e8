/**
 * A queue of keyed rows run one at a time per instance (audiobook exports in export-jobs.ts,
 * project exports in projects/project-export.ts, project renders in projects/project-renders.ts),
 * beside it the first row of a key with none running (SPARE_RUNS), on leased-worker.ts: a claimed
 * row begins a run whose lease is renewed while it runs and which is forgotten when it ends; runs
 * that died with their process are requeued (on an exclusive store at the start, on a shared
 * database at each poll, once their lease ran out). What a run does and how its lease answers
 * stay in each queue's file.
 */

import type { Clock } from '../platform/clock';
import type { Log } from '../platform/log';
import {
  createLeasedWorker,
  newLeasedRun,
  SPARE_RUNS,
  type KeyedQueue,
  type Lease,
  type LeasedRun,
  type LeasedWorker,
} from './leased-worker';
import { errorText } from './store-retry';

export interface LeasedQueueOptions<Row extends { id: string; key_id: string }, Run> {
  /** What a row is called in the log: `export`, `project export`, `project render`. */
  noun: string;
  instanceId: string;
  clock: Clock;
  log: Log;
  leaseMs: number;
  pollMs: number;
  /** True on SQLite (one process): every run still marked running died with the last one. */
  exclusive: boolean;
  queue: KeyedQueue<Row>;
  /** Puts interrupted runs back in the queue: all running ones, or (shared) those expired at `now`; how many. */
  requeue: { running(): Promise<number>; expired(now: number): Promise<number> };
  /** The state of a run of a row just claimed, besides its lease fields. */
  newRun(row: Row): Omit<Run, keyof LeasedRun | 'row'>;
  /** How the run's lease is renewed in the store, and what its answer tells (a cancel asked elsewhere). */
  renewal(run: Run & LeasedQueueRun<Row>): {
    /** The row as renewed; undefined when the lease is gone (another instance has it). */
    renew(lease: Lease): Promise<Row | undefined>;
    held?(row: Row): void;
  };
  /** A run begun (its lease kept), before it runs: told to listeners. */
  begun?(run: Run & LeasedQueueRun<Row>): void;
  /** Runs a claimed row to its end; a rejection leaves the row for the next start. */
  run(run: Run & LeasedQueueRun<Row>): Promise<void>;
}

export interface LeasedQueueRun<Row> extends LeasedRun {
  row: Row;
}

export interface LeasedQueue<Row, Run> {
  /** The runs here, by row id. */
  readonly runs: Map<string, Run & LeasedQueueRun<Row>>;
  readonly worker: LeasedWorker;
  /** Requeues the runs that died (see `requeue`), logged. */
  recover(): Promise<void>;
  /** Stops taking rows; the runs in flight are aborted (queued again for the next start). */
  close(): Promise<void>;
}

export function createLeasedQueue<Row extends { id: string; key_id: string }, Run>(
  options: LeasedQueueOptions<Row, Run>,
): LeasedQueue<Row, Run> {
  const { noun, log, clock } = options;
  const runs = new Map<string, Run & LeasedQueueRun<Row>>();

  const begin = (row: Row) => {
    const entry = { ...newLeasedRun(), row, ...options.newRun(row) } as Run & LeasedQueueRun<Row>;
    runs.set(row.id, entry);
    const renewal = options.renewal(entry);
    worker.keepLease(entry, {
      renew: renewal.renew,
      wanted: () => runs.get(row.id) === entry,
      ...(renewal.held ? { held: renewal.held } : {}),
      failed: (error) => log.warn(`${noun} ${row.id}: could not renew its lease: ${errorText(error)}`),
    });
    options.begun?.(entry);
    worker.track(entry, () => options.run(entry), {
      failed: (error) =>
        log.warn(`${noun} ${row.id}: ${errorText(error)}; it runs again after the next start`),
      ended: () => runs.delete(row.id),
    });
  };

  const recover = async () => {
    const requeued = options.exclusive
      ? await options.requeue.running()
      : await options.requeue.expired(clock.now());
    if (requeued > 0) log.info(`requeued ${requeued} interrupted ${noun}(s)`);
  };

  /**
   * One at a time, and beside it the first row of a key with none running (a key's long book does
   * not hold another key's up): a look while they run waits for one to end.
   */
  const worker = createLeasedWorker({
    instanceId: options.instanceId,
    clock,
    leaseMs: options.leaseMs,
    pollMs: options.pollMs,
    full: () => runs.size > SPARE_RUNS,
    claim: () => worker.claimFairly(options.queue, () => [...runs.values()].map((r) => r.row.key_id), begin),
    claimFailed: (error) =>
      log.warn(`${noun}s: could not take the next ${noun} from the queue: ${errorText(error)}; trying again`),
    onPoll: async () => {
      if (!options.exclusive) await recover();
    },
    pollFailed: (error) =>
      log.warn(`${noun}s: could not look for ${noun}s to take over: ${errorText(error)}`),
  });

  return { runs, worker, recover, close: () => worker.close(() => runs.values()) };
}
