/**
 * Files that appear only when complete: written under a temporary name (`<path>.<random>.partial`)
 * and renamed once whole, with write failures turned into messages a user can act on.
 * The audio sinks, subtitles and word timings all write through `StagedFile`.
 */

import { randomBytes } from 'node:crypto';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { AppError, isAppError } from '../../shared/errors';
import { redactPaths } from './redact-paths';

/** Suffix of the temporary file a sink writes before it is renamed. */
export const PARTIAL_SUFFIX = '.partial';

/** Bytes gathered before one write to disk: few system calls, small memory. */
const BLOCK_BYTES = 256 * 1024;
/** Bytes queued for disk before `write` makes the producer wait. */
const HIGH_WATER_BYTES = 4 * BLOCK_BYTES;
/** Blocks kept for reuse after their write. */
const SPARE_BLOCKS = 6;

/** Plain words for the file-system errors a user can act on, by errno code. */
const WRITE_ERRORS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk is full (disk quota exceeded)',
  EFBIG: 'the file is too large (a file-size limit was reached, or the disk is full)',
  EROFS: 'the data folder is on a read-only disk',
  EACCES: 'permission denied on the data folder',
  EPERM: 'permission denied on the data folder',
  ENOENT: 'a folder on its path is missing',
};

/**
 * Why a file could not be written, in words a user can act on, e.g. "the disk is full
 * (ENOSPC)"; undefined for errors without a known errno code.
 */
export function describeWriteError(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !(code in WRITE_ERRORS)) return undefined;
  return `${WRITE_ERRORS[code]} (${code})`;
}

/**
 * OUTPUT_FAILED for a file-system error while writing `what` (e.g. "the audio file"): a clear
 * message for a full disk and the like (the path is kept in the details, not the message,
 * which reaches API clients); other errors keep their own text, without its paths.
 */
export function outputFailedError(what: string, path: string, action: string, cause: unknown): AppError {
  if (isAppError(cause)) return cause;
  const known = describeWriteError(cause);
  const reason = cause instanceof Error ? cause.message : String(cause);
  // The path stays in the details (and the log), out of the message: it names the data folder.
  const message = known
    ? `Could not ${action === 'create' ? 'create' : 'write'} ${what}: ${known}.`
    : `Could not ${action} ${what}: ${redactPaths(reason)}`;
  return new AppError('OUTPUT_FAILED', message, { path }, { cause });
}

/**
 * An append-only file written under `<path>.<random>.partial` through fixed-size blocks, with one
 * disk write in flight at a time, and renamed to `<path>` by `commit` once complete, so a
 * file under its final name is always whole. Bytes are copied in synchronously by `append`,
 * so ordering never depends on whether callers await. Every failure is an AppError
 * OUTPUT_FAILED that names `what` (e.g. "the audio file"). The owner ends it with exactly
 * one of `commit()` or `discard()`.
 */
export class StagedFile {
  private block: Buffer = Buffer.allocUnsafe(BLOCK_BYTES);
  private blockUsed = 0;
  /** Spare blocks returned by finished disk writes, reused to avoid reallocating. */
  private readonly spare: Buffer[] = [];
  /** Full blocks not yet written, in order from `pendingPosition`: the next write takes them all. */
  private pending: Array<{ block: Buffer; length: number }> = [];
  private pendingPosition = 0;
  /** Resolves when every block queued so far is written (or the writing failed). */
  private queue: Promise<void> = Promise.resolve();
  private isWriting = false;
  private queuedBytes = 0;
  private position = 0;
  private failure: AppError | undefined;
  private state: 'open' | 'finished' | 'aborted' = 'open';

  private constructor(
    readonly path: string,
    /** The temporary file, `<path>.<random>.partial`. */
    private readonly partial: string,
    private readonly what: string,
    private readonly handle: FileHandle,
  ) {}

  /**
   * Creates (or truncates) the temporary file. Rejects with AppError OUTPUT_FAILED.
   * @param what the file in a user's words, for error messages (default "the audio file")
   * @param partial the temporary file (default `<path>.<random>.partial`: its own name per
   *   writer, so on a data directory several instances share, a render taken over from an
   *   instance that lost its lease never writes into the other's file)
   */
  static async create(
    path: string,
    what = 'the audio file',
    partial = `${path}.${randomBytes(4).toString('hex')}${PARTIAL_SUFFIX}`,
  ): Promise<StagedFile> {
    try {
      return new StagedFile(path, partial, what, await open(partial, 'w'));
    } catch (error) {
      throw outputFailedError(what, partial, 'create', error);
    }
  }

  /** Bytes appended so far (buffered or on disk). */
  get size(): number {
    return this.position + this.blockUsed;
  }

  /** Throws the first write failure, or if the file was already finished or aborted. */
  assertWritable(): void {
    if (this.failure) throw this.failure;
    if (this.state !== 'open') {
      throw new AppError('OUTPUT_FAILED', `output ${this.path} is already ${this.state}`, {
        path: this.path,
      });
    }
  }

  /** Copies bytes into the current block; full blocks are queued for disk. */
  append(bytes: Uint8Array): void {
    let offset = 0;
    while (offset < bytes.length) {
      const n = Math.min(bytes.length - offset, BLOCK_BYTES - this.blockUsed);
      this.block.set(bytes.subarray(offset, offset + n), this.blockUsed);
      this.blockUsed += n;
      offset += n;
      if (this.blockUsed === BLOCK_BYTES) this.flushBlock();
    }
  }

  /**
   * A writable view of the next `length` bytes (at most one block), for callers that
   * produce bytes in place; follow with `commitReserved(length)`.
   */
  reserve(length: number): Buffer {
    if (length > BLOCK_BYTES) throw new RangeError(`reserve at most ${BLOCK_BYTES} bytes`);
    if (BLOCK_BYTES - this.blockUsed < length) this.flushBlock();
    return this.block.subarray(this.blockUsed, this.blockUsed + length);
  }

  /** Marks `length` bytes of the last `reserve` view as written. */
  commitReserved(length: number): void {
    this.blockUsed += length;
    if (this.blockUsed === BLOCK_BYTES) this.flushBlock();
  }

  /** Appends text (UTF-8) and waits for `drain`. */
  async write(text: string): Promise<void> {
    this.assertWritable();
    this.append(Buffer.from(text, 'utf8'));
    await this.drain();
  }

  /** Resolves once queued disk writes are below the high-water mark; rejects on a write failure. */
  async drain(): Promise<void> {
    if (this.queuedBytes > HIGH_WATER_BYTES) await this.queue;
    if (this.failure) throw this.failure;
  }

  /** Overwrites bytes already appended (e.g. a header), after everything queued is on disk. */
  async patch(bytes: Uint8Array, position: number): Promise<void> {
    this.flushBlock();
    await this.queue;
    if (this.failure) throw this.failure;
    try {
      await this.handle.write(bytes, 0, bytes.length, position);
    } catch (error) {
      throw outputFailedError(this.what, this.partial, 'write', error);
    }
  }

  /**
   * Writes what is buffered, closes, and renames `<path>.<random>.partial` to `<path>`.
   * Returns the final size in bytes. On failure the temporary file is left for `discard`.
   */
  async commit(beforeClose?: () => Promise<void>): Promise<number> {
    this.assertWritable();
    this.flushBlock();
    await this.queue;
    if (this.failure) throw this.failure;
    await beforeClose?.();
    this.state = 'finished';
    const partial = this.partial;
    try {
      await this.handle.close();
    } catch (error) {
      throw outputFailedError(this.what, partial, 'close', error);
    }
    try {
      await rename(partial, this.path);
    } catch (error) {
      throw outputFailedError(this.what, this.path, 'rename to', error);
    }
    return this.position;
  }

  /** Closes (if still open) and deletes the temporary file. Never throws for a missing file. */
  async discard(): Promise<void> {
    const wasOpen = this.state === 'open';
    if (this.state !== 'finished') this.state = 'aborted';
    // Let an in-flight write settle so the handle is not closed under it.
    await this.queue.catch(() => undefined);
    if (wasOpen) await this.handle.close().catch(() => undefined);
    await rm(this.partial, { force: true });
  }

  private flushBlock(): void {
    if (this.blockUsed === 0) return;
    if (this.pending.length === 0) this.pendingPosition = this.position;
    this.pending.push({ block: this.block, length: this.blockUsed });
    this.position += this.blockUsed;
    this.queuedBytes += this.blockUsed;
    this.block = this.spare.pop() ?? Buffer.allocUnsafe(BLOCK_BYTES);
    this.blockUsed = 0;
    if (this.isWriting) return;
    this.isWriting = true;
    this.queue = this.writePending();
  }

  /**
   * Writes the pending blocks until none is left, all the blocks queued since the last write in
   * one (writev): each write's end waits for this thread to start the next, and a render
   * answered from the sentence cache, which keeps this thread busy, left the disk idle between
   * 256 KiB writes.
   */
  private async writePending(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending;
      const position = this.pendingPosition;
      this.pending = [];
      let length = 0;
      for (const { length: n } of batch) length += n;
      try {
        if (!this.failure && this.state !== 'aborted') await this.writeBlocks(batch, position);
      } catch (error) {
        this.failure ??= outputFailedError(this.what, this.partial, 'write', error);
      } finally {
        this.queuedBytes -= length;
        for (const { block } of batch) if (this.spare.length < SPARE_BLOCKS) this.spare.push(block);
      }
    }
    this.isWriting = false;
  }

  private async writeBlocks(batch: ReadonlyArray<{ block: Buffer; length: number }>, position: number) {
    const views = batch.map(({ block, length }) => block.subarray(0, length));
    const { bytesWritten } = await this.handle.writev(views, position);
    // A short write (rare: a full disk reports itself on the next call) goes on block by block.
    let skipped = 0;
    for (const view of views) {
      const done = Math.min(view.length, Math.max(0, bytesWritten - skipped));
      if (done < view.length)
        await this.writeFully(view.subarray(done), view.length - done, position + skipped + done);
      skipped += view.length;
    }
  }

  private async writeFully(block: Buffer, length: number, position: number): Promise<void> {
    let done = 0;
    while (done < length) {
      const { bytesWritten } = await this.handle.write(block, done, length - done, position + done);
      done += bytesWritten;
    }
  }
}
