/**
 * One live process per resource (the database file), held by a listening local socket that the
 * operating system releases when its holder dies, even before the dead process is reaped. A pid
 * file cannot do that: after a crash its pid is often alive again as some other process.
 *
 * - Linux: an abstract-namespace Unix socket, `\0narration-studio-<sha256>`: no file at all.
 * - Windows: a named pipe, `\\.\pipe\narration-studio-<sha256>`, created as its first instance.
 * - macOS and other Unix systems: a Unix socket file in the temp folder. A crash leaves the
 *   file behind; it is removed when nothing answers on it (connect() refused). Two processes
 *   starting at the same instant over such a stale file can both remove it and both listen
 *   (the second unlinks the first one's fresh socket); that window is the few microseconds
 *   between a refused connect and the next bind, and only exists right after a crash.
 *
 * `<sha256>` is the digest of the resource's real path, so every name of the same file (a
 * symbolic link, a relative path) maps to the same lock.
 *
 * The holder answers each connection with one line, `{"pid":…,"description":"…"}`, so a
 * refused process can say which process holds the lock.
 *
 * Acquisition is synchronous, as the store opens synchronously: `listen()` on a local socket
 * binds before it returns (`server.listening` tells whether it did), and only when the lock is
 * taken is the holder asked, from a short-lived worker thread this thread waits for.
 */

import { createHash } from 'node:crypto';
import { realpathSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** A held lock; the listening handle does not keep the event loop alive. */
export interface InstanceLock {
  /** The socket's address: abstract name (leading NUL), pipe or socket file path. */
  readonly address: string;
  /** Stops listening, which frees the lock at once (idempotent). */
  release(): void;
}

/** What the holder of a lock said about itself. */
export interface LockHolder {
  pid: number;
  /** What it is, e.g. "Narration Studio serve". */
  description: string;
}

export type InstanceLockResult =
  | { acquired: true; lock: InstanceLock }
  | {
      acquired: false;
      /** Undefined when the holder did not answer in time (a hung or stopped process). */
      holder: LockHolder | undefined;
      /** Set when the lock could not be taken for a reason other than a live holder. */
      problem?: string;
    };

export interface InstanceLockOptions {
  /** What this process is, told to any process it refuses (e.g. "Narration Studio serve"). */
  description: string;
  /** How long to wait for a holder's answer, ms (default 1500). */
  answerTimeoutMs?: number;
  /** Which kind of socket (default: this process's platform); tests use it to try each kind. */
  platform?: NodeJS.Platform;
}

const NAME_PREFIX = 'narration-studio-';
/** Longest answer line read from a holder, characters. */
const MAX_ANSWER_CHARS = 1024;
/** Rounds of bind, then ask; a holder that is just leaving makes the next bind succeed. */
const ATTEMPTS = 4;
/** Pause between rounds when the address was held but nobody listened on it yet, ms. */
const RETRY_PAUSE_MS = 25;
/** Time for the probe's worker thread to start, on top of the answer timeout, ms. */
const WORKER_START_ALLOWANCE_MS = 3000;

/** Locks this process holds, by address: asking ourselves would block on our own event loop. */
const heldHere = new Map<string, string>();

/** The socket address that locks `resource` (a file path; its real path is what counts). */
export function lockAddress(resource: string, platform: NodeJS.Platform = process.platform): string {
  const hash = createHash('sha256').update(canonicalPath(resource, platform)).digest('hex');
  if (platform === 'linux') return `\0${NAME_PREFIX}${hash}`;
  if (platform === 'win32') return `\\\\.\\pipe\\${NAME_PREFIX}${hash}`;
  // sun_path holds 104 bytes on macOS; its per-user temp folder is about 50 characters long.
  const file = `${NAME_PREFIX}${hash.slice(0, 32)}.sock`;
  const inTemp = join(tmpdir(), file);
  return Buffer.byteLength(inTemp) <= 100 ? inTemp : join('/tmp', file);
}

/**
 * Takes the lock on `resource` for this process, or says who holds it. Synchronous; when the
 * lock is held elsewhere it blocks up to `answerTimeoutMs` (plus a worker's start) for the
 * holder's answer.
 */
export function acquireInstanceLock(resource: string, options: InstanceLockOptions): InstanceLockResult {
  const platform = options.platform ?? process.platform;
  const address = lockAddress(resource, platform);
  const timeoutMs = options.answerTimeoutMs ?? 1500;
  const isSocketFile = platform !== 'linux' && platform !== 'win32';
  let problem: string | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const ours = heldHere.get(address);
    if (ours !== undefined) return { acquired: false, holder: { pid: process.pid, description: ours } };
    const server = listenNow(address, options.description);
    if (server) return { acquired: true, lock: holdLock(server, address, options.description) };
    const answer = askHolder(address, timeoutMs);
    if (answer.kind === 'answered') return { acquired: false, holder: parseHolder(answer.line) };
    if (answer.kind === 'silent') return { acquired: false, holder: undefined };
    if (answer.code === 'ECONNREFUSED' && isSocketFile) {
      // A socket file nobody listens on: left by a process that crashed.
      rmSync(address, { force: true });
      continue;
    }
    if (answer.code === 'ECONNREFUSED' || answer.code === 'ENOENT') {
      // The holder left between our bind and our connect, or another process is between its
      // bind and its listen: look again shortly.
      pause(RETRY_PAUSE_MS);
      continue;
    }
    problem = `the lock ${printable(address)} could not be taken or asked (${answer.code})`;
    break;
  }
  return {
    acquired: false,
    holder: undefined,
    problem: problem ?? `the lock ${printable(address)} stayed taken without a holder answering`,
  };
}

/** The resource's real path (its folder's when the file does not exist yet). */
function canonicalPath(resource: string, platform: NodeJS.Platform): string {
  let path: string;
  try {
    path = realpathSync.native(resource);
  } catch {
    try {
      path = join(realpathSync.native(dirname(resource)), basename(resource));
    } catch {
      path = resource;
    }
  }
  // Windows paths are case-insensitive: one file, one lock, whatever the spelling.
  return platform === 'win32' ? path.toLowerCase() : path;
}

/** Listens on `address` now; undefined when it is taken (or cannot be bound at all). */
function listenNow(address: string, description: string): Server | undefined {
  const server = createServer((socket) => answer(socket, description));
  // A failed bind is known at once (`listening` stays false); its error event follows on the
  // next tick and tells nothing more. Later errors are failed accepts: the lock stays held,
  // and the process that connected learns nothing, which it reports.
  server.on('error', () => {});
  // exclusive: a cluster worker binds itself rather than sharing its primary's handle.
  server.listen({ path: address, exclusive: true, backlog: 16 });
  if (!server.listening) return undefined;
  server.unref();
  return server;
}

function answer(socket: Socket, description: string): void {
  socket.unref();
  // The asker may hang up first (EPIPE): nothing of ours depends on this connection.
  socket.on('error', () => {});
  socket.end(`${JSON.stringify({ pid: process.pid, description })}\n`);
}

function holdLock(server: Server, address: string, description: string): InstanceLock {
  heldHere.set(address, description);
  let released = false;
  return {
    address,
    release() {
      if (released) return;
      released = true;
      heldHere.delete(address);
      // The handle closes (and a socket file is unlinked) synchronously; only the event is later.
      server.close();
    },
  };
}

type Answer = { kind: 'answered'; line: string } | { kind: 'silent' } | { kind: 'failed'; code: string };

/**
 * The probe, in plain JavaScript (the worker evaluates it, whether this module runs from
 * TypeScript sources or built code). Its result is JSON in the shared buffer after two Int32s:
 * a done flag and the JSON's byte length.
 */
const PROBE_SOURCE = `
const { workerData } = require('node:worker_threads');
const { connect } = require('node:net');
const { address, timeoutMs, maxChars, shared } = workerData;
const header = new Int32Array(shared, 0, 2);
const body = new Uint8Array(shared, 8);
let done = false;
let text = '';
const socket = connect({ path: address });
const finish = (result) => {
  if (done) return;
  done = true;
  socket.destroy();
  const bytes = Buffer.from(JSON.stringify(result));
  body.set(bytes.subarray(0, body.length));
  Atomics.store(header, 1, Math.min(bytes.length, body.length));
  Atomics.store(header, 0, 1);
  Atomics.notify(header, 0);
};
socket.setEncoding('utf8');
socket.setTimeout(timeoutMs, () => finish({ kind: 'silent' }));
socket.on('data', (chunk) => {
  text += chunk;
  const end = text.indexOf('\\n');
  if (end >= 0 || text.length >= maxChars) finish({ kind: 'answered', line: text.slice(0, end >= 0 ? end : maxChars) });
});
socket.on('end', () => finish(text ? { kind: 'answered', line: text } : { kind: 'silent' }));
socket.on('error', (error) => finish({ kind: 'failed', code: String(error.code || error.message) }));
`;

/** Connects to the holder and reads its line, blocking this thread until then (or timeout). */
function askHolder(address: string, timeoutMs: number): Answer {
  const shared = new SharedArrayBuffer(8 + 4 * MAX_ANSWER_CHARS + 256);
  const header = new Int32Array(shared, 0, 2);
  let worker: Worker;
  try {
    worker = new Worker(PROBE_SOURCE, {
      eval: true,
      workerData: { address, timeoutMs, maxChars: MAX_ANSWER_CHARS, shared },
    });
  } catch (error) {
    return { kind: 'failed', code: `probe did not start: ${(error as Error).message}` };
  }
  // A probe that fails to start reports through 'error'; the wait below times out then.
  worker.on('error', () => {});
  worker.unref();
  try {
    Atomics.wait(header, 0, 0, timeoutMs + WORKER_START_ALLOWANCE_MS);
  } finally {
    void worker.terminate();
  }
  if (Atomics.load(header, 0) !== 1) return { kind: 'silent' };
  const json = Buffer.from(new Uint8Array(shared, 8, Atomics.load(header, 1))).toString('utf8');
  return JSON.parse(json) as Answer;
}

/** The holder's line, checked: it comes from whatever process listens on the name. */
function parseHolder(line: string): LockHolder | undefined {
  try {
    const value = JSON.parse(line) as { pid?: unknown; description?: unknown };
    if (!Number.isSafeInteger(value.pid) || (value.pid as number) <= 0) return undefined;
    const description =
      typeof value.description === 'string'
        ? value.description.replace(/[\p{Cc}]/gu, ' ').slice(0, 200)
        : 'unknown program';
    return { pid: value.pid as number, description };
  } catch {
    return undefined;
  }
}

/** Blocks this thread for `ms` (between attempts only). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** An address for messages (the abstract namespace's leading NUL shown as "@", as `ss` does). */
function printable(address: string): string {
  return address.startsWith('\0') ? `@${address.slice(1)}` : address;
}
