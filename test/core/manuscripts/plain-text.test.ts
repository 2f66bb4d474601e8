import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { AppError } from '../../../electron/shared/errors';
import { VIETNAMESE_BOOK, expectedParagraph, writePlainText } from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const ALL = [...VIETNAMESE_BOOK.frontMatter!, ...VIETNAMESE_BOOK.chapters, ...VIETNAMESE_BOOK.backMatter!];

function utf16(text: string, endian: 'le' | 'be'): Uint8Array {
  const le = Buffer.from(`\uFEFF${text}`, 'utf16le');
  if (endian === 'le') return new Uint8Array(le);
  const be = Buffer.from(le);
  be.swap16();
  return new Uint8Array(be);
}

describe('readPlainText', () => {
  it('reads [chapter: …] chapters and blank-line paragraphs, Vietnamese exact, in UTF-8 (BOM or not) and UTF-16 LE/BE', async () => {
    const text = writePlainText(VIETNAMESE_BOOK);
    const encodings = [
      new TextEncoder().encode(text),
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]),
      utf16(text, 'le'),
      utf16(text, 'be'),
    ];
    for (const bytes of encodings) {
      const book = await readInProcess({ fileName: 'Kiều.txt', bytes });
      expect(book.format).toBe('text');
      expect(book.chapters.map((c) => c.title)).toEqual(ALL.map((c) => c.title));
      for (const [i, chapter] of ALL.entries()) {
        expect(book.chapters[i]!.paragraphs.map((p) => p.text)).toEqual(
          chapter.paragraphs.map((p) => expectedParagraph(p).text),
        );
      }
    }
  });

  it('finds chapter names standing alone and # headings; a single line break stays inside its paragraph', async () => {
    const text = [
      'Lời nói đầu.',
      'CHAPTER III',
      'The rain fell.\nIt kept falling.',
      '# Phần hai',
      'Chương một',
      'Một câu.',
      'Chương 3: Về quê',
      'Chapter Twenty-One - The End',
      'Chapter 3 was the best one, she said.',
      'Chương mười hai',
      'Hết.',
    ].join('\n\n');
    const book = await readManuscript({
      fileName: 'c.txt',
      bytes: new TextEncoder().encode(text.normalize('NFD')),
    });
    expect(book.chapters.map((c) => [c.title, c.paragraphs.map((p) => p.text)])).toEqual([
      ['Opening', ['Lời nói đầu.']],
      ['CHAPTER III', ['The rain fell.\nIt kept falling.']],
      ['Chương một', ['Một câu.']],
      ['Chapter Twenty-One - The End', ['Chapter 3 was the best one, she said.']],
      ['Chương mười hai', ['Hết.']],
    ]);
    expect(book.warnings.join(' ')).toMatch(/"Phần hai", "Chương 3: Về quê"/);
  });

  it('refuses a text over the character limit, naming the file and the limit', async () => {
    const paragraph = `${'Một câu tiếng Việt khá dài để đếm. '.repeat(28)}\n\n`;
    const text = paragraph.repeat(Math.ceil(5_100_000 / paragraph.length));
    const error = await readManuscript({ fileName: 'dài.txt', bytes: new TextEncoder().encode(text) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('MANUSCRIPT_TOO_LARGE');
    expect((error as AppError).message).toMatch(/"dài\.txt".*5,000,000 characters/);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('Xin chào '), 0xff, 0xfe, 0x41]);
    const error = await readManuscript({ fileName: 'latin.txt', bytes }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toMatch(/MANUSCRIPT_INVALID|UNSUPPORTED_MEDIA_TYPE/);
    expect((error as AppError).message).toContain('"latin.txt"');
  });
});
