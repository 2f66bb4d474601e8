/**
 * Writes a .zip of a few files with fflate's streaming `Zip`, stored (`ZipPassThrough`: the files
 * are MP3, WAV or JSON beside them, which deflate barely shrinks or which are small), with UTF-8
 * names. Each file is read once, in chunks, and its bytes go straight to a staged file, so memory
 * stays small whatever the sizes (fflate writes each entry's CRC-32 and sizes in a data descriptor
 * after its bytes). No ZIP64: an archive past 4 GiB is refused before anything is written, which
 * an audiobook's chapters are far below.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type * as Fflate from 'fflate';
import { AppError } from '../../shared/errors';
import { StagedFile } from './staged-file';

/** One file to put in the archive. */
export interface ZipEntry {
  /** Its path on disk. */
  path: string;
  /** Its name in the archive (`/` between folders). */
  name: string;
}

const LIMIT = 0xffffffff;
/** Local header (30) and data descriptor (16) around each entry's name and bytes. */
const ENTRY_OVERHEAD = 30 + 16;
/** Central directory header (46) per entry, before its name. */
const DIRECTORY_OVERHEAD = 46;
/** End of central directory record. */
const END_RECORD = 22;
/** Made by Unix (3): the external attributes below are a Unix mode. */
const UNIX = 3;
/** External attributes: a regular file, rw-r--r--. */
const REGULAR_FILE = (0o100644 << 16) >>> 0;

/** MS-DOS times start in 1980 (local time); an older file is dated then. */
const DOS_EPOCH = new Date(1980, 0, 1);

const tooLarge = () =>
  new AppError('OUTPUT_FAILED', 'the zip archive would be larger than 4 GiB: export to m4b instead');

/**
 * Writes `entries` as a zip to `outPath`, in their order (staged: a failed write leaves no
 * file). Rejects with AppError OUTPUT_FAILED when the archive would pass 4 GiB or a file cannot
 * be read or written.
 */
export async function writeZip(outPath: string, entries: readonly ZipEntry[]): Promise<void> {
  const files = await Promise.all(entries.map(async (entry) => ({ ...entry, info: await stat(entry.path) })));
  let total = END_RECORD;
  for (const file of files) {
    const name = Buffer.byteLength(file.name, 'utf8');
    total += ENTRY_OVERHEAD + DIRECTORY_OVERHEAD + 2 * name + file.info.size;
  }
  if (total > LIMIT) throw tooLarge();

  // fflate loads with the first archive, not with the server.
  const { Zip, ZipPassThrough }: typeof Fflate = await import('fflate');
  const out = await StagedFile.create(outPath, 'the zip archive');
  let failure: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error) failure ??= error;
    else out.append(chunk);
  });
  const check = async () => {
    if (failure) throw failure;
    out.assertWritable();
    await out.drain();
  };
  try {
    for (const file of files) {
      const entry = new ZipPassThrough(file.name);
      entry.mtime = file.info.mtime < DOS_EPOCH ? DOS_EPOCH : file.info.mtime;
      entry.os = UNIX;
      entry.attrs = REGULAR_FILE;
      zip.add(entry);
      for await (const chunk of createReadStream(file.path)) {
        entry.push(chunk as Buffer);
        await check();
      }
      entry.push(new Uint8Array(0), true);
      await check();
    }
    zip.end();
    await check();
    await out.commit();
  } catch (error) {
    zip.terminate();
    await out.discard();
    throw error;
  }
}
