import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { VERSE_LINE_MAX } from '../../../electron/core/manuscripts/html-text';
import { chapterSegments } from '../../../electron/core/projects/segments';
import {
  VIETNAMESE_BOOK,
  epub3Files,
  manuscriptTempDir,
  readingSiteEpubFiles,
  readingSiteParagraphs,
  writeManuscriptFile,
  writeReadingSiteHtml,
  zipEpub,
  type ReadingSiteBook,
} from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const dir = manuscriptTempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Số đỏ as vnthuquan's EPUBs hold it: dc:language en, a title paragraph on every page. */
const SO_DO: ReadingSiteBook = {
  title: 'Số đỏ',
  pageTitle: 'SỐ ĐỎ',
  author: 'Vũ Trọng Phụng',
  language: 'en',
  introduction: [
    'Số đỏ là tiểu thuyết trào phúng của Vũ Trọng Phụng, đăng trên Hà Nội báo năm 1936.',
    'Truyện kể về Xuân Tóc Đỏ, một kẻ lang thang gặp vận may mà thành người có danh giá.',
  ],
  chapters: [
    { title: 'Chương một', paragraphs: readingSiteParagraphs(120, 1) },
    { title: 'Chương hai', paragraphs: readingSiteParagraphs(95, 2) },
    { title: 'Chương ba', paragraphs: readingSiteParagraphs(61, 3) },
  ],
};

const CHAPTER_TITLES = SO_DO.chapters.map((c) => c.title);

const DASH_LINE = /^[—–-] /;

describe('books as Vietnamese reading sites make them', () => {
  it('reads a vnthuquan EPUB: <br>-separated paragraphs, the title page paragraph as the title, TOC and introduction first', async () => {
    const path = writeManuscriptFile(dir, 'số-đỏ.epub', zipEpub(readingSiteEpubFiles(SO_DO)));
    const book = await readManuscript({ fileName: 'Số đỏ.epub', path });
    expect([book.title, book.author, book.language]).toEqual(['Số đỏ', 'Vũ Trọng Phụng', 'en']);
    expect(book.chapters.map((c) => [c.title, c.kind])).toEqual([
      ['Mục lục', 'front'], // no NCX entry: the page's own <title>
      ['Giới thiệu', 'body'],
      ['Chương một', 'body'],
      ['Chương hai', 'body'],
      ['Chương ba', 'body'],
    ]);
    // One paragraph per <br> line (<br>, <br><br>, &nbsp; lines alike); the "SỐ ĐỎ" on every page is the title, not text.
    expect(book.chapters[0]!.paragraphs.map((p) => p.text)).toEqual(SO_DO.chapters.map((c) => c.title));
    expect(book.chapters[1]!.paragraphs.map((p) => p.text)).toEqual([SO_DO.author, ...SO_DO.introduction]);
    // The chapter's own name line (<div class="chuong">) is its title, not its first paragraph.
    for (const [i, chapter] of SO_DO.chapters.entries()) {
      const paragraphs = book.chapters[i + 2]!.paragraphs;
      expect(paragraphs).toHaveLength(chapter.paragraphs.length);
      expect(paragraphs.map((p) => p.text)).toEqual(chapter.paragraphs);
    }
    expect(book.chapters.flatMap((c) => c.paragraphs).filter((p) => /số đỏ/i.test(p.text))).toHaveLength(1);
    expect(book.warnings).toEqual([]);
  });

  it('puts narration and dialogue in different segments', async () => {
    const book = await readInProcess({
      fileName: 'Số đỏ.epub',
      bytes: zipEpub(readingSiteEpubFiles(SO_DO)),
    });
    const segments = chapterSegments(book.chapters[2]!.paragraphs, 'vi');
    expect(segments).toHaveLength(120);
    const dialogue = segments.filter((s) => DASH_LINE.test(s.text));
    expect(dialogue).toHaveLength(60);
    // No segment mixes a dash line with narration: a dash line is a segment of its own.
    for (const segment of segments) {
      expect(segment.text.split('\n')).toHaveLength(1);
      if (!DASH_LINE.test(segment.text)) expect(segment.text).not.toMatch(/[—–]|\s- /);
    }
    expect(segments[0]!.text).toMatch(/^Cụ cố Hồng/);
    expect(segments[1]!.text).toBe('— Ông cứ yên tâm, việc ấy để tôi lo!');
  });

  it('names a chapter from its <div class="chuong"> line when no table of contents names it', async () => {
    const files = readingSiteEpubFiles({
      ...SO_DO,
      chapters: [
        { title: 'Chương một: Hạnh phúc của một tang gia', paragraphs: readingSiteParagraphs(6, 1) },
        { title: 'Chương hai', paragraphs: readingSiteParagraphs(4, 2) },
      ],
    });
    // A book made without an NCX, its pages' <title> only the book's: the chapter line is all that names them.
    delete files['OEBPS/toc.ncx'];
    files['OEBPS/content.opf'] = files['OEBPS/content.opf']!.replace(' toc="ncx"', '').replace(
      /\s*<item id="ncx"[^>]*\/>/,
      '',
    );
    for (const name of ['chuong1.html', 'chuong2.html']) {
      files[`OEBPS/${name}`] = files[`OEBPS/${name}`]!.replace(
        /<title>[^<]*<\/title>/,
        '<title>Số đỏ</title>',
      );
    }
    const book = await readInProcess({ fileName: 'so-do.epub', bytes: zipEpub(files) });
    expect(book.chapters.slice(2).map((c) => [c.title, c.paragraphs.length])).toEqual([
      ['Chương một: Hạnh phúc của một tang gia', 6],
      ['Chương hai', 4],
    ]);
    expect(book.chapters[2]!.paragraphs[0]!.text).toMatch(/^Cụ cố Hồng/);
  });

  it('reads a chapter line in an HTML page as the chapter name, after its heading or alone', async () => {
    const html = `<html lang="vi"><head><title>Số đỏ</title></head><body>
      <h2>Chương 1</h2><div class="chuong"><b>Chương 1</b><br/>Hạnh phúc của một tang gia</div>
      <div>Cụ cố Hồng ho khù khụ.<br/>— Biết rồi, khổ lắm, nói mãi!</div>
      <div class="chuong">Chương 2</div><div>Xuân Tóc Đỏ bước vào.</div></body></html>`;
    const book = await readInProcess({ fileName: 'so-do.html', bytes: utf8(html) });
    expect(book.chapters.map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      ['Chương 1 Hạnh phúc của một tang gia', ['Cụ cố Hồng ho khù khụ.', '— Biết rồi, khổ lắm, nói mãi!']],
      ['Chương 2', ['Xuân Tóc Đỏ bước vào.']],
    ]);
    expect(book.warnings).toEqual([]);
  });

  it('reads the same book saved as an HTML page: the title heading is the title, not a chapter', async () => {
    const book = await readInProcess({ fileName: 'so-do.html', bytes: utf8(writeReadingSiteHtml(SO_DO)) });
    expect(book.title).toBe('Số đỏ');
    expect(book.chapters.map((c) => c.title)).toEqual(['Giới thiệu', ...CHAPTER_TITLES]);
    expect(book.chapters.map((c) => c.paragraphs.length)).toEqual([3, 120, 95, 61]);
    expect(book.chapters[3]!.paragraphs.map((p) => p.text)).toEqual(SO_DO.chapters[2]!.paragraphs);
    // Before, "SỐ ĐỎ" started a chapter that held nothing (a warning); now it is the book's title.
    expect(book.warnings).toEqual([]);

    // Without a <title>, the block styled as a title gives it.
    const untitled = await readInProcess({
      fileName: 'so-do.html',
      bytes: utf8(writeReadingSiteHtml({ ...SO_DO, title: null })),
    });
    expect(untitled.title).toBe('SỐ ĐỎ');
    expect(untitled.chapters.map((c) => c.title)).toEqual(book.chapters.map((c) => c.title));
  });

  it('keeps a single <br> as a line break in verse among <p> paragraphs; an empty line or a long line still splits', async () => {
    const files = epub3Files(VIETNAMESE_BOOK);
    const long = `${'Một dòng văn xuôi rất dài, '.repeat(10)}hết.`;
    expect(long.length).toBeGreaterThan(VERSE_LINE_MAX);
    const verse = [
      '<p>Trăm năm trong cõi người ta,<br/>Chữ tài chữ mệnh khéo là ghét nhau.</p>',
      '<p>Trải qua một cuộc bể dâu,<br/>Những điều trông thấy<br/><br/>mà đau đớn lòng.</p>',
      '<div class="poem">Lạ gì bỉ sắc tư phong,<br/>Trời xanh quen thói má hồng đánh ghen.</div>',
      `<p>${long}<br/>Dòng sau.</p>`,
    ].join('\n');
    files['OEBPS/text/ch1.xhtml'] = (files['OEBPS/text/ch1.xhtml'] as string).replace(
      /(<h1>[^<]*<\/h1>)/,
      `$1\n${verse}`,
    );
    const book = await readInProcess({ fileName: 'k.epub', bytes: zipEpub(files) });
    expect(book.chapters[1]!.paragraphs.slice(0, 7).map((p) => p.text)).toEqual([
      'Trăm năm trong cõi người ta,\nChữ tài chữ mệnh khéo là ghét nhau.',
      'Trải qua một cuộc bể dâu,\nNhững điều trông thấy',
      'mà đau đớn lòng.',
      'Lạ gì bỉ sắc tư phong,\nTrời xanh quen thói má hồng đánh ghen.',
      long,
      'Dòng sau.',
      VIETNAMESE_BOOK.chapters[0]!.paragraphs[0]!.replaceAll('*', ''),
    ]);
  });

  it('splits a lone <p> or a <section> holding a chapter with <br>s, and <p> inside a <div>', async () => {
    const html = `<html lang="vi"><head><title>Tắt đèn</title></head><body>
      <h2>Chương I</h2><p>Chị Dậu nói:<br/>— Ai đó?<br>&nbsp;<br>Anh Dậu ho.</p>
      <h2>Chương II</h2><section>Trương tuần nhăn mặt:<br/>- Em về.</section>
      <h2>Chương III</h2><div><p>Một.</p><p>Hai.</p></div></body></html>`;
    const book = await readInProcess({ fileName: 'tat-den.html', bytes: utf8(html) });
    expect(book.chapters.map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      ['Chương I', ['Chị Dậu nói:', '— Ai đó?', 'Anh Dậu ho.']],
      ['Chương II', ['Trương tuần nhăn mặt:', '- Em về.']],
      ['Chương III', ['Một.', 'Hai.']],
    ]);
  });
});

describe('names the reader gives, in the book’s language', () => {
  /** A title-less book whose introduction page has no TOC entry and no <title>. */
  function untitledEpub(book: ReadingSiteBook): Uint8Array {
    const files = readingSiteEpubFiles({ ...book, title: null, pageTitle: null });
    files['OEBPS/gioithieu.html'] = files['OEBPS/gioithieu.html']!.replace('<title>Giới thiệu</title>', '');
    files['OEBPS/toc.ncx'] = files['OEBPS/toc.ncx']!.replace(/<navPoint[^\n]*gioithieu\.html[^\n]*\n/, '');
    return zipEpub(files);
  }

  it('names text before the first chapter "Mở đầu" in a Vietnamese book whose metadata says en, "Opening" in an English one', async () => {
    const vietnamese = await readInProcess({ fileName: 'a.epub', bytes: untitledEpub(SO_DO) });
    expect(vietnamese.title).toBeNull();
    expect(vietnamese.language).toBe('en');
    expect(vietnamese.chapters.map((c) => c.title)).toEqual(['Mục lục', 'Mở đầu', ...CHAPTER_TITLES]);

    const english = await readInProcess({
      fileName: 'b.epub',
      bytes: untitledEpub({
        ...SO_DO,
        author: 'A. Writer',
        introduction: ['The river ran quietly past the old mill.', 'Nobody in the village remembered why.'],
        chapters: [{ title: 'One', paragraphs: ['She said:', '— Who is there?'] }],
      }),
    });
    expect(english.chapters.map((c) => c.title)).toEqual(['Mục lục', 'Opening', 'One']);
    // The language is detected once, by the reader, and recorded for the import (chooseLanguage).
    expect([vietnamese.textLanguage, english.textLanguage]).toEqual(['vi', 'en']);
  });

  it('detects the language once from windows across the whole book, not from its start', async () => {
    // An English preface longer than the 10,000 characters a start sample would have read, then the Vietnamese book.
    const preface = Array.from(
      { length: 160 },
      (_, i) => `This is the translator's note number ${i} about the book and its author.`,
    );
    const book = await readInProcess({
      fileName: 'preface.txt',
      bytes: utf8([...preface, 'Chương 1', ...readingSiteParagraphs(800, 1)].join('\n\n')),
    });
    expect(preface.join('\n').length).toBeGreaterThan(10_000);
    expect(book.textLanguage).toBe('vi');
    expect(book.chapters[0]!.title).toBe('Mở đầu');
  });

  it('names a Vietnamese text file’s opening "Mở đầu" and an English one’s "Opening"', async () => {
    const vi = await readInProcess({
      fileName: 'v.txt',
      bytes: utf8('Lời nói đầu của người viết.\n\nChương 1\n\nNgày xưa có một người.'),
    });
    const en = await readInProcess({
      fileName: 'e.txt',
      bytes: utf8('A word before we begin.\n\nChapter 1\n\nOnce upon a time.'),
    });
    expect([vi.chapters[0]!.title, en.chapters[0]!.title]).toEqual(['Mở đầu', 'Opening']);
  });
});
