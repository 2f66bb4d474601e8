/**
 * Slows down repeated failed authentication (a rejected bearer key, a wrong studio sign-in
 * token), per remote address, without ever slowing a success.
 *
 * Every local app reaches the server from 127.0.0.1, so the throttle never holds back a request
 * before its credential is checked: a valid key is answered at once even while another client
 * on the same address keeps failing. Only the failed answers wait:
 *
 * - failures of an address are counted in a sliding window (`windowMs`, default 60 s);
 * - the first `freeFailures` (default 5) in the window are answered at once;
 * - each further one waits `baseDelayMs` (default 250 ms), doubling per failure, at most
 *   `maxDelayMs` (default 5 s);
 * - at most `maxPending` (default 64) delayed answers wait at a time over all addresses, so the
 *   parked sockets and timers stay bounded; a failure beyond that is answered at once with
 *   429 TOO_MANY_REQUESTS and a Retry-After;
 * - a success neither waits nor resets the count (else any valid client on the same loopback
 *   address would wipe an attacker's count), and the count decays on its own as failures leave
 *   the window, so a person who mistyped a key is back to full speed a minute later.
 *
 * What it buys: a client that waits for its answers can test at most a few keys per second, and
 * failing clients cannot tie up the server. What it cannot buy while valid keys stay instant: a
 * client that gives up on slow answers learns "wrong" from the silence. The defence against
 * guessing is the key itself (generated keys carry 256 random bits; choose long `--api-key`s).
 */

import { AppError } from '../../shared/errors';
import { systemClock, type Clock } from '../platform/clock';

export interface AuthThrottleOptions {
  /** Failures per address answered at once within the window (default 5). */
  freeFailures?: number;
  /** Length of the sliding window in which failures are counted, ms (default 60 000). */
  windowMs?: number;
  /** Delay of the first slowed failure, ms, doubling with each further one (default 250; 0 turns the slow-down off). */
  baseDelayMs?: number;
  /** Longest delay of one failed answer, ms (default 5 000). */
  maxDelayMs?: number;
  /** Delayed failed answers waiting at once over all addresses; beyond it → 429 at once (default 64). */
  maxPending?: number;
  /** Addresses remembered at most; the least recently failing is forgotten first (default 10 000). */
  maxAddresses?: number;
  /** Time source of the window (default the system clock); delays are real timers. */
  clock?: Clock;
}

export const AUTH_THROTTLE_DEFAULTS = {
  freeFailures: 5,
  windowMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  maxPending: 64,
  maxAddresses: 10_000,
} as const;

export interface AuthThrottle {
  /**
   * Records a failed authentication from `address` and resolves when its answer may be sent: at
   * once for the free failures, later for the next ones. Rejects with TOO_MANY_REQUESTS
   * (`details.retry_after_s`, whole seconds) when `maxPending` answers are already waiting.
   */
  failed(address: string): Promise<void>;
  /** Failures of `address` in the current window (at most enough to reach the longest delay). */
  failures(address: string): number;
  /** Delayed answers waiting now. */
  readonly pending: number;
  /** Lets every waiting answer go at once and ends the delays (server shutdown). Idempotent. */
  close(): void;
}

export function createAuthThrottle(options: AuthThrottleOptions = {}): AuthThrottle {
  const settings = { ...AUTH_THROTTLE_DEFAULTS, ...definedOnly(options) };
  const { freeFailures, windowMs, baseDelayMs, maxDelayMs, maxPending, maxAddresses } = settings;
  const clock = options.clock ?? systemClock;
  // Past this many failures in the window the delay is at its cap, so older ones need not be kept.
  const doublings = baseDelayMs > 0 ? Math.ceil(Math.log2(Math.max(1, maxDelayMs / baseDelayMs))) : 0;
  const keep = freeFailures + doublings + 1;
  /** Failure times per address, oldest first; Map order = least recently failing first. */
  const history = new Map<string, number[]>();
  const waiting = new Map<NodeJS.Timeout, () => void>();
  let closed = false;

  const recent = (address: string, now: number): number[] => {
    const times = (history.get(address) ?? []).filter((t) => t > now - windowMs);
    if (times.length === 0) history.delete(address);
    return times;
  };

  const delayAfter = (count: number): number =>
    count <= freeFailures || baseDelayMs <= 0
      ? 0
      : Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(count - freeFailures - 1, 30));

  return {
    failed(address) {
      const now = clock.now();
      const times = recent(address, now);
      times.push(now);
      if (times.length > keep) times.splice(0, times.length - keep);
      history.delete(address);
      history.set(address, times);
      if (history.size > maxAddresses) history.delete(history.keys().next().value!);

      const delayMs = delayAfter(times.length);
      if (delayMs === 0 || closed) return Promise.resolve();
      if (waiting.size >= maxPending) {
        const retryAfterS = Math.max(1, Math.ceil(delayMs / 1000));
        return Promise.reject(
          new AppError(
            'TOO_MANY_REQUESTS',
            `Too many failed authentications; retry in ${retryAfterS} s with a valid API key.`,
            { retry_after_s: retryAfterS },
          ),
        );
      }
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(timer);
          resolve();
        }, delayMs);
        waiting.set(timer, resolve);
      });
    },
    failures(address) {
      return recent(address, clock.now()).length;
    },
    get pending() {
      return waiting.size;
    },
    close() {
      closed = true;
      for (const [timer, resolve] of waiting) {
        clearTimeout(timer);
        resolve();
      }
      waiting.clear();
    },
  };
}

/** The remote address a failure is counted against (an IPv4-mapped IPv6 address as plain IPv4). */
export function throttleAddress(remoteAddress: string | undefined): string {
  const address = remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
