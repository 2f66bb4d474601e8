/**
 * Seconds left of a job whose progress is a fraction (0–1), from the rate measured so far: an
 * export's (the API's project export record, `project export` on the CLI, the studio's export).
 */

/** Measuring shorter than this tells too little of the rate: no estimate yet. */
const MIN_MEASURED_MS = 1500;

/** Where a job's progress was when its measured stretch began. */
export interface ProgressMark {
  atMs: number;
  fraction: number;
}

/**
 * Seconds left at `nowMs` with `fraction` done, at the rate since `from`, to a tenth of a second;
 * null until that rate can be told (too soon, or no progress since `from`), 0 once done.
 */
export function secondsLeft(from: ProgressMark, nowMs: number, fraction: number): number | null {
  if (fraction >= 1) return 0;
  const elapsed = nowMs - from.atMs;
  const gained = fraction - from.fraction;
  if (elapsed < MIN_MEASURED_MS || gained <= 0) return null;
  return Math.round(((1 - fraction) / (gained / elapsed)) * 0.01) / 10;
}
