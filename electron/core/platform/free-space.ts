/**
 * Room on the disk before a large write: what was sent is refused at once, with
 * INSUFFICIENT_STORAGE saying how much it needs and how much is free, rather than filling the
 * data folder's disk part way (the message names no path).
 */

import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppError } from '../../shared/errors';

/** Free space an import leaves on the disk at least, bytes (the studio's database and renders go on). */
export const DISK_RESERVE_BYTES = 256 * 1024 ** 2;

/** Bytes free for this process on the disk holding `path` (or its nearest folder that exists). */
export async function freeBytes(path: string): Promise<number> {
  for (let at = path; ; at = dirname(at)) {
    try {
      const stats = await statfs(at);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(at) === at) throw error;
    }
  }
}

/**
 * Refuses, with INSUFFICIENT_STORAGE, a write of `bytes` to the disk holding `path` that would
 * leave less than DISK_RESERVE_BYTES free. `what` names it in the message ("the archive's audio").
 */
export async function checkFreeSpace(path: string, bytes: number, what: string): Promise<void> {
  const free = await freeBytes(path);
  if (bytes + DISK_RESERVE_BYTES > free) {
    const mib = (n: number) => `${Math.ceil(n / 1024 ** 2)} MiB`;
    throw new AppError(
      'INSUFFICIENT_STORAGE',
      `Not enough free disk space for ${what}: it needs ${mib(bytes)} and ${mib(DISK_RESERVE_BYTES)} are kept free; ${mib(free)} are free.`,
      { needed_bytes: bytes, free_bytes: free },
    );
  }
}
