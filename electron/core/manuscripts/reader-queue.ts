/**
 * The turns of the reader child processes (manuscripts and project archives share them): at most
 * `readers` reads at once (each a child process under its memory limit, so memory is bounded by
 * their product), at most `waiting` more waiting, and fair between their owners (the API key a
 * read is for; the studio's session counts as its key): a freed turn goes to the waiting read
 * whose owner has the fewest reads running (the earliest of those), so an owner holds at most one
 * running read while another owner waits, and an owner has at most `waitingPerOwner` reads
 * waiting. A read past either limit is refused at once with TOO_MANY_REQUESTS (429, Retry-After):
 * past its owner's, only that owner is refused. A waiting read whose signal aborts (its client
 * went away) leaves the queue without ever starting.
 */

import { AppError } from '../../shared/errors';
import { readAborted } from './errors';

export interface ReaderQueueLimits {
  /** Reads at once. */
  readers: number;
  /** Reads waiting for a turn, in all. */
  waiting: number;
  /** Reads of one owner waiting for a turn. */
  waitingPerOwner: number;
}

/** Seconds a refused caller is told to wait: a read takes about a second, the queue drains in a few. */
const RETRY_AFTER_S = 5;

interface Waiting {
  owner: string;
  start: () => void;
}

export class ReaderQueue {
  private running = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly queue: Waiting[] = [];

  constructor(private readonly limits: ReaderQueueLimits) {}

  /** Reads running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.queue.length };
  }

  /**
   * Runs `read` of `owner` in its turn; rejects with TOO_MANY_REQUESTS when the queue or the
   * owner's places in it are full, or with the abort's error.
   */
  async run<T>(owner: string, fileName: string, read: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw readAborted(signal, fileName);
    // A free reader means nobody waits: every freed turn is handed to a waiting read first.
    if (this.running < this.limits.readers) this.take(owner);
    else await this.turn(owner, fileName, signal);
    try {
      return await read();
    } finally {
      this.release(owner);
    }
  }

  private take(owner: string): void {
    this.running++;
    this.runningOf.set(owner, (this.runningOf.get(owner) ?? 0) + 1);
  }

  /** The turn passes to the waiting read whose owner runs the fewest, or the reader frees. */
  private release(owner: string): void {
    this.running--;
    const left = this.runningOf.get(owner)! - 1;
    if (left === 0) this.runningOf.delete(owner);
    else this.runningOf.set(owner, left);
    let next = -1;
    let fewest = Infinity;
    for (const [i, waiting] of this.queue.entries()) {
      const runs = this.runningOf.get(waiting.owner) ?? 0;
      if (runs < fewest) [next, fewest] = [i, runs];
      if (runs === 0) break;
    }
    if (next < 0) return;
    const [chosen] = this.queue.splice(next, 1);
    this.take(chosen!.owner);
    chosen!.start();
  }

  private turn(owner: string, fileName: string, signal: AbortSignal | undefined): Promise<void> {
    const refuse = (why: string) =>
      Promise.reject(
        new AppError(
          'TOO_MANY_REQUESTS',
          `"${fileName}" cannot be read now: ${why}; try again in ${RETRY_AFTER_S} s.`,
          { file: fileName, retry_after_s: RETRY_AFTER_S },
        ),
      );
    const own = this.queue.filter((waiting) => waiting.owner === owner).length;
    if (own >= this.limits.waitingPerOwner) {
      return refuse(
        `this key already has ${own} files waiting to be read, the most one key may have waiting`,
      );
    }
    if (this.queue.length >= this.limits.waiting) {
      return refuse(
        `${this.limits.readers} files are being read and ${this.limits.waiting} wait, the most the server takes`,
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiting: Waiting = {
        owner,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        const index = this.queue.indexOf(waiting);
        if (index >= 0) this.queue.splice(index, 1);
        reject(readAborted(signal!, fileName));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiting);
    });
  }
}
