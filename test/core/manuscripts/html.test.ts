import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { AppError } from '../../../electron/shared/errors';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import { VIETNAMESE_BOOK, expectedParagraph, inlineNotesOf, writeHtml } from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const ALL = [...VIETNAMESE_BOOK.frontMatter!, ...VIETNAMESE_BOOK.chapters, ...VIETNAMESE_BOOK.backMatter!];
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('readHtml', () => {
  it('reads h1 chapters, paragraphs, emphasis, <title> and meta author; leaves out script, style, nav and notes', async () => {
    const book = await readManuscript({ fileName: 'Kiều.html', bytes: utf8(writeHtml(VIETNAMESE_BOOK)) });
    expect(book.format).toBe('html');
    expect([book.title, book.author, book.language]).toEqual([VIETNAMESE_BOOK.title, 'Nguyễn Du', 'vi']);
    expect(book.chapters.map((c) => c.title)).toEqual(ALL.map((c) => c.title));
    for (const [i, chapter] of ALL.entries()) {
      expect(book.chapters[i]!.paragraphs).toEqual(chapter.paragraphs.map(expectedParagraph));
    }
    const text = JSON.stringify(book.chapters);
    expect(text).not.toContain('not text');
    expect(text).not.toContain('color');
    expect(text).not.toContain('Trang chủ');
    expect(book.warnings.join(' ')).toMatch(/1 note .*left out/);

    const withNotes = await readInProcess(
      { fileName: 'k.html', bytes: utf8(writeHtml(VIETNAMESE_BOOK)) },
      { notes: 'inline' },
    );
    expect(withNotes.chapters[1]!.paragraphs.map((p) => p.text)).toContain(
      inlineNotesOf(VIETNAMESE_BOOK.chapters[0]!.paragraphs[1]!)[0],
    );
  });

  it('reads div, li and blockquote text, h2 as chapters, deeper headings as paragraphs, <br> as a line break', async () => {
    const html = `<html><body><div>Mở đầu <i>nghiêng</i></div><h2>Phần hai</h2><ul><li>Một</li><li><b>Hai</b></li></ul>
      <blockquote>Trích <br>dẫn</blockquote><h3>Nhỏ</h3></body></html>`;
    const book = await readInProcess({ fileName: 'x.htm', bytes: utf8(html) });
    expect(book.title).toBe('Phần hai');
    expect(book.chapters).toEqual([
      {
        title: 'Phần hai',
        kind: 'body',
        paragraphs: [{ text: 'Mở đầu nghiêng', emphasis: [{ start: 7, end: 14, kind: 'em' }] }],
      },
      {
        title: 'Phần hai',
        kind: 'body',
        paragraphs: [
          { text: 'Một', emphasis: [] },
          { text: 'Hai', emphasis: [{ start: 0, end: 3, kind: 'strong' }] },
          { text: 'Trích\ndẫn', emphasis: [] },
          { text: 'Nhỏ', emphasis: [] },
        ],
      },
    ]);
  });

  it('reads nesting up to the depth limit and refuses deeper, naming the file and the limit', async () => {
    // html and body are two levels: the text's div is at the limit.
    const depth = MANUSCRIPT_LIMITS.nestingDepth - 2;
    const html = `${'<div>'.repeat(depth)}sâu${'</div>'.repeat(depth)}`;
    const book = await readInProcess({ fileName: 'deep.html', bytes: utf8(html) });
    expect(book.chapters[0]!.paragraphs[0]!.text).toBe('sâu');

    const deeper = `${'<div>'.repeat(100_000)}sâu${'</div>'.repeat(100_000)}`;
    const error = (await readManuscript({ fileName: 'deeper.html', bytes: utf8(deeper) }).catch(
      (e: unknown) => e,
    )) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toBe(
      `"deeper.html" is too large: it nests elements more than ${MANUSCRIPT_LIMITS.nestingDepth} deep (the limit is ${MANUSCRIPT_LIMITS.nestingDepth} elements deep).`,
    );
  });
});
