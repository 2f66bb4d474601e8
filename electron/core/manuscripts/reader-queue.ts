/**
 * The turns of the manuscript readers: at most `readers` reads at once (each a child process of
 * up to MANUSCRIPT_LIMITS.readerMaxRssBytes, so memory is bounded by their product), at most
 * `waiting` more waiting in order of arrival; one more is refused at once with TOO_MANY_REQUESTS
 * (429, Retry-After). A waiting read whose signal aborts (its client went away) leaves the queue
 * without ever starting.
 */

import { AppError } from '../../shared/errors';
import { readAborted } from './errors';

export interface ReaderQueueLimits {
  /** Reads at once. */
  readers: number;
  /** Reads waiting for a turn. */
  waiting: number;
}

/** Seconds a refused caller is told to wait: a read takes about a second, the queue drains in a few. */
const RETRY_AFTER_S = 5;

export class ReaderQueue {
  private running = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limits: ReaderQueueLimits) {}

  /** Reads running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  /** Runs `read` in its turn; rejects with TOO_MANY_REQUESTS when the queue is full, or the abort's error. */
  async run<T>(fileName: string, read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw readAborted(signal, fileName);
    if (this.running < this.limits.readers) this.running++;
    else await this.turn(fileName, signal);
    try {
      return await read();
    } finally {
      // The turn passes to the next waiting read, or the slot frees.
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    }
  }

  private turn(fileName: string, signal: AbortSignal | undefined): Promise<void> {
    if (this.queue.length >= this.limits.waiting) {
      return Promise.reject(
        new AppError(
          'TOO_MANY_REQUESTS',
          `"${fileName}" cannot be read now: ${this.limits.readers} manuscripts are being read and ${this.limits.waiting} wait, the most the server takes; try again in ${RETRY_AFTER_S} s.`,
          { file: fileName, retry_after_s: RETRY_AFTER_S },
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const start = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = (): void => {
        const index = this.queue.indexOf(start);
        if (index >= 0) this.queue.splice(index, 1);
        reject(readAborted(signal!, fileName));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(start);
    });
  }
}
