/**
 * Waiting before trying the store again after it failed (disk full, I/O error): work whose
 * outcome could not be recorded stays in memory, and in the database it stays where it was
 * (processing, or a callback still due), so a later try or the next start finishes it.
 */

/** Delays between tries: `baseMs`, doubling up to `maxMs`; `reset()` after a success. */
export interface StoreRetry {
  /** The wait before the next try, ms. */
  nextDelay(): number;
  reset(): void;
}

/** Default first wait after a store failure, ms. */
const STORE_RETRY_MS = 1000;
/** Longest wait between tries, ms. */
const STORE_RETRY_MAX_MS = 30_000;

export function createStoreRetry(baseMs = STORE_RETRY_MS, maxMs = STORE_RETRY_MAX_MS): StoreRetry {
  let failures = 0;
  return {
    nextDelay() {
      const delay = Math.min(maxMs, baseMs * 2 ** Math.min(failures, 30));
      failures++;
      return delay;
    },
    reset() {
      failures = 0;
    },
  };
}

/** An error's message for a log line. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
