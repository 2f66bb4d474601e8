import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectManuscriptFormat, readManuscript } from '../../../electron/core/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const REAL = join(__dirname, '../../fixtures/real-manuscripts');
const real = async (name: string): Promise<Uint8Array> => readFile(join(REAL, name));

describe('readRtf (RTF files from pandoc test suite, written by Word)', () => {
  it('starts a chapter at a "heading 1" style and reads deeper headings and text as paragraphs', async () => {
    const book = await readManuscript({
      fileName: 'heading.rtf',
      bytes: await real('pandoc-rtf-heading.rtf'),
    });
    expect(book.format).toBe('rtf');
    expect(book.chapters.map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      ['Heading 1', ['Heading 2', 'Heading 3', 'Paragraph']],
    ]);
  });

  it('reads bold as strong and italics as em; the font, colour and style tables and hidden text are not read', async () => {
    const book = await readInProcess({
      fileName: 'formatting.rtf',
      bytes: await real('pandoc-rtf-formatting.rtf'),
    });
    const paragraphs = book.chapters[0]!.paragraphs;
    expect(paragraphs.find((p) => p.text === 'bold')!.emphasis).toEqual([
      { start: 0, end: 4, kind: 'strong' },
    ]);
    expect(paragraphs.find((p) => p.text === 'italics')!.emphasis).toEqual([
      { start: 0, end: 7, kind: 'em' },
    ]);
    const all = paragraphs.map((p) => p.text).join(' ');
    expect(all).not.toMatch(/Times New Roman|Calibri|heading/);
    // Hidden text (\v) is not read, as pandoc's reading of the same file has it.
    expect(paragraphs[0]!.text).toBe('This is a test of formatting. This is hidden: .');
  });

  it("decodes \\'xx in the code page (Windows-1252 quotes) and \\uN with its \\uc fallback skipped", async () => {
    const book = await readInProcess({
      fileName: 'unicode.rtf',
      bytes: await real('pandoc-rtf-unicode.rtf'),
    });
    // \u-3913 is U+F0B7 (a Symbol-font bullet, negative as RTF writes code points over 32767).
    expect(book.chapters[0]!.paragraphs.map((p) => p.text)).toEqual(['“hi”‘hi’\uF0B7αä']);
  });

  it('reads Vietnamese written as \\uN with ? fallbacks, as Word saves it', async () => {
    const rtf = String.raw`{\rtf1\ansi\ansicpg1252\uc1{\info{\title Truy\u7879?n Ki\u7873?u}{\author Nguy\u7877?n Du}}{\stylesheet{\s1 heading 1;}}
\pard\s1 H\u7891?i m\u7897?t\par
\pard Tr\u259?m n\u259?m trong c\u245?i ng\u432?\u7901?i ta.\par}`;
    const book = await readInProcess({ fileName: 'kieu.rtf', bytes: Buffer.from(rtf, 'latin1') });
    expect(book.title).toBe('Truyện Kiều');
    expect(book.author).toBe('Nguyễn Du');
    expect(book.chapters.map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      ['Hồi một', ['Trăm năm trong cõi người ta.']],
    ]);
  });

  it('keeps footnotes only when asked: inline after their paragraph, or in a "Notes" appendix', async () => {
    const bytes = await real('pandoc-rtf-footnote.rtf');
    const omitted = await readInProcess({ fileName: 'footnote.rtf', bytes });
    expect(omitted.chapters[0]!.paragraphs.map((p) => p.text)).toEqual([
      "Mead's landmark study has been amply annotated. It was her work in America during the Second World War, however, that forms the basis for the paper. As others have noted, this period was a turning point for Margaret Mead.",
    ]);
    expect(omitted.warnings.join(' ')).toMatch(
      /2 notes .*left out: import with notes "inline" or "appendix"/,
    );
    const inline = await readInProcess({ fileName: 'footnote.rtf', bytes }, { notes: 'inline' });
    expect(inline.chapters[0]!.paragraphs.slice(1).map((p) => p.text)).toEqual([
      'Note: See Sahlins, Bateson, and Geertz for a complete bibliography.',
      'Note: A complete bibliography will be found at the end of this chapter.',
    ]);
    const appendix = await readInProcess({ fileName: 'footnote.rtf', bytes }, { notes: 'appendix' });
    expect(appendix.chapters.map((c) => c.title)).toEqual(['Opening', 'Notes']);
    expect(appendix.chapters[1]!.paragraphs[0]!.text).toBe(
      '1. See Sahlins, Bateson, and Geertz for a complete bibliography.',
    );
  });

  it('is told by its first bytes whatever its name; an .fb2.zip is FictionBook by its name or its first entry', async () => {
    const rtf = await real('pandoc-rtf-heading.rtf');
    expect(detectManuscriptFormat('manuscript', rtf.subarray(0, 8192))).toBe('rtf');
    expect(detectManuscriptFormat('Manuscript.doc', rtf.subarray(0, 8192))).toBe('rtf');
    const zipped = await real('pandoc-fb2-basic.fb2.zip');
    expect(detectManuscriptFormat('book.fb2.zip', zipped.subarray(0, 8192))).toBe('fb2');
    expect(detectManuscriptFormat('book.zip', zipped.subarray(0, 8192))).toBe('fb2');
    expect(detectManuscriptFormat('notes.rtf', Buffer.from('plain words'))).toBeNull();
  });
});
