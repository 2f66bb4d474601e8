/**
 * Project Gutenberg's header and licence as front and back matter, with a real Gutenberg text:
 * eBook #1952, "The Yellow Wallpaper", as plain text and as Gutenberg's own EPUB (made by its
 * Ebookmaker; test/fixtures/real-manuscripts/SOURCES.md), whose header
 * ends at "*** START OF THIS PROJECT GUTENBERG EBOOK THE YELLOW WALLPAPER ***" and whose licence
 * starts at "End of Project Gutenberg's The Yellow Wallpaper…" before the END marker.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { plainTextChapterTitle } from '../../../electron/core/manuscripts/chapter-lines';
import type { Manuscript } from '../../../electron/shared/manuscript';
import { VIETNAMESE_LINES } from '../../fixtures/language-samples';
import { readInProcess } from '../../fixtures/read-in-process';

const YELLOW_WALLPAPER = join(
  import.meta.dirname,
  '../../fixtures/real-manuscripts/the-yellow-wallpaper-pg1952.txt',
);
const SOURCE = readFileSync(YELLOW_WALLPAPER, 'utf8');
const LINES = SOURCE.split('\n');
const START = LINES.findIndex((line) => line.startsWith('*** START OF THIS PROJECT GUTENBERG'));
const END = LINES.findIndex((line) => line.startsWith("End of Project Gutenberg's"));
/** The real header (with its START line) and licence (from the "End of…" line), as Gutenberg writes them. */
const HEADER = LINES.slice(0, START + 1).join('\n');
const LICENCE = LINES.slice(END).join('\n');

const bytes = (text: string) => new TextEncoder().encode(text);

/** The Yellow Wallpaper as read: header, story, licence; the header's title, author and language. */
function expectYellowWallpaperShape(book: Manuscript): void {
  expect(book.chapters.map((c) => [c.kind, c.title])).toEqual([
    ['front', 'Project Gutenberg header'],
    ['body', 'The Yellow Wallpaper'],
    ['back', 'Project Gutenberg licence'],
  ]);
  expect([book.title, book.author, book.language]).toEqual([
    'The Yellow Wallpaper',
    'Charlotte Perkins Gilman',
    'en',
  ]);
}

describe('Project Gutenberg texts', () => {
  it('makes the header and the licence front and back matter, and takes the title, author and language from the header', async () => {
    const book = await readManuscript({ fileName: 'pg1952.txt', path: YELLOW_WALLPAPER });
    expectYellowWallpaperShape(book);
    // Paragraphs with their source lines joined (a plain text keeps its line breaks inside a paragraph).
    const [header, story, licence] = book.chapters.map((c) =>
      c.paragraphs.map((p) => p.text.replaceAll('\n', ' ')),
    );
    expect(header![0]).toBe("Project Gutenberg's The Yellow Wallpaper, by Charlotte Perkins Gilman");
    // The START line and the volunteers' credit after it are the header's.
    expect(header!.slice(-2)).toEqual([
      '*** START OF THIS PROJECT GUTENBERG EBOOK THE YELLOW WALLPAPER ***',
      'Produced by An Anonymous Volunteer',
    ]);
    // The story, from its byline (its title line is the book's title) to its last words.
    expect(story![0]).toBe('By Charlotte Perkins Gilman');
    expect(story![1]).toBe(
      'It is very seldom that mere ordinary people like John and myself secure ancestral halls for the summer.',
    );
    expect(story!.at(-1)).toBe(
      'Now why should that man have fainted? But he did, and right across my path by the wall, so that I had to creep over him every time!',
    );
    expect(story!.join('\n')).not.toMatch(/Gutenberg/);
    expect(licence![0]).toBe("End of Project Gutenberg's The Yellow Wallpaper, by Charlotte Perkins Gilman");
    expect(licence).toContain('*** END OF THIS PROJECT GUTENBERG EBOOK THE YELLOW WALLPAPER ***');
    expect(licence!.join('\n')).toContain('*** START: FULL LICENSE ***');
  });

  it('names the header and licence in Vietnamese for a Vietnamese book, whose language the English licence does not outweigh', async () => {
    const text = [
      HEADER.replace('Language: English', 'Language: Vietnamese'),
      '',
      'CHƯƠNG MỘT',
      '',
      VIETNAMESE_LINES.slice(0, 4).join('\n\n'),
      '',
      LICENCE,
    ].join('\n');
    const book = await readInProcess({ fileName: 'sach.txt', bytes: bytes(text) });
    expect(book.chapters.map((c) => [c.kind, c.title])).toEqual([
      ['front', 'Phần đầu của Project Gutenberg'],
      ['body', 'CHƯƠNG MỘT'],
      ['back', 'Giấy phép Project Gutenberg'],
    ]);
    expect(book.textLanguage).toBe('vi');
    expect(book.language).toBe('vi');
  });

  it('reads a heading closing an illustration\'s bracket ("Chapter I.]", Pride and Prejudice #1342) as "Chapter I"', async () => {
    // The lines as Gutenberg's Pride and Prejudice (#1342) has them.
    const text = [
      '[Illustration: ·PRIDE AND PREJUDICE·',
      '',
      '',
      '',
      '',
      'Chapter I.]',
      '',
      '',
      'It is a truth universally acknowledged, that a single man in possession',
      'of a good fortune must be in want of a wife.',
      '',
      'CHAPTER II.',
      '',
      'Mr. Bennet was among the earliest of those who waited on Mr. Bingley.',
    ].join('\n');
    const book = await readInProcess({ fileName: 'pp.txt', bytes: bytes(text) });
    expect(book.chapters.map((c) => c.title)).toEqual(['Opening', 'Chapter I', 'CHAPTER II.']);
    expect(plainTextChapterTitle('CHAPTER IV.]')).toBe('CHAPTER IV');
    expect(plainTextChapterTitle('Chapter 2: The [Red] Room]')).toBe('Chapter 2: The [Red] Room]');
  });

  it('makes the header and licence of a Gutenberg HTML page (its pg-header and pg-footer) front and back matter', async () => {
    // The shape Project Gutenberg's ebookmaker writes (pg-header with its START separator, pg-footer), the
    // real header's and licence's words inside.
    const para = (text: string) => `<p>${text.replaceAll('&', '&amp;').replaceAll('<', '&lt;')}</p>`;
    const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/>
<title>The Yellow Wallpaper | Project Gutenberg</title></head><body>
<section class="pg-boilerplate pgheader" id="pg-header" lang="en">
<h2 id="pg-header-heading">The Project Gutenberg eBook of <span id="pg-title-no-subtitle">The Yellow Wallpaper</span></h2>
<div class="container" id="pg-machine-header"><p><strong>Title</strong>: The Yellow Wallpaper</p>
<div id="pg-header-authlist"><p><strong>Author</strong>: Charlotte Perkins Gilman</p></div>
<p><strong>Language</strong>: English</p></div>
<div id="pg-start-separator"><span>*** START OF THE PROJECT GUTENBERG EBOOK THE YELLOW WALLPAPER ***</span></div>
</section>
<h1>THE YELLOW WALLPAPER</h1>
${LINES.slice(START + 1, END)
  .join('\n')
  .split(/\n{2,}/)
  .filter((p) => p.trim() && !/THE YELLOW WALLPAPER|Produced by/.test(p))
  .map(para)
  .join('\n')}
<section class="pg-boilerplate pgfooter" id="pg-footer">
<div id="pg-end-separator"><span>*** END OF THE PROJECT GUTENBERG EBOOK THE YELLOW WALLPAPER ***</span></div>
${LICENCE.split(/\n{2,}/)
  .slice(2)
  .map(para)
  .join('\n')}
</section></body></html>`;
    const book = await readInProcess({ fileName: 'pg1952-images.html', bytes: bytes(html) });
    expectYellowWallpaperShape(book);
    expect(book.chapters[1]!.paragraphs[0]!.text).toBe('By Charlotte Perkins Gilman');
    expect(book.chapters[1]!.paragraphs.map((p) => p.text).join('\n')).not.toMatch(/Gutenberg/);
  });

  it("makes the header and licence of Gutenberg's own EPUB of #1952 (Ebookmaker) front and back matter, as in its text", async () => {
    const epub = await readInProcess({
      fileName: 'pg1952.epub',
      path: join(import.meta.dirname, '../../fixtures/real-manuscripts/the-yellow-wallpaper-pg1952.epub'),
    });
    expectYellowWallpaperShape(epub);
    const [header, story, licence] = epub.chapters.map((c) =>
      c.paragraphs.map((p) => p.text.replaceAll('\n', ' ')),
    );
    expect(header![0]).toBe(
      'The Project Gutenberg EBook of The Yellow Wallpaper, by Charlotte Perkins Gilman',
    );
    expect(header!.slice(-2)).toEqual([
      '*** START OF THIS PROJECT GUTENBERG EBOOK THE YELLOW WALLPAPER ***',
      'Produced by An Anonymous Volunteer, and David Widger',
    ]);
    // The story is the text file's, from its first sentence to its last (the EPUB has curly quotes).
    const text = await readInProcess({ fileName: 'pg1952.txt', path: YELLOW_WALLPAPER });
    const textStory = text.chapters[1]!.paragraphs.map((p) => p.text.replaceAll('\n', ' '));
    const plain = (line: string) => line.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"');
    expect(plain(story![0]!)).toBe(textStory[1]);
    expect(plain(story!.at(-1)!)).toBe(textStory.at(-1));
    expect(story!.join('\n')).not.toMatch(/Gutenberg/);
    expect(licence![0]).toBe("End of Project Gutenberg's The Yellow Wallpaper, by Charlotte Perkins Gilman");
    expect(licence).toContain('*** END OF THIS PROJECT GUTENBERG EBOOK THE YELLOW WALLPAPER ***');
    expect(licence!.join('\n')).toContain('*** START: FULL LICENSE ***');
  });
});
