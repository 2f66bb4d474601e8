/**
 * Idempotent submits (as Stripe's Idempotency-Key): a submit sent again with the same key
 * and the same request, by the same API key within 24 h, answers the request the first one
 * created instead of creating (and charging) another.
 *
 * "The same request" is decided on the request as validated, not on the bytes of the body:
 * the hash covers the canonical JSON (keys sorted, no whitespace) of the validated input with
 * its defaults applied, and the endpoint. So key order, spacing, an omitted field versus its
 * default value, and whatever the validator normalises (e.g. `"128"` read as 128, `1.0` as 1)
 * count as the same request; a different text, voice or option, or the other endpoint, does not.
 */

import { createHash } from 'node:crypto';

/** How long a key is honoured, in ms; an older key is forgotten and a new request is created. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What a submit carries when the caller sent an Idempotency-Key. */
export interface Idempotency {
  /** The key as sent: 1–255 printable ASCII characters (the caller checks them). */
  key: string;
  /** `hashRequest` of the request as validated, with what tells the endpoints apart. */
  requestHash: string;
}

/**
 * JSON with object keys sorted at every level and no whitespace; undefined members are left
 * out as JSON.stringify does. Numbers keep JavaScript's shortest form (1.0 → 1).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** sha256 of `canonicalJson(value)`, 64 lowercase hex digits. */
export function hashRequest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
