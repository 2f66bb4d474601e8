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

import { createHash, randomBytes } from 'node:crypto';
import * as zlib from 'node:zlib';
import { closeSync, openSync, read, readFile } from 'node:fs';
import { mkdir, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SentenceCacheStats } from '../../../shared/sentence-cache';
import type { SynthesisOutput } from '../pool';

export interface SentenceCacheOptions {
  /** Folder of the entries; created if missing. */
  dir: string;
  /** Size above which the least recently used entries are removed, bytes (> 0). */
  maxBytes: number;
}

export interface SentenceCache {
  /** The output stored under `key` (fresh: its own memory, which the caller may change), or undefined: a miss. Never rejects. */
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

/** An entry checked by SHA-256 (32 bytes at the end): the first layout, still read. */
const MAGIC_SHA256 = Buffer.from('NSC1', 'latin1');
/** An entry checked by CRC-32 (4 bytes LE at the end), written where Node has zlib.crc32 (≥ 20.15). */
const MAGIC_CRC32 = Buffer.from('NSC2', 'latin1');
/**
 * zlib's CRC-32 where this Node has it. It finds damaged and truncated files as surely as a cache
 * needs, at three times the speed of SHA-256, which a render from the cache spent on every
 * byte it read (about 260 MB for a 100,000-character chapter).
 */
const crc32: ((data: Uint8Array) => number) | undefined =
  typeof zlib.crc32 === 'function' ? (data) => zlib.crc32(data) : undefined;
const SUFFIX = '.snt';
const TEMP_SUFFIX = '.tmp';
/** A temporary file this old is left from a writer that died, not one still writing, ms. */
const STALE_TEMP_MS = 10 * 60_000;

interface Header {
  sampleRate: number;
  samples: number;
  words: SynthesisOutput['words'];
  sentenceMs: number[];
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
    async get(key) {
      const known = index.get(key);
      const bytes = await readEntry(pathOf(key), known?.bytes);
      if (!bytes) {
        // Never written, evicted, or cleared by another instance.
        forget(key);
        misses++;
        return undefined;
      }
      const output = decodeEntry(bytes);
      if (!output) {
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
      return output;
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
 * The bytes of the entry file at `path`, or undefined when it cannot be read (a miss). With the
 * size the index knows, the file is read in one call without asking its size first (a render
 * from the cache reads a thousand entries); a file of another size is read whole as it is.
 *
 * Only the read goes to the thread pool: opening and closing are short system calls, made here,
 * where each as a promise of `fs/promises` cost more of this thread than the call itself (about
 * twice the time per entry), and each step on the pool waits for this thread to take its result
 * and start the next one, which a busy render does late.
 */
async function readEntry(path: string, knownBytes: number | undefined): Promise<Buffer | undefined> {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    if (knownBytes !== undefined) {
      // One byte more than expected: reading exactly `knownBytes` proves the size.
      const buffer = Buffer.allocUnsafeSlow(knownBytes + 1);
      if ((await readAt(fd, buffer)) === knownBytes) return buffer.subarray(0, knownBytes);
    }
    return await readWhole(fd);
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
 * An entry file: magic, header length (u32 LE), JSON header, PCM (s16le), and a checksum of all
 * before it: CRC-32 (u32 LE) after the magic NSC2, SHA-256 after NSC1 (Node without zlib.crc32,
 * and entries written before NSC2). The header is padded with spaces to an even length, so the PCM starts on a 2-byte boundary
 * and `decodeEntry` can return it as a view on the bytes read rather than a copy.
 */
export function encodeEntry(output: SynthesisOutput): Buffer {
  const header: Header = {
    sampleRate: output.sampleRate,
    samples: output.pcm.length,
    words: output.words,
    sentenceMs: output.sentenceMs,
  };
  const text = JSON.stringify(header);
  const json = Buffer.from(Buffer.byteLength(text) % 2 === 0 ? text : `${text} `, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(json.length);
  const pcm = Buffer.from(output.pcm.buffer, output.pcm.byteOffset, output.pcm.byteLength);
  if (!crc32) {
    const body = Buffer.concat([MAGIC_SHA256, length, json, pcm]);
    return Buffer.concat([body, createHash('sha256').update(body).digest()]);
  }
  const bytes = Buffer.concat([MAGIC_CRC32, length, json, pcm, Buffer.alloc(4)]);
  const bodyLength = bytes.length - 4;
  bytes.writeUInt32LE(crc32(bytes.subarray(0, bodyLength)), bodyLength);
  return bytes;
}

/** The output an entry file holds, or undefined when it is damaged, truncated or not an entry. */
export function decodeEntry(bytes: Buffer): SynthesisOutput | undefined {
  const magic = bytes.subarray(0, 4);
  const isCrc32 = magic.equals(MAGIC_CRC32);
  if (!isCrc32 && !magic.equals(MAGIC_SHA256)) return undefined;
  const checkBytes = isCrc32 ? 4 : 32;
  if (bytes.length < 8 + checkBytes) return undefined;
  const body = bytes.subarray(0, bytes.length - checkBytes);
  const check = bytes.subarray(body.length);
  if (isCrc32) {
    // An NSC2 entry copied to a Node without zlib.crc32 is a miss there, like any unreadable one.
    if (!crc32 || crc32(body) !== check.readUInt32LE(0)) return undefined;
  } else if (!createHash('sha256').update(body).digest().equals(check)) return undefined;
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
  return { pcm, sampleRate: header.sampleRate, words: header.words, sentenceMs: header.sentenceMs };
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
