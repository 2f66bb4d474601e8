/**
 * Page-break markers and tables of contents pointing into one file several times, with a real
 * EPUB: the IDPF EPUB 3 sample "Children's Literature" (github:IDPF/epub3-samples
 * 30/childrens-literature, CC BY-SA 3.0; zipped with Info-ZIP `zip`: SOURCES.md). Its one content
 * file, s04.xhtml, holds 15 stories and two sections; 92 `epub:type="pagebreak"` spans stand in
 * its text ("…except as <span epub:type="pagebreak">176</span> a means…").
 */

import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import {
  VIETNAMESE_BOOK,
  epub3Files,
  manuscriptTempDir,
  writeManuscriptFile,
  zipEpub,
} from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const SAMPLE = join(import.meta.dirname, '../../fixtures/real-manuscripts/childrens-literature.epub');
const dir = manuscriptTempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The stories, as the sample's nav lists them (its hidden sub-lists left out). */
const STORIES = [
  '190 A FOUR-LEAVED CLOVER',
  '191 THE LORD HELPETH MAN AND BEAST',
  '192 THE REAL PRINCESS',
  "193 THE EMPEROR'S NEW CLOTHES",
  '194 THE NIGHTINGALE',
  '195 THE FIR TREE',
  '196 THE TINDER-BOX',
  '197 THE HARDY TIN SOLDIER',
  '198 THE UGLY DUCKLING',
  '199 THE STORY OF FAIRYFOOT',
  '200 THE HAPPY PRINCE',
  '201 THE KNIGHTS OF THE SILVER SHIELD',
  "202 THE PRINCE'S DREAM",
  '203 OLD PIPES AND THE DRYAD',
  '204 THE KING OF THE GOLDEN RIVER OR THE BLACK BROTHERS',
];

/** "True Charity", s04.xhtml line 310, as a listener should hear it: the page number 176 gone. */
const TRUE_CHARITY =
  'There lived once a very wealthy man, who cared little for money, except as a means for helping ' +
  'others. He used to adopt a peculiar plan in his method of charitable relief. He had three boxes ' +
  'made for the three different classes of people whom he desired to assist. In one box he put gold ' +
  'pieces, which he distributed among artists and scholars, for he honored knowledge and learning as ' +
  'the highest possession. In the second box he placed silver pieces for widows and orphans, for whom ' +
  'his sympathies were readily awakened. In the third were copper coins for the general poor and ' +
  'beggars—no one was turned away from his dwelling without some gift, however small.';

describe('EPUB page breaks and sections (IDPF Children’s Literature)', () => {
  it('never reads a page number: the passage around page 176 comes through word for word', async () => {
    const book = await readManuscript({ fileName: 'childrens-literature.epub', path: SAMPLE });
    const paragraphs = book.chapters.flatMap((chapter) => chapter.paragraphs.map((p) => p.text));
    expect(paragraphs).toContain(TRUE_CHARITY);
    // Page 172 fell between two sentences of the introduction.
    expect(paragraphs.join('\n')).toContain('a "return to nature." Many modern writers have tried');
    // No page number of the 92 (169–260) is left anywhere: not alone, not inside a sentence.
    for (let page = 169; page <= 260; page++) {
      expect(paragraphs.filter((text) => text === String(page))).toEqual([]);
      for (const title of book.chapters.map((c) => c.title)) expect(title).not.toBe(String(page));
    }
    expect(paragraphs.join('\n')).not.toMatch(/\bas 176 a means\b|nature\." 172 Many/);
  });

  it('makes a chapter of each table-of-contents entry into the one content file, titled from the TOC', async () => {
    const book = await readInProcess({ fileName: 'childrens-literature.epub', path: SAMPLE });
    expect(book.chapters.map((c) => c.title)).toEqual(['BIBLIOGRAPHY', 'INTRODUCTORY', ...STORIES]);
    // The bibliography's section says epub:type="bibliography": matter left out of narration.
    expect(book.chapters.map((c) => c.kind)).toEqual(['back', 'body', ...STORIES.map(() => 'body')]);
    const chapter = (title: string) => book.chapters.find((c) => c.title === title)!;
    // Each story starts with its own first paragraph (its heading "190"… is its title line, not text)…
    expect(chapter(STORIES[0]!).paragraphs[0]!.text).toMatch(/^The rabbis of old were good story-tellers\./);
    expect(chapter(STORIES[1]!).paragraphs[0]!.text).toMatch(/^A classic collection of short stories/);
    expect(chapter(STORIES[14]!).paragraphs[0]!.text).toMatch(/^John Ruskin \(1819-1900\)/);
    // …and ends before the next one's: "True Charity" (a hidden sub-entry) stays in its story.
    expect(chapter(STORIES[0]!).paragraphs.map((p) => p.text)).toContain(TRUE_CHARITY);
    expect(chapter(STORIES[1]!).paragraphs.map((p) => p.text)).not.toContain(TRUE_CHARITY);
    expect(chapter(STORIES[0]!).paragraphs.map((p) => p.text)).not.toContain('190');
    // The section heading with no text of its own before the bibliography makes no chapter, and says so.
    expect(book.warnings.join(' ')).toMatch(/SECTION IV FAIRY STORIES—MODERN FANTASTIC TALES/);
    // The file's own <title> names no empty start before the first section: no warning about it.
    expect(book.warnings.join(' ')).not.toMatch(/Section IV: FAIRY/);
  });

  it('splits at the NCX’s entries when the book has no nav document', async () => {
    // The same book repacked without its nav document: the NCX (which lists the four sub-stories too) names the chapters.
    const files = unzipSync(readFileSync(SAMPLE));
    const opf = strFromU8(files['EPUB/package.opf']!)
      .replace(/<item href="nav.xhtml"[^>]*\/>/, '')
      .replace('<itemref idref="nav"/>', '');
    delete files['EPUB/nav.xhtml'];
    files['EPUB/package.opf'] = strToU8(opf);
    const { mimetype, ...rest } = files;
    const path = writeManuscriptFile(
      dir,
      'ncx-only.epub',
      zipSync({ mimetype: [mimetype!, { level: 0 }], ...rest }),
    );
    const book = await readInProcess({ fileName: 'ncx-only.epub', path });
    const titles = book.chapters.map((c) => c.title);
    expect(titles.slice(0, 3)).toEqual(['BIBLIOGRAPHY', 'INTRODUCTORY', STORIES[0]]);
    expect(titles).toContain(STORIES[14]);
    expect(titles.length).toBe(2 + STORIES.length + 4);
    const rabbi = book.chapters[3]!;
    expect(rabbi.title).toMatch(/The Rabbi and the Diadem/i);
    expect(rabbi.paragraphs[0]!.text).toMatch(/^Great was the alarm in the palace of Rome/);
  });
});

describe('HTML page breaks', () => {
  it('leaves out role="doc-pagebreak" markers and a page list (doc-pagelist), in text and headings', async () => {
    const html = `<!DOCTYPE html><html lang="en"><head><title>Pages</title></head><body>
<h1>The <span role="doc-pagebreak" aria-label="12">12</span>Storm</h1>
<p>It rained all night, except <span role="doc-pagebreak" aria-label="13">13</span> at dawn.</p>
<div epub:type="pagebreak" title="14">14</div>
<p>Then the sun came.</p>
<ol role="doc-pagelist"><li><a href="#p12">12</a></li><li><a href="#p13">13</a></li></ol>
</body></html>`;
    const book = await readInProcess({ fileName: 'pages.html', bytes: new TextEncoder().encode(html) });
    expect(book.chapters.map((c) => c.title)).toEqual(['The Storm']);
    expect(book.chapters[0]!.paragraphs.map((p) => p.text)).toEqual([
      'It rained all night, except at dawn.',
      'Then the sun came.',
    ]);
  });
});

describe('EPUB sections from the table of contents', () => {
  it('splits at fragments on headings and keeps one chapter when the fragments are not in the file', async () => {
    const story = (id: string, title: string, text: string) => `<h2 id="${id}">${title}</h2><p>${text}</p>`;
    const files = epub3Files({ ...VIETNAMESE_BOOK, cover: undefined, frontMatter: [], backMatter: [] });
    files['OEBPS/text/ch1.xhtml'] = `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="vi"><head><title>Truyện ngắn</title></head>
<body><p>Lời tựa.</p>${story('s1', 'Một', 'Truyện thứ nhất.')}${story('s2', 'Hai', 'Truyện thứ hai.')}<section id="s3" epub:type="afterword"><h3>Ba</h3><p>Lời bạt.</p></section></body></html>`;
    const nav = files['OEBPS/nav.xhtml'] as string;
    const entries = (ids: string[]) =>
      ids.map((id, i) => `<li><a href="text/ch1.xhtml#${id}">Truyện ${i + 1}</a></li>`).join('');
    files['OEBPS/nav.xhtml'] = nav.replace(
      /<li><a href="text\/ch1\.xhtml">[^<]*<\/a><\/li>/,
      entries(['s1', 's2', 's3']),
    );
    const book = await readInProcess({ fileName: 's.epub', bytes: zipEpub(files) });
    // Text before the first section (no contents entry for the file's start) is named by the file's <title>.
    expect(book.chapters.slice(0, 5).map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      ['Truyện ngắn', ['Lời tựa.']],
      ['Truyện 1', ['Truyện thứ nhất.']],
      ['Truyện 2', ['Truyện thứ hai.']],
      ['Truyện 3', ['Lời bạt.']],
      [VIETNAMESE_BOOK.chapters[1]!.title, expect.any(Array)],
    ]);

    // Fragments the file does not hold: one chapter, named by the first entry as before.
    files['OEBPS/nav.xhtml'] = nav.replace(
      /<li><a href="text\/ch1\.xhtml">[^<]*<\/a><\/li>/,
      entries(['x1', 'x2']),
    );
    const whole = await readInProcess({ fileName: 'w.epub', bytes: zipEpub(files) });
    expect(whole.chapters[0]!.title).toBe('Truyện 1');
    expect(whole.chapters[0]!.paragraphs.map((p) => p.text)).toEqual(['Lời tựa.']);
    expect(whole.chapters[1]!.title).toBe('Một');
  });
});
