import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { AppError } from '../../../electron/shared/errors';
import {
  VIETNAMESE_BOOK,
  billionLaughs,
  epub2Files,
  epub3Files,
  expectedParagraph,
  manuscriptTempDir,
  inlineNotesOf,
  pngCover,
  rawZip,
  storedEntry,
  writeEpub2,
  writeEpub3,
  writeManuscriptFile,
  zerosEntry,
  zipEpub,
} from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

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

const BOOK = { ...VIETNAMESE_BOOK, cover: pngCover() };
const ALL = [...BOOK.frontMatter!, ...BOOK.chapters, ...BOOK.backMatter!];
const KINDS = ['front', 'body', 'body', 'body', 'back'];

describe.each([
  ['EPUB 3', writeEpub3],
  ['EPUB 2', writeEpub2],
])('readEpub (%s)', (_name, write) => {
  it('reads the spine in order with titles, kinds, paragraphs, emphasis, metadata and the cover', async () => {
    const path = writeManuscriptFile(dir, `kiều-${_name}.epub`, write(BOOK));
    const book = await readManuscript({ fileName: 'Kiều.epub', path });
    expect(book.format).toBe('epub');
    expect(book.title).toBe('Truyện Kiều — Bản thử');
    expect(book.author).toBe('Nguyễn Du');
    expect(book.language).toBe('vi');
    expect(book.cover).toEqual({
      type: 'image/png',
      base64: Buffer.from(pngCover().bytes).toString('base64'),
    });
    expect(book.chapters.map((c) => c.title)).toEqual(ALL.map((c) => c.title));
    expect(book.chapters.map((c) => c.kind)).toEqual(KINDS);
    for (const [i, chapter] of ALL.entries()) {
      expect(book.chapters[i]!.paragraphs).toEqual(chapter.paragraphs.map(expectedParagraph));
    }
    expect(book.warnings.join(' ')).toMatch(/1 note .*left out/);
  });

  it('keeps footnotes when asked', async () => {
    const book = await readInProcess({ fileName: 'k.epub', bytes: write(BOOK) }, { notes: 'inline' });
    const texts = book.chapters[1]!.paragraphs.map((p) => p.text);
    expect(texts).toContain(inlineNotesOf(BOOK.chapters[0]!.paragraphs[1]!)[0]);
    expect(texts[1]).toBe(expectedParagraph(BOOK.chapters[0]!.paragraphs[1]!).text);
  });
});

describe('readEpub', () => {
  it('takes titles from the nav before the NCX and the file heading, and never makes the nav a chapter', async () => {
    const chapters = BOOK.chapters.map((c, i) => ({ ...c, heading: `Tiêu đề trong tệp ${i + 1}` }));
    const book = await readInProcess({ fileName: 'n.epub', bytes: writeEpub3({ ...BOOK, chapters }) });
    expect(book.chapters.slice(1, 4).map((c) => c.title)).toEqual(BOOK.chapters.map((c) => c.title));
    expect(book.chapters.map((c) => c.title)).not.toContain('Mục lục');

    // Without a nav entry or an NCX, the file's first heading names it.
    const files = epub3Files({ ...BOOK, chapters });
    const nav = files['OEBPS/nav.xhtml'] as string;
    files['OEBPS/nav.xhtml'] = nav.replace(/<li><a href="text\/ch2\.xhtml">[^<]*<\/a><\/li>/, '');
    const fallback = await readInProcess({ fileName: 'h.epub', bytes: zipEpub(files) });
    expect(fallback.chapters[2]!.title).toBe('Tiêu đề trong tệp 2');
  });

  it('marks a spine item linear="no" as front or back matter', async () => {
    const files = epub3Files({ ...BOOK, frontMatter: [], backMatter: [] });
    files['OEBPS/content.opf'] = (files['OEBPS/content.opf'] as string).replace(
      '<itemref idref="ch3"/>',
      '<itemref idref="ch3" linear="no"/>',
    );
    const book = await readInProcess({ fileName: 'l.epub', bytes: zipEpub(files) });
    expect(book.chapters.map((c) => c.kind)).toEqual(['body', 'body', 'back']);
  });

  it('refuses an encrypted EPUB (DRM) but reads one with obfuscated fonts', async () => {
    const encryption = (algorithm: string, uri: string): string => `<?xml version="1.0"?>
<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
  <enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/>
    <enc:CipherData><enc:CipherReference URI="${uri}"/></enc:CipherData></enc:EncryptedData>
</encryption>`;
    const drm = {
      ...epub3Files(BOOK),
      'META-INF/encryption.xml': encryption(
        'http://www.w3.org/2001/04/xmlenc#aes128-cbc',
        'OEBPS/text/ch1.xhtml',
      ),
    };
    const error = await rejection(readInProcess({ fileName: 'drm.epub', bytes: zipEpub(drm) }));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toMatch(/"drm\.epub".*encrypted \(DRM\)/);

    const fonts = {
      ...epub3Files(BOOK),
      'META-INF/encryption.xml': encryption('http://www.idpf.org/2008/embedding', 'OEBPS/fonts/a.otf'),
    };
    const book = await readInProcess({ fileName: 'fonts.epub', bytes: zipEpub(fonts) });
    expect(book.chapters).toHaveLength(5);
  });

  it('refuses a billion-laughs OPF with a catchable error, expanding nothing', async () => {
    const files = epub3Files(BOOK);
    files['OEBPS/content.opf'] = billionLaughs(
      (files['OEBPS/content.opf'] as string)
        .replace(/^<\?xml[^>]*>\n/, '')
        .replace('<dc:title>', '<dc:title>LOL'),
    );
    const error = await rejection(readInProcess({ fileName: 'lol.epub', bytes: zipEpub(files) }));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toMatch(/"lol\.epub".*content\.opf.*entit/);
  });

  it('refuses a missing OPF, a broken OPF and a truncated zip, naming the file', async () => {
    const missing = epub2Files(BOOK);
    delete missing['OEBPS/content.opf'];
    const a = await rejection(readInProcess({ fileName: 'a.epub', bytes: zipEpub(missing) }));
    expect(a.code).toBe('MANUSCRIPT_INVALID');
    expect(a.message).toMatch(/"a\.epub".*OEBPS\/content\.opf/);

    const broken = { ...epub2Files(BOOK), 'OEBPS/content.opf': '<package><metadata></package>' };
    const b = await rejection(readInProcess({ fileName: 'b.epub', bytes: zipEpub(broken) }));
    expect(b.code).toBe('MANUSCRIPT_INVALID');
    expect(b.message).toMatch(/"b\.epub".*content\.opf/);

    const bytes = writeEpub3(BOOK);
    const c = await rejection(
      readInProcess({ fileName: 'c.epub', bytes: bytes.subarray(0, bytes.length - 200) }),
    );
    expect(c.code).toBe('MANUSCRIPT_INVALID');
    expect(c.message).toContain('"c.epub"');
  });

  it('refuses a zip bomb in a content document', async () => {
    const files = epub3Files(BOOK);
    const entries = Object.entries(files)
      .filter(([name]) => name !== 'OEBPS/text/ch1.xhtml')
      .map(([name, content]) => storedEntry(name, content));
    const bomb = rawZip([
      storedEntry('mimetype', 'application/epub+zip'),
      ...entries,
      zerosEntry('OEBPS/text/ch1.xhtml', 512, 3000),
    ]);
    const rss = process.memoryUsage().rss;
    const error = await rejection(readManuscript({ fileName: 'bomb.epub', bytes: bomb }));
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toMatch(/"bomb\.epub".*OEBPS\/text\/ch1\.xhtml/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);
  });

  it('leaves out a cover over the cover limit with a warning', async () => {
    const big = new Uint8Array(3 * 1024 * 1024);
    big.set(pngCover().bytes);
    const book = await readInProcess({
      fileName: 'big-cover.epub',
      bytes: writeEpub3({ ...BOOK, cover: { type: 'image/png', bytes: big } }),
    });
    expect(book.cover).toBeNull();
    expect(book.warnings.join(' ')).toMatch(/cover is .*more than 2 MiB/);
  });
});
