/**
 * Which queued request the runner claims first. Keys take turns: the next job is the oldest
 * queued request of the key with the fewest renders in flight and, among those, the one served
 * least recently, so one client's flood does not starve another (or the UI).
 */

import type { RequestRow } from '../store';

/**
 * The candidates (each key's oldest queued request) best first. `inFlight` holds the key of each
 * render in flight; `lastServed` the start counter of each key's latest render (higher is more
 * recent; a key never served comes before all others).
 */
export function rankFairly<Row extends Pick<RequestRow, 'key_id' | 'seq'>>(
  candidates: Row[],
  inFlight: Iterable<string>,
  lastServed: ReadonlyMap<string, number>,
): Row[] {
  if (candidates.length <= 1) return candidates;
  const running = new Map<string, number>();
  for (const keyId of inFlight) running.set(keyId, (running.get(keyId) ?? 0) + 1);
  const rank = (row: Row) =>
    [running.get(row.key_id) ?? 0, lastServed.get(row.key_id) ?? -1, row.seq] as const;
  return candidates
    .map((row) => ({ row, rank: rank(row) }))
    .sort((a, b) => a.rank[0] - b.rank[0] || a.rank[1] - b.rank[1] || a.rank[2] - b.rank[2])
    .map((c) => c.row);
}

/**
 * The ids to try to claim, in order: the preferred ones among the ranked (a caller waits on this
 * instance for their audio), then all the ranked ones.
 */
export function claimOrder(ranked: readonly Pick<RequestRow, 'id'>[], preferred: Iterable<string>): string[] {
  return [...[...preferred].filter((id) => ranked.some((r) => r.id === id)), ...ranked.map((r) => r.id)];
}
