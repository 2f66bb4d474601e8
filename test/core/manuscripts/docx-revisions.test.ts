/**
 * DOCX as a reader sees it once the writer's bookkeeping is set aside: tracked changes accepted,
 * drop caps joined, text boxes read once, page-number fields left out. Real files (pandoc's and
 * mammoth's test documents, written by Word: test/fixtures/real-manuscripts/SOURCES.md) and
 * documents written by the `docx` package.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DeletedTextRun,
  Document,
  FrameAnchorType,
  HeadingLevel,
  InsertedTextRun,
  Packer,
  PageNumber,
  Paragraph,
  SimpleField,
  Table,
  TableCell,
  TableRow,
  Textbox,
  TextRun,
} from 'docx';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import type { Manuscript } from '../../../electron/shared/manuscript';
import { readInProcess } from '../../fixtures/read-in-process';

const REAL = join(__dirname, '../../fixtures/real-manuscripts');

async function readReal(name: string): Promise<Manuscript> {
  return readInProcess({ fileName: name, bytes: new Uint8Array(readFileSync(join(REAL, name))) });
}

function texts(book: Manuscript): string[] {
  return book.chapters.flatMap((c) => c.paragraphs.map((p) => p.text));
}

async function written(children: (Paragraph | Textbox)[]): Promise<Manuscript> {
  const doc = new Document({ sections: [{ children }] });
  const bytes = new Uint8Array(await Packer.toBuffer(doc));
  return readInProcess({ fileName: 'written.docx', bytes });
}

describe('DOCX tracked changes, read as accepted', () => {
  it('keeps insertions (Word’s w:ins)', async () => {
    expect(texts(await readReal('track_changes_insertion.docx'))).toEqual([
      'This is a text with two exciting insertions.',
    ]);
  });

  it('leaves deletions out (w:del, w:delText)', async () => {
    expect(texts(await readReal('track_changes_deletion.docx'))).toEqual(['This is a text with a deletion.']);
  });

  it('reads a moved sentence once, where it was moved to', async () => {
    expect(texts(await readReal('track_changes_move.docx'))).toEqual([
      'Here is some text.',
      'Here is the text to be moved.',
      'Here is some more text.',
    ]);
  });

  it('joins a paragraph whose mark was deleted to the next, with a space', async () => {
    expect(texts(await readReal('paragraph_insertion_deletion.docx'))).toEqual([
      'This is a',
      'split Paragraph.',
    ]);
  });

  it('reads insertions and deletions the docx package writes, Vietnamese exact', async () => {
    const book = await written([
      new Paragraph({
        children: [
          new TextRun('Trăm năm trong cõi '),
          new DeletedTextRun({ text: 'đời ', id: 1, author: 'Biên tập', date: '2026-01-01T00:00:00Z' }),
          new InsertedTextRun({
            text: 'người ta, ',
            id: 2,
            author: 'Biên tập',
            date: '2026-01-01T00:00:00Z',
          }),
          new TextRun('chữ tài chữ mệnh khéo là ghét nhau.'),
        ],
      }),
    ]);
    expect(texts(book)).toEqual(['Trăm năm trong cõi người ta, chữ tài chữ mệnh khéo là ghét nhau.']);
  });
  it('takes formatting as changed, not as it was (w:rPrChange, w:pPrChange hold the old)', async () => {
    const changed = { id: 3, author: 'Biên tập', date: '2026-01-01T00:00:00Z' };
    const book = await written([
      new Paragraph({
        heading: HeadingLevel.HEADING_1,
        children: [new TextRun('Hồi thứ nhất')],
      }),
      new Paragraph({
        // Was a heading before the change: now body text.
        revision: { ...changed, heading: HeadingLevel.HEADING_1 },
        children: [
          new TextRun({ text: 'Chữ thường, ', revision: { ...changed, bold: true } }),
          new TextRun({ text: 'chữ nghiêng.', italics: true, revision: { ...changed, italics: false } }),
        ],
      }),
    ]);
    expect(book.chapters.map((c) => c.title)).toEqual(['Hồi thứ nhất']);
    expect(book.chapters[0]!.paragraphs).toEqual([
      { text: 'Chữ thường, chữ nghiêng.', emphasis: [{ start: 12, end: 24, kind: 'em' }] },
    ]);
  });
  it('leaves a deleted table row out and keeps an inserted one', async () => {
    const changed = { author: 'Biên tập', date: '2026-01-01T00:00:00Z' };
    const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
    const doc = new Document({
      sections: [
        {
          children: [
            new Table({
              rows: [
                new TableRow({ children: [cell('Hàng giữ lại')] }),
                new TableRow({ deletion: { id: 4, ...changed }, children: [cell('Hàng đã xoá')] }),
                new TableRow({ insertion: { id: 5, ...changed }, children: [cell('Hàng mới thêm')] }),
              ],
            }),
          ],
        },
      ],
    });
    const bytes = new Uint8Array(await Packer.toBuffer(doc));
    expect(texts(await readManuscript({ fileName: 'bang.docx', bytes }))).toEqual([
      'Hàng giữ lại',
      'Hàng mới thêm',
    ]);
  });
});

describe('DOCX drop caps, frames and text boxes', () => {
  it('joins a drop cap to its paragraph with nothing between (in the text or in the margin)', async () => {
    expect(texts(await readReal('drop_cap.docx'))).toEqual([
      'Drop cap.',
      'Next paragraph.',
      'Drop cap in margin.',
      'Drop cap (not really).',
    ]);
  });

  it('reads a text box once (its mc:Fallback copy left out)', async () => {
    expect(texts(await readReal('mammoth-text-box.docx'))).toEqual(['Datum plane']);
  });

  it('reads a text box the docx package writes in place, and a text frame as a paragraph', async () => {
    const book = await written([
      new Paragraph({ children: [new TextRun('Đoạn trước hộp.')] }),
      new Textbox({
        style: { width: '200pt', height: '50pt' },
        children: [new Paragraph({ children: [new TextRun('Lời trong hộp chữ.')] })],
      }),
      new Paragraph({
        frame: {
          type: 'absolute',
          position: { x: 1000, y: 1000 },
          width: 4000,
          height: 1000,
          anchor: { horizontal: FrameAnchorType.MARGIN, vertical: FrameAnchorType.MARGIN },
        },
        children: [new TextRun('Khung chữ.')],
      }),
      new Paragraph({ children: [new TextRun('Đoạn sau.')] }),
    ]);
    expect(texts(book)).toEqual(['Đoạn trước hộp.', 'Lời trong hộp chữ.', 'Khung chữ.', 'Đoạn sau.']);
  });
  it('joins a paragraph whose mark was deleted to the one after a text box, never to the box', async () => {
    const deletion = { id: 6, author: 'Biên tập', date: '2026-01-01T00:00:00Z' };
    const book = await written([
      new Paragraph({ run: { deletion }, children: [new TextRun('Đoạn nối,')] }),
      new Paragraph({ children: [new TextRun('nửa sau.')] }),
      new Paragraph({ run: { deletion }, children: [new TextRun('Trước hộp')] }),
      new Textbox({
        style: { width: '200pt', height: '50pt' },
        children: [new Paragraph({ children: [new TextRun('Lời trong hộp.')] })],
      }),
      new Paragraph({ children: [new TextRun('Đoạn cuối.')] }),
    ]);
    // The text box's anchor is a paragraph of its own (empty): the deleted mark joins it.
    expect(texts(book)).toEqual(['Đoạn nối, nửa sau.', 'Lời trong hộp.', 'Trước hộp', 'Đoạn cuối.']);
  });
});

describe('DOCX fields', () => {
  it('leaves page numbers out (PAGEREF in a table of contents) and keeps the entries', async () => {
    const book = await readReal('pageref.docx');
    // Title and Title2 are headings with no text under them: only the contents' entries are read.
    expect(texts(book)).toEqual(['Title', 'Title2']);
  });

  it('keeps a HYPERLINK field’s result, never its instruction', async () => {
    const text = texts(await readReal('instrText_hyperlink.docx')).join('\n');
    expect(text).toContain('Foundations of Analysis, 2nd Edition');
    expect(text).toContain('Classic Set Theory: For Guided Independent Study');
    expect(text).not.toContain('HYPERLINK');
    expect(text).not.toContain('books.google');
  });

  it('leaves PAGE / NUMPAGES out, simple or complex, and keeps other fields’ results', async () => {
    const book = await written([
      new Paragraph({
        children: [
          new TextRun({ children: ['Trang ', PageNumber.CURRENT, ' trên ', PageNumber.TOTAL_PAGES] }),
        ],
      }),
      new Paragraph({
        children: [new TextRun('Tổng số trang: '), new SimpleField('NUMPAGES', '12'), new TextRun('.')],
      }),
      new Paragraph({
        children: [new TextRun('Tác giả: '), new SimpleField('AUTHOR', 'Nguyễn Du'), new TextRun('.')],
      }),
    ]);
    expect(texts(book)).toEqual(['Trang trên', 'Tổng số trang: .', 'Tác giả: Nguyễn Du.']);
  });
});
