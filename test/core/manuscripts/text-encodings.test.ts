/**
 * Text files in the encodings people save them in, made by iconv from real passages
 * (test/fixtures/text-encodings.ts). Each is read back exactly, names its encoding, and warns
 * when it is not UTF-8.
 */

import { describe, expect, it } from 'vitest';
import { detectManuscriptFormat, readManuscript } from '../../../electron/core/manuscripts';
import { decodeWindows1252, detectTextEncoding } from '../../../electron/core/manuscripts/text-decoding';
import { toManuscriptReadResult } from '../../../electron/shared/manuscript-read';
import { AppError } from '../../../electron/shared/errors';
import { ENGLISH, FRENCH, VIETNAMESE, iconv } from '../../fixtures/text-encodings';
import { readInProcess } from '../../fixtures/read-in-process';

/** The paragraphs a reader gives for `text` (blank lines between paragraphs). */
function paragraphs(text: string): string[] {
  return text.split('\n\n');
}

async function read(fileName: string, bytes: Uint8Array) {
  const book = await readInProcess({ fileName, bytes });
  return { book, texts: book.chapters.flatMap((c) => c.paragraphs.map((p) => p.text)) };
}

describe('text file encodings', () => {
  it('Node 20’s TextDecoder reads Windows-1252’s 0x80–0x9F as C1 controls; decodeWindows1252 reads them right', () => {
    const bytes = iconv('€ “quoted” — it’s', 'WINDOWS-1252');
    expect(decodeWindows1252(bytes)).toBe('€ “quoted” — it’s');
  });

  it('reads UTF-8, with or without a BOM, without a warning', async () => {
    for (const bytes of [
      new TextEncoder().encode(VIETNAMESE),
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(VIETNAMESE)]),
    ]) {
      const { book, texts } = await read('kieu.txt', bytes);
      expect(texts).toEqual(paragraphs(VIETNAMESE));
      expect(book.textEncoding).toBe('utf-8');
      expect(book.warnings).toEqual([]);
    }
  });

  it('reads UTF-16 LE and BE, with a BOM (iconv’s UTF-16) or without (UTF-16LE, UTF-16BE)', async () => {
    const cases: [string, 'utf-16le' | 'utf-16be'][] = [
      ['UTF-16LE', 'utf-16le'],
      ['UTF-16BE', 'utf-16be'],
    ];
    const withBom = iconv(VIETNAMESE, 'UTF-16');
    cases.push(['UTF-16', withBom[0] === 0xff ? 'utf-16le' : 'utf-16be']);
    for (const [name, expected] of cases) {
      for (const text of [VIETNAMESE, ENGLISH]) {
        const { book, texts } = await read('kieu.txt', iconv(text, name));
        expect(texts, name).toEqual(paragraphs(text));
        expect(book.textEncoding, name).toBe(expected);
        expect(book.warnings.join(' ')).toContain(expected === 'utf-16le' ? 'UTF-16 LE' : 'UTF-16 BE');
      }
    }
  });

  it('reads Windows-1252 (curly quotes) where it was refused as not a manuscript, with a warning', async () => {
    const bytes = iconv(ENGLISH, 'WINDOWS-1252');
    expect(detectManuscriptFormat('pride.txt', bytes.subarray(0, 8192))).toBe('text');
    const { book, texts } = await read('pride.txt', bytes);
    expect(texts).toEqual(paragraphs(ENGLISH));
    expect(book.textEncoding).toBe('windows-1252');
    expect(book.warnings).toEqual([
      'Read as Windows-1252 text (the file is not UTF-8, guessed from its bytes: check its accented letters).',
    ]);
    expect(toManuscriptReadResult(book).text_encoding).toBe('windows-1252');
  });

  it('reads ISO-8859-1 (no byte of 0x80–0x9F), in Markdown too', async () => {
    const bytes = iconv(FRENCH, 'ISO-8859-1');
    const { book, texts } = await read('miserables.txt', bytes);
    expect(texts).toEqual([FRENCH]);
    expect(book.textEncoding).toBe('iso-8859-1');
    expect(book.warnings.join(' ')).toContain('ISO-8859-1');

    const markdown = await read('miserables.md', iconv(`# Livre premier\n\n${FRENCH}`, 'ISO-8859-1'));
    expect(markdown.texts).toEqual([FRENCH]);
    expect(markdown.book.textEncoding).toBe('iso-8859-1');
  });

  it('reads Windows-1258 Vietnamese (tones as combining marks) into composed Unicode', async () => {
    const bytes = iconv(VIETNAMESE, 'WINDOWS-1258');
    // Not Windows-1252 read as such: its tone marks (0xCC, 0xD2, 0xDE, 0xEC, 0xF2) would be Ì Ò Þ ì ò.
    expect(detectTextEncoding(bytes)).toBe('windows-1258');
    const { book, texts } = await read('kieu-1258.txt', bytes);
    expect(texts).toEqual(paragraphs(VIETNAMESE));
    expect(texts.join('')).toBe(texts.join('').normalize('NFC'));
    expect(book.textEncoding).toBe('windows-1258');
    expect(book.language === 'vi' || book.textLanguage === 'vi').toBe(true);
    expect(book.warnings.join(' ')).toContain('Windows-1258');
  });

  it('refuses a binary, UTF-8 with broken bytes, and bytes Windows-1252 leaves undefined', async () => {
    const cases: [string, Uint8Array][] = [
      ['binary.txt', new Uint8Array([0x48, 0x69, 0x01, 0x02, 0x03, 0xe9, 0x7f, 0x1b, 0x10])],
      ['broken.txt', new Uint8Array([...new TextEncoder().encode('Xin chào các bạn '), 0xff, 0x41])],
      ['undefined.txt', new Uint8Array([...iconv('Café', 'WINDOWS-1252'), 0x81])],
    ];
    for (const [fileName, bytes] of cases) {
      const error = await readManuscript({ fileName, bytes }).catch((e: unknown) => e);
      expect(error, fileName).toBeInstanceOf(AppError);
      expect((error as AppError).code).toMatch(/MANUSCRIPT_INVALID|UNSUPPORTED_MEDIA_TYPE/);
      expect((error as AppError).message).toContain(`"${fileName}"`);
    }
  });
});
