import { closeSync, openSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectManuscriptFormat, readManuscript } from '../../../electron/core/manuscripts';
import { openZipArchive } from '../../../electron/core/manuscripts/zip-archive';
import { AppError } from '../../../electron/shared/errors';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import { manuscriptTempDir, rawZip, storedEntry, zerosEntry } from '../../fixtures/manuscripts';

const dir = manuscriptTempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('readManuscript', () => {
  it('refuses a 500 MB file by its size before reading it (path form)', async () => {
    const path = join(dir, 'huge.docx');
    closeSync(openSync(path, 'w'));
    truncateSync(path, 500 * 1024 * 1024); // sparse: nothing written
    const error = await rejection(readManuscript({ fileName: 'huge.docx', path }));
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toMatch(/"huge\.docx".*500 MiB.*100 MiB/);
  });

  it('refuses an unknown binary as unsupported, naming it', async () => {
    const bytes = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    const error = await rejection(readManuscript({ fileName: 'thing.bin', bytes }));
    expect(error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toContain('"thing.bin"');
    expect((await rejection(readManuscript({ fileName: 'book.docx', bytes }))).code).toBe(
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('tells formats by bytes and name, UTF-16 text included', () => {
    const utf16 = new Uint8Array(Buffer.from('\uFEFFChương một', 'utf16le'));
    expect(detectManuscriptFormat('a.txt', utf16)).toBe('text');
    expect(
      detectManuscriptFormat('a.md', new TextEncoder().encode('# Chương'.repeat(3000)).subarray(0, 8191)),
    ).toBe('markdown');
    expect(detectManuscriptFormat('noname', new TextEncoder().encode('<!DOCTYPE html><p>x'))).toBe('html');
    expect(detectManuscriptFormat('book.epub', new Uint8Array([0x50, 0x4b, 0x03, 0x04]))).toBe('epub');
  });
});

describe('openZipArchive', () => {
  it('refuses more entries than the limit from the directory, before reading any', async () => {
    const entries = Array.from({ length: MANUSCRIPT_LIMITS.zipEntries + 1 }, (_, i) =>
      storedEntry(`f${i}.txt`, 'x'),
    );
    const error = await rejection(openZipArchive(rawZip(entries), 'many.epub', 'epub'));
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toMatch(/"many\.epub".*10,001 entries.*10,000 entries/);
  });

  it('keeps the total inflated size across entries', async () => {
    const zip = await openZipArchive(
      rawZip(Array.from({ length: 5 }, (_, i) => zerosEntry(`part${i}.xml`, 60))),
      'sum.docx',
      'docx',
    );
    for (let i = 0; i < 4; i++) expect((await zip.readBytes(`part${i}.xml`)).length).toBe(60 * 1024 * 1024);
    const error = await rejection(zip.readBytes('part4.xml'));
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toMatch(/"sum\.docx".*256 MiB/);
  });
});
