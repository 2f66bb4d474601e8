import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../electron/shared/errors';
import {
  describeWriteError,
  outputFailedError,
  PARTIAL_SUFFIX,
  StagedFile,
} from '../../../electron/core/platform/staged-file';

const errno = (code: string) => Object.assign(new Error(`${code}: some system text, write`), { code });

describe('write error messages', () => {
  it('names a full disk, an exhausted quota and a file-size limit in plain words', () => {
    expect(describeWriteError(errno('ENOSPC'))).toBe('the disk is full (ENOSPC)');
    expect(describeWriteError(errno('EDQUOT'))).toBe('the disk is full (disk quota exceeded) (EDQUOT)');
    expect(describeWriteError(errno('EFBIG'))).toMatch(/^the file is too large .*disk is full\) \(EFBIG\)$/);
    expect(describeWriteError(errno('EWHATEVER'))).toBeUndefined();
    expect(describeWriteError(new Error('no code'))).toBeUndefined();
  });

  it('builds OUTPUT_FAILED without the path in the message for known causes', () => {
    const error = outputFailedError('the audio file', '/data/audio/x.wav.partial', 'write', errno('ENOSPC'));
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('OUTPUT_FAILED');
    expect(error.message).toBe('Could not write the audio file: the disk is full (ENOSPC).');
    expect(error.details).toEqual({ path: '/data/audio/x.wav.partial' });
    // Unknown causes keep their own text, without the paths it names (the details keep the path).
    const odd = Object.assign(
      new Error("ENOTDIR: not a directory, open '/home/ana/data/audio/x.wav.partial'"),
      {
        code: 'ENOTDIR',
      },
    );
    expect(
      outputFailedError('the audio file', '/home/ana/data/audio/x.wav.partial', 'create', odd).message,
    ).toBe("Could not create the audio file: ENOTDIR: not a directory, open '…/x.wav.partial'");
  });

  // /dev/full answers every write with ENOSPC: a real failing write, no mocks.
  it.skipIf(!existsSync('/dev/full'))(
    'fails a write on a full disk with a clear message and leaves no file',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sink-full-'));
      try {
        const path = join(dir, 'out.wav');
        const partial = `${path}${PARTIAL_SUFFIX}`;
        symlinkSync('/dev/full', partial);
        const file = await StagedFile.create(path, 'the audio file', partial);
        let error: unknown;
        try {
          for (let i = 0; i < 8 && !error; i++) {
            file.append(new Uint8Array(256 * 1024).fill(1));
            await file.drain().catch((e: unknown) => (error = e));
          }
          if (!error) await file.commit().catch((e: unknown) => (error = e));
        } finally {
          await file.discard();
        }
        expect(error).toBeInstanceOf(AppError);
        expect((error as AppError).code).toBe('OUTPUT_FAILED');
        expect((error as AppError).message).toBe(
          'Could not write the audio file: the disk is full (ENOSPC).',
        );
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
