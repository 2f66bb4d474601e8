/**
 * The zip container of DOCX, EPUB and ODT, read with yauzl under MANUSCRIPT_LIMITS: the entry
 * count is checked from the central directory before any entry is read; an entry whose declared
 * size is over the per-entry limit is refused before it is inflated; while an entry inflates its
 * bytes are counted against the per-entry limit and the total for the whole file, and an entry
 * inflating past the size it declares (a zip bomb's lie) is stopped at that size by yauzl. The
 * first limit passed stops the reading with MANUSCRIPT_TOO_LARGE, so memory stays bounded
 * whatever the archive claims. Entry names are UTF-8 when they are valid UTF-8, even without the
 * zip's UTF-8 flag (platform/zip-names.ts).
 */

import { fromBufferPromise, type Entry, type ZipFile } from 'yauzl';
import { isAppError } from '../../shared/errors';
import { zipEntryName } from '../platform/zip-names';
import { MANUSCRIPT_LIMITS, type ManuscriptFormat } from '../../shared/manuscript';
import { invalidManuscript, manuscriptTooLarge, sizeText } from './errors';

export interface ZipArchive {
  /** Entry names (files only), in the archive's order. */
  readonly names: readonly string[];
  /** The entry's declared inflated size, or undefined when there is no such entry. */
  size(name: string): number | undefined;
  has(name: string): boolean;
  /** The entry's bytes; MANUSCRIPT_INVALID naming the entry when it is missing. */
  readBytes(name: string): Promise<Buffer>;
  /** The entry as UTF-8 text (a BOM dropped). */
  readText(name: string): Promise<string>;
}

const ENTRY_LIMIT_TEXT = sizeText(MANUSCRIPT_LIMITS.entryBytes);
const TOTAL_LIMIT_TEXT = sizeText(MANUSCRIPT_LIMITS.totalInflatedBytes);

/** Opens the zip in `bytes`; MANUSCRIPT_INVALID when it is not a readable zip. */
export async function openZipArchive(
  bytes: Uint8Array,
  fileName: string,
  format: ManuscriptFormat,
): Promise<ZipArchive> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let zip: ZipFile;
  try {
    zip = await fromBufferPromise(buffer, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw invalidManuscript(
      fileName,
      format,
      `it is not a readable zip archive (${(error as Error).message})`,
      error,
    );
  }
  if (zip.entryCount > MANUSCRIPT_LIMITS.zipEntries) {
    throw manuscriptTooLarge(
      fileName,
      `its archive holds ${zip.entryCount.toLocaleString('en-US')} entries`,
      `${MANUSCRIPT_LIMITS.zipEntries.toLocaleString('en-US')} entries`,
      { limit_entries: MANUSCRIPT_LIMITS.zipEntries },
    );
  }
  const entries = await listEntries(zip, fileName, format);
  let inflated = 0;

  const find = (name: string): Entry | undefined => {
    const exact = entries.get(name);
    if (exact) return exact;
    const lower = name.toLowerCase();
    for (const [key, entry] of entries) if (key.toLowerCase() === lower) return entry;
    return undefined;
  };

  const readBytes = async (name: string): Promise<Buffer> => {
    const entry = find(name);
    if (!entry) throw invalidManuscript(fileName, format, `its archive has no ${name}`);
    if (entry.uncompressedSize > MANUSCRIPT_LIMITS.entryBytes) {
      throw entryTooLarge(fileName, name, `declares ${sizeText(entry.uncompressedSize)}, more than`);
    }
    if (inflated + entry.uncompressedSize > MANUSCRIPT_LIMITS.totalInflatedBytes)
      throw totalTooLarge(fileName);
    if (entry.isEncrypted())
      throw invalidManuscript(
        fileName,
        format,
        `${name} is encrypted (password-protected)`,
        undefined,
        'encrypted',
      );
    let stream;
    try {
      stream = await zip.openReadStreamPromise(entry);
    } catch (error) {
      throw invalidManuscript(
        fileName,
        format,
        `${name} cannot be read (${(error as Error).message})`,
        error,
      );
    }
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        length += chunk.length;
        inflated += chunk.length;
        if (length > MANUSCRIPT_LIMITS.entryBytes)
          throw entryTooLarge(fileName, name, 'inflates to more than');
        if (inflated > MANUSCRIPT_LIMITS.totalInflatedBytes) throw totalTooLarge(fileName);
        chunks.push(chunk);
      }
    } catch (error) {
      stream.destroy();
      if (isAppError(error)) throw error;
      const message = (error as Error).message;
      if (message.startsWith('too many bytes in the stream')) {
        throw manuscriptTooLarge(
          fileName,
          `${name} inflates past the ${sizeText(entry.uncompressedSize)} it declares (a zip bomb?)`,
          `${ENTRY_LIMIT_TEXT} an entry, ${TOTAL_LIMIT_TEXT} in all`,
          { entry: name, limit_bytes: MANUSCRIPT_LIMITS.entryBytes },
        );
      }
      throw invalidManuscript(fileName, format, `${name} is damaged (${message})`, error);
    }
    return Buffer.concat(chunks, length);
  };

  return {
    names: [...entries.keys()],
    size: (name) => find(name)?.uncompressedSize,
    has: (name) => find(name) !== undefined,
    readBytes,
    readText: async (name) => {
      const bytes = await readBytes(name);
      try {
        return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
      } catch (error) {
        throw invalidManuscript(fileName, format, `${name} is not UTF-8 text`, error);
      }
    },
  };
}

function listEntries(zip: ZipFile, fileName: string, format: ManuscriptFormat): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  return new Promise((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      const name = zipEntryName(entry);
      if (!name.endsWith('/')) entries.set(name, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', (error: Error) =>
      reject(invalidManuscript(fileName, format, `its zip directory is damaged (${error.message})`, error)),
    );
    zip.readEntry();
  });
}

function entryTooLarge(fileName: string, name: string, how: string): Error {
  return manuscriptTooLarge(
    fileName,
    `${name} ${how} the ${ENTRY_LIMIT_TEXT} an entry may hold`,
    `${ENTRY_LIMIT_TEXT} an entry`,
    {
      entry: name,
      limit_bytes: MANUSCRIPT_LIMITS.entryBytes,
    },
  );
}

function totalTooLarge(fileName: string): Error {
  return manuscriptTooLarge(
    fileName,
    `its entries inflate to more than ${TOTAL_LIMIT_TEXT}`,
    `${TOTAL_LIMIT_TEXT} in all`,
    {
      limit_bytes: MANUSCRIPT_LIMITS.totalInflatedBytes,
    },
  );
}
