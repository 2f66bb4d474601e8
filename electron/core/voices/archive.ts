/**
 * Unpacking a voice pack someone has as an archive: `.zip` (yauzl) or `.tar` / `.tar.gz` /
 * `.tgz` (tar). Only regular files and folders come out; links and devices are skipped, and an
 * entry whose name is not a safe relative path (`pathInside`) is refused. Limits hold while
 * unpacking, before the disk fills: entries are counted as they are read (the zip's count is
 * known from its directory before anything is written), and the bytes written are counted as
 * they come out of the decompressor against an absolute cap, the archive's own size times a
 * compression ratio, and the free disk space; the first one passed stops the unpacking.
 */

import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import { openPromise as openZip, type ZipFile } from 'yauzl';
import { AppError, isAppError } from '../../shared/errors';
import { pathInside } from '../platform/outside-names';
import { outputFailedError } from '../platform/staged-file';
import { zipEntryName } from '../platform/zip-names';

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

/** Limits on what one archive may unpack to. */
export interface ArchiveLimits {
  /** Bytes unpacked at most, whatever the disk holds (default 1 GiB; the largest pack is 0.35 GB). */
  maxBytes: number;
  /**
   * Bytes unpacked per byte of archive at most (default 20; voice weights barely compress, about
   * 1.1), allowing at least `RATIO_FLOOR_BYTES` for small archives of text files.
   */
  maxRatio: number;
  /** Entries of any kind (files, folders, links) at most (default 1,000; a Kokoro pack has ~50). */
  maxEntries: number;
}

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxBytes: 1024 ** 3, maxRatio: 20, maxEntries: 1000 };
/** What the ratio limit allows any archive, however small. */
const RATIO_FLOOR_BYTES = 1024 ** 2;

function tooLarge(path: string, maxBytes: number): AppError {
  return new AppError(
    'OUTPUT_FAILED',
    `Not enough free disk space to unpack ${path} (it holds more than ${maxBytes} bytes).`,
    { path, max_bytes: maxBytes },
  );
}

/**
 * Counts the bytes and entries an archive unpacks to, as they come; `add` and `entry` throw
 * (VOICE_PACK_INVALID, or OUTPUT_FAILED for the free space) once a limit is passed.
 */
class UnpackBudget {
  written = 0;
  entries = 0;
  private readonly ratioBytes: number;

  constructor(
    private readonly path: string,
    archiveBytes: number,
    private readonly freeBytes: number,
    private readonly limits: ArchiveLimits,
  ) {
    this.ratioBytes = Math.max(RATIO_FLOOR_BYTES, archiveBytes * limits.maxRatio);
  }

  /** The archive declares `count` entries: refused at once when that is too many. */
  expectEntries(count: number): void {
    if (count > this.limits.maxEntries) throw this.tooManyEntries(count);
  }

  /** One more entry (of any kind), before anything of it is written. */
  entry(): void {
    if (++this.entries > this.limits.maxEntries) throw this.tooManyEntries(this.entries);
  }

  private tooManyEntries(count: number): AppError {
    return invalidArchive(this.path, `it holds more than ${this.limits.maxEntries} entries (${count} seen)`);
  }

  /** An entry declares `bytes`: refused before writing it when they would pass a limit. */
  expect(bytes: number): void {
    this.check(this.written + bytes);
  }

  /** `bytes` more about to be written. */
  add(bytes: number): void {
    this.check(this.written + bytes);
    this.written += bytes;
  }

  private check(total: number): void {
    if (total > this.limits.maxBytes) {
      throw invalidArchive(
        this.path,
        `it unpacks to more than ${this.limits.maxBytes} bytes, the limit for a voice pack`,
      );
    }
    if (total > this.ratioBytes) {
      throw invalidArchive(
        this.path,
        `it unpacks to more than ${this.limits.maxRatio} times its own size (a zip bomb?), refused after ${this.written} bytes`,
      );
    }
    if (total > this.freeBytes) throw tooLarge(this.path, this.freeBytes);
  }

  /** Passes bytes through, counting them as they come out of the decompressor. */
  counter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        try {
          this.add(chunk.length);
          callback(null, chunk);
        } catch (error) {
          callback(error as Error);
        }
      },
    });
  }
}

/** An archive's entry name as a path under `dest` (a leading `./` is the archive's own root). */
function entryPath(path: string, dest: string, name: string): string {
  const relative = name.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  return pathInside(
    dest,
    relative,
    (problem) => invalidArchive(path, `the entry name "${name}" ${problem}`),
    {
      nested: true,
    },
  );
}

interface ExtractOptions {
  /** Free disk space to use at most (the caller keeps its reserve). */
  maxBytes: number;
  limits?: ArchiveLimits;
  signal?: AbortSignal;
}

/**
 * Unpacks `path` into the existing folder `dest`, within `options.limits` and writing at most
 * `options.maxBytes`. Returns the bytes written. VOICE_PACK_INVALID for a damaged or unsafe
 * archive or one past a limit, OUTPUT_FAILED for a full disk. What was written before a
 * refusal stays in `dest`, which the caller removes.
 */
export async function extractArchive(path: string, dest: string, options: ExtractOptions): Promise<number> {
  const kind = await archiveKind(path);
  if (!kind) throw invalidArchive(path, 'it is neither a .zip nor a .tar / .tar.gz');
  const budget = new UnpackBudget(
    path,
    (await stat(path)).size,
    options.maxBytes,
    options.limits ?? DEFAULT_ARCHIVE_LIMITS,
  );
  if (kind === 'zip') await extractZip(path, dest, budget, options.signal);
  else await extractTarball(path, dest, budget, options.signal);
  return budget.written;
}

async function extractZip(
  path: string,
  dest: string,
  budget: UnpackBudget,
  signal?: AbortSignal,
): Promise<void> {
  let zip: ZipFile;
  try {
    zip = await openZip(path, { lazyEntries: true, autoClose: false, strictFileNames: false });
  } catch (error) {
    throw invalidArchive(path, (error as Error).message, error);
  }
  try {
    // The central directory says how many entries there are: refused before any is written.
    budget.expectEntries(zip.entryCount);
    for await (const entry of zip.eachEntry()) {
      if (signal?.aborted) throw new AppError('CANCELLED', 'The voice import was cancelled.');
      budget.entry();
      const name = zipEntryName(entry);
      if (name.endsWith('/')) continue;
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      if (mode !== 0 && mode !== 0o100000) continue; // links and special files stay out
      const target = entryPath(path, dest, name);
      if (entry.isEncrypted()) throw invalidArchive(path, `"${name}" is encrypted`);
      budget.expect(entry.uncompressedSize);
      const stream = await zip.openReadStreamPromise(entry);
      try {
        await mkdir(dirname(target), { recursive: true });
        await pipeline(stream, budget.counter(), createWriteStream(target, { flags: 'wx' }), { signal });
      } catch (error) {
        if (signal?.aborted && !isAppError(error))
          throw new AppError('CANCELLED', 'The voice import was cancelled.');
        throw writeError(path, target, name, error);
      }
    }
  } catch (error) {
    if (isAppError(error)) throw error;
    throw invalidArchive(path, (error as Error).message, error);
  } finally {
    zip.close();
  }
}

const TAR_FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * Reads the tarball entry by entry (tar's parser hands over one at a time and waits until it is
 * consumed), writing each file here like a zip entry: counted and checked before it is written,
 * its bytes counted as they come. On a refusal the input stops and the writes under way finish,
 * so that what the caller removes is all there is.
 */
async function extractTarball(
  path: string,
  dest: string,
  budget: UnpackBudget,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted) throw new AppError('CANCELLED', 'The voice import was cancelled.');
  const parser = new Parser({ strict: true });
  const source = createReadStream(path);
  const writes: Promise<void>[] = [];
  let current: ReadEntry | undefined;
  let failure: unknown;
  let stopped: () => void = () => undefined;
  const stop = (error: unknown) => {
    failure ??= error;
    source.unpipe(parser);
    source.destroy();
    current?.destroy();
    stopped();
  };
  const cancel = () => stop(new AppError('CANCELLED', 'The voice import was cancelled.'));
  signal?.addEventListener('abort', cancel, { once: true });
  parser.on('entry', (entry: ReadEntry) => {
    if (failure !== undefined) return entry.resume();
    try {
      budget.entry();
      const name = entry.path.replace(/^(\.\/)+/, '');
      const wanted = entry.type === 'Directory' || TAR_FILE_TYPES.has(entry.type);
      if (!wanted || name === '' || name === '.') return entry.resume(); // links and special files stay out
      const target = entryPath(path, dest, entry.path);
      if (entry.type === 'Directory') {
        entry.resume();
        writes.push(mkdir(target, { recursive: true }).then(() => undefined, stop));
        return;
      }
      budget.expect(entry.size ?? 0);
      current = entry;
      writes.push(
        mkdir(dirname(target), { recursive: true })
          .then(() => pipeline(entry, budget.counter(), createWriteStream(target, { flags: 'wx' })))
          .catch((error: unknown) => stop(writeError(path, target, entry.path, error))),
      );
    } catch (error) {
      entry.resume();
      stop(error);
    }
  });
  await new Promise<void>((resolve) => {
    stopped = resolve;
    parser.on('end', resolve);
    parser.on('error', stop);
    source.on('error', stop);
    source.pipe(parser);
  });
  await Promise.all(writes);
  signal?.removeEventListener('abort', cancel);
  if (failure === undefined) return;
  if (isAppError(failure)) throw failure;
  throw invalidArchive(path, (failure as Error).message, failure);
}

/** A failed write of the entry `name` to `target`: a full disk, a duplicate, or the archive. */
function writeError(path: string, target: string, name: string, error: unknown): unknown {
  if (isAppError(error)) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') return invalidArchive(path, `"${name}" appears twice`);
  if (code && /^E[A-Z]+$/.test(code) && code !== 'EINVAL') {
    return outputFailedError('the unpacked voice file', target, 'write', error);
  }
  return error;
}

/** Where an archive is unpacked inside an install's temporary folder. */
export function unpackFolder(tempDir: string): string {
  return join(tempDir, '.unpacked');
}
