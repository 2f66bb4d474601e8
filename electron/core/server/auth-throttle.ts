/**
 * Makes guessing credentials (bearer keys, studio sign-in tokens) cost time, for the guesser
 * alone.
 *
 * Every request that presents a credential is checked in its bucket's turn (`guard`). A bucket
 * is the client (its remote address, or the real client behind a trusted proxy: `request.ip`;
 * every loopback address, 127.0.0.0/8 and ::1, is one client, since any local program can send
 * from 127.0.0.2, 127.0.0.3, …) together with what it knows of the credential:
 *
 * - a credential whose first `KEY_BUCKET_CHARS` (12) characters begin a live key, or a
 *   credential that passed a check, or the current sign-in token, has a bucket of its own per
 *   client: `client + prefix`;
 * - every other credential of the client shares one bucket: `client + unknown`.
 *
 * A key's prefix is known from the moment the key exists, restarts included: the keys table
 * holds the hash of each key's prefix (`api_keys.prefix_hash`, written when the key is made,
 * generated or `serve --api-key`), and a prefix the throttle does not hold in memory is asked of
 * the store (`liveKeys`: one query at a time, the prefixes that arrived meanwhile in one batch),
 * then held. A key made by a version before that column has no hash until its first success
 * (`authenticate` writes it then; `serve --api-key` at start): such a key can wait once, ever.
 * A revoked key's prefix stops being known: at once when revoked through this server
 * (`forget`), and elsewhere (another instance, the command line) at its first failure here,
 * which drops the prefix from memory so that the next one asks the store again.
 *
 * In each bucket:
 *
 * - failures are counted in a sliding window (`windowMs`, default 60 s);
 * - while a bucket has fewer than `freeFailures` (default 5) in the window, its credentials are
 *   checked at once, as long as it has fewer than `maxChecking` (default 64, more than a busy
 *   app needs) under way: a burst of simultaneous guesses cannot all pass while the count is
 *   still low; in the unknown bucket, where a check is as good as a failure since every key in
 *   use has a bucket of its own, a check under way counts as a failure, so a burst of guesses
 *   gets no more than its free failures checked at once;
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
 * the first 12 characters of one either (a generated key has 48 random bits there: `nsk_` and 8
 * of its 43 random characters): whatever it sends, and however it varies the prefix from try
 * to try, lands in its client's unknown bucket, which its failures fill. A valid key lands in
 * its own bucket, where no failure is counted, so it is checked at once and never waits or gets
 * a 429 because someone else behind the same address (everyone behind a proxy, every local
 * program) keeps failing, from its very first request on. Only a wrong key that begins with the
 * same 12 characters as a right one (a revoked key sharing the prefix of a live one, or someone
 * who already holds part of the key) slows that key's bucket, and only for its own client. The
 * buckets keep the old bound on the guesser: its unknown bucket checks at most
 * `maxPendingPerClient` per `maxDelayMs` (0.8 a second by default) past its free failures,
 * however many connections it opens and however it varies its guesses.
 *
 * Why 12 characters. The prefix must separate a key from guesses: finding a live prefix by
 * trying them at the unknown bucket's pace must be hopeless, and 48 random bits are (2^47 tries
 * on average, 5,500,000 years at 0.8 a second). It must also give away little, both to a client
 * (whose own bucket answering at once says that a prefix begins a live key) and to whoever
 * reads the database: the column is a fast hash, so 12 characters can be searched offline
 * apart from the rest of the key, turning the search for a key into a search for its prefix and
 * then for the rest. The database already shows a key's first 4 characters (`key_prefix`) and
 * holds the SHA-256 of the whole key (`key_hash`), so the column adds characters 5–12:
 * - a generated key (`nsk_` + 43 random characters, 256 bits): 48 bits found by that search,
 *   208 left, as far beyond reach as before;
 * - the shortest user-chosen key `serve --api-key` takes (32 characters): at most 8 characters
 *   (52 bits of printable ASCII) to that search, and 20 characters (up to 131 bits) left to
 *   protect it. With 16 characters the rest would be 16 characters (105 bits) and a guesser's
 *   own bucket would answer for more of the key; with 8, a generated key's bucket would hold 24
 *   random bits, found online in hours by a few hundred addresses.
 * A key chosen by hand should still not begin with a word: its prefix would be guessed in
 * its owner's bucket. The hash is in a domain of its own (`keyPrefixHash`), never equal to a
 * hash of the same characters made for anything else. In memory, only hashes are held, at most
 * `maxAddresses` of them.
 */

import { AppError } from '../../shared/errors';
import { keyPrefixHash } from '../jobs';
import { systemClock, type Clock } from '../platform/clock';
import { plainAddress } from './http-edge';

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
   * Buckets remembered at most, and known prefixes held in memory at most; the least recently
   * failing (or passing) is forgotten first (default 10 000).
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
  /**
   * A key with this prefix hash (`keyPrefixHash`) was revoked: the prefix is asked of the store
   * again before its next check, and stays known only if a live key has it.
   */
  forget(prefixHash: string): void;
  /**
   * Failures in the window of the bucket `credential` would be checked in from `address`, as far
   * as the prefixes held in memory tell.
   */
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

/** Of the prefix hashes given, those a live key has (the store's `keys.livePrefixHashes`). */
export type LiveKeyPrefixes = (prefixHashes: readonly string[]) => Promise<string[]>;

/** Prefixes asked of the store in one query at most. */
const LOOKUP_BATCH = 256;

/**
 * Whether a live key has each prefix hash asked: one query under way at a time, the hashes asked
 * meanwhile in the next (at most LOOKUP_BATCH a query), so a flood of guesses holds one database
 * connection at most. A query that fails answers "not known" (the guess's bucket; the check
 * that follows meets the same database).
 */
function batchedLookup(liveKeys: LiveKeyPrefixes): (prefixHash: string) => Promise<boolean> {
  const asked = new Map<string, ((live: boolean) => void)[]>();
  let running = false;
  const drain = async () => {
    while (asked.size > 0) {
      const batch = [...asked].slice(0, LOOKUP_BATCH);
      for (const [hash] of batch) asked.delete(hash);
      const hashes = batch.map(([hash]) => hash);
      const live = new Set(
        await Promise.resolve(hashes)
          .then(liveKeys)
          .catch(() => []),
      );
      for (const [hash, answers] of batch) for (const answer of answers) answer(live.has(hash));
    }
  };
  return (prefixHash) =>
    new Promise<boolean>((resolve) => {
      const answers = asked.get(prefixHash);
      if (answers) answers.push(resolve);
      else asked.set(prefixHash, [resolve]);
      if (running) return;
      running = true;
      drain()
        .catch(() => {
          for (const pending of asked.values()) for (const answer of pending) answer(false);
          asked.clear();
        })
        .finally(() => (running = false));
    });
}

/**
 * The throttle; `liveKeys` (the store) tells which prefixes begin a live key, so a key is known
 * from its first request. Without it only the credentials that passed, and those remembered,
 * are known.
 */
export function createAuthThrottle(
  options: AuthThrottleOptions = {},
  liveKeys?: LiveKeyPrefixes,
): AuthThrottle {
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
  /**
   * Hashes of known prefixes held in memory: `pinned` (the sign-in tokens: `remember`), `live` (a
   * key's, from the store or a success), or `recheck` (a live one after a failure in its bucket
   * or `forget`: asked of the store again before its next check, dropped if no live key has it;
   * without a store, still known). Map order = least recently passing first.
   */
  const known = new Map<string, 'pinned' | 'live' | 'recheck'>();
  const lookup = liveKeys ? batchedLookup(liveKeys) : undefined;
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

  const hold = (hash: string, kind: 'pinned' | 'live') => {
    const held = known.get(hash);
    known.delete(hash);
    known.set(hash, held === 'pinned' ? held : kind);
    if (known.size > maxAddresses) known.delete(known.keys().next().value!);
  };
  const forget = (hash: string) => {
    if (known.get(hash) === 'live') known.set(hash, 'recheck');
  };

  /** Whether `hash` is a known prefix: held in memory, or (asked, then held) a live key's. */
  const isKnown = async (hash: string): Promise<boolean> => {
    const held = known.get(hash);
    if (held === 'pinned' || held === 'live') return true;
    if (!lookup) return held !== undefined;
    if (await lookup(hash)) {
      hold(hash, 'live');
      return true;
    }
    if (known.get(hash) === 'recheck') known.delete(hash);
    return false;
  };

  /** The bucket of a credential (its prefix hash, if any) from `address`. */
  const bucketIn = (address: string, hash: string | undefined, isKnownPrefix: boolean): string =>
    `${throttleClient(address)} ${hash !== undefined && isKnownPrefix ? hash : '?'}`;

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
      const hash = credential === undefined ? undefined : keyPrefixHash(credential);
      const isKnownPrefix = hash !== undefined && (await isKnown(hash));
      const bucket = bucketIn(address, hash, isKnownPrefix);
      const failures = recent(bucket, clock.now()).length;
      const busy = checking.get(bucket) ?? 0;
      // A crowd of checks under way (more than a busy app has) makes the next one wait too. In
      // the unknown bucket a check under way is as good as a failure (every key in use has a
      // bucket of its own), so it counts as one: a burst gets its free failures checked, no more.
      const counted = isKnownPrefix ? failures : failures + busy;
      const count = counted < freeFailures && busy >= maxChecking ? freeFailures : counted;
      const delayMs = closed ? 0 : waitFor(count);
      if (delayMs > 0) await turn(bucket, delayMs);
      adjust(checking, bucket, 1);
      try {
        const result = await check();
        if (result === undefined) {
          recordFailure(bucket);
          // A revoked key (or a wrong one sharing a live key's prefix): ask the store next time.
          if (hash !== undefined) forget(hash);
        } else if (hash !== undefined) hold(hash, 'live');
        return result;
      } finally {
        adjust(checking, bucket, -1);
      }
    },
    remember: (credential) => hold(keyPrefixHash(credential), 'pinned'),
    forget,
    failures(address, credential) {
      const hash = credential === undefined ? undefined : keyPrefixHash(credential);
      return recent(bucketIn(address, hash, hash !== undefined && known.has(hash)), clock.now()).length;
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
