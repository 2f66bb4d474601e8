/**
 * Legacy Vietnamese encodings in HTML, EPUB and ODT (text only, markup untouched): real files
 * made by the fixture writers (an HTML page in windows-1252 with `<font face=".VnTime">`, EPUBs
 * zipped by fflate in the reading sites' layout, ODTs zipped by fflate with content.xml), their
 * text a real paragraph (Tắt đèn) encoded with the inverse of the published tables, read by the
 * real readers into Unicode with the same note and `legacyEncoding` as a text file.
 */

import { parse, serialize } from 'parse5';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import { convertLegacyHtml } from '../../../electron/core/manuscripts/legacy-vietnamese-html';
import { AppError } from '../../../electron/shared/errors';
import { latinBytes, TAT_DEN, TAT_DEN_VIQR, toTcvn3, toVni } from '../../fixtures/legacy-vietnamese';
import {
  odtFiles,
  readingSiteEpubFiles,
  VIETNAMESE_BOOK,
  writeOdt,
  zipEpub,
  zipOdt,
  type ReadingSiteBook,
} from '../../fixtures/manuscripts';
import { readInProcess } from '../../fixtures/read-in-process';

const CHAPTER = 'Chương mười tám';
const SECOND = 'Chị Dậu vội vàng đặt con bé xuống đất, chạy đến đỡ lấy tay hắn và van xin thảm thiết.';

const textsOf = (book: { chapters: { paragraphs: { text: string }[] }[] }): string[] =>
  book.chapters.flatMap((c) => c.paragraphs.map((p) => p.text));

/** A page as the old sites saved it: windows-1252 declared, the text in `<font face>`. */
function legacyPage(font: string, heading: string, paragraphs: readonly string[]): string {
  return `<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1252">
<title>Tat den</title></head><body>
<h2><font face="${font}H">${heading}</font></h2>
${paragraphs.map((p) => `<p><font face="${font}">${p}</font></p>`).join('\n')}
<p><a href="chuong19.html?trang=2">${heading}.</a></p>
</body></html>`;
}

describe('legacy Vietnamese in HTML', () => {
  it('reads a windows-1252 page in .VnTime (TCVN3 bytes) as Unicode, its .VnTimeH heading in capitals, with the note', async () => {
    const bytes = latinBytes(
      legacyPage('.VnTime', toTcvn3(CHAPTER.toLowerCase()), [toTcvn3(TAT_DEN), toTcvn3(SECOND)]),
    );
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const book = await readManuscript({ fileName: 'tat-den.html', bytes });
    expect(book.legacyEncoding).toBe('tcvn3');
    expect(book.warnings).toContain(
      'Converted from TCVN3 (ABC) to Unicode (the page was in that legacy Vietnamese encoding).',
    );
    expect(book.chapters.map((c) => c.title)).toEqual([CHAPTER.toUpperCase()]);
    expect(textsOf(book)).toEqual([TAT_DEN, SECOND, `${CHAPTER.toLowerCase()}.`]);
  });

  it('reads a UTF-8 page whose text is VNI codes (an old page re-saved) and one in VIQR', async () => {
    const vni = new TextEncoder().encode(
      legacyPage('VNI-Times', toVni(CHAPTER), [toVni(TAT_DEN), toVni(SECOND)]),
    );
    const book = await readInProcess({ fileName: 'tat-den.html', bytes: vni });
    expect(book.legacyEncoding).toBe('vni');
    expect(book.chapters[0]!.title).toBe(CHAPTER);
    expect(textsOf(book).slice(0, 2)).toEqual([TAT_DEN, SECOND]);

    const viqr = new TextEncoder().encode(
      `<!DOCTYPE html><html><body><p>${TAT_DEN_VIQR}</p><p>&nbsp;</p><p>${TAT_DEN_VIQR}</p></body></html>`,
    );
    const viqrBook = await readInProcess({ fileName: 'tat-den.html', bytes: viqr });
    expect(viqrBook.legacyEncoding).toBe('viqr');
    expect(textsOf(viqrBook)).toEqual([TAT_DEN, TAT_DEN]);
  });

  it('converts text nodes only: tags and attributes stay as written', () => {
    const source = `<p title="Thu? ddo^"><a href="chuong.html?x=e^">${TAT_DEN_VIQR}</a></p>`;
    const document = parse(source);
    expect(convertLegacyHtml(document)).toBe('viqr');
    const html = serialize(document);
    expect(html).toContain('title="Thu? ddo^"');
    expect(html).toContain('href="chuong.html?x=e^"');
    expect(html).toContain(`>${TAT_DEN}</a>`);
  });

  it('leaves a Unicode Vietnamese page alone and still refuses a windows-1252 French page', async () => {
    const unicode = await readInProcess({
      fileName: 'tat-den.html',
      bytes: new TextEncoder().encode(`<html><body><p>${TAT_DEN}</p><p>${SECOND}</p></body></html>`),
    });
    expect(unicode.legacyEncoding).toBeUndefined();
    expect(textsOf(unicode)).toEqual([TAT_DEN, SECOND]);
    const french = new Uint8Array(
      Buffer.from(
        '<html><head><meta charset="windows-1252"></head><body><p>L\'été dernier, nous sommes allés à la ' +
          'plage près de Nîmes. Le garçon a mangé une crème brûlée très sucrée.</p></body></html>',
        'latin1',
      ),
    );
    const error = await readInProcess({ fileName: 'ete.html', bytes: french }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
  });
});

/** A reading site's book whose chapters' text (and TOC names) are in TCVN3 or VNI, the page title in Unicode. */
function legacySiteBook(encode: (text: string) => string): ReadingSiteBook {
  return {
    title: 'Tắt đèn',
    pageTitle: 'Tắt đèn',
    author: 'Ngô Tất Tố',
    language: 'en',
    introduction: ['Tắt đèn là tiểu thuyết của Ngô Tất Tố, in năm 1939.'],
    chapters: [{ title: encode(CHAPTER), paragraphs: [encode(TAT_DEN), encode(SECOND)] }],
  };
}

describe('legacy Vietnamese in EPUB', () => {
  it('converts each content document in TCVN3 or VNI (decided per document), TOC names too; Unicode documents untouched', async () => {
    for (const [encode, encoding, name] of [
      [toTcvn3, 'tcvn3', 'TCVN3 (ABC)'],
      [toVni, 'vni', 'VNI'],
    ] as const) {
      const book = await readInProcess({
        fileName: 'Tắt đèn.epub',
        bytes: zipEpub(readingSiteEpubFiles(legacySiteBook(encode))),
      });
      expect(book.legacyEncoding).toBe(encoding);
      expect(book.warnings).toEqual([
        `Converted from ${name} to Unicode (the text of 1 content document was in that legacy Vietnamese encoding).`,
      ]);
      expect(book.title).toBe('Tắt đèn');
      const chapter = book.chapters.at(-1)!;
      expect(chapter.title).toBe(CHAPTER);
      expect(chapter.paragraphs.map((p) => p.text)).toContain(TAT_DEN);
      expect(chapter.paragraphs.map((p) => p.text)).toContain(SECOND);
      // The introduction, Unicode already, is as written.
      expect(textsOf(book)).toContain('Tắt đèn là tiểu thuyết của Ngô Tất Tố, in năm 1939.');
    }
  });

  it('leaves a Unicode Vietnamese EPUB alone', async () => {
    const book = await readInProcess({
      fileName: 'Tắt đèn.epub',
      bytes: zipEpub(readingSiteEpubFiles(legacySiteBook((text) => text))),
    });
    expect(book.legacyEncoding).toBeUndefined();
    expect(book.warnings).toEqual([]);
    expect(textsOf(book)).toContain(TAT_DEN);
  });
});

describe('legacy Vietnamese in ODT', () => {
  it('reads an ODT whose content.xml text is TCVN3 or VNI codes as Unicode, title and heading too', async () => {
    for (const [encode, encoding] of [
      [toTcvn3, 'tcvn3'],
      [toVni, 'vni'],
    ] as const) {
      const bytes = zipOdt(
        odtFiles({
          title: encode('Tắt đèn'),
          author: encode('Ngô Tất Tố'),
          language: 'vi',
          chapters: [{ title: encode(CHAPTER), paragraphs: [encode(TAT_DEN), encode(SECOND)] }],
        }),
      );
      const book = await readInProcess({ fileName: 'tat-den.odt', bytes });
      expect(book.legacyEncoding).toBe(encoding);
      expect(book.warnings.join(' ')).toMatch(/^Converted from .+ to Unicode \(the text was in that legacy/);
      expect([book.title, book.author, book.chapters[0]!.title]).toEqual(['Tắt đèn', 'Ngô Tất Tố', CHAPTER]);
      expect(textsOf(book)).toEqual([TAT_DEN, SECOND]);
    }
  });

  it('leaves a Unicode Vietnamese ODT alone', async () => {
    const book = await readInProcess({ fileName: 'sach.odt', bytes: writeOdt(VIETNAMESE_BOOK) });
    expect(book.legacyEncoding).toBeUndefined();
    expect(book.warnings.join(' ')).not.toMatch(/Converted/);
  });
});
