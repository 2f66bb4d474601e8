/**
 * Zip entry names in UTF-8 without the zip's UTF-8 flag (general purpose bit 11), as Info-ZIP's
 * `zip` on Debian writes them: read as UTF-8 (platform/zip-names.ts), so an EPUB whose files are
 * named "văn-bản/chương-1.xhtml" is read, not refused as holding no text. Names that are not valid
 * UTF-8 stay CP437, the zip format's default. The archives are made by the real `zip` command
 * (where it is installed: Debian and Ubuntu, including CI's runners) and by fflate with the flag
 * cleared afterwards (everywhere).
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { VIETNAMESE_BOOK, epub3Files, manuscriptTempDir, zipEpub } from '../../fixtures/manuscripts';

const dir = manuscriptTempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BOOK = { ...VIETNAMESE_BOOK, cover: undefined };
const TITLES = [...BOOK.frontMatter!, ...BOOK.chapters, ...BOOK.backMatter!].map((c) => c.title);

/** The book's EPUB 3 files with its content documents under Vietnamese names. */
function vietnameseNamedFiles(): Record<string, string | Uint8Array> {
  const rename = (text: string) =>
    text
      .replaceAll('text/ch', 'văn-bản/chương-')
      .replaceAll('text/front', 'văn-bản/đầu-')
      .replaceAll('text/back', 'văn-bản/cuối-');
  const files: Record<string, string | Uint8Array> = {};
  for (const [name, content] of Object.entries(epub3Files(BOOK))) {
    files[rename(name)] = typeof content === 'string' ? rename(content) : content;
  }
  return files;
}

/** Each central directory entry's general purpose flags and raw name bytes. */
function centralEntries(zip: Uint8Array): { flags: number; name: Buffer }[] {
  const buffer = Buffer.from(zip);
  const entries: { flags: number; name: Buffer }[] = [];
  for (let at = buffer.indexOf('PK\x01\x02'); at >= 0; at = buffer.indexOf('PK\x01\x02', at + 4)) {
    const length = buffer.readUInt16LE(at + 28);
    entries.push({ flags: buffer.readUInt16LE(at + 8), name: buffer.subarray(at + 46, at + 46 + length) });
  }
  return entries;
}

/** Clears the UTF-8 flag of every local and central header (what writers without it leave). */
function clearUtf8Flags(zip: Uint8Array): Uint8Array {
  const buffer = Buffer.from(zip);
  for (const [signature, offset] of [
    ['PK\x03\x04', 6],
    ['PK\x01\x02', 8],
  ] as const) {
    for (let at = buffer.indexOf(signature); at >= 0; at = buffer.indexOf(signature, at + 4)) {
      buffer.writeUInt16LE(buffer.readUInt16LE(at + offset) & ~0x0800, at + offset);
    }
  }
  return new Uint8Array(buffer);
}

const hasZip = (() => {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('zip entry names', () => {
  it.skipIf(!hasZip)(
    'reads an EPUB zipped by Info-ZIP `zip`, its UTF-8 names without the UTF-8 flag',
    async () => {
      const root = join(dir, 'zip-command');
      for (const [name, content] of Object.entries({
        mimetype: 'application/epub+zip',
        ...vietnameseNamedFiles(),
      })) {
        mkdirSync(dirname(join(root, name)), { recursive: true });
        writeFileSync(join(root, name), content);
      }
      const path = join(dir, 'zip-command.epub');
      execFileSync('zip', ['-X0q', path, 'mimetype'], { cwd: root });
      execFileSync('zip', ['-X9rq', path, 'META-INF', 'OEBPS'], { cwd: root });
      // What makes this case: names past ASCII, valid UTF-8, flag clear.
      const chapter = centralEntries(readFileSync(path)).find((e) =>
        e.name.toString('utf8').includes('chương-1'),
      );
      expect(chapter).toBeDefined();
      expect(chapter!.flags & 0x0800).toBe(0);

      const book = await readManuscript({ fileName: 'zip-command.epub', path });
      expect(book.chapters.map((c) => c.title)).toEqual(TITLES);
      expect(book.warnings.join(' ')).not.toMatch(/missing/);
    },
  );

  it('reads UTF-8 names whose UTF-8 flag is clear (a zip library writing them so)', async () => {
    const zip = clearUtf8Flags(zipEpub(vietnameseNamedFiles()));
    const names = centralEntries(zip).filter((e) => e.name.some((byte) => byte >= 0x80));
    expect(names.length).toBe(TITLES.length);
    expect(names.every((e) => (e.flags & 0x0800) === 0)).toBe(true);
    const book = await readManuscript({ fileName: 'flag-cleared.epub', bytes: zip });
    expect(book.chapters.map((c) => c.title)).toEqual(TITLES);
  });

  it('reads a name that is not valid UTF-8 as CP437, as before', async () => {
    // "caf\x82.xhtml": 0x82 alone is not UTF-8; in CP437 it is "é", the name the package asks for.
    const files = epub3Files(BOOK);
    const opf = (files['OEBPS/content.opf'] as string).replace('text/ch1.xhtml', 'text/café.xhtml');
    const nav = (files['OEBPS/nav.xhtml'] as string).replace('text/ch1.xhtml', 'text/café.xhtml');
    const zippable: Record<string, Uint8Array | [Uint8Array, { level: 0 }]> = {
      mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    };
    for (const [name, content] of Object.entries({
      ...files,
      'OEBPS/content.opf': opf,
      'OEBPS/nav.xhtml': nav,
    })) {
      const bytes = typeof content === 'string' ? strToU8(content) : content;
      zippable[name === 'OEBPS/text/ch1.xhtml' ? 'OEBPS/text/cafX.xhtml' : name] = bytes;
    }
    const zip = Buffer.from(zipSync(zippable, { level: 0 }));
    const marker = Buffer.from('OEBPS/text/cafX.xhtml');
    let patched = 0;
    for (let at = zip.indexOf(marker); at >= 0; at = zip.indexOf(marker, at + 1)) {
      zip[at + 'OEBPS/text/caf'.length] = 0x82;
      patched++;
    }
    expect(patched).toBe(2); // its local header and its central directory entry
    const book = await readManuscript({ fileName: 'cp437.epub', bytes: new Uint8Array(zip) });
    expect(book.chapters.map((c) => c.title)).toEqual(TITLES);
  });
});
