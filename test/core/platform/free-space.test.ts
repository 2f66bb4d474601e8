/**
 * Room on the disk, measured by the real statfs of the test's own temp folder: a write larger
 * than what is free (less the reserve) is refused with INSUFFICIENT_STORAGE and the figures, never
 * the path.
 */

import { mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFreeSpace, DISK_RESERVE_BYTES, freeBytes } from '../../../electron/core/platform/free-space';

const dir = mkdtempSync(join(tmpdir(), 'free-space-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('free space', () => {
  it('measures the disk of a folder, or of its nearest folder that exists', async () => {
    const stats = statfsSync(dir);
    const free = await freeBytes(dir);
    // Other writers share the disk: the figure is the same within a few MiB.
    expect(Math.abs(free - stats.bavail * stats.bsize)).toBeLessThan(64 * 1024 ** 2);
    expect(Math.abs((await freeBytes(join(dir, 'not', 'yet', 'made'))) - free)).toBeLessThan(64 * 1024 ** 2);
  });

  it('refuses a write the disk has no room for, saying how much, without the path', async () => {
    const free = await freeBytes(dir);
    await expect(checkFreeSpace(dir, 1024, 'a small file')).resolves.toBeUndefined();
    const error = await checkFreeSpace(dir, free + 1024 ** 3, '"big.narration.zip"').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INSUFFICIENT_STORAGE' });
    expect((error as Error).message).toMatch(
      /^Not enough free disk space for "big\.narration\.zip": it needs \d+ MiB/,
    );
    expect((error as Error).message).not.toContain(dir);
    // The reserve counts: what would leave less than it free is refused too.
    await expect(checkFreeSpace(dir, Math.max(0, free - DISK_RESERVE_BYTES / 2), 'x')).rejects.toMatchObject({
      code: 'INSUFFICIENT_STORAGE',
    });
  });
});
