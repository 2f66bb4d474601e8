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

import { execFile, fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { AppError, type ErrorCode } from '../../shared/errors';
import type { Manuscript } from '../../shared/manuscript';
import { readAborted } from './errors';
import type { ReaderChildReply, ReaderChildRequest } from './manuscript-reader-child';

/** The child's script: beside this module, as TypeScript from sources, as JavaScript when built. */
const READER_CHILD_URL = new URL(
  import.meta.url.endsWith('.ts') ? './manuscript-reader-child.ts' : './manuscript-reader-child.js',
  import.meta.url,
);

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

/** Reads `request` in a child process kept within `limits`; `signal` stops it. */
export function readInChild(
  request: ReaderChildRequest,
  limits: ReaderLimits,
  signal?: AbortSignal,
): Promise<Manuscript> {
  const { fileName, format } = request;
  if (signal?.aborted) return Promise.reject(readAborted(signal, fileName));
  return new Promise<Manuscript>((resolve, reject) => {
    const child = startChild(limits);
    let settled = false;
    /** The end of the child's output so far (a marker split across chunks is still seen), and whether V8 said its heap ran out. */
    let stderrTail = '';
    let heapExhausted = false;
    const finish = (error: AppError | null, manuscript?: Manuscript): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(manuscript!);
    };
    const stop = (code: ErrorCode, message: string, details: Record<string, unknown>): void =>
      finish(new AppError(code, message, { file: fileName, format, ...details }));
    const onAbort = (): void => finish(readAborted(signal!, fileName));
    signal?.addEventListener('abort', onAbort, { once: true });

    const timer = setTimeout(() => {
      stop(
        'MANUSCRIPT_TOO_LARGE',
        `"${fileName}" took longer than ${limits.timeoutMs / 1000} s to read, the most a manuscript may take; it was stopped.`,
        { limit_ms: limits.timeoutMs },
      );
    }, limits.timeoutMs);
    const poll = setInterval(
      () => {
        void residentBytes(child.pid).then((rss) => {
          if (rss !== null && rss > limits.maxRssBytes) {
            stop(
              'MANUSCRIPT_TOO_LARGE',
              `"${fileName}" needs more than ${Math.round(limits.maxRssBytes / MIB)} MiB of memory to read, the most a manuscript may use (a compressed part inflates without end, or its markup is too large); it was stopped.`,
              { limit_bytes: limits.maxRssBytes },
            );
          }
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
    child.once('message', (reply: ReaderChildReply) => {
      if (reply.ok) finish(null, reply.manuscript);
      else
        finish(
          new AppError(reply.code as ErrorCode, reply.message, {
            file: fileName,
            format,
            ...reply.details,
          }),
        );
    });
    child.once('error', (error) => {
      stop(
        'MANUSCRIPT_INVALID',
        `"${fileName}" could not be read: the manuscript reader did not start (${error.message}).`,
        {},
      );
    });
    // 'close' comes after the IPC channel closed: a reply sent just before exiting has arrived by then.
    child.once('close', (code, exitSignal) => {
      if (heapExhausted) {
        stop(
          'MANUSCRIPT_TOO_LARGE',
          `"${fileName}" needs more than ${Math.round(limits.maxRssBytes / MIB)} MiB of memory to read, the most a manuscript may use; it was stopped.`,
          { limit_bytes: limits.maxRssBytes },
        );
        return;
      }
      stop(
        'MANUSCRIPT_INVALID',
        // Its output stays out of the message: a stack trace names paths on this machine.
        `"${fileName}" could not be read: the manuscript reader stopped (${exitSignal ?? `exit code ${code}`}).`,
        {},
      );
    });
    child.send(request, (error) => {
      if (error)
        stop(
          'MANUSCRIPT_INVALID',
          `"${fileName}" could not be handed to the manuscript reader: ${error.message}`,
          {},
        );
    });
  });
}

function startChild(limits: ReaderLimits): ChildProcess {
  const script = fileURLToPath(limits.script ?? READER_CHILD_URL);
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
