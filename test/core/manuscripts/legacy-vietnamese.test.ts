/**
 * Legacy Vietnamese encodings on import (TCVN3, VNI, VIQR): the published tables' known codes,
 * real TXT, Markdown and DOCX files (the DOCX written by the docx package with `.VnTime` and
 * `VNI-Times` runs) read by the real readers into the Unicode paragraph with a note; and no
 * false positives: Unicode Vietnamese, English, and Windows-1252 French or German are untouched.
 */

import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../../electron/core/manuscripts';
import {
  decodeTcvn3,
  decodeViqr,
  decodeVni,
  fontEncoding,
  looksLikeViqr,
} from '../../../electron/core/manuscripts/legacy-vietnamese';
import { TCVN3_TABLE, VNI_TABLE } from '../../../electron/core/manuscripts/legacy-vietnamese-tables';
import {
  latinBytes,
  TAT_DEN,
  TAT_DEN_VIQR,
  toTcvn3,
  toVni,
  writeFontDocx,
} from '../../fixtures/legacy-vietnamese';
import { readInProcess } from '../../fixtures/read-in-process';

const textOf = async (fileName: string, bytes: Uint8Array) => {
  const book = await readInProcess({ fileName, bytes });
  return { text: book.chapters.flatMap((c) => c.paragraphs.map((p) => p.text)).join('\n\n'), book };
};

describe('the published tables', () => {
  it('give TCVN3 its known bytes (TCVN 5712:1993 VN3)', () => {
    expect(Object.keys(TCVN3_TABLE)).toHaveLength(74);
    expect(TCVN3_TABLE['\u00b8']).toBe('á');
    expect(TCVN3_TABLE['\u00ad']).toBe('ư');
    expect(TCVN3_TABLE['\u00ae']).toBe('đ');
    expect(TCVN3_TABLE['\u00a7']).toBe('Đ');
    expect(TCVN3_TABLE['\u00fe']).toBe('ỵ');
    // Place names as a public converter's example writes them; ư is 0xAD, a soft hyphen in Latin-1.
    expect(decodeTcvn3('B¶o Th¾ng')).toBe('Bảo Thắng');
    expect(decodeTcvn3('M\u00adêng Kh\u00ad¬ng')).toBe('Mường Khương');
    expect(decodeTcvn3('dßng s«ng', true)).toBe('DÒNG SÔNG');
  });

  it('give VNI its known sequences (capitals as the lowercase ones in capitals)', () => {
    expect(Object.keys(VNI_TABLE)).toHaveLength(67);
    expect(decodeVni('Xin chaøo caùc baïn')).toBe('Xin chào các bạn');
    expect(decodeVni('ÑAØ NAÜNG')).toBe('ĐÀ NẴNG');
    expect(decodeVni('ngöôøi Vieät')).toBe('người Việt');
    expect(decodeVni('Ô')).toBe('Ơ');
    expect(latinBytes(toVni('ươ'))).toEqual(Uint8Array.from([0xf6, 0xf4]));
    expect(latinBytes(toTcvn3('người'))).toEqual(Uint8Array.from([0x6e, 0x67, 0xad, 0xea, 0x69]));
  });

  it('convert VIQR, keeping a sentence-ending ? and . as punctuation', () => {
    expect(decodeViqr(TAT_DEN_VIQR)).toBe(TAT_DEN);
    expect(decodeViqr(`Anh ddi ddu+o+.c kho^ng? Co^ a^'y no'i: "Thu?."`)).toBe(
      'Anh đi được không? Cô ấy nói: "Thủ."',
    );
    expect(decodeViqr('cu?a thu? ddo^ va\\. ')).toBe('của thủ đô va. ');
  });

  it('name the encodings of Word fonts', () => {
    expect(fontEncoding('.VnTime')).toEqual({ encoding: 'tcvn3', capitals: false });
    expect(fontEncoding('.VnArialH')).toEqual({ encoding: 'tcvn3', capitals: true });
    expect(fontEncoding('VNI-Times')).toEqual({ encoding: 'vni', capitals: false });
    for (const font of ['Times New Roman', 'Vni', 'VnTime', 'Arial', null])
      expect(fontEncoding(font)).toBeNull();
  });
});

describe('legacy text files', () => {
  it('read a TCVN3 text file (its bytes) as the Unicode paragraph, with a note', async () => {
    const bytes = latinBytes(toTcvn3(TAT_DEN));
    expect(bytes.subarray(0, 7)).toEqual(Uint8Array.from([0x41, 0x6e, 0x68, 0x20, 0x44, 0xcb, 0x75])); // "Anh DËu": ậ is 0xCB
    const { text, book } = await textOf('tat-den.txt', bytes);
    expect(text).toBe(TAT_DEN);
    expect(book.legacyEncoding).toBe('tcvn3');
    expect(book.warnings).toContain(
      'Converted from TCVN3 (ABC) to Unicode (the file was in that legacy Vietnamese encoding).',
    );
  });

  it('judge a long file by its first words with Vietnamese letters, wherever they stand', async () => {
    const preface = 'Chapter notes in plain ASCII, typed before the text itself.\n\n'.repeat(400);
    const bytes = latinBytes(`${preface}${toTcvn3(TAT_DEN)}\n`);
    expect(bytes.length).toBeGreaterThan(20_000);
    const { text, book } = await textOf('long.txt', bytes);
    expect(text.endsWith(TAT_DEN)).toBe(true);
    expect(book.legacyEncoding).toBe('tcvn3');
  });

  it('read a VNI text file and a VNI Markdown file', async () => {
    const { text, book } = await textOf('tat-den.txt', latinBytes(toVni(TAT_DEN)));
    expect(text).toBe(TAT_DEN);
    expect(book.warnings.join(' ')).toMatch(/^Converted from VNI to Unicode/);
    const md = await textOf('tat-den.md', latinBytes(`# ${toVni('Chương mười tám')}\n\n${toVni(TAT_DEN)}\n`));
    expect(md.book.chapters[0]!.title).toBe('Chương mười tám');
    expect(md.text).toBe(TAT_DEN);
  });

  it('read a VIQR text file (ASCII) as Vietnamese, with a note', async () => {
    const { text, book } = await textOf('tat-den.txt', new TextEncoder().encode(TAT_DEN_VIQR));
    expect(text).toBe(TAT_DEN);
    expect(book.warnings.join(' ')).toMatch(/^Converted from VIQR to Unicode/);
    expect(book.legacyEncoding).toBe('viqr');
  });

  it('leave Unicode Vietnamese and English alone: no conversion, no note', async () => {
    const english =
      "Don't go there. What? I'm sure it's fine... C++ is a language; a^2 + b^2 = c^2. " +
      "She said 'hello' to Mr. O'Brien (a friend), then added: odd, isn't it? Go. See. Be!";
    expect(looksLikeViqr(english)).toBe(false);
    for (const original of [TAT_DEN, english]) {
      const { text, book } = await textOf('plain.txt', new TextEncoder().encode(original));
      expect(text).toBe(original);
      expect(book.warnings).toEqual([]);
      expect(book.legacyEncoding).toBeUndefined();
    }
  });

  it('read Windows-1252 French, German and English as they are (ISO-8859-1), never converted as Vietnamese', async () => {
    const samples = [
      "L'été dernier, nous sommes allés à la plage près de Nîmes. Le garçon a mangé une crème brûlée " +
        'très sucrée ; où est la bibliothèque ? C’était déjà Noël, et ça coûte cher.',
      'Müller und Schröder fahren über die Brücke nach Köln; die Größe der Straße ist außergewöhnlich.',
      'The café’s naïve résumé — “déjà vu” — cost £5 and €3 at the Señor’s piñata fête.',
    ];
    for (const sample of samples) {
      const latin = sample.replace(/[’“”—€]/g, "'");
      const bytes = new Uint8Array(Buffer.from(latin, 'latin1'));
      const book = await readManuscript({ fileName: 'cp1252.txt', bytes });
      expect(book.chapters[0]!.paragraphs.map((p) => p.text)).toEqual([latin]);
      expect(book.textEncoding).toBe('iso-8859-1');
      expect(book.legacyEncoding).toBeUndefined();
    }
  });
});

describe('legacy DOCX runs', () => {
  it('convert runs in .VnTime (TCVN3), .VnTimeH (capitals) and VNI-Times, and leave Unicode runs alone', async () => {
    const french = 'Été, garçon, Müller : déjà vu.';
    const bytes = await writeFontDocx([
      { text: toTcvn3('Chương mười tám').toLowerCase(), font: '.VnTimeH' },
      { text: toTcvn3(TAT_DEN), font: '.VnTime' },
      { text: toVni(TAT_DEN), font: 'VNI-Times' },
      { text: TAT_DEN, font: 'Times New Roman' },
      { text: french, font: 'Times New Roman' },
    ]);
    const { book } = await textOf('tat-den.docx', bytes);
    expect(book.chapters[0]!.paragraphs.map((p) => p.text)).toEqual([
      'CHƯƠNG MƯỜI TÁM',
      TAT_DEN,
      TAT_DEN,
      TAT_DEN,
      french,
    ]);
    expect(book.warnings).toEqual([
      'Converted from TCVN3 (ABC) to Unicode (2 runs of text was in that legacy Vietnamese encoding).',
      'Converted from VNI to Unicode (1 run of text was in that legacy Vietnamese encoding).',
    ]);
  });

  it('add no note to a DOCX without legacy fonts', async () => {
    const { book } = await textOf('plain.docx', await writeFontDocx([{ text: TAT_DEN, font: 'Arial' }]));
    expect(book.chapters[0]!.paragraphs[0]!.text).toBe(TAT_DEN);
    expect(book.warnings).toEqual([]);
  });
});
