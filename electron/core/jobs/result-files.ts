/**
 * Where finished audio and subtitles live: the one storage interface the runner, the download
 * route and the OpenAI route use. Today a directory (`<data-dir>/audio`), which several
 * instances share when it is on a network file system; an S3-compatible store can follow
 * behind the same interface (the engine renders into `localPath` first, as it does now).
 */

import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { MarkTiming, WordTiming } from '../engine';
import { PARTIAL_SUFFIX } from '../platform/staged-file';
import type { RequestRow } from '../store';

/** A stored file's size and time, for Content-Length, ETag and Last-Modified. */
export interface StoredFileInfo {
  size: number;
  modified: Date;
}

export interface ResultFiles {
  /** Where this store keeps its files (for messages and the health answer). */
  readonly location: string;
  /** The local path the engine writes a request's audio to. */
  audioPath(row: Pick<RequestRow, 'id' | 'audio_type'>): string;
  /** The local path the engine writes a request's subtitles to. */
  srtPath(row: Pick<RequestRow, 'id'>): string;
  /** Where a request whose text has chapters keeps their times (request-chapters.ts). */
  chaptersPath(row: Pick<RequestRow, 'id'>): string;
  /** Where the render writes the word timings those times are taken from (removed after). */
  timingsPath(row: Pick<RequestRow, 'id'>): string;
  /** Size and time of a finished file; undefined when it is not there. */
  info(path: string): Promise<StoredFileInfo | undefined>;
  /** The bytes `start`–`end` (inclusive; whole file by default) of a finished file. */
  read(path: string, range?: { start: number; end: number }): Readable;
  /** Creates the store's folder. */
  prepare(): Promise<void>;
  /**
   * Deletes temporary files of renders that never finished, untouched for at least
   * `minAgeMs` (0: all of them, when no other process can be writing). Returns how many.
   */
  sweepPartials(minAgeMs: number): Promise<number>;
}

/** Results in a directory on this machine or on a file system several machines mount. */
export function createDirectoryFiles(dir: string): ResultFiles {
  return {
    location: dir,
    audioPath: (row) => join(dir, `${row.id}.${row.audio_type}`),
    srtPath: (row) => join(dir, `${row.id}.srt`),
    chaptersPath: (row) => join(dir, `${row.id}.chapters.json`),
    timingsPath: (row) => join(dir, `${row.id}.timings.json`),
    async info(path) {
      try {
        const s = await stat(path);
        return { size: s.size, modified: s.mtime };
      } catch {
        return undefined;
      }
    },
    read: (path, range) => createReadStream(path, range ?? {}),
    prepare: async () => {
      await mkdir(dir, { recursive: true });
    },
    async sweepPartials(minAgeMs) {
      let swept = 0;
      const now = Date.now();
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (!name.endsWith(PARTIAL_SUFFIX)) continue;
        const path = join(dir, name);
        if (minAgeMs > 0) {
          const modified = (await stat(path).catch(() => undefined))?.mtimeMs;
          if (modified === undefined || now - modified < minAgeMs) continue;
        }
        await rm(path, { force: true });
        swept++;
      }
      return swept;
    },
  };
}

/** What a render wrote to `timingsPath`: its words and SSML marks, in order (JSON array). */
export async function readTimings(timingsPath: string): Promise<(WordTiming | MarkTiming)[]> {
  return JSON.parse(await readFile(timingsPath, 'utf8')) as (WordTiming | MarkTiming)[];
}

/** A word of the timings file, not an SSML mark. */
export function isWordTiming(item: WordTiming | MarkTiming): item is WordTiming {
  return 'text' in item;
}
