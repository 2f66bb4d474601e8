/**
 * Which queued request the runner claims first, and which may start at all. Keys take turns:
 * the next job is the oldest queued request of the key with the fewest renders in flight and,
 * among those, the one served least recently, so one client's flood does not starve another (or
 * the UI): while several keys wait, a free slot goes to the one holding fewest, so none holds
 * more than its share (ceil(slots / keys waiting)) once renders end. A key with no render in
 * flight need not wait for one to end: its first render may start beyond the shared slots (see
 * `startable`), so a key whose renders hold every slot cannot make another wait for them.
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

/**
 * The ranked candidates that may start now with the renders `inFlight` (the key of each):
 * every one while fewer than `slots` run; beyond them, only those of keys with no render in
 * flight, while fewer than `slots + spare` run (one such start per key: it then holds one).
 */
export function startable<Row extends Pick<RequestRow, 'key_id'>>(
  ranked: Row[],
  inFlight: readonly string[],
  slots: number,
  spare: number,
): Row[] {
  if (inFlight.length < slots) return ranked;
  if (inFlight.length >= slots + spare) return [];
  const holding = new Set(inFlight);
  return ranked.filter((row) => !holding.has(row.key_id));
}
