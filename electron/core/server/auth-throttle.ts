/**
 * Makes guessing credentials (bearer keys, studio sign-in tokens) cost time, for the guesser
 * alone.
 *
 * Every request that presents a credential is checked in its bucket's turn (`guard`). A bucket
 * is the client (its remote address, or the real client behind a trusted proxy: `request.ip`;
 * every loopback address, 127.0.0.0/8 and ::1, is one client, since any local program can send
 * from 127.0.0.2, 127.0.0.3, …) together with what it knows of the credential:
 *
 * - a credential whose first `PREFIX_CHARS` (16) characters began a credential that passed a
 *   check before (a key in use, the current sign-in token) has a bucket of its own per client:
 *   `client + prefix`;
 * - every other credential of the client shares one bucket: `client + unknown`.
 *
 * In each bucket:
 *
 * - failures are counted in a sliding window (`windowMs`, default 60 s);
 * - while a bucket has fewer than `freeFailures` (default 5) in the window, its credentials are
 *   checked at once, as long as it has fewer than `maxChecking` (default 64, more than a busy
 *   app needs) under way: a burst of simultaneous guesses cannot all pass while the count is
 *   still low;
 * - past that, every credential of that bucket waits before it is even checked: `baseDelayMs`
 *   (default 250 ms), doubling with each further failure, at most `maxDelayMs` (default 5 s);
 * - at most `maxPendingPerClient` (default 4) checks of a bucket wait at once, and at most
 *   `maxPending` (default 64) over all buckets, so the parked sockets and timers stay bounded;
 *   a request beyond that is answered at once with 429 TOO_MANY_REQUESTS and a Retry-After,
 *   its credential unchecked;
 * - a success is not counted and resets nothing; the count decays as failures leave the
 *   window, so a person who mistyped a key is back to full speed a minute later.
 *
 * Why it slows the guesser and no one else. A guesser does not know a key, so it does not know
 * the first 16 characters of one either (a generated key has 72 random bits there: `nsk_` and
 * 12 of its 43 random characters): whatever it sends, and however it varies the prefix from
 * try to try, lands in its client's unknown bucket, which its failures fill. A valid key in use
 * lands in its own bucket, where no failure is counted, so it is checked at once and never
 * waits or gets a 429 because someone else behind the same address (everyone behind a proxy,
 * every local program) keeps failing. Only a wrong key that begins with the same 16 characters
 * as a right one (a revoked key still sent by its app, or someone who already holds most of
 * the key) slows that key's bucket, and only for its own client. The buckets keep the old
 * bound on the guesser: its unknown bucket checks at most `maxPendingPerClient` per
 * `maxDelayMs` (0.8 a second by default) past its free failures, however many connections it
 * opens and however it varies its guesses.
 *
 * What a client learns: whether a 16-character prefix began a credential that passed before
 * (its own bucket answers at once while the unknown one waits). Telling that takes a request
 * per prefix tried, at the unknown bucket's pace until a prefix is right, so finding one costs
 * as many guesses as the 72 bits it holds; a user-chosen key should not begin with a word.
 * Only hashes of the prefixes are kept, in memory, at most `maxAddresses` of them.
 *
 * Where a valid key may still wait: on its first check since the server started (its prefix
 * is not known yet) while a guesser fails from the same client at that moment; from the first
 * success on it has its own bucket. The current sign-in token is known from the start
 * (`remember`), so a guesser behind the same address cannot hold up a sign-in.
 */

import { createHash } from 'node:crypto';
import { AppError } from '../../shared/errors';
import { systemClock, type Clock } from '../platform/clock';
import { plainAddress } from './http-edge';

/** Characters of a credential that choose its bucket (see above). */
export const PREFIX_CHARS = 16;

export interface AuthThrottleOptions {
  /** Failures per bucket checked without a wait within the window (default 5). */
  freeFailures?: number;
  /** Length of the sliding window in which failures are counted, ms (default 60 000). */
  windowMs?: number;
  /** Wait after the free failures, ms, doubling with each further one (default 250; 0 turns the slow-down off). */
  baseDelayMs?: number;
  /** Longest wait of one check, ms (default 5 000). */
  maxDelayMs?: number;
  /** Checks of a bucket under way at once before the next one waits, failures or not (default 64). */
  maxChecking?: number;
  /** Checks of one bucket waiting at once; beyond it → 429 at once (default 4). */
  maxPendingPerClient?: number;
  /** Checks waiting at once over all buckets; beyond it → 429 at once (default 64). */
  maxPending?: number;
  /**
   * Buckets remembered at most, and known prefixes at most; the least recently failing (or
   * passing) is forgotten first (default 10 000).
   */
  maxAddresses?: number;
  /** Time source of the window (default the system clock). */
  clock?: Clock;
  /**
   * Runs `run` after `ms` and returns what cancels it (default: a real timer). Tests pass their
   * own to release the waits when they choose.
   */
  schedule?: (run: () => void, ms: number) => () => void;
}

const AUTH_THROTTLE_DEFAULTS = {
  freeFailures: 5,
  windowMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxChecking: 64,
  maxPendingPerClient: 4,
  maxPending: 64,
  maxAddresses: 10_000,
} as const;

export interface AuthThrottle {
  /**
   * Runs `check` (the check of `credential`, presented from `address`) in its bucket's turn: at
   * once, or after the bucket's wait. Resolves with what `check` resolves; a result of
   * undefined is a failure and is counted, any other makes the credential's prefix known.
   * Rejects with TOO_MANY_REQUESTS (`details.retry_after_s`, whole seconds) without running
   * `check` when too many checks of the bucket already wait. Without `credential` the check
   * counts in the client's unknown bucket.
   */
  guard<T>(
    address: string,
    check: () => Promise<T | undefined> | T | undefined,
    credential?: string,
  ): Promise<T | undefined>;
  /** Makes `credential`'s prefix known: its checks get a bucket of their own (the sign-in token). */
  remember(credential: string): void;
  /** Failures in the window of the bucket `credential` would be checked in from `address`. */
  failures(address: string, credential?: string): number;
  /** Checks waiting now. */
  readonly pending: number;
  /** Lets every waiting check go at once and ends the waits (server shutdown). Idempotent. */
  close(): void;
}

const realTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

/** What is kept of a prefix: its hash, never the characters of a key. */
const prefixHash = (credential: string) =>
  createHash('sha256').update(credential.slice(0, PREFIX_CHARS)).digest('base64url');

export function createAuthThrottle(options: AuthThrottleOptions = {}): AuthThrottle {
  const settings = { ...AUTH_THROTTLE_DEFAULTS, ...definedOnly(options) };
  const { freeFailures, windowMs, baseDelayMs, maxDelayMs, maxChecking, maxPendingPerClient, maxPending } =
    settings;
  const { maxAddresses } = settings;
  const clock = options.clock ?? systemClock;
  const schedule = options.schedule ?? realTimer;
  // Past this many failures in the window the wait is at its cap, so older ones need not be kept.
  const doublings = baseDelayMs > 0 ? Math.ceil(Math.log2(Math.max(1, maxDelayMs / baseDelayMs))) : 0;
  const keep = freeFailures + doublings + 1;
  /** Failure times per bucket, oldest first; Map order = least recently failing first. */
  const history = new Map<string, number[]>();
  /** Hashes of known prefixes; Map order = least recently passing first. */
  const known = new Map<string, true>();
  /** Waiting checks per bucket. */
  const pendingOf = new Map<string, number>();
  /** Checks under way per bucket (see the count in `guard`). */
  const checking = new Map<string, number>();
  const adjust = (counts: Map<string, number>, bucket: string, by: number) => {
    const value = (counts.get(bucket) ?? 0) + by;
    if (value > 0) counts.set(bucket, value);
    else counts.delete(bucket);
  };
  /** Release of every waiting check (for close). */
  const waiting = new Set<() => void>();
  let closed = false;

  const remember = (credential: string) => {
    const hash = prefixHash(credential);
    known.delete(hash);
    known.set(hash, true);
    if (known.size > maxAddresses) known.delete(known.keys().next().value!);
  };

  /** The bucket of `credential` from `address`: its own when its prefix is known, else the client's unknown one. */
  const bucketOf = (address: string, credential: string | undefined): string => {
    const client = throttleClient(address);
    if (credential === undefined) return `${client} ?`;
    const hash = prefixHash(credential);
    return known.has(hash) ? `${client} ${hash}` : `${client} ?`;
  };

  const recent = (bucket: string, now: number): number[] => {
    const times = (history.get(bucket) ?? []).filter((t) => t > now - windowMs);
    if (times.length === 0) history.delete(bucket);
    return times;
  };

  const recordFailure = (bucket: string) => {
    const now = clock.now();
    const times = recent(bucket, now);
    times.push(now);
    if (times.length > keep) times.splice(0, times.length - keep);
    history.delete(bucket);
    history.set(bucket, times);
    if (history.size > maxAddresses) history.delete(history.keys().next().value!);
  };

  /** The wait before a check when `count` failures are in the window. */
  const waitFor = (count: number): number =>
    count < freeFailures || baseDelayMs <= 0
      ? 0
      : Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(count - freeFailures, 30));

  const turn = (bucket: string, delayMs: number): Promise<void> => {
    const mine = pendingOf.get(bucket) ?? 0;
    if (mine >= maxPendingPerClient || waiting.size >= maxPending) {
      const retryAfterS = Math.max(1, Math.ceil(delayMs / 1000));
      return Promise.reject(
        new AppError(
          'TOO_MANY_REQUESTS',
          `Too many failed authentications; retry in ${retryAfterS} s with a valid API key.`,
          { retry_after_s: retryAfterS },
        ),
      );
    }
    adjust(pendingOf, bucket, 1);
    return new Promise<void>((resolve) => {
      let cancel = () => {};
      const release = () => {
        if (!waiting.delete(release)) return;
        cancel();
        adjust(pendingOf, bucket, -1);
        resolve();
      };
      waiting.add(release);
      cancel = schedule(release, delayMs);
    });
  };

  return {
    async guard(address, check, credential) {
      const bucket = bucketOf(address, credential);
      const failures = recent(bucket, clock.now()).length;
      const busy = checking.get(bucket) ?? 0;
      // A crowd of checks under way (more than a busy app has) makes the next one wait too.
      const count = failures < freeFailures && busy >= maxChecking ? freeFailures : failures;
      const delayMs = closed ? 0 : waitFor(count);
      if (delayMs > 0) await turn(bucket, delayMs);
      adjust(checking, bucket, 1);
      try {
        const result = await check();
        if (result === undefined) recordFailure(bucket);
        else if (credential !== undefined) remember(credential);
        return result;
      } finally {
        adjust(checking, bucket, -1);
      }
    },
    remember,
    failures(address, credential) {
      return recent(bucketOf(address, credential), clock.now()).length;
    },
    get pending() {
      return waiting.size;
    },
    close() {
      closed = true;
      for (const release of [...waiting]) release();
    },
  };
}

/** The client an address counts as: every loopback address is one client. */
function throttleClient(address: string): string {
  const plain = plainAddress(address);
  return plain === '::1' || /^127\.\d+\.\d+\.\d+$/.test(plain) ? 'loopback' : plain;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
