import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { extractPdf } from '../../../electron/core/manuscripts/pdf-extract';
import { readInChild } from '../../../electron/core/manuscripts/reader-process';
import { isAppError } from '../../../electron/shared/errors';
import { MANUSCRIPT_LIMITS } from '../../../electron/shared/manuscript';
import {
  DEJAVU_DIR,
  PDF_BOOK,
  PDF_ITALIC_TAIL,
  writeFlateBombPdf,
  writeImageOnlyPdf,
  PARAGRAPHS_A_PAGE,
  writeManyParagraphsPdf,
  writePdfBook,
} from '../../fixtures/pdf-files';
import { readInProcess } from '../../fixtures/read-in-process';

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the read to fail');
}

/** The reads whose subject is the PDF, not the child (see read-in-process.ts). */
const readPdf = (fileName: string, bytes: Uint8Array) => readInProcess({ fileName, bytes });

describe('PDF reader (pdf.js in a child process)', () => {
  it('has the embedded font the fixtures need (Debian fonts-dejavu)', () => {
    expect(existsSync(join(DEJAVU_DIR, 'DejaVuSans.ttf'))).toBe(true);
  });

  it('reads chapters from the outline, paragraphs from line gaps, italic runs and the metadata', async () => {
    const manuscript = await readManuscript({ fileName: 'hai-dang.pdf', bytes: await writePdfBook() });
    expect(manuscript.format).toBe('pdf');
    expect(manuscript.title).toBe(PDF_BOOK.title);
    expect(manuscript.author).toBe(PDF_BOOK.author);
    expect(manuscript.chapters.map((chapter) => chapter.title)).toEqual(
      PDF_BOOK.chapters.map((c) => c.title),
    );
    expect(manuscript.chapters.every((chapter) => chapter.kind === 'body')).toBe(true);
    manuscript.chapters.forEach((chapter, index) => {
      const expected = PDF_BOOK.chapters[index]!.paragraphs.map((text) => `${text} ${PDF_ITALIC_TAIL}`);
      // Vietnamese exactly (NFC), one paragraph per written paragraph, the heading not repeated.
      expect(chapter.paragraphs.map((p) => p.text)).toEqual(expected.map((text) => text.normalize('NFC')));
      for (const paragraph of chapter.paragraphs) {
        const length = Array.from(paragraph.text).length;
        expect(paragraph.emphasis).toEqual([
          { start: length - Array.from(PDF_ITALIC_TAIL).length, end: length, kind: 'em' },
        ]);
      }
    });
    expect(manuscript.warnings).toEqual([]);
  });

  it('without an outline takes chapters from the larger headings', async () => {
    const manuscript = await readPdf('no-outline.pdf', await writePdfBook({ outline: false }));
    expect(manuscript.chapters.map((chapter) => chapter.title)).toEqual(
      PDF_BOOK.chapters.map((c) => c.title),
    );
    expect(manuscript.chapters.map((chapter) => chapter.paragraphs.length)).toEqual(
      PDF_BOOK.chapters.map((c) => c.paragraphs.length),
    );
    expect(manuscript.warnings.join(' ')).toMatch(/no outline/);
  });

  it('refuses a PDF without a text layer, saying OCR is not done', async () => {
    const error = await failure(readPdf('scan.pdf', await writeImageOnlyPdf()));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toContain('"scan.pdf"');
    expect(error.message).toMatch(/no text layer/);
    expect(error.message).toMatch(/OCR is not done/);
  });

  it('refuses a password-protected PDF, saying it is encrypted', async () => {
    const bytes = await writePdfBook({ userPassword: 'geheim' });
    const error = await failure(readPdf('locked.pdf', bytes));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toContain('"locked.pdf"');
    expect(error.message).toMatch(/encrypted/);
  });

  it('refuses a truncated PDF', async () => {
    const bytes = await writePdfBook();
    const error = await failure(readPdf('cut.pdf', bytes.subarray(0, Math.floor(bytes.length / 3))));
    expect(error.code).toBe('MANUSCRIPT_INVALID');
    expect(error.message).toContain('"cut.pdf"');
  });

  it('stops a FlateDecode bomb at the memory cap, naming the file and the limit, the app unmoved', async () => {
    const bytes = writeFlateBombPdf();
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    const before = process.memoryUsage().rss;
    let peak = before;
    const watch = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const error = await failure(readManuscript({ fileName: 'bomb.pdf', bytes })).finally(() =>
      clearInterval(watch),
    );
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toContain('"bomb.pdf"');
    expect(error.message).toContain(`${MANUSCRIPT_LIMITS.readerMaxRssBytes / 1024 / 1024} MiB`);
    // The memory went to the child; this process grew by far less than the stream inflates to.
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
  }, 90_000);

  it('refuses more paragraphs than the limit, naming the file and the limit', async () => {
    const one = await readPdf('one.pdf', writeManyParagraphsPdf(1));
    // Each line a paragraph or, set larger, a chapter's title: a page is read, not refused.
    const read = one.chapters.reduce((n, chapter) => n + chapter.paragraphs.length + 1, 0);
    expect(read).toBeGreaterThan(PARAGRAPHS_A_PAGE * 0.9);
    // The limit (200,000) lowered for this read, in this process only (the reader reads it when it
    // counts): the count and the refusal are the subject, not 286 pages of pdf.js parsing (tens of
    // seconds of CPU). Any limit above a page's paragraphs shows the same rule.
    const limits = MANUSCRIPT_LIMITS as { paragraphs: number };
    const real = limits.paragraphs;
    limits.paragraphs = 2 * PARAGRAPHS_A_PAGE;
    try {
      const pages = Math.ceil((MANUSCRIPT_LIMITS.paragraphs + 1) / PARAGRAPHS_A_PAGE);
      const error = await failure(extractPdf(new Uint8Array(writeManyParagraphsPdf(pages)), 'many.pdf'));
      const limit = MANUSCRIPT_LIMITS.paragraphs.toLocaleString('en-US');
      expect(error).toEqual({
        code: 'MANUSCRIPT_TOO_LARGE',
        message: `"many.pdf" is too large: it holds more than ${limit} paragraphs (the limit is ${limit} paragraphs).`,
      });
      // Exactly at the limit is read.
      const at = await readPdf('at.pdf', writeManyParagraphsPdf(2));
      expect(at.chapters.reduce((n, chapter) => n + chapter.paragraphs.length, 0)).toBeLessThanOrEqual(
        MANUSCRIPT_LIMITS.paragraphs,
      );
    } finally {
      limits.paragraphs = real;
    }
  });

  it('stops a reader that takes longer than its time limit', async () => {
    const error = await failure(
      readInChild(
        { fileName: 'slow.pdf', format: 'pdf', bytes: writeFlateBombPdf(256 * 1024 * 1024), options: {} },
        { timeoutMs: 300, maxRssBytes: 4 * 1024 ** 3 },
      ),
    );
    expect(error.code).toBe('MANUSCRIPT_TOO_LARGE');
    expect(error.message).toMatch(/"slow\.pdf" took longer than 0\.3 s/);
  });
});
