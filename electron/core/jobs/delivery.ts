/**
 * Callback delivery: POSTs the spec's payload to callback_url, signs it with the time of the
 * attempt (X-Narration-Signature; the older X-Signature too, for one more release), and records
 * every attempt: the receiver's status, never its answer's body. Where a callback may go is
 * callback-targets.ts's business; a user name and password in the URL go as Basic
 * authentication, and never into the log. Non-2xx answers and connection errors are failures,
 * retried with exponential backoff; the schedule lives in the database, so deliveries due
 * before a crash are made after the restart (at least once). On a database several instances
 * share, each instance claims a due delivery before its attempt by moving its due time a lease
 * ahead: the others skip it, and take it over when that instance dies before recording the
 * attempt.
 */

import { createHmac } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Agent, request } from 'undici';
import type { CallbackResultCode, CallbackState } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { RequestRow, Store } from '../store';
import { isoTime, type Clock } from '../platform/clock';
import { redactUrl, type Log } from '../platform/log';
import {
  CallbackRefusedError,
  NOT_ALLOWED,
  OPEN_CALLBACK_TARGETS,
  type CallbackTargets,
} from './callback-targets';
import type { JobEvents } from './events';
import { buildCallbackPayload, type Links } from './links';
import { createStoreRetry, errorText } from './store-retry';

export interface RetryPolicy {
  /** Attempts per round, the first included (default 6). */
  attempts: number;
  /** Wait before the second attempt, ms (default 2000); doubles each time: 2+4+8+16+32 s ≈ 1 min. */
  baseDelayMs: number;
  /** Growth of the wait per attempt (default 2). */
  factor: number;
  /** Time allowed for the receiver to answer, ms (default 10 000). */
  timeoutMs: number;
}

const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 2000, factor: 2, timeoutMs: 10_000 };

export interface Deliverer {
  start(): void;
  /** Looks for due deliveries now (call when a request finished). */
  kick(): void;
  /**
   * Starts a new round of attempts for a finished request now. Throws NO_CALLBACK_URL or
   * REQUEST_NOT_FINISHED.
   */
  retry(row: RequestRow): Promise<void>;
  /** Stops scheduling and waits for attempts in flight (each is bounded by the timeout). */
  close(): Promise<void>;
  /** Re-reads the schedule (other instances may have changed it). */
  reschedule(): void;
}

export interface DelivererOptions {
  store: Store;
  links: Links;
  events: JobEvents;
  clock: Clock;
  log: Log;
  retry?: Partial<RetryPolicy>;
  /** Where callbacks may go (default: anywhere, as for a server on loopback only). */
  targets?: CallbackTargets;
  /** Attempts in flight at most (default 32). */
  concurrency?: number;
  /**
   * Attempts in flight to one origin (scheme, host, port) at most (default 8), so receivers
   * that hang cannot take every slot and hold up everyone else's callbacks.
   */
  perOriginConcurrency?: number;
  /**
   * First wait before trying the store again after it failed (reading due deliveries,
   * recording an attempt), ms, doubling up to 30 s (default 1000).
   */
  storeRetryMs?: number;
  /**
   * On a shared database, how long a claimed delivery stays claimed, ms (default 60 000,
   * longer than an attempt's timeout): past it, another instance makes the attempt.
   */
  claimMs?: number;
  /**
   * On a shared database, the longest the deliverer goes without reading the schedule, ms
   * (default 2000): other instances add due times (and leave them behind when they die).
   */
  pollMs?: number;
}

/**
 * The X-Narration-Signature value: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with
 * the key's signing secret. The time is the attempt's, so a receiver can refuse old deliveries
 * (a replay) and a retry carries a fresh one.
 */
function signDelivery(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * The old X-Signature value: `sha256=` and the hex HMAC-SHA256 of the body alone. It signs no
 * time, so a captured delivery can be replayed forever: sent until LEGACY_SIGNATURE_REMOVED_IN.
 */
function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The release that stops sending X-Signature (said in a header of each delivery, and in docs/API.md). */
export const LEGACY_SIGNATURE_REMOVED_IN = '0.3.0';

/** A receiver's answer as recorded and shown: `HTTP <status> <standard reason>`, never its body. */
function statusResult(statusCode: number): string {
  return `HTTP ${statusCode} ${STATUS_CODES[statusCode] ?? ''}`.trimEnd();
}

/**
 * A stored result as shown: attempts recorded before bodies stopped being kept held
 * `HTTP <status>: <start of the answer>`; only the status is shown of those. Connection errors
 * recorded before addresses stopped being kept ("connect ECONNREFUSED 10.0.0.5:22") are shown
 * without the address.
 */
export function shownResult(result: string): string {
  const status = /^HTTP (\d{3})(?::|$)/.exec(result);
  return status ? statusResult(Number(status[1])) : result.replace(ADDRESS_IN_TEXT, '…');
}

/** Headers of an attempt: JSON, who sends it, the request, both signatures, Basic authentication from the URL. */
function attemptHeaders(
  requestId: string,
  body: string,
  secret: string | undefined,
  unixSeconds: number,
  target: URL,
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'NarrationStudio-Callback/1',
    'x-request-id': requestId,
  };
  if (secret !== undefined) {
    headers['x-narration-signature'] = signDelivery(secret, body, unixSeconds);
    headers['x-signature'] = signBody(secret, body);
    headers['x-signature-deprecated'] =
      `X-Signature is removed in ${LEGACY_SIGNATURE_REMOVED_IN}; verify X-Narration-Signature`;
  }
  if (target.username || target.password) {
    // As the URL parser keeps them, percent-escaped; a malformed escape is sent as written.
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    };
    const user = `${decode(target.username)}:${decode(target.password)}`;
    headers.authorization = `Basic ${Buffer.from(user, 'utf8').toString('base64')}`;
  }
  return headers;
}

/** Due rows looked at beyond the free slots, to find ones whose origin is not at its limit. */
const ORIGIN_LOOKAHEAD = 256;
/** While due rows wait for a busy origin, how often to look again, ms. */
const BLOCKED_RECHECK_MS = 100;

/** scheme://host:port of a callback URL (the URL itself if it does not parse). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Attempts made whose outcome the store failed to record, by request id: each records and
 * announces it (throwing while the store still fails). Their rows stay due, so if the process
 * stops first, the next start sends those callbacks again (at least once).
 */
function createUnrecordedAttempts(storeFailed: (what: string, error: unknown) => void) {
  const unrecorded = new Map<string, () => Promise<void>>();
  return {
    keep: (id: string, record: () => Promise<void>) => void unrecorded.set(id, record),
    has: (id: string) => unrecorded.has(id),
    get size() {
      return unrecorded.size;
    },
    /** Records the attempts the store failed to take earlier; false while it still fails. */
    async recordAll(): Promise<boolean> {
      for (const [id, record] of unrecorded) {
        try {
          await record();
        } catch (error) {
          storeFailed(
            `callbacks: ${unrecorded.size} attempt(s) still not recorded (request ${id} first)`,
            error,
          );
          return false;
        }
        unrecorded.delete(id);
      }
      return true;
    },
  };
}

/** In-flight attempts per callback origin, at most `limit` each. */
function createOriginSlots(limit: number) {
  const perOrigin = new Map<string, number>();
  return {
    full: (origin: string) => (perOrigin.get(origin) ?? 0) >= limit,
    take: (origin: string) => void perOrigin.set(origin, (perOrigin.get(origin) ?? 0) + 1),
    release(origin: string) {
      const left = (perOrigin.get(origin) ?? 1) - 1;
      if (left > 0) perOrigin.set(origin, left);
      else perOrigin.delete(origin);
    },
  };
}

/** The connections of callbacks; a restricted server's resolve names with the lookup that checks each address. */
function callbackAgent(policy: RetryPolicy, targets: CallbackTargets): Agent {
  return new Agent({
    connect: { timeout: policy.timeoutMs, ...(targets.lookup ? { lookup: targets.lookup } : {}) },
    keepAliveTimeout: 4000,
  });
}

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { store, links, events, clock, log } = options;
  const targets = options.targets ?? OPEN_CALLBACK_TARGETS;
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const concurrency = options.concurrency ?? 32;
  const perOriginConcurrency = Math.max(1, options.perOriginConcurrency ?? 8);
  const agent = callbackAgent(policy, targets);
  const inFlight = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let started = false;
  let closed = false;

  const origins = createOriginSlots(perOriginConcurrency);

  const unrecorded = createUnrecordedAttempts((what, error) => storeFailed(what, error));
  const claimMs = Math.max(options.claimMs ?? 60_000, policy.timeoutMs * 2);
  /** How long the timer may sleep: forever on SQLite (only this process schedules), else the poll. */
  const longestWait = store.exclusive ? 2 ** 31 - 1 : (options.pollMs ?? 2000);
  const storeRetry = createStoreRetry(options.storeRetryMs);
  /** Armed while the store is failing: until it fires, nothing else schedules. */
  let storeTimer: NodeJS.Timeout | undefined;

  /** Logs a store failure and looks again after a growing wait (never in a tight loop). */
  const storeFailed = (what: string, error: unknown) => {
    log.warn(`${what}: ${errorText(error)}`);
    if (storeTimer || closed) return;
    clearTimeout(timer);
    timer = undefined;
    storeTimer = setTimeout(() => {
      storeTimer = undefined;
      check();
    }, storeRetry.nextDelay());
  };

  /** Counts schedule reads, so an older read never arms the timer over a newer one. */
  let scheduleRead = 0;
  /** Arms the timer for the next due delivery, but not sooner than `minWaitMs`. */
  const schedule = (minWaitMs = 0) => {
    if (!started || closed || storeTimer) return;
    const read = ++scheduleRead;
    store.requests.nextCallbackDue().then(
      (due) => {
        if (read !== scheduleRead || !started || closed || storeTimer || checking) return;
        clearTimeout(timer);
        timer = undefined;
        const wait = due === undefined ? longestWait : Math.max(minWaitMs, due - clock.now());
        if (due === undefined && store.exclusive) return;
        timer = setTimeout(check, Math.min(wait, longestWait));
      },
      (error: unknown) => storeFailed('callbacks: could not read the schedule', error),
    );
  };

  /** True while a check reads and claims: it schedules when it ends. */
  let checking = false;
  let checkAgain = false;
  const check = () => {
    timer = undefined;
    if (!started || closed || storeTimer) return;
    if (checking) {
      checkAgain = true;
      return;
    }
    checking = true;
    void runCheck()
      .catch((error: unknown) => storeFailed('callbacks: could not read the deliveries due', error))
      .finally(() => {
        checking = false;
        if (checkAgain) {
          checkAgain = false;
          check();
        }
      });
  };

  const runCheck = async () => {
    if (!(await unrecorded.recordAll())) return;
    const free = concurrency - inFlight.size;
    let blocked = false;
    if (free > 0) {
      // Look past rows whose origin is at its limit, up to a bounded number.
      const due = await store.requests.dueCallbacks(clock.now(), free + inFlight.size + ORIGIN_LOOKAHEAD);
      storeRetry.reset();
      const rows = due.filter((r) => !inFlight.has(r.id) && !unrecorded.has(r.id));
      let begun = 0;
      for (const row of rows) {
        if (begun >= free) break;
        const origin = originOf(row.callback_url!);
        if (origins.full(origin)) {
          blocked = true;
          continue;
        }
        // Shared database: claimed, or another instance got it first.
        if (
          !store.exclusive &&
          !(await store.requests.claimCallback(row.id, row.callback_due_at!, clock.now() + claimMs))
        )
          continue;
        if (closed) return;
        origins.take(origin);
        begun++;
        const attempt = deliver(row)
          // Only the store can fail here (before the POST: the row is still due, tried again).
          .catch((error: unknown) => storeFailed(`callback ${row.id}: could not make the attempt`, error))
          .finally(() => {
            inFlight.delete(row.id);
            origins.release(origin);
            schedule();
          });
        inFlight.set(row.id, attempt);
      }
    }
    // When every slot is busy, the next finished attempt calls schedule(). Rows waiting for a
    // busy origin are due already: look again shortly rather than at once (no busy loop).
    if (inFlight.size < concurrency) {
      checking = false;
      schedule(blocked ? BLOCKED_RECHECK_MS : 0);
    }
  };

  const via: Attempting = { store, events, log, links, targets, agent, policy, clock };
  const deliver = async (row: RequestRow): Promise<void> => {
    const record = await attemptCallback(via, row);
    try {
      await record();
    } catch (error) {
      // Made but not recorded: kept to record later rather than sent again.
      unrecorded.keep(row.id, record);
      storeFailed(
        `callback ${row.id} attempt ${row.callback_attempts + 1}: could not record the outcome (kept to record later)`,
        error,
      );
    }
  };

  const kick = () => {
    if (!started || closed || storeTimer) return;
    clearTimeout(timer);
    timer = setTimeout(check, 0);
  };

  return {
    start() {
      started = true;
      schedule();
    },
    kick,
    reschedule: () => schedule(),
    async retry(row) {
      assertRetryable(row);
      await store.requests.restartCallback(row.id, clock.now());
      kick();
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      clearTimeout(storeTimer);
      await Promise.allSettled(inFlight.values());
      // A last try; a callback whose attempt is still not recorded is sent again after the next start.
      if (unrecorded.size > 0 && !(await unrecorded.recordAll())) {
        log.warn(
          `callbacks: ${unrecorded.size} attempt(s) could not be recorded; those callbacks are sent again after the next start`,
        );
      }
      await agent.close();
    },
  };
}

/** What an attempt got: the receiver's status, or why it got none. */
interface SentCallback {
  url: string;
  body: string;
  startedAt: number;
  statusCode: number | null;
  result: string;
  resultCode: CallbackResultCode;
  success: boolean;
  /** The destination is refused (callback-targets.ts): no retries. */
  refused: boolean;
  /** Why, for the operator's log only (the record says what a client may know). */
  reason: string | undefined;
}

/** What an attempt uses. */
interface Attempting {
  store: Store;
  events: JobEvents;
  log: Log;
  links: Links;
  targets: CallbackTargets;
  agent: Agent;
  policy: RetryPolicy;
  clock: Clock;
}

/**
 * Makes a callback's attempt (a failure goes to the log with its reason); the function returned
 * records it (store.transaction, then the `delivery` event), and may be called again when the
 * store failed.
 */
async function attemptCallback(via: Attempting, row: RequestRow): Promise<() => Promise<void>> {
  const key = await via.store.keys.findById(row.key_id);
  const sent = await postCallback(row, key?.signing_secret, via);
  const attempt = attemptRecordOf(row, sent, via.policy, via.clock.now());
  if (!sent.success)
    via.log.warn(
      `callback ${row.id} attempt ${attempt.attempt} to ${redactUrl(sent.url)}: ${sent.result}${sent.reason && sent.reason !== sent.result ? ` (${sent.reason})` : ''}`,
    );
  return () => recordAttempt(via.store, via.events, row, sent, attempt);
}

/** POSTs a request's callback once, signed with its key's secret; never throws. */
async function postCallback(
  row: RequestRow,
  secret: string | undefined,
  via: Attempting,
): Promise<SentCallback> {
  const { policy } = via;
  const body = JSON.stringify(buildCallbackPayload(row, via.links));
  const url = row.callback_url!;
  const startedAt = via.clock.now();
  try {
    const target = new URL(url);
    const refusal = via.targets.refusal(target);
    if (refusal) throw new CallbackRefusedError(refusal);
    const headers = attemptHeaders(row.id, body, secret, Math.floor(startedAt / 1000), target);
    target.username = '';
    target.password = '';
    const response = await request(target, {
      method: 'POST',
      dispatcher: via.agent,
      headers,
      body,
      headersTimeout: policy.timeoutMs,
      bodyTimeout: policy.timeoutMs,
    });
    const statusCode = response.statusCode;
    const result = statusResult(statusCode);
    await discardBody(response.body, ANSWER_READ_LIMIT);
    const success = statusCode >= 200 && statusCode < 300;
    return {
      url,
      body,
      startedAt,
      statusCode,
      result,
      resultCode: 'http',
      success,
      refused: false,
      reason: undefined,
    };
  } catch (error) {
    const refused = (error as { code?: unknown } | undefined)?.code === CallbackRefusedError.CODE;
    const { result, code: resultCode } = describeError(error, policy.timeoutMs);
    const reason = refused ? (error as CallbackRefusedError).reason : errorMessage(error);
    return { url, body, startedAt, statusCode: null, result, resultCode, success: false, refused, reason };
  }
}

/** An attempt as recorded: its row, and the callback's state and next due time after it. */
function attemptRecordOf(row: RequestRow, sent: SentCallback, policy: RetryPolicy, now: number) {
  const round = row.callback_round_attempts + 1;
  let state: CallbackState;
  let dueAt: number | null = null;
  if (sent.success) state = 'delivered';
  // A refused destination stays refused: no retries.
  else if (sent.refused || round >= policy.attempts) state = 'failed';
  else {
    state = 'pending';
    dueAt = now + policy.baseDelayMs * policy.factor ** (round - 1);
  }
  const attempt = row.callback_attempts + 1;
  return {
    attempt,
    round,
    state,
    dueAt,
    row: {
      request_id: row.id,
      attempt,
      callback_url: sent.url,
      created_at: isoTime(sent.startedAt),
      payload: sent.body,
      status_code: sent.statusCode,
      result: sent.result,
      result_code: sent.resultCode,
      duration_ms: Math.max(0, now - sent.startedAt),
    },
  };
}

/** Records an attempt and its callback's new state in one transaction, then announces it. */
async function recordAttempt(
  store: Store,
  events: JobEvents,
  row: RequestRow,
  sent: SentCallback,
  attempt: ReturnType<typeof attemptRecordOf>,
): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.callbacks.insert(attempt.row);
    await tx.requests.updateCallback(row.id, attempt.state, attempt.dueAt, attempt.round);
  });
  events.emit('delivery', {
    keyId: row.key_id,
    request_id: row.id,
    attempt: attempt.attempt,
    status_code: sent.statusCode,
    result: sent.result,
    result_code: sent.resultCode,
    created_at: attempt.row.created_at,
    callback_state: attempt.state,
  });
}

/** Throws NO_CALLBACK_URL or REQUEST_NOT_FINISHED unless the request's callback may be retried. */
function assertRetryable(row: RequestRow): void {
  if (!row.callback_url) throw new AppError('NO_CALLBACK_URL', 'This request has no callback_url.');
  if (row.status !== 'SUCCESS' && row.status !== 'FAILURE') {
    throw new AppError(
      'REQUEST_NOT_FINISHED',
      'The request is not finished yet; its callback will be sent when it is.',
    );
  }
}

/** How much of a receiver's answer is read (and dropped) before the connection is cut, bytes. */
const ANSWER_READ_LIMIT = 64 * 1024;

/**
 * Reads a receiver's answer to its end and drops it: never kept, so never shown. An answer cut
 * off fails the attempt as before (a connection error); one longer than `limit` bytes is cut here.
 */
async function discardBody(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
): Promise<void> {
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > limit) {
      body.destroy();
      return;
    }
  }
}

/** Connection errors by Node's code: the result's code and its words, which name no address or port. */
const CONNECTION_ERRORS: Record<string, DeliveryFailure> = {
  ECONNREFUSED: { code: 'refused', result: 'connection refused' },
  ECONNRESET: { code: 'reset', result: 'connection reset before a complete answer' },
  EPIPE: { code: 'closed', result: 'connection closed before a complete answer' },
  UND_ERR_SOCKET: { code: 'closed', result: 'connection closed before a complete answer' },
  EHOSTUNREACH: { code: 'host_unreachable', result: 'host unreachable' },
  ENETUNREACH: { code: 'network_unreachable', result: 'network unreachable' },
  EHOSTDOWN: { code: 'host_unreachable', result: 'host unreachable' },
  ENOTFOUND: { code: 'host_not_found', result: 'host name not found' },
  EAI_AGAIN: { code: 'host_not_found_temporary', result: 'host name not found (temporary failure)' },
  ETIMEDOUT: { code: 'timeout_connect', result: 'timeout: could not connect' },
  ECONNABORTED: { code: 'aborted', result: 'connection aborted' },
  CERT_HAS_EXPIRED: { code: 'cert_expired', result: 'TLS certificate expired' },
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    code: 'cert_self_signed',
    result: 'TLS certificate not trusted (self-signed)',
  },
  SELF_SIGNED_CERT_IN_CHAIN: {
    code: 'cert_self_signed',
    result: 'TLS certificate not trusted (self-signed)',
  },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { code: 'cert_untrusted', result: 'TLS certificate not trusted' },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    code: 'cert_host',
    result: "TLS certificate not valid for the callback's host name",
  },
};
/** The innermost error Node or undici threw (fetch's "fetch failed" wraps its cause). */
function rootError(error: unknown): unknown {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  return error instanceof Error && error.message === 'fetch failed' && cause instanceof Error
    ? rootError(cause)
    : error;
}

/** The error's own message, for the operator's log. */
function errorMessage(error: unknown): string {
  const root = rootError(error);
  return root instanceof Error ? root.message || String((root as NodeJS.ErrnoException).code) : String(root);
}

/** An `address:port` (IPv4, bracketed or bare IPv6) or a bare address left in an error's text. */
const ADDRESS_IN_TEXT =
  /\[[0-9a-f:.]+\](?::\d+)?|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?|(?<![\w:.])[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}(?::\d+)?/gi;

/** An attempt that got no HTTP answer: its stable code and its words (as recorded and shown). */
export interface DeliveryFailure {
  code: CallbackResultCode;
  result: string;
}

/**
 * What an attempt that got no HTTP answer records and shows: the kind of failure as a stable
 * code (`refused`, `timeout_connect`, …: what the studio words in its language) and in plain
 * English words ("connection refused", "timeout: …"), never an address or a port (Node's own
 * text, e.g. "connect ECONNREFUSED 10.0.0.5:22", goes to the log only), so stored records do not
 * map a network. A refused destination is `not_allowed`, `NOT_ALLOWED`.
 */
export function describeError(error: unknown, timeoutMs: number): DeliveryFailure {
  const root = rootError(error);
  if (!(root instanceof Error)) return { code: 'other', result: String(root).replace(ADDRESS_IN_TEXT, '…') };
  const code = (root as NodeJS.ErrnoException).code;
  switch (code) {
    case CallbackRefusedError.CODE:
      return { code: 'not_allowed', result: NOT_ALLOWED };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { code: 'timeout_connect', result: `timeout: could not connect within ${timeoutMs} ms` };
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return { code: 'timeout_answer', result: `timeout: no complete answer within ${timeoutMs} ms` };
    default:
      if (code && code in CONNECTION_ERRORS) return CONNECTION_ERRORS[code]!;
      return {
        code: 'other',
        result: (root.message || String(code ?? root.name)).replace(ADDRESS_IN_TEXT, '…'),
      };
  }
}
