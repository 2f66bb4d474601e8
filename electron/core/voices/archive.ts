/**
 * Unpacking a voice pack someone has as an archive: `.zip` (yauzl) or `.tar` / `.tar.gz` /
 * `.tgz` (tar). Only regular files and folders come out; links, devices and paths leaving the
 * destination are refused, and the unpacked size is capped (a zip bomb fails, not the disk).
 */

import { createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { x as extractTar } from 'tar';
import { openPromise as openZip, type ZipFile } from 'yauzl';
import { AppError, isAppError } from '../../shared/errors';
import { outputFailedError } from '../platform/staged-file';

export type ArchiveKind = 'zip' | 'tar';

/** The archive kind by its first bytes (zip, gzip or a ustar header), else undefined. */
export async function archiveKind(path: string): Promise<ArchiveKind | undefined> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(262);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (bytesRead >= 4 && head.readUInt32LE(0) === 0x04034b50) return 'zip';
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar';
    if (bytesRead >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
    return undefined;
  } finally {
    await handle.close();
  }
}

function invalidArchive(path: string, reason: string, cause?: unknown): AppError {
  return new AppError(
    'VOICE_PACK_INVALID',
    `The archive ${path} cannot be used: ${reason}.`,
    { path },
    { cause },
  );
}

function tooLarge(path: string, maxBytes: number): AppError {
  return new AppError(
    'OUTPUT_FAILED',
    `Not enough free disk space to unpack ${path} (it holds more than ${maxBytes} bytes).`,
    { path, max_bytes: maxBytes },
  );
}

/** Whether `name` (archive-relative) stays inside `dest` once joined. */
function inside(dest: string, name: string): string | undefined {
  const target = resolve(dest, name);
  return target.startsWith(resolve(dest) + sep) ? target : undefined;
}

/**
 * Unpacks `path` into the existing folder `dest`, writing at most `maxBytes`. Returns the bytes
 * written. VOICE_PACK_INVALID for a damaged or unsafe archive, OUTPUT_FAILED for a full disk.
 */
export async function extractArchive(
  path: string,
  dest: string,
  options: { maxBytes: number; signal?: AbortSignal },
): Promise<number> {
  const kind = await archiveKind(path);
  if (kind === 'zip') return extractZip(path, dest, options);
  if (kind === 'tar') return extractTarball(path, dest, options);
  throw invalidArchive(path, 'it is neither a .zip nor a .tar / .tar.gz');
}

async function extractZip(
  path: string,
  dest: string,
  { maxBytes, signal }: { maxBytes: number; signal?: AbortSignal },
): Promise<number> {
  let zip: ZipFile;
  try {
    zip = await openZip(path, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (error) {
    throw invalidArchive(path, (error as Error).message, error);
  }
  let written = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (signal?.aborted) throw new AppError('CANCELLED', 'The voice import was cancelled.');
      const name = entry.fileName;
      if (name.endsWith('/')) continue;
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      if (mode !== 0 && mode !== 0o100000) continue; // links and special files stay out
      const target = inside(dest, name);
      if (!target) throw invalidArchive(path, `the entry "${name}" points outside the archive`);
      if (entry.isEncrypted()) throw invalidArchive(path, `"${name}" is encrypted`);
      written += entry.uncompressedSize;
      if (written > maxBytes) throw tooLarge(path, maxBytes);
      const stream = await zip.openReadStreamPromise(entry);
      try {
        await mkdir(dirname(target), { recursive: true });
        await pipeline(stream, createWriteStream(target, { flags: 'wx' }), { signal });
      } catch (error) {
        if (signal?.aborted) throw new AppError('CANCELLED', 'The voice import was cancelled.');
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw invalidArchive(path, `"${name}" appears twice`);
        if (code && /^E[A-Z]+$/.test(code) && code !== 'EINVAL') {
          throw outputFailedError('the unpacked voice file', target, 'write', error);
        }
        throw invalidArchive(path, (error as Error).message, error);
      }
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw invalidArchive(path, (error as Error).message, error);
  } finally {
    zip.close();
  }
  return written;
}

async function extractTarball(
  path: string,
  dest: string,
  { maxBytes, signal }: { maxBytes: number; signal?: AbortSignal },
): Promise<number> {
  let written = 0;
  let refusal: AppError | undefined;
  try {
    await extractTar({
      file: path,
      cwd: dest,
      strict: true,
      preservePaths: false,
      preserveOwner: false,
      filter: (name, entry) => {
        if (refusal || signal?.aborted) return false;
        const type = 'type' in entry ? entry.type : entry.isDirectory() ? 'Directory' : 'File';
        if (type === 'Directory') return true;
        if (type !== 'File' && type !== 'OldFile' && type !== 'ContiguousFile') return false;
        if (!inside(dest, name)) {
          refusal = invalidArchive(path, `the entry "${name}" points outside the archive`);
          return false;
        }
        written += entry.size ?? 0;
        if (written > maxBytes) {
          refusal = tooLarge(path, maxBytes);
          return false;
        }
        return true;
      },
    });
  } catch (error) {
    if (refusal) throw refusal;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG' || code === 'EROFS' || code === 'EACCES') {
      throw outputFailedError('the unpacked voice files', dest, 'write', error);
    }
    throw invalidArchive(path, (error as Error).message, error);
  }
  if (signal?.aborted) throw new AppError('CANCELLED', 'The voice import was cancelled.');
  if (refusal) throw refusal;
  return written;
}

/** Where an archive is unpacked inside an install's temporary folder. */
export function unpackFolder(tempDir: string): string {
  return join(tempDir, '.unpacked');
}
