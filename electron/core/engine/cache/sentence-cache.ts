/**
 * Rendered engine calls kept on disk by content (`<data-dir>/cache/sentences/`), so a render
 * after an edit synthesises only the sentences that changed. One file per entry, named by its
 * key (a hash: `cached-backend.ts` says what goes into it): the PCM, word events and sentence
 * starts of one `SynthesisOutput`, with a checksum. An index in memory (size, last use) is built
 * by scanning the folder at open; beyond the size limit the least recently used entries go.
 *
 * Several instances may share a data folder: entries are written to a temporary name and
 * renamed, so a reader sees a whole file or none; an entry another instance wrote is found by
 * its name even though this index never saw it; a file that vanished (another instance evicted
 * or cleared it) is a miss. A damaged or truncated entry is a miss too, and is removed: the
 * cache never fails a render.
 */

import { randomBytes } from 'node:crypto';
import { closeSync, openSync, read, readFile } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SentenceCacheStats } from '../../../shared/sentence-cache';
import type { SynthesisOutput } from '../espeak/worker-pool';
import { CHECKSUM_BYTES, entryChecksum } from './entry-checksum';

export interface SentenceCacheOptions {
  /** Folder of the entries; created if missing. */
  dir: string;
  /** Size above which the least recently used entries are removed, bytes (> 0). */
  maxBytes: number;
}

export interface SentenceCache {
  /** Whether this process knows an entry under `key` (one another instance wrote may exist unknown). */
  has(key: string): boolean;
  /**
   * The output stored under `key`, or undefined: a miss. Never rejects. Its memory is the
   * caller's, to change, until it calls the output's `release`, which lets a later read reuse it.
   */
  get(key: string): Promise<SynthesisOutput | undefined>;
  /**
   * Stores `output` under `key`; the output is copied before this returns a promise, so the
   * caller may change it. Never rejects: a cache that cannot write (disk full, folder removed)
   * only keeps less, and `writeFailures` counts it.
   */
  put(key: string, output: SynthesisOutput): Promise<void>;
  stats(): SentenceCacheStats & { writeFailures: number };
  /** Removes every entry in the folder (other instances' too) and resolves with the stats after. */
  clear(): Promise<SentenceCacheStats>;
  /** Resolves once the writes started so far are on disk (or failed). */
  flush(): Promise<void>;
}

/** The entry layout's magic: checked by `entryChecksum` (32 bytes at the end). */
const MAGIC = Buffer.from('NSC3', 'latin1');
const SUFFIX = '.snt';
const TEMP_SUFFIX = '.tmp';
/** A temporary file this old is left from a writer that died, not one still writing, ms. */
const STALE_TEMP_MS = 10 * 60_000;

interface Header {
  sampleRate: number;
  samples: number;
  words: SynthesisOutput['words'];
  sentenceMs: number[];
  /** `SynthesisOutput.dropped`, when any. */
  dropped?: string[];
}

interface Entry {
  bytes: number;
  /** The file's modification time as last seen or set, ms since the epoch: its last use. */
  usedMs: number;
}

/**
 * How stale a file's time may get before a hit sets it again, ms. The time only orders the
 * entries for the scan after a restart, to this precision; touching every file on every hit
 * cost a system call per sentence on each render from the cache.
 */
const TOUCH_INTERVAL_MS = 10 * 60_000;

/** Opens (creating) the cache folder and indexes the entries already in it. */
export async function openSentenceCache(options: SentenceCacheOptions): Promise<SentenceCache> {
  const { dir, maxBytes } = options;
  await mkdir(dir, { recursive: true });
  // Map order is use order: the first key is the least recently used.
  const index = new Map<string, Entry>();
  let total = 0;
  let hits = 0;
  let misses = 0;
  let writeFailures = 0;
  const writing = new Map<string, Promise<void>>();
  const buffers = createReadBuffers();

  const pathOf = (key: string) => join(dir, key + SUFFIX);

  const forget = (key: string) => {
    const entry = index.get(key);
    if (!entry) return;
    index.delete(key);
    total -= entry.bytes;
  };

  const remember = (key: string, bytes: number, usedMs: number) => {
    forget(key);
    index.set(key, { bytes, usedMs });
    total += bytes;
  };

  /** Drops an entry; a file that cannot be removed stays (a later scan sees it again). */
  const remove = async (key: string) => {
    forget(key);
    await unlink(pathOf(key)).catch(() => undefined);
  };

  const evict = async () => {
    while (total > maxBytes) {
      const oldest = index.keys().next();
      if (oldest.done) break;
      await remove(oldest.value);
    }
  };

  await scan();

  function stats(): SentenceCacheStats {
    return { enabled: true, entries: index.size, bytes: total, limit_bytes: maxBytes, hits, misses };
  }

  /** Indexes the folder's entries, oldest use first (file times carry last use across restarts). */
  async function scan(): Promise<void> {
    const found: Array<{ key: string; bytes: number; used: number }> = [];
    const now = Date.now();
    await Promise.all(
      (await readdir(dir)).map(async (name) => {
        const path = join(dir, name);
        // Gone since the listing (another instance evicted it): nothing to index.
        const info = await stat(path).catch(() => undefined);
        if (!info?.isFile()) return;
        if (name.endsWith(TEMP_SUFFIX)) {
          if (now - info.mtimeMs > STALE_TEMP_MS) await unlink(path).catch(ignoreMissing);
        } else if (name.endsWith(SUFFIX)) {
          found.push({ key: name.slice(0, -SUFFIX.length), bytes: info.size, used: info.mtimeMs });
        }
      }),
    );
    found.sort((a, b) => a.used - b.used);
    for (const f of found) remember(f.key, f.bytes, f.used);
    await evict();
  }

  return {
    has: (key) => index.has(key),

    async get(key) {
      const known = index.get(key);
      const read = await readEntry(pathOf(key), known?.bytes, buffers);
      if (!read) {
        // Never written, evicted, or cleared by another instance.
        forget(key);
        misses++;
        return undefined;
      }
      const { bytes, release } = read;
      const output = decodeEntry(bytes);
      if (!output) {
        release();
        await remove(key);
        misses++;
        return undefined;
      }
      hits++;
      // The file's time is its last use, for the order of a later scan; a failure only loses that.
      const now = Date.now();
      const touch = !known || now - known.usedMs >= TOUCH_INTERVAL_MS;
      remember(key, bytes.length, touch ? now : known.usedMs);
      if (touch) void utimes(pathOf(key), now / 1000, now / 1000).catch(() => undefined);
      return { ...output, release };
    },

    put(key, output) {
      const pending = writing.get(key);
      if (pending || index.has(key)) return pending ?? Promise.resolve();
      const bytes = encodeEntry(output);
      const write = (async () => {
        const temp = join(dir, `${key}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
        try {
          await writeFile(temp, bytes);
          await rename(temp, pathOf(key));
          remember(key, bytes.length, Date.now());
          await evict();
        } catch {
          writeFailures++;
          await unlink(temp).catch(() => undefined);
        } finally {
          writing.delete(key);
        }
      })();
      writing.set(key, write);
      return write;
    },

    stats: () => ({ ...stats(), writeFailures }),

    async clear() {
      await Promise.all(writing.values());
      const names = await readdir(dir).catch(() => [] as string[]);
      // Other instances' temporary files are theirs to rename or remove.
      await Promise.all(
        names.filter((n) => n.endsWith(SUFFIX)).map((n) => unlink(join(dir, n)).catch(ignoreMissing)),
      );
      index.clear();
      total = 0;
      return stats();
    },

    async flush() {
      await Promise.all(writing.values());
    },
  };
}

/**
 * Buffers for entry reads, handed back by the render once it has written an entry's audio
 * (`SynthesisOutput.release`). A fresh buffer for each of the thousand entries of a chapter
 * (about 260 MB) made V8 collect garbage about a dozen times per render for the memory outside
 * its heap, and the kernel map and clear every page anew: reused, a render from the cache took
 * a quarter less time (bench:cache).
 */
interface ReadBuffers {
  /** A buffer of at least `bytes` bytes (its `release` gives it back). */
  take(bytes: number): { buffer: Buffer; release: () => void };
}

/** Buffers kept for reuse at most (a render has a few entries in flight: `backend.window`). */
const SPARE_BUFFERS = 16;
/** Read buffers are allocated in multiples of this, so one fits entries of similar lengths. */
const BUFFER_STEP = 256 * 1024;

function createReadBuffers(): ReadBuffers {
  const spare: Buffer[] = [];
  return {
    take(bytes) {
      const found = spare.findIndex((b) => b.length >= bytes);
      const buffer =
        found >= 0
          ? spare.splice(found, 1)[0]!
          : Buffer.allocUnsafeSlow(Math.ceil(bytes / BUFFER_STEP) * BUFFER_STEP);
      let released = false;
      return {
        buffer,
        release() {
          if (released) return;
          released = true;
          if (spare.length < SPARE_BUFFERS) spare.push(buffer);
        },
      };
    },
  };
}

/** An entry file's bytes, and the call that hands their memory back. */
interface ReadEntry {
  bytes: Buffer;
  release: () => void;
}

/**
 * The bytes of the entry file at `path`, or undefined when it cannot be read (a miss). With the
 * size the index knows, the file is read in one call, into a buffer from `buffers`, without
 * asking its size first (a render from the cache reads a thousand entries); a file of another
 * size is read whole as it is.
 *
 * Only the read goes to the thread pool: opening and closing are short system calls, made here,
 * where each as a promise of `fs/promises` cost more of this thread than the call itself (about
 * twice the time per entry), and each step on the pool waits for this thread to take its result
 * and start the next one, which a busy render does late.
 */
async function readEntry(
  path: string,
  knownBytes: number | undefined,
  buffers: ReadBuffers,
): Promise<ReadEntry | undefined> {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    if (knownBytes !== undefined) {
      // One byte more than expected: reading exactly `knownBytes` proves the size.
      const { buffer, release } = buffers.take(knownBytes + 1);
      let bytesRead: number;
      try {
        bytesRead = await readAt(fd, buffer.subarray(0, knownBytes + 1));
      } catch (error) {
        release();
        throw error;
      }
      if (bytesRead === knownBytes) return { bytes: buffer.subarray(0, knownBytes), release };
      release();
    }
    return { bytes: await readWhole(fd), release: () => undefined };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/** Reads into `buffer` from the start of `fd`'s file; resolves with the bytes read. */
function readAt(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, 0, buffer.length, 0, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );
}

/** The whole file of `fd`, whatever its size. */
function readWhole(fd: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    readFile(fd, (error, bytes) => (error ? reject(error) : resolve(bytes))),
  );
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Nothing was written: a failed close loses nothing.
  }
}

/**
 * An entry file: magic (NSC3), header length (u32 LE), JSON header, PCM (s16le), and the
 * `entryChecksum` of all before it. The header is padded with spaces to an even length, so the
 * PCM starts on a 2-byte boundary and `decodeEntry` can return it as a view on the bytes read
 * rather than a copy. Entries of the earlier layouts (NSC1, NSC2) are not read: their keys
 * belong to an earlier cache format (`cached-backend.ts`), and they age out as the least used.
 */
export function encodeEntry(output: SynthesisOutput): Buffer {
  const header: Header = {
    sampleRate: output.sampleRate,
    samples: output.pcm.length,
    words: output.words,
    sentenceMs: output.sentenceMs,
    ...(output.dropped && output.dropped.length > 0 ? { dropped: output.dropped } : {}),
  };
  const text = JSON.stringify(header);
  const json = Buffer.from(Buffer.byteLength(text) % 2 === 0 ? text : `${text} `, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const pcm = Buffer.from(output.pcm.buffer, output.pcm.byteOffset, output.pcm.byteLength);
  const bytes = Buffer.concat([MAGIC, length, json, pcm, Buffer.alloc(CHECKSUM_BYTES)]);
  const bodyLength = bytes.length - CHECKSUM_BYTES;
  entryChecksum(bytes.subarray(0, bodyLength)).copy(bytes, bodyLength);
  return bytes;
}

/** The output an entry file holds, or undefined when it is damaged, truncated or not an entry. */
export function decodeEntry(bytes: Buffer): SynthesisOutput | undefined {
  if (bytes.length < 8 + CHECKSUM_BYTES || !bytes.subarray(0, 4).equals(MAGIC)) return undefined;
  const body = bytes.subarray(0, bytes.length - CHECKSUM_BYTES);
  if (!entryChecksum(body).equals(bytes.subarray(body.length))) return undefined;
  const jsonLength = body.readUInt32LE(4);
  const pcmStart = 8 + jsonLength;
  if (pcmStart > body.length) return undefined;
  let header: Header;
  try {
    header = JSON.parse(body.subarray(8, pcmStart).toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(header.samples) || body.length - pcmStart !== header.samples * 2) return undefined;
  // A view when the samples are aligned in memory (entries written by `encodeEntry` are, in a
  // buffer of their own); else a copy.
  const at = body.byteOffset + pcmStart;
  const pcm = at % 2 === 0 ? new Int16Array(body.buffer, at, header.samples) : new Int16Array(header.samples);
  if (at % 2 !== 0) new Uint8Array(pcm.buffer).set(body.subarray(pcmStart));
  return {
    pcm,
    sampleRate: header.sampleRate,
    words: header.words,
    sentenceMs: header.sentenceMs,
    ...(Array.isArray(header.dropped) ? { dropped: header.dropped } : {}),
  };
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
