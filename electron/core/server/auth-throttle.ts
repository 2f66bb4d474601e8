/**
 * Makes guessing credentials (bearer keys, studio sign-in tokens) cost time, per client.
 *
 * Every request that presents a credential is checked in its client's turn (`guard`):
 *
 * - failures of a client are counted in a sliding window (`windowMs`, default 60 s);
 * - while a client has fewer than `freeFailures` (default 5) in the window, its credentials are
 *   checked at once, as long as it has fewer than `maxChecking` (default 64, more than a busy
 *   app needs) under way: a burst of simultaneous guesses cannot all pass while the count is
 *   still low;
 * - past that, every credential it presents waits before it is even checked: `baseDelayMs`
 *   (default 250 ms), doubling with each further failure, at most `maxDelayMs` (default 5 s).
 *   A right key waits as long as a wrong one, so the time of an answer says nothing sooner
 *   than the answer itself;
 * - at most `maxPendingPerClient` (default 4) requests of a client wait at once, and at most
 *   `maxPending` (default 64) over all clients, so the parked sockets and timers stay bounded;
 *   a request beyond that is answered at once with 429 TOO_MANY_REQUESTS and a Retry-After,
 *   its credential unchecked (so the 429 says nothing about it either);
 * - a success neither resets the count nor is counted; the count decays as failures leave the
 *   window, so a person who mistyped a key is back to full speed a minute later.
 *
 * A client is its remote address, except that every loopback address (127.0.0.0/8, ::1) is
 * one client: any local program can send from 127.0.0.2, 127.0.0.3, … and would otherwise get
 * fresh free failures on each. So a local program that keeps failing slows the other local
 * programs' requests that present a key too (by at most `maxDelayMs`), for as long as it fails.
 *
 * What it buys: one client checks at most `maxPendingPerClient` credentials per `maxDelayMs`
 * (0.8 a second by default) once past its free failures, however many connections it opens.
 */

import { AppError } from '../../shared/errors';
import { systemClock, type Clock } from '../platform/clock';

export interface AuthThrottleOptions {
  /** Failures per client checked without a wait within the window (default 5). */
  freeFailures?: number;
  /** Length of the sliding window in which failures are counted, ms (default 60 000). */
  windowMs?: number;
  /** Wait after the free failures, ms, doubling with each further one (default 250; 0 turns the slow-down off). */
  baseDelayMs?: number;
  /** Longest wait of one check, ms (default 5 000). */
  maxDelayMs?: number;
  /** Checks of a client under way at once before the next one waits, failures or not (default 64). */
  maxChecking?: number;
  /** Checks of one client waiting at once; beyond it → 429 at once (default 4). */
  maxPendingPerClient?: number;
  /** Checks waiting at once over all clients; beyond it → 429 at once (default 64). */
  maxPending?: number;
  /** Clients remembered at most; the least recently failing is forgotten first (default 10 000). */
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
   * Runs `check` (the check of a credential presented from `address`) in the client's turn: at
   * once, or after the client's wait. Resolves with what `check` resolves; a result of
   * undefined is a failure and is counted. Rejects with TOO_MANY_REQUESTS
   * (`details.retry_after_s`, whole seconds) without running `check` when too many checks
   * already wait.
   */
  guard<T>(address: string, check: () => Promise<T | undefined> | T | undefined): Promise<T | undefined>;
  /** Failures of `address`'s client in the current window (at most enough to reach the longest wait). */
  failures(address: string): number;
  /** Checks waiting now. */
  readonly pending: number;
  /** Lets every waiting check go at once and ends the waits (server shutdown). Idempotent. */
  close(): void;
}

const realTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
};

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
  /** Failure times per client, oldest first; Map order = least recently failing first. */
  const history = new Map<string, number[]>();
  /** Waiting checks per client. */
  const pendingOf = new Map<string, number>();
  /** Checks under way per client (see the count in `guard`). */
  const checking = new Map<string, number>();
  const adjust = (counts: Map<string, number>, client: string, by: number) => {
    const value = (counts.get(client) ?? 0) + by;
    if (value > 0) counts.set(client, value);
    else counts.delete(client);
  };
  /** Release of every waiting check (for close). */
  const waiting = new Set<() => void>();
  let closed = false;

  const recent = (client: string, now: number): number[] => {
    const times = (history.get(client) ?? []).filter((t) => t > now - windowMs);
    if (times.length === 0) history.delete(client);
    return times;
  };

  const recordFailure = (client: string) => {
    const now = clock.now();
    const times = recent(client, now);
    times.push(now);
    if (times.length > keep) times.splice(0, times.length - keep);
    history.delete(client);
    history.set(client, times);
    if (history.size > maxAddresses) history.delete(history.keys().next().value!);
  };

  /** The wait before a check when `count` failures are in the window. */
  const waitFor = (count: number): number =>
    count < freeFailures || baseDelayMs <= 0
      ? 0
      : Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(count - freeFailures, 30));

  const turn = (client: string, delayMs: number): Promise<void> => {
    const mine = pendingOf.get(client) ?? 0;
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
    adjust(pendingOf, client, 1);
    return new Promise<void>((resolve) => {
      let cancel = () => {};
      const release = () => {
        if (!waiting.delete(release)) return;
        cancel();
        adjust(pendingOf, client, -1);
        resolve();
      };
      waiting.add(release);
      cancel = schedule(release, delayMs);
    });
  };

  return {
    async guard(address, check) {
      const client = throttleClient(address);
      const failures = recent(client, clock.now()).length;
      const busy = checking.get(client) ?? 0;
      // A crowd of checks under way (more than a busy app has) makes the next one wait too.
      const count = failures < freeFailures && busy >= maxChecking ? freeFailures : failures;
      const delayMs = closed ? 0 : waitFor(count);
      if (delayMs > 0) await turn(client, delayMs);
      adjust(checking, client, 1);
      try {
        const result = await check();
        if (result === undefined) recordFailure(client);
        return result;
      } finally {
        adjust(checking, client, -1);
      }
    },
    failures(address) {
      return recent(throttleClient(address), clock.now()).length;
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

/** The remote address of a request as the throttle counts it (an IPv4-mapped IPv6 address as plain IPv4). */
export function throttleAddress(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** The client an address counts as: every loopback address is one client. */
function throttleClient(address: string): string {
  const plain = throttleAddress(address);
  return plain === '::1' || /^127\.\d+\.\d+\.\d+$/.test(plain) ? 'loopback' : plain;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
