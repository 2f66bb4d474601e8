/**
 * One manuscript read in a child process (manuscript-reader-child.ts), kept within its limits:
 * stopped when it runs longer than `timeoutMs`, when its resident memory goes over
 * `maxRssBytes` (polled; its V8 heap is capped 128 MiB below, and a FlateDecode bomb's
 * buffers, outside the heap, are what the polling catches), or when `signal` aborts (the client
 * went away). Stopped means killed (SIGKILL): a child never outlives its read. The app's own
 * event loop only forks, waits and receives the answer.
 *
 * The child starts from the TypeScript sources (tsx's loader, under `npm start`, vitest and tsx)
 * or from the built JavaScript beside the bundle (electron/launch/build.ts builds
 * manuscript-reader-child.js next to the CLI and the Electron main entry).
 */

import { execFile, fork, type ChildProcess, type Serializable } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { AppError, type ErrorCode } from '../../shared/errors';
import { scriptBeside } from '../platform/script-url';
import type { Manuscript } from '../../shared/manuscript';
import { readAborted } from './errors';
import type { ReaderChildRequest } from './manuscript-reader-child';
import type { ReaderChildReply } from './reader-child-main';

export interface ReaderLimits {
  timeoutMs: number;
  maxRssBytes: number;
  /** How often the child's memory is looked at, ms. */
  pollMs?: number;
  /** The child's script, when not the one beside this module (a benchmark times a built one). */
  script?: URL;
}

const MIB = 1024 * 1024;
/** Memory of a child outside its V8 heap, kept free under its limit: 128 MiB. */
const HEAP_HEADROOM_BYTES = 128 * MIB;
const execFileAsync = promisify(execFile);

/** What a child process reads, for its messages: the file, what it is, and details every error carries. */
export interface ChildRead {
  /** The child's script. */
  script: URL;
  fileName: string;
  /** What the file is, in words: "manuscript", "project archive". */
  what: string;
  /** Why a file may need too much memory, in words (none: nothing is said). */
  memoryWhy?: string;
  /** Details of every error (besides `file`). */
  details?: Record<string, unknown>;
}

/** Reads `request` in a child process kept within `limits`; `signal` stops it. */
export function readInChild(
  request: ReaderChildRequest,
  limits: ReaderLimits,
  signal?: AbortSignal,
): Promise<Manuscript> {
  return runInChild<Manuscript>(
    {
      script: limits.script ?? scriptBeside('manuscript-reader-child', import.meta.url),
      fileName: request.fileName,
      what: 'manuscript',
      memoryWhy: 'a compressed part inflates without end, or its markup is too large',
      details: { format: request.format },
    },
    request,
    limits,
    signal,
  );
}

/**
 * Runs `read.script` in a child process with `request` (its one message) kept within `limits`;
 * `signal` stops it. The child answers with `answerOneRequest` (reader-child-main.ts): its parts
 * (each handed to `onPart` as it arrives, so a large answer never crosses in one message the
 * parent must decode at once), then its value or its error.
 */
export function runInChild<T>(
  read: ChildRead,
  request: unknown,
  limits: ReaderLimits,
  signal?: AbortSignal,
  onPart?: (part: unknown) => void,
): Promise<T> {
  const { fileName, what } = read;
  if (signal?.aborted) return Promise.reject(readAborted(signal, fileName));
  return new Promise<T>((resolve, reject) => {
    const child = startChild(read.script, limits);
    let settled = false;
    /** The end of the child's output so far (a marker split across chunks is still seen), and whether V8 said its heap ran out. */
    let stderrTail = '';
    let heapExhausted = false;
    const finish = (error: AppError | null, value?: T): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(value!);
    };
    const stop = (code: ErrorCode, message: string, details: Record<string, unknown>): void =>
      finish(new AppError(code, message, { file: fileName, ...read.details, ...details }));
    const onAbort = (): void => finish(readAborted(signal!, fileName));
    signal?.addEventListener('abort', onAbort, { once: true });
    const tooMuchMemory = (why: string) =>
      stop(
        'MANUSCRIPT_TOO_LARGE',
        `"${fileName}" needs more than ${Math.round(limits.maxRssBytes / MIB)} MiB of memory to read, the most a ${what} may use${why}; it was stopped.`,
        { limit_bytes: limits.maxRssBytes },
      );

    const timer = setTimeout(() => {
      stop(
        'MANUSCRIPT_TOO_LARGE',
        `"${fileName}" took longer than ${limits.timeoutMs / 1000} s to read, the most a ${what} may take; it was stopped.`,
        { limit_ms: limits.timeoutMs },
      );
    }, limits.timeoutMs);
    const poll = setInterval(
      () => {
        void residentBytes(child.pid).then((rss) => {
          if (rss !== null && rss > limits.maxRssBytes)
            tooMuchMemory(read.memoryWhy ? ` (${read.memoryWhy})` : '');
        });
      },
      limits.pollMs ?? (process.platform === 'linux' ? 50 : 250),
    );

    // Kept only to tell a V8 heap overflow from other ends.
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      // V8's native stack trace follows its message: the flag is set as the message passes.
      const seen = stderrTail + chunk;
      if (/heap out of memory/i.test(seen)) heapExhausted = true;
      stderrTail = seen.slice(-100);
    });
    child.on('message', (reply: ReaderChildReply<T>) => {
      if (settled) return;
      if ('part' in reply) onPart?.(reply.part);
      else if (reply.ok) finish(null, reply.value);
      else
        finish(
          new AppError(reply.code as ErrorCode, reply.message, {
            file: fileName,
            ...read.details,
            ...reply.details,
          }),
        );
    });
    child.once('error', (error) => {
      stop(
        'MANUSCRIPT_INVALID',
        `"${fileName}" could not be read: the ${what} reader did not start (${error.message}).`,
        {},
      );
    });
    // 'close' comes after the IPC channel closed: a reply sent just before exiting has arrived by then.
    child.once('close', (code, exitSignal) => {
      if (heapExhausted) {
        tooMuchMemory('');
        return;
      }
      stop(
        'MANUSCRIPT_INVALID',
        // Its output stays out of the message: a stack trace names paths on this machine.
        `"${fileName}" could not be read: the ${what} reader stopped (${exitSignal ?? `exit code ${code}`}).`,
        {},
      );
    });
    child.send(request as Serializable, (error) => {
      if (error)
        stop(
          'MANUSCRIPT_INVALID',
          `"${fileName}" could not be handed to the ${what} reader: ${error.message}`,
          {},
        );
    });
  });
}

function startChild(scriptUrl: URL, limits: ReaderLimits): ChildProcess {
  const script = fileURLToPath(scriptUrl);
  // The heap's cap leaves room under the memory limit for code, buffers and V8 itself, so the
  // collector works hard before the limit is reached rather than after.
  const heapMiB = Math.max(64, Math.round((limits.maxRssBytes - HEAP_HEADROOM_BYTES) / MIB));
  const execArgv = [`--max-old-space-size=${heapMiB}`];
  if (script.endsWith('.ts')) {
    // From sources: tsx's loader, found from this module (not from the working directory).
    const tsx = createRequire(import.meta.url).resolve('tsx');
    execArgv.push('--import', pathToFileURL(tsx).href);
  }
  return fork(script, [], {
    execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    // Electron's binary runs as plain Node for its children only with this set.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
}

/**
 * The child's resident memory: /proc on Linux, `ps` on macOS; null elsewhere (Windows: the child's
 * V8 heap cap and the timeout still hold, buffers outside the heap are not counted).
 */
async function residentBytes(pid: number | undefined): Promise<number | null> {
  if (pid === undefined) return null;
  try {
    if (process.platform === 'linux') {
      const status = await readFile(`/proc/${pid}/status`, 'utf8');
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
      return match ? Number(match[1]) * 1024 : null;
    }
    if (process.platform === 'darwin') {
      const { stdout } = await execFileAsync('ps', ['-o', 'rss=', '-p', String(pid)]);
      const kib = Number(stdout.trim());
      return Number.isFinite(kib) && kib > 0 ? kib * 1024 : null;
    }
  } catch {
    // The child has just exited: nothing to measure.
  }
  return null;
}
