/**
 * How the job runner takes requests from the queue: each key's oldest, ranked fairly
 * (round-robin over keys, fair-ranking.ts), the requests a caller waits for on this instance
 * first, as many as the render slots allow.
 */

import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import type { Lease } from './leased-worker';
import { claimOrder, rankFairly, startable } from './fair-ranking';

export interface RequestClaimsOptions {
  store: Store;
  clock: Clock;
  /** Shared render slots; as many again are spare, one per key holding none (fair-ranking.ts). */
  concurrency: number;
  /** The keys of the renders in flight here, one entry per render. */
  inFlight(): string[];
  /** False while the runner is paused or closing. */
  mayClaim(): boolean;
  /** A new lease of this instance. */
  lease(): Lease;
  /** Starts rendering a request just claimed. */
  begin(row: RequestRow): void;
}

export function createRequestClaims(options: RequestClaimsOptions) {
  const { store, clock, concurrency } = options;
  /**
   * Renders beyond the shared slots, each the only one of its key: a key arriving while others'
   * renders hold every slot starts at once and takes turns on the engine's workers with them.
   */
  const spareSlots = concurrency;
  /** Requests to claim first (accepted here for a caller waiting on this instance). */
  const preferred = new Set<string>();
  /** Start counter of each key's latest render (for round-robin). */
  const lastServed = new Map<string, number>();
  let starts = 0;
  /**
   * The claim under way, settled once a claimed row is running. The row reads as processing
   * before the claim returns (SQLite answers a write once its sync is done), so `listen` and
   * `cancel` wait for it before deciding the request is rendering elsewhere.
   */
  let claiming: Promise<unknown> | undefined;

  return {
    /** Claims this request before any other when it is free. */
    prefer: (requestId: string) => void preferred.add(requestId),
    /** Counts a render's start for its key's turn. */
    started: (keyId: string) => void lastServed.set(keyId, starts++),
    /** Settles once the claim under way (if any) has started its render; never rejects. */
    settled: async () => {
      await claiming?.catch(() => undefined);
    },
    /**
     * Takes the queue's next requests while renders fit: each key's oldest, ranked fairly, the
     * preferred first; with every shared slot taken, a key holding none still starts its first
     * (fair-ranking.ts). Claims lost to other instances in a row: past a few, it waits for the
     * next wake-up.
     */
    async claimWhatFits(): Promise<boolean> {
      let lost = 0;
      while (options.inFlight().length < concurrency + spareSlots && options.mayClaim() && lost < 3) {
        const inFlight = options.inFlight();
        const ranked = startable(
          rankFairly(await store.requests.oldestQueuedPerKey(), inFlight, lastServed),
          inFlight,
          concurrency,
          spareSlots,
        );
        if (ranked.length === 0) break;
        const ids = claimOrder(ranked, preferred);
        const claim = (async () => {
          const row = await store.requests.claim(ids, isoTime(clock.now()), options.lease());
          if (row) {
            preferred.delete(row.id);
            options.begin(row);
          }
          return row;
        })();
        claiming = claim;
        const row = await claim.finally(() => {
          if (claiming === claim) claiming = undefined;
        });
        if (!row) lost++;
      }
      return false;
    },
  };
}
