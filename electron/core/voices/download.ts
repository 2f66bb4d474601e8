/**
 * One file over HTTP into a `.part` file that survives interruptions: a cut connection, a
 * stalled body or a 5xx is retried with `Range: bytes=<length of .part>-`, so only the missing
 * bytes travel again; a server that ignores Range (200) restarts the file from zero. Sizes are
 * checked against the expected size as soon as the server states its own, so a truncated or
 * different file is refused without downloading it. Cancelled through an AbortSignal.
 *
 * Where a download may go: https anywhere; plain http only to a loopback address or to the
 * origin of an explicitly configured mirror. Redirects are followed here, hop by hop, under the
 * same rule, and never from https to http; a refused URL is refused before any connection.
 *
 * A host this machine cannot reach (its name does not resolve, the connection is refused or
 * times out, no route to it) is said in one sentence naming the host and how to import a voice
 * instead (`cannotReachMessage`), with details `{ reason: 'offline', host }`: a name that does
 * not resolve is not retried, a connection that never got through is retried once.
 */

import { isIP } from 'node:net';
import { open, stat, truncate, type FileHandle } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request, type Dispatcher } from 'undici';
import { AppError, isAppError } from '../../shared/errors';
import { outputFailedError } from '../platform/staged-file';

/** Network behaviour; tests shorten the timeouts. */
export interface HttpOptions {
  /** Time allowed for the response headers (default 30 s). */
  headersTimeoutMs?: number;
  /** Longest silence inside a body before the attempt counts as stalled (default 60 s). */
  bodyTimeoutMs?: number;
  /** Consecutive attempts without a new byte before giving up (default 5). */
  maxAttempts?: number;
  /** Pause before a retry, times the number of failures so far (default 500 ms). */
  retryDelayMs?: number;
  /**
   * Certificate authorities (PEM) trusted for https instead of the system's: an organisation's
   * mirror with its own CA, or a test's server.
   */
  ca?: string;
}

/** Redirects followed per request at most (the public host redirects once, to its CDN). */
const MAX_REDIRECTS = 5;

/** An HTTP client for one install, with the origins it may reach over plain http. */
export interface HttpClient {
  dispatcher: Dispatcher;
  /** Origins (`http://host:port`) allowed over plain http besides loopback addresses. */
  plainHttpOrigins: readonly string[];
  close(): Promise<void>;
}

/**
 * A client for one install. `mirror` is the mirror the user configured (or the default one):
 * when it is plain http, its origin may be reached over plain http.
 */
export function createHttpClient(options: HttpOptions = {}, mirror?: string): HttpClient {
  const agent = new Agent({
    headersTimeout: options.headersTimeoutMs ?? 30_000,
    bodyTimeout: options.bodyTimeoutMs ?? 60_000,
    connect: { timeout: options.headersTimeoutMs ?? 30_000, ...(options.ca ? { ca: options.ca } : {}) },
  });
  const origin = mirror ? URL.parse(mirror)?.origin : undefined;
  return {
    dispatcher: agent,
    plainHttpOrigins: origin?.startsWith('http:') ? [origin] : [],
    close: () => agent.close(),
  };
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

/**
 * Why a download may not fetch `url` (reached from `from` by a redirect, when given), or
 * undefined when it may: https anywhere, plain http only to loopback or a mirror origin in
 * `plainHttpOrigins`, and never from https down to http.
 */
export function downloadUrlProblem(
  url: string,
  plainHttpOrigins: readonly string[],
  from?: string,
): string | undefined {
  const target = URL.parse(url);
  if (!target) return 'is not a URL';
  if (target.protocol === 'https:') return undefined;
  if (target.protocol !== 'http:')
    return `uses ${target.protocol} (only https, or http to this machine or the configured mirror)`;
  if (from !== undefined && URL.parse(from)?.protocol === 'https:') return 'leaves https for plain http';
  if (isLoopback(target.hostname) || plainHttpOrigins.includes(target.origin)) return undefined;
  return 'is plain http to a host that is neither this machine nor the configured mirror (use https)';
}

export interface DownloadRequest {
  url: string;
  /** The `.part` file: resumed from its length when it exists. */
  partPath: string;
  /** The size the file must have (catalogue), or undefined to trust the server. */
  expectedSize?: number;
  /** For messages, e.g. `vi_VN-vais1000-medium.onnx`. */
  name: string;
  client: HttpClient;
  signal?: AbortSignal;
  http?: HttpOptions;
  /** Bytes of this file on disk so far and its total when known. */
  onBytes?: (done: number, total: number | undefined) => void;
  /** Called with the server's total size before the first byte is written (e.g. a disk check). */
  onTotal?: (total: number | undefined) => Promise<void>;
}

export interface DownloadResult {
  size: number;
  /** HTTP requests made (1 when nothing went wrong). */
  requests: number;
  /** Whether a request asked for a Range (a resume). */
  resumed: boolean;
}

/** Thrown inside an attempt when it may be retried (network trouble, 5xx, a bad range answer). */
class RetryableError extends Error {}

/** Error codes of a name that does not resolve (no DNS answer: offline, or no such host). */
const UNRESOLVED_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_NODATA']);
/** Error codes of a connection that never got through (refused, no route, timed out). */
const UNCONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Attempts at most when no connection to the host ever got through: one retry covers a blip;
 * a machine that is offline learns it in a second, not after five attempts.
 */
const UNREACHABLE_ATTEMPTS = 2;

/** A request that never reached `host` (`unresolved`: its name has no address). */
class UnreachableError extends Error {
  constructor(
    readonly host: string,
    readonly unresolved: boolean,
    cause: unknown,
  ) {
    super(`cannot reach ${host}`, { cause });
  }
}

/** The network error's code, from the error or its cause (undici wraps some). */
function networkCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && (UNRESOLVED_CODES.has(code) || UNCONNECTED_CODES.has(code))) return code;
  }
  return undefined;
}

/**
 * What a user reads when the download site cannot be reached: which host, and how to install a
 * voice without it. The same sentence in the studio (first run, Voice library) and the CLI.
 */
export function cannotReachMessage(host: string): string {
  return (
    `This computer cannot reach ${host}, where voices are downloaded from (no internet connection, ` +
    'or the site is blocked). To install a voice without it, bring its files from another computer ' +
    'and import them: a .zip or .tar.gz of the pack in the Voice library (Import from disk…), or ' +
    'the files or folder with npm run voices -- install <file or folder>.'
  );
}

/** VOICE_DOWNLOAD_FAILED with reason `offline`: `host` could not be reached. */
function offlineError(name: string, error: UnreachableError): AppError {
  return new AppError(
    'VOICE_DOWNLOAD_FAILED',
    cannotReachMessage(error.host),
    { file: name, reason: 'offline', host: error.host },
    { cause: error.cause },
  );
}

function downloadFailed(name: string, message: string, cause?: unknown): AppError {
  return new AppError(
    'VOICE_DOWNLOAD_FAILED',
    `Could not download ${name}: ${message}`,
    { file: name },
    { cause },
  );
}

function sizeMismatch(name: string, actual: number, expected: number): AppError {
  return new AppError(
    'VOICE_PACK_INVALID',
    `The mirror's ${name} is ${actual} bytes; the catalogue says ${expected}. ` +
      'It is truncated or a different file; nothing was installed.',
    { file: name, size: actual, expected },
  );
}

function cancelled(): AppError {
  return new AppError('CANCELLED', 'The voice download was cancelled.');
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** `bytes <start>-<end>/<total>` → start and total (total undefined for `*`). */
function parseContentRange(
  value: string | string[] | undefined,
): { start: number; total?: number } | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(text?.trim() ?? '');
  if (!match) return undefined;
  return { start: Number(match[1]), ...(match[3] === '*' ? {} : { total: Number(match[3]) }) };
}

function headerNumber(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined;
}

/**
 * Downloads `url` into `partPath`, resuming from the part's length, until it holds the whole
 * file (its size equals `expectedSize`, or the server's declared size). Errors: CANCELLED,
 * VOICE_DOWNLOAD_FAILED (HTTP refusal, attempts exhausted, or the host cannot be reached:
 * details `{ reason: 'offline', host }`), VOICE_PACK_INVALID (the file
 * has another size than expected), OUTPUT_FAILED (the disk refused a write).
 */
export async function downloadFile(req: DownloadRequest): Promise<DownloadResult> {
  const { name, expectedSize, signal } = req;
  const maxAttempts = req.http?.maxAttempts ?? 5;
  const retryDelayMs = req.http?.retryDelayMs ?? 500;
  let failures = 0;
  let requests = 0;
  let resumed = false;
  let totalChecked = false;
  let lastError: unknown;
  /** Set once any server answered this download (an unreachable host is then a cut, not offline). */
  const reached = { any: false };
  const refused = downloadUrlProblem(req.url, req.client.plainHttpOrigins);
  if (refused) throw downloadFailed(name, `the URL ${req.url} ${refused}.`);

  for (;;) {
    if (signal?.aborted) throw cancelled();
    let offset = await sizeOf(req.partPath);
    if (expectedSize !== undefined && offset > expectedSize) {
      await truncate(req.partPath, 0);
      offset = 0;
    }
    if (expectedSize !== undefined && offset === expectedSize && offset > 0) {
      return { size: offset, requests, resumed };
    }
    const before = offset;
    try {
      requests++;
      if (offset > 0) resumed = true;
      const done = await attempt(req, offset, reached, async (total) => {
        if (totalChecked) return;
        totalChecked = true;
        await req.onTotal?.(total);
      });
      if (done !== undefined) return { size: done, requests, resumed };
    } catch (error) {
      if (signal?.aborted) throw cancelled();
      if (isAppError(error)) throw error;
      // A name that does not resolve will not resolve in a second either.
      if (error instanceof UnreachableError && error.unresolved) throw offlineError(name, error);
      lastError = error;
    }
    // A retry: reset the count whenever the attempt brought new bytes.
    const now = await sizeOf(req.partPath);
    failures = now > before ? 1 : failures + 1;
    const unreachable = lastError instanceof UnreachableError ? lastError : undefined;
    const limit = unreachable && !reached.any ? Math.min(maxAttempts, UNREACHABLE_ATTEMPTS) : maxAttempts;
    if (failures >= limit) {
      if (unreachable) throw offlineError(name, unreachable);
      const reason = lastError instanceof Error ? lastError.message : 'the server did not send the file';
      throw downloadFailed(name, `${reason} (after ${requests} attempts)`, lastError);
    }
    try {
      await delay(retryDelayMs * failures, undefined, { signal });
    } catch {
      throw cancelled();
    }
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** GET `req.url` from `offset`, following redirects that `downloadUrlProblem` allows. */
async function requestFollowingRedirects(
  req: DownloadRequest,
  offset: number,
  reached: { any: boolean },
): Promise<Dispatcher.ResponseData> {
  let url = req.url;
  for (let hops = 0; ; hops++) {
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method: 'GET',
        dispatcher: req.client.dispatcher,
        headers: offset > 0 ? { range: `bytes=${offset}-` } : {},
        ...(req.signal ? { signal: req.signal } : {}),
      });
    } catch (error) {
      const code = req.signal?.aborted ? undefined : networkCode(error);
      if (code) throw new UnreachableError(new URL(url).host, UNRESOLVED_CODES.has(code), error);
      throw error;
    }
    reached.any = true;
    if (!REDIRECT_STATUSES.has(response.statusCode)) return response;
    await response.body.dump();
    const location = response.headers.location;
    const next = typeof location === 'string' ? URL.parse(location, url)?.href : undefined;
    if (!next)
      throw downloadFailed(
        req.name,
        `${url} answered HTTP ${response.statusCode} without a usable Location.`,
      );
    if (hops >= MAX_REDIRECTS)
      throw downloadFailed(req.name, `more than ${MAX_REDIRECTS} redirects from ${req.url}.`);
    const refused = downloadUrlProblem(next, req.client.plainHttpOrigins, url);
    if (refused) throw downloadFailed(req.name, `${url} redirects to ${next}, which ${refused}; refused.`);
    url = next;
  }
}

/**
 * One request from `offset`. Returns the final size when the file is complete, undefined when
 * the caller should simply try again; throws RetryableError / network errors for a retry and
 * AppError for a final answer.
 */
async function attempt(
  req: DownloadRequest,
  offset: number,
  reached: { any: boolean },
  checkTotal: (total: number | undefined) => Promise<void>,
): Promise<number | undefined> {
  const { name, expectedSize } = req;
  const { statusCode, headers, body } = await requestFollowingRedirects(req, offset, reached);
  let start: number;
  let total: number | undefined;
  if (statusCode === 206) {
    const range = parseContentRange(headers['content-range']);
    if (!range || range.start !== offset) {
      await body.dump();
      if (offset > 0) await truncate(req.partPath, 0);
      throw new RetryableError(`the server answered a different range (${String(headers['content-range'])})`);
    }
    start = offset;
    total = range.total;
  } else if (statusCode === 200) {
    // A server that ignores Range sends the whole file: start over.
    start = 0;
    total = headerNumber(headers['content-length']);
  } else if (statusCode === 416 && offset > 0) {
    // "Range not satisfiable": complete when the server's size is what we hold, else restart.
    await body.dump();
    const known = parseContentRange(headers['content-range']?.toString().replace('*', '0-0'));
    if (known?.total === offset && (expectedSize === undefined || expectedSize === offset)) return offset;
    await truncate(req.partPath, 0);
    throw new RetryableError('the server refused the range');
  } else {
    await body.dump();
    const message = `the mirror answered HTTP ${statusCode} for ${req.url}`;
    if (statusCode >= 500 || statusCode === 408 || statusCode === 429) throw new RetryableError(message);
    throw downloadFailed(name, message);
  }
  if (expectedSize !== undefined && total !== undefined && total !== expectedSize) {
    await body.dump();
    throw sizeMismatch(name, total, expectedSize);
  }
  await checkTotal(expectedSize ?? total);

  let handle: FileHandle;
  try {
    handle = await open(req.partPath, start === 0 ? 'w' : 'a');
  } catch (error) {
    await body.dump();
    throw outputFailedError('the voice file', req.partPath, 'create', error);
  }
  let size = start;
  const limit = expectedSize ?? total;
  try {
    req.onBytes?.(size, limit);
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (limit !== undefined && size + chunk.length > limit) {
        throw sizeMismatch(name, size + chunk.length, limit);
      }
      try {
        await handle.write(chunk);
      } catch (error) {
        throw outputFailedError('the voice file', req.partPath, 'write', error);
      }
      size += chunk.length;
      req.onBytes?.(size, limit);
    }
  } finally {
    await handle.close().catch(() => undefined);
    if (!body.destroyed) body.destroy();
  }
  // The response ended cleanly: the server sent all it has.
  if (expectedSize !== undefined && size !== expectedSize) throw sizeMismatch(name, size, expectedSize);
  if (total !== undefined && size !== total)
    throw new RetryableError(`the server sent ${size} of ${total} bytes`);
  return size;
}
