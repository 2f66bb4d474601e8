/**
 * Scene breaks ("* * *", "***", "⁂", "---", or a rule) are never a chapter heading nor a spoken
 * heading, in every reader: the Standard Ebooks Pride and Prejudice chapter LVII (CC0, its scene
 * break an `<hr/>`), the same chapter with the break set as a heading as other publishers do, the
 * Project Gutenberg text #1952 with scene-break lines between its parts, as plain text and as
 * Markdown, and a DOCX written by the docx library with a scene break in Heading 1 style
 * (test/fixtures/real-manuscripts/SOURCES.md). A scene break makes no segment of a project (the
 * engine has nothing to say in it).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spokenHeadingOf } from '../../../electron/core/engine';
import { readManuscript } from '../../../electron/core/manuscripts';
import { chapterSegments } from '../../../electron/core/projects/segments';
import type { Manuscript } from '../../../electron/shared/manuscript';
import { hasSpeakableContent } from '../../../electron/shared/text';
import { writeDocx } from '../../fixtures/manuscripts';

const real = (name: string) => join(import.meta.dirname, '../../fixtures/real-manuscripts', name);
const CHAPTER_57 = readFileSync(real('pride-and-prejudice/chapter-57.xhtml'), 'utf8');
const WALLPAPER = readFileSync(real('the-yellow-wallpaper-pg1952.txt'), 'utf8');
const BREAKS = ['* * *', '***', '⁂', '---'];

const read = (fileName: string, text: string | Uint8Array) =>
  readManuscript({ fileName, bytes: typeof text === 'string' ? new TextEncoder().encode(text) : text });
const titles = (book: Manuscript) => book.chapters.map((c) => c.title);
const texts = (book: Manuscript) => book.chapters.flatMap((c) => c.paragraphs.map((p) => p.text));

/** The Yellow Wallpaper's text with a scene-break line (and a blank one) before four of its paragraphs. */
function wallpaperWithBreaks(): string {
  const lines = WALLPAPER.split('\n');
  const starts = [
    'We have been here two weeks',
    'Well, the Fourth of July is over!',
    'I really have discovered something at last.',
    'Hurrah! This is the last day',
  ].map((start) => lines.findIndex((line) => line.startsWith(start)));
  expect(starts.every((i) => i > 0 && lines[i - 1] === '')).toBe(true);
  starts.forEach((at, i) => lines.splice(at + 2 * i, 0, BREAKS[i]!, ''));
  return lines.join('\n');
}

describe('scene breaks', () => {
  it('are never read as a spoken heading', () => {
    for (const line of [...BREAKS, '* * * * *', '— — —'])
      for (const language of ['en', 'vi'])
        expect(hasSpeakableContent(spokenHeadingOf(line, language))).toBe(false);
  });

  it('HTML: a rule (Standard Ebooks) or a heading of stars or an asterism is no chapter', async () => {
    const asPublished = await read('chapter-57.xhtml', CHAPTER_57);
    expect(titles(asPublished)).toEqual(['LVII']);
    expect(texts(asPublished).filter((t) => !hasSpeakableContent(t))).toEqual([]);
    for (const [i, heading] of ['<h2>* * *</h2>', '<h3>⁂</h3>', '<p class="break">***</p>'].entries()) {
      const book = await read(`chapter-57-${i}.xhtml`, CHAPTER_57.replace('<hr/>', heading));
      expect(titles(book)).toEqual(['LVII']);
      const paragraphs = texts(book);
      const at = paragraphs.findIndex((t) => !hasSpeakableContent(t));
      expect(paragraphs[at + 1]).toMatch(/^The surprise of the rest of the family/);
      expect(paragraphs.length).toBe(texts(asPublished).length + 1);
      // …and makes no segment of a project.
      const segments = chapterSegments(book.chapters[0]!.paragraphs, 'en');
      expect(segments.length).toBe(chapterSegments(asPublished.chapters[0]!.paragraphs, 'en').length);
      expect(segments.every((s) => hasSpeakableContent(s.text))).toBe(true);
    }
  });

  it('plain text and Markdown: scene-break lines between the parts of a Gutenberg story start no chapter', async () => {
    const text = wallpaperWithBreaks();
    const plain = await read('pg1952.txt', text);
    expect(plain.chapters.map((c) => [c.kind, c.title])).toEqual([
      ['front', 'Project Gutenberg header'],
      ['body', 'The Yellow Wallpaper'],
      ['back', 'Project Gutenberg licence'],
    ]);
    // Kept as the lines they are (shown in the manuscript), and no segment.
    const story = plain.chapters[1]!.paragraphs.map((p) => p.text);
    expect(story.filter((t) => !hasSpeakableContent(t))).toEqual(BREAKS);
    const segments = chapterSegments(plain.chapters[1]!.paragraphs, 'en');
    expect(segments.every((s) => hasSpeakableContent(s.text))).toBe(true);
    expect(segments.length).toBeGreaterThan(story.length - BREAKS.length - 1);

    // Markdown: "* * *", "***" and "---" after a blank line are rules; "⁂" a line.
    const markdown = await read('pg1952.md', text);
    expect(markdown.chapters.filter((c) => c.kind === 'body').length).toBe(1);
    expect(texts(markdown).filter((t) => !hasSpeakableContent(t))).toEqual(['⁂']);
    expect(titles(markdown).every((t) => hasSpeakableContent(t))).toBe(true);
  });

  it('DOCX: a scene break in a heading style is a line of the chapter, not a chapter', async () => {
    const docx = await writeDocx({
      title: 'Scenes',
      author: 'A. Writer',
      language: 'en',
      chapters: [
        { title: 'Chapter 1', paragraphs: ['The first scene ends here.'] },
        { title: '* * *', paragraphs: ['The second scene starts here.'] },
        { title: '⁂', paragraphs: ['The third scene.'] },
        { title: 'Chapter 2', paragraphs: ['Another chapter.'] },
      ],
    });
    const book = await read('scenes.docx', docx);
    expect(book.chapters.map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      [
        'Chapter 1',
        ['The first scene ends here.', '* * *', 'The second scene starts here.', '⁂', 'The third scene.'],
      ],
      ['Chapter 2', ['Another chapter.']],
    ]);
  });
});
