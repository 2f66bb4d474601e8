/** Time source, injectable so tests and recovery logic do not depend on the wall clock. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** ISO 8601 UTC with milliseconds and Z, e.g. 2025-01-02T03:04:05.678Z. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
