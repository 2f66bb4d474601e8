/**
 * The machinery every durable queue shares (requests in runner.ts, audiobook exports in
 * export-jobs.ts and, in the same table, projects/project-export.ts, project renders in
 * projects/project-renders.ts): work is a row claimed under a
 * lease, renewed every third of its length while it runs; one look at the queue at a time (a
 * look asked for meanwhile runs once more after it); on a shared database a poll that takes
 * over rows whose lease ran out and looks for work again; a close that stops polling and drains
 * the runs in flight. What a row is, how it is claimed, finished, failed or requeued, and how
 * attempts are counted stay in each queue's file.
 */

import { AppError } from '../../shared/errors';
import { isoTime, type Clock } from '../platform/clock';
import { rankFairly, startable } from './fair-ranking';

/** A claimed row while it runs: the lease-keeping state each queue's own run extends. */
export interface LeasedRun {
  controller: AbortController;
  /** Set when renewing found the lease gone: another instance runs it now. */
  leaseLost: boolean;
  renewTimer: NodeJS.Timeout | undefined;
  /** Settles once the run has ended (never rejects). */
  done: Promise<void>;
}

/** The lease-keeping fields of a run that has just been claimed. */
export function newLeasedRun(): LeasedRun {
  return {
    controller: new AbortController(),
    leaseLost: false,
    renewTimer: undefined,
    done: Promise.resolve(),
  };
}

/** A lease as the stores take it: its owner and when it runs out (epoch ms). */
export interface Lease {
  owner: string;
  until: number;
}

/** How one queue renews the lease of a run. */
export interface LeaseRenewal<Answer> {
  /** Renews it in the store; a falsy answer means the lease is gone (another instance has it). */
  renew(lease: Lease): Promise<Answer>;
  /** Whether the lease is still wanted once the store has answered (or failed). */
  wanted(): boolean;
  /** The lease is held: what the answer tells besides (a cancel or pause asked elsewhere). */
  held?(answer: NonNullable<Answer>): void;
  /** The lease is gone; called before the run is aborted. */
  lost?(): void;
  /** The store failed to renew it (tried again at the next third of the lease). */
  failed(error: unknown): void;
}

export interface LeasedWorkerOptions {
  /** This instance's id: its leases carry it. */
  instanceId: string;
  clock: Clock;
  /** How long a claim holds without renewal, ms; renewed every third of it. */
  leaseMs: number;
  /** How often a shared database is polled, ms. */
  pollMs: number;
  /** False while no work may be claimed besides before start and after close (a pause). */
  mayClaim?(): boolean;
  /** True when no more work fits now: a look asked for is remembered for when a run ends. */
  full?(): boolean;
  /**
   * One look at the queue: claims and begins what fits. Resolves true when it began work and the
   * look is over (asks made meanwhile are dropped: the run's end looks again).
   */
  claim(): Promise<boolean>;
  /** A look that went through to its end without beginning work through `claim` returning true. */
  looked?(): void;
  /** A look that failed (the queue stays in the database). */
  claimFailed(error: unknown): void;
  /** What each poll does before it looks for work (take over expired leases, sweep). */
  onPoll(): Promise<void>;
  /** `onPoll` failed; the poll looks for work anyway. */
  pollFailed(error: unknown): void;
}

/** A table whose rows belong to keys, claimed one at a time. */
export interface KeyedQueue<Row> {
  /** Every queued row, oldest first. */
  queued(): Promise<{ id: string; key_id: string; seq: number }[]>;
  claim(id: string, startedAt: string, lease: Lease): Promise<Row | undefined>;
}

/**
 * How many runs of a one-at-a-time queue (exports, project renders) an instance may have beside
 * its one shared run, each the only run of its key: a key whose book runs cannot make another
 * key's wait for it.
 */
export const SPARE_RUNS = 1;

export interface LeasedWorker {
  /** True once start has run (until then no work is claimed). */
  readonly started: boolean;
  /** True once close has been called: nothing new is claimed and the poll has stopped. */
  readonly closing: boolean;
  /** A lease for a claim made now. */
  lease(): Lease;
  /** Looks for work and claims what fits; never rejects. */
  pump(): void;
  /**
   * A look of a queue that runs one row at a time (exports, project renders), `inFlight` the key
   * of each of its runs here: while none runs, the oldest row of the key served least recently;
   * while one runs, the oldest row of a key with none running, up to SPARE_RUNS more (see
   * fair-ranking.ts). Begins what it claims and looks again; false once nothing more fits.
   */
  claimFairly<Row>(
    queue: KeyedQueue<Row>,
    inFlight: () => readonly string[],
    begin: (row: Row) => void,
  ): Promise<boolean>;
  /**
   * Resolves once no claim of this instance is between its commit and its `begin`: a row found
   * claimed by this instance but not yet begun is begun by then (or was never ours).
   */
  claimSettled(): Promise<void>;
  /**
   * Runs `prepare` (sweeps, recovery), then starts taking work: polls when `poll`, and looks at
   * the queue once. Does nothing when already started.
   */
  start(prepare: () => Promise<void>, poll: boolean): Promise<void>;
  /** Renews the run's lease every third of it until `renewal.wanted()` says no more. */
  keepLease<Answer>(run: LeasedRun, renewal: LeaseRenewal<Answer>): void;
  /**
   * Sets `run.done`: the work, its failure handled by `failed`, then its lease timer stopped
   * (unless `keepLease` says it is still wanted), `ended` and a new look at the queue.
   */
  track(
    run: LeasedRun,
    work: () => Promise<void>,
    handlers: { failed(error: unknown): void; ended(): void; keepLease?(): boolean },
  ): void;
  /**
   * Stops taking work and polling; then waits up to `graceMs` (when given) for the runs in
   * flight, aborts those left with SHUTTING_DOWN and waits for them.
   */
  close(runs: () => Iterable<LeasedRun>, graceMs?: number): Promise<void>;
}

export function createLeasedWorker(options: LeasedWorkerOptions): LeasedWorker {
  const { instanceId, clock, leaseMs, pollMs } = options;
  let started = false;
  let closing = false;
  let pumping = false;
  /** Set when work may have come while a look was running: it looks once more. */
  let again = false;
  let pollTimer: NodeJS.Timeout | undefined;
  /** For claimFairly: the start counter of each key's latest run. */
  const lastServed = new Map<string, number>();
  let starts = 0;
  /** The claim in flight (from its statement to its `begin`), if any. */
  let claiming: Promise<unknown> | undefined;

  const lease = (): Lease => ({ owner: instanceId, until: clock.now() + leaseMs });

  const pump = (): void => {
    if (!started || closing || !(options.mayClaim?.() ?? true)) return;
    if (pumping || options.full?.()) {
      again = true;
      return;
    }
    pumping = true;
    void (async () => {
      try {
        do {
          again = false;
          if (await options.claim()) return;
        } while (again && !closing);
        options.looked?.();
      } catch (error) {
        options.claimFailed(error);
      } finally {
        pumping = false;
      }
    })();
  };

  /** On a shared database: takes over dead instances' work (and what onPoll adds), looks for work. */
  const poll = () => {
    pollTimer = setTimeout(() => {
      void (async () => {
        try {
          await options.onPoll();
        } catch (error) {
          options.pollFailed(error);
        }
        pump();
        if (!closing) poll();
      })();
    }, pollMs);
  };

  return {
    get started() {
      return started;
    },
    get closing() {
      return closing;
    },
    lease,
    pump,
    async claimFairly(queue, inFlight, begin) {
      for (;;) {
        const keys = inFlight();
        const firsts = new Map<string, { id: string; key_id: string; seq: number }>();
        for (const row of await queue.queued()) if (!firsts.has(row.key_id)) firsts.set(row.key_id, row);
        const ranked = startable(rankFairly([...firsts.values()], keys, lastServed), keys, 1, SPARE_RUNS);
        let begun = false;
        for (const candidate of ranked) {
          if (closing) return false;
          const claim = queue.claim(candidate.id, isoTime(clock.now()), lease());
          claiming = claim;
          let row: Awaited<typeof claim>;
          try {
            row = await claim;
            if (!row) continue;
            lastServed.set(candidate.key_id, starts++);
            begin(row);
          } finally {
            if (claiming === claim) claiming = undefined;
          }
          begun = true;
          break;
        }
        if (!begun) return false;
      }
    },
    async claimSettled() {
      await claiming?.catch(() => undefined);
    },
    async start(prepare, shouldPoll) {
      if (started) return;
      await prepare();
      started = true;
      if (shouldPoll) poll();
      pump();
    },
    keepLease(run, renewal) {
      const schedule = () => {
        run.renewTimer = setTimeout(() => {
          renewal.renew(lease()).then(
            (answer) => {
              if (!renewal.wanted()) return;
              if (!answer) {
                run.leaseLost = true;
                renewal.lost?.();
                run.controller.abort(new AppError('CANCELLED', 'Taken over by another instance.'));
                return;
              }
              renewal.held?.(answer);
              schedule();
            },
            (error: unknown) => {
              // Tried again at the next third of the lease; a store down that long loses it.
              renewal.failed(error);
              if (renewal.wanted()) schedule();
            },
          );
        }, leaseMs / 3);
      };
      schedule();
    },
    track(run, work, handlers) {
      run.done = work()
        .catch(handlers.failed)
        .finally(() => {
          if (!handlers.keepLease?.()) clearTimeout(run.renewTimer);
          handlers.ended();
          pump();
        });
    },
    async close(runs, graceMs) {
      closing = true;
      clearTimeout(pollTimer);
      const all = () => Promise.all([...runs()].map((r) => r.done));
      if (graceMs !== undefined) {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          all().then(() => false),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(true), graceMs);
          }),
        ]);
        clearTimeout(timer);
        if (!timedOut) return;
      }
      for (const r of runs())
        r.controller.abort(new AppError('SHUTTING_DOWN', 'The server is shutting down.'));
      await all();
    },
  };
}
