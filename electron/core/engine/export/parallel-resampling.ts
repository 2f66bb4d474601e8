/**
 * Bringing an export's chapters to the output rate on every core: each chapter is one job
 * (chapter-audio.ts `wavsToRaw`), and the jobs are shared among worker threads, one per core
 * (resampling-worker.ts), each with its own resampler. A short book, or a machine with one core,
 * is resampled in this thread (starting a worker costs more than it saves). The output is the
 * same either way, to the sample: the same code writes the same raw files. The workers are ended
 * when the jobs end, fail, or are aborted.
 */

import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { scriptBeside } from '../../platform/script-url';
import { startWorker } from '../threads/worker-thread';
import { wavsToRaw, type ResampleJob } from './chapter-audio';

/** What the export sends a resampling worker: a chapter to bring to the output rate. */
export interface ResamplingRequest {
  id: number;
  job: ResampleJob;
}

/** What a resampling worker answers about a chapter. */
export type ResamplingReply =
  | { id: number; kind: 'progress'; fraction: number }
  | { id: number; kind: 'done'; samples: number }
  | { id: number; kind: 'failed'; code: ErrorCode | undefined; message: string };

/**
 * Below this many bytes of WAV over all the chapters (about a minute at 24 kHz), one thread:
 * resampling a minute takes about half a second, starting a worker a tenth to half of that.
 */
const MIN_PARALLEL_BYTES = 60 * 24000 * 2;

export interface ResamplingOptions {
  /** Threads to use; default: one per core, or one for a short book. */
  threads?: number | undefined;
  signal?: AbortSignal | undefined;
  /** 0–1 over all the jobs (each job an equal share). */
  onFraction?: ((fraction: number) => void) | undefined;
}

/** Resampling workers started and not yet ended, in this process. */
let running = 0;

/** How many resampling workers are running now (none once every export has ended). */
export function runningResamplingWorkers(): number {
  return running;
}

/** One thread for a short book, else one per core. */
async function defaultThreads(jobs: readonly ResampleJob[]): Promise<number> {
  const sizes = await Promise.all(jobs.flatMap((job) => job.wavPaths.map(async (p) => (await stat(p)).size)));
  return sizes.reduce((n, s) => n + s, 0) < MIN_PARALLEL_BYTES ? 1 : availableParallelism();
}

/**
 * Runs `jobs` (see the module comment); resolves to the samples each wrote, in order. Rejects
 * with the first job's error (AppError OUTPUT_FAILED for a WAV that cannot be read), or the
 * signal's reason once it is aborted; every worker is ended before it settles.
 */
export async function resampleChapters(
  jobs: readonly ResampleJob[],
  options: ResamplingOptions = {},
): Promise<number[]> {
  const threads = Math.max(1, Math.min(options.threads ?? (await defaultThreads(jobs)), jobs.length));
  const fractions = new Array<number>(jobs.length).fill(0);
  const report = () => options.onFraction?.(fractions.reduce((a, b) => a + b, 0) / Math.max(1, jobs.length));
  if (threads === 1) {
    const samples: number[] = [];
    for (const [i, job] of jobs.entries()) {
      options.signal?.throwIfAborted();
      samples.push(
        await wavsToRaw(job, (f) => {
          fractions[i] = f;
          report();
        }),
      );
    }
    return samples;
  }
  return inWorkers(jobs, threads, fractions, report, options.signal);
}

/** `jobs` shared among `threads` workers, each given the next job when it is done with one. */
async function inWorkers(
  jobs: readonly ResampleJob[],
  threads: number,
  fractions: number[],
  report: () => void,
  signal: AbortSignal | undefined,
): Promise<number[]> {
  signal?.throwIfAborted();
  const samples = new Array<number>(jobs.length).fill(0);
  const workers: Worker[] = [];
  let onAbort: (() => void) | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      let next = 0;
      let done = 0;
      const settle = (error?: unknown) => {
        if (settled) return;
        settled = true;
        if (error === undefined) resolve();
        else reject(error);
      };
      onAbort = () => settle(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const give = (worker: Worker) => {
        if (next >= jobs.length) return;
        const id = next++;
        worker.postMessage({ id, job: jobs[id]! } satisfies ResamplingRequest);
      };
      for (let t = 0; t < threads; t++) {
        const worker = startWorker(scriptBeside('resampling-worker', import.meta.url));
        running++;
        workers.push(worker);
        worker.on('message', (reply: ResamplingReply) => {
          if (reply.kind === 'progress') {
            fractions[reply.id] = reply.fraction;
            report();
          } else if (reply.kind === 'done') {
            samples[reply.id] = reply.samples;
            fractions[reply.id] = 1;
            report();
            if (++done === jobs.length) settle();
            else give(worker);
          } else {
            settle(
              reply.code
                ? new AppError(reply.code, reply.message)
                : new Error(`resampling failed: ${reply.message}`),
            );
          }
        });
        worker.on('error', (error) => settle(error));
        worker.on('exit', (code) => {
          running--;
          settle(new Error(`a resampling worker stopped (exit code ${code})`));
        });
        give(worker);
      }
    });
    return samples;
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
