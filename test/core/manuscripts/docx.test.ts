import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { AppError } from '../../../electron/shared/errors';
import {
  VIETNAMESE_BOOK,
  billionLaughs,
  expectedParagraph,
  manuscriptTempDir,
  inlineNotesOf,
  rawZip,
  storedEntry,
  writeDocx,
  writeManuscriptFile,
  zerosEntry,
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

/** The DOCX with one part replaced. */
async function docxWith(part: string, content: string): Promise<Uint8Array> {
  const files = unzipSync(await writeDocx(VIETNAMESE_BOOK));
  files[part] = strToU8(content);
  return zipSync(files);
}

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

describe('readDocx', () => {
  it('reads chapters from Heading 1, paragraphs, emphasis and metadata, Vietnamese exact', async () => {
    const path = writeManuscriptFile(dir, 'Truyện Kiều.docx', await writeDocx(VIETNAMESE_BOOK));
    const book = await readManuscript({ fileName: 'Truyện Kiều.docx', path });
    expect(book.format).toBe('docx');
    expect(book.title).toBe(VIETNAMESE_BOOK.title);
    expect(book.author).toBe('Nguyễn Du');
    expect(book.language).toBe('vi');
    const all = [
      ...VIETNAMESE_BOOK.frontMatter!,
      ...VIETNAMESE_BOOK.chapters,
      ...VIETNAMESE_BOOK.backMatter!,
    ];
    expect(book.chapters.map((c) => c.title)).toEqual(all.map((c) => c.title));
    for (const [i, chapter] of all.entries()) {
      expect(book.chapters[i]!.paragraphs).toEqual(chapter.paragraphs.map(expectedParagraph));
      expect(book.chapters[i]!.kind).toBe('body');
    }
    expect(book.warnings.join(' ')).toMatch(/1 note .*left out/);
    for (const chapter of book.chapters) {
      for (const p of chapter.paragraphs) expect(p.text).toBe(p.text.normalize('NFC'));
    }
  });

  it('keeps footnotes as paragraphs after the citing paragraph when asked', async () => {
    const book = await readInProcess(
      { fileName: 'kieu.docx', bytes: await writeDocx(VIETNAMESE_BOOK) },
      { notes: 'inline' },
    );
    const chapter = VIETNAMESE_BOOK.chapters[0]!;
    const texts = book.chapters[1]!.paragraphs.map((p) => p.text);
    expect(texts).toEqual([
      expectedParagraph(chapter.paragraphs[0]!).text,
      expectedParagraph(chapter.paragraphs[1]!).text,
      ...inlineNotesOf(chapter.paragraphs[1]!),
      expectedParagraph(chapter.paragraphs[2]!).text,
    ]);
    expect(book.warnings).toEqual([]);
  });

  it('puts text before the first heading in a chapter named by the title; a heading-less document is one chapter', async () => {
    const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${W_NS}"><w:body>
<w:p><w:r><w:t xml:space="preserve">Lời nói đầu của </w:t></w:r><w:r><w:rPr><w:i/></w:rPr><w:t>tác giả</w:t></w:r></w:p>
<w:p><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:r><w:t>Phần một</w:t></w:r></w:p>
<w:p><w:r><w:t>Nội dung</w:t></w:r><w:r><w:br/><w:t>dòng hai</w:t></w:r><w:r><w:delText>xoá</w:delText></w:r></w:p>
</w:body></w:document>`;
    const book = await readInProcess({
      fileName: 'a.docx',
      bytes: await docxWith('word/document.xml', document),
    });
    expect(book.chapters.map((c) => c.title)).toEqual([VIETNAMESE_BOOK.title, 'Phần một']);
    expect(book.chapters[0]!.paragraphs).toEqual([
      { text: 'Lời nói đầu của tác giả', emphasis: [{ start: 16, end: 23, kind: 'em' }] },
    ]);
    expect(book.chapters[1]!.paragraphs[0]!.text).toBe('Nội dung\ndòng hai');

    const flat = `<w:document xmlns:w="${W_NS}"><w:body><w:p><w:r><w:t>Chỉ một đoạn.</w:t></w:r></w:p></w:body></w:document>`;
    const single = await readInProcess({
      fileName: 'b.docx',
      bytes: await docxWith('word/document.xml', flat),
    });
    expect(single.chapters).toHaveLength(1);
    expect(single.chapters[0]!.paragraphs).toEqual([{ text: 'Chỉ một đoạn.', emphasis: [] }]);
  });

  it('finds headings by the outline level of localised styles, whatever their id', async () => {
    const styles = `<w:styles xmlns:w="${W_NS}">
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="Überschrift 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="TieuDeChuong"><w:name w:val="Tiêu đề chương"/><w:basedOn w:val="berschrift1"/></w:style>
<w:style w:type="character" w:styleId="Nhan"><w:name w:val="Nhấn"/><w:rPr><w:i/></w:rPr></w:style>
</w:styles>`;
    const document = `<w:document xmlns:w="${W_NS}"><w:body>
<w:p><w:pPr><w:pStyle w:val="TieuDeChuong"/></w:pPr><w:r><w:t>Chương một</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">Một </w:t></w:r><w:r><w:rPr><w:rStyle w:val="Nhan"/></w:rPr><w:t>hai</w:t></w:r></w:p>
</w:body></w:document>`;
    const files = unzipSync(await writeDocx(VIETNAMESE_BOOK));
    files['word/styles.xml'] = strToU8(styles);
    files['word/document.xml'] = strToU8(document);
    const book = await readInProcess({ fileName: 'de.docx', bytes: zipSync(files) });
    expect(book.chapters).toEqual([
      {
        title: 'Chương một',
        kind: 'body',
        paragraphs: [{ text: 'Một hai', emphasis: [{ start: 4, end: 7, kind: 'em' }] }],
      },
    ]);
  });

  it('leaves comments out unless asked for, then places them after the commented paragraph', async () => {
    const document = `<w:document xmlns:w="${W_NS}"><w:body>
<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>Câu có góp ý.</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>
<w:p><w:r><w:t>Câu sau.</w:t></w:r></w:p>
</w:body></w:document>`;
    const comments = `<w:comments xmlns:w="${W_NS}"><w:comment w:id="0" w:author="Biên tập"><w:p><w:r><w:t>Sửa chữ này.</w:t></w:r></w:p></w:comment></w:comments>`;
    const files = unzipSync(await writeDocx(VIETNAMESE_BOOK));
    files['word/document.xml'] = strToU8(document);
    files['word/comments.xml'] = strToU8(comments);
    const bytes = zipSync(files);
    const without = await readInProcess({ fileName: 'c.docx', bytes });
    expect(without.chapters[0]!.paragraphs.map((p) => p.text)).toEqual(['Câu có góp ý.', 'Câu sau.']);
    expect(without.warnings.join(' ')).toMatch(/1 comment left out/);
    const withComments = await readInProcess({ fileName: 'c.docx', bytes }, { includeComments: true });
    expect(withComments.chapters[0]!.paragraphs.map((p) => p.text)).toEqual([
      'Câu có góp ý.',
      'Sửa chữ này.',
      'Câu sau.',
    ]);
  });

  it('refuses a truncated zip and a document that is not XML, naming the file', async () => {
    const bytes = await writeDocx(VIETNAMESE_BOOK);
    const truncated = await rejection(
      readInProcess({ fileName: 'cut.docx', bytes: bytes.subarray(0, bytes.length / 2) }),
    );
    expect(truncated.code).toBe('MANUSCRIPT_INVALID');
    expect(truncated.message).toContain('"cut.docx"');

    const notXml = await rejection(
      readInProcess({
        fileName: 'bad.docx',
        bytes: await docxWith('word/document.xml', 'this is <not xml'),
      }),
    );
    expect(notXml.code).toBe('MANUSCRIPT_INVALID');
    expect(notXml.message).toContain('"bad.docx"');
    expect(notXml.message).toContain('word/document.xml');
  });

  it('refuses entity declarations (billion laughs) without expanding them', async () => {
    const document = billionLaughs(
      `<w:document xmlns:w="${W_NS}"><w:body><w:p><w:r><w:t>LOL</w:t></w:r></w:p></w:body></w:document>`,
    );
    const error = await rejection(
      readInProcess({ fileName: 'lol.docx', bytes: await docxWith('word/document.xml', document) }),
    );
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toMatch(/"lol\.docx".*entit/);
  });

  it('refuses a zip bomb (an entry lying about its size) quickly and with bounded memory', async () => {
    const bomb = rawZip([
      storedEntry(
        '[Content_Types].xml',
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
      ),
      zerosEntry('word/document.xml', 1024, 2000),
    ]);
    const rss = process.memoryUsage().rss;
    const error = await rejection(readManuscript({ fileName: 'bomb.docx', bytes: bomb }));
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toContain('"bomb.docx"');
    expect(error.message).toContain('word/document.xml');
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 * 1024 * 1024);

    // An honest 300 MiB entry: refused by its declared size before it is inflated.
    const honest = rawZip([zerosEntry('word/document.xml', 300)]);
    const big = await rejection(readInProcess({ fileName: 'big.docx', bytes: honest }));
    expect(big.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(big.message).toMatch(/"big\.docx".*300 MiB.*64 MiB/);
  });

  it('reads a file given by path the same as by bytes', async () => {
    const bytes = await writeDocx(VIETNAMESE_BOOK);
    const path = join(dir, 'same.docx');
    writeFileSync(path, bytes);
    expect(await readManuscript({ fileName: 'same.docx', path })).toEqual(
      await readManuscript({ fileName: 'same.docx', bytes }),
    );
  });
});
