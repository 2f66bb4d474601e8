/**
 * The PDF reader: pdf.js reads the file in a child process (pdf-reader-child.ts), which is stopped
 * when it runs longer than MANUSCRIPT_LIMITS.pdfTimeoutMs or its resident memory goes over
 * pdfMaxRssBytes. A FlateDecode bomb (a few kilobytes inflating to gigabytes: pdf.js has no size
 * option, and a worker thread's resourceLimits do not count its buffers) ends as
 * MANUSCRIPT_TOO_LARGE naming the file and the limit; the app's own memory does not move.
 *
 * The child starts from the TypeScript sources (tsx's loader, under `npm start`, vitest and tsx)
 * or from the built JavaScript beside the bundle (electron/launch/build.ts builds
 * pdf-reader-child.js next to the CLI and the Electron main entry).
 */

import { execFile, fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { AppError, type ErrorCode } from '../../shared/errors';
import { MANUSCRIPT_LIMITS, type Manuscript } from '../../shared/manuscript';
import type { PdfChildReply, PdfChildRequest } from './pdf-reader-child';
import type { ManuscriptReader } from './reader';

/** The child's script: beside this module, as TypeScript from sources, as JavaScript when built. */
const PDF_CHILD_URL = new URL(
  import.meta.url.endsWith('.ts') ? './pdf-reader-child.ts' : './pdf-reader-child.js',
  import.meta.url,
);

export interface PdfReaderLimits {
  timeoutMs: number;
  maxRssBytes: number;
  /** How often the child's memory is looked at, ms. */
  pollMs?: number;
}

const MIB = 1024 * 1024;
const execFileAsync = promisify(execFile);

export const readPdf: ManuscriptReader = (bytes, fileName) =>
  readPdfInChild(bytes, fileName, {
    timeoutMs: MANUSCRIPT_LIMITS.pdfTimeoutMs,
    maxRssBytes: MANUSCRIPT_LIMITS.pdfMaxRssBytes,
  });

/** Reads a PDF in a child process kept within `limits`. */
export function readPdfInChild(
  bytes: Uint8Array,
  fileName: string,
  limits: PdfReaderLimits,
): Promise<Manuscript> {
  return new Promise<Manuscript>((resolve, reject) => {
    const child = startChild(limits);
    let settled = false;
    let stderr = '';
    const finish = (error: AppError | null, manuscript?: Manuscript): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (error) reject(error);
      else resolve(manuscript!);
    };
    const stop = (code: ErrorCode, message: string, details: Record<string, unknown>): void =>
      finish(new AppError(code, message, { file: fileName, format: 'pdf', ...details }));

    const timer = setTimeout(() => {
      stop(
        'MANUSCRIPT_TOO_LARGE',
        `"${fileName}" took longer than ${limits.timeoutMs / 1000} s to read, the most a PDF may take; it was stopped.`,
        { limit_ms: limits.timeoutMs },
      );
    }, limits.timeoutMs);
    const poll = setInterval(
      () => {
        void residentBytes(child.pid).then((rss) => {
          if (rss !== null && rss > limits.maxRssBytes) {
            stop(
              'MANUSCRIPT_TOO_LARGE',
              `"${fileName}" needs more than ${Math.round(limits.maxRssBytes / MIB)} MiB of memory to read, the most a PDF may use (its compressed content inflates without end); it was stopped.`,
              { limit_bytes: limits.maxRssBytes },
            );
          }
        });
      },
      limits.pollMs ?? (process.platform === 'linux' ? 50 : 250),
    );

    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
    });
    child.once('message', (reply: PdfChildReply) => {
      if (reply.ok) finish(null, reply.manuscript);
      else
        finish(
          new AppError(reply.code as ErrorCode, reply.message, {
            file: fileName,
            format: 'pdf',
            ...reply.details,
          }),
        );
    });
    child.once('error', (error) => {
      stop(
        'MANUSCRIPT_INVALID',
        `"${fileName}" could not be read: the PDF reader did not start (${error.message}).`,
        {},
      );
    });
    // 'close' comes after the IPC channel closed: a reply sent just before exiting has arrived by then.
    child.once('close', (code, signal) => {
      const last = stderr.trim().split('\n').slice(-1)[0] ?? '';
      stop(
        'MANUSCRIPT_INVALID',
        `"${fileName}" could not be read: the PDF reader stopped (${signal ?? `exit code ${code}`})${last ? `: ${last}` : ''}.`,
        {},
      );
    });
    const request: PdfChildRequest = { fileName, bytes };
    child.send(request, (error) => {
      if (error)
        stop(
          'MANUSCRIPT_INVALID',
          `"${fileName}" could not be handed to the PDF reader: ${error.message}`,
          {},
        );
    });
  });
}

function startChild(limits: PdfReaderLimits): ChildProcess {
  const script = fileURLToPath(PDF_CHILD_URL);
  const execArgv = [`--max-old-space-size=${Math.max(64, Math.round(limits.maxRssBytes / MIB))}`];
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
