/**
 * Writes a .zip of a few files, stored (not deflated: the files are MP3 or WAV, which deflate
 * barely shrinks), with UTF-8 names. Streams each file twice (its CRC-32 first, then its bytes),
 * so memory stays small whatever the sizes. No ZIP64: an archive past 4 GiB is refused, which an
 * audiobook's chapters are far below.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
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
/** General purpose flag bit 11: the name is UTF-8. */
const UTF8_NAMES = 0x0800;

/** CRC-32 of a file, read in chunks. */
async function fileCrc(path: string): Promise<number> {
  let crc = 0;
  for await (const chunk of createReadStream(path)) crc = crc32(chunk as Buffer, crc);
  return crc;
}

/** MS-DOS time and date of `date` (local time, 2-second steps, from 1980). */
function dosTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * Writes `entries` as a zip to `outPath` (staged: a failed write leaves no file). Rejects with
 * AppError OUTPUT_FAILED when the archive would pass 4 GiB or a file cannot be read or written.
 */
export async function writeZip(outPath: string, entries: readonly ZipEntry[]): Promise<void> {
  const out = await StagedFile.create(outPath, 'the zip archive');
  const put = async (bytes: Uint8Array) => {
    out.assertWritable();
    out.append(bytes);
    await out.drain();
  };
  try {
    const central: Buffer[] = [];
    let offset = 0;
    for (const entry of entries) {
      const { size, mtime } = await stat(entry.path);
      const crc = await fileCrc(entry.path);
      const name = Buffer.from(entry.name, 'utf8');
      const when = dosTime(mtime);
      if (offset + 30 + name.length + size > LIMIT) {
        throw new AppError(
          'OUTPUT_FAILED',
          'the zip archive would be larger than 4 GiB: export to m4b instead',
        );
      }
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4); // version needed: 2.0
      local.writeUInt16LE(UTF8_NAMES, 6);
      local.writeUInt16LE(0, 8); // stored
      local.writeUInt16LE(when.time, 10);
      local.writeUInt16LE(when.date, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(size, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      await put(local);
      await put(name);
      for await (const chunk of createReadStream(entry.path)) await put(chunk as Buffer);

      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(0x0314, 4); // made by: Unix, 2.0
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(UTF8_NAMES, 8);
      header.writeUInt16LE(0, 10);
      header.writeUInt16LE(when.time, 12);
      header.writeUInt16LE(when.date, 14);
      header.writeUInt32LE(crc, 16);
      header.writeUInt32LE(size, 20);
      header.writeUInt32LE(size, 24);
      header.writeUInt16LE(name.length, 28);
      // extra, comment, disk number, internal attributes: 0
      header.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: a regular file, rw-r--r--
      header.writeUInt32LE(offset, 42);
      central.push(header, name);
      offset += 30 + name.length + size;
    }
    const directory = Buffer.concat(central);
    if (offset + directory.length + 22 > LIMIT) {
      throw new AppError(
        'OUTPUT_FAILED',
        'the zip archive would be larger than 4 GiB: export to m4b instead',
      );
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    await put(directory);
    await put(end);
    await out.commit();
  } catch (error) {
    await out.discard();
    throw error;
  }
}
