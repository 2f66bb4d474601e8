/**
 * What the compose panel's Open says of the file it read (issue 39): the encoding a text file that
 * is not UTF-8 was read in, or the old Vietnamese encoding its text was converted from, in English
 * and Vietnamese from the real catalogues. The files are real passages written by iconv
 * (test/fixtures/text-encodings.ts) and the TCVN3 fixture, read by the real manuscript readers
 * into the answer the studio gets (`toManuscriptReadResult`, the read route's shape).
 */

import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { readManuscript } from '../../electron/core/manuscripts';
import { toManuscriptReadResult } from '../../electron/shared/manuscript-read';
import { fileReadNote } from '../../renderer/src/features/compose/file-read-note';
import en from '../../renderer/src/i18n/messages/en.json';
import vi from '../../renderer/src/i18n/messages/vi.json';
import { latinBytes, TAT_DEN, toTcvn3 } from '../fixtures/legacy-vietnamese';
import { ENGLISH, FRENCH, iconv, VIETNAMESE } from '../fixtures/text-encodings';

const EN = createIntl({ locale: 'en', defaultLocale: 'en', messages: en });
const VI = createIntl({ locale: 'vi-VN', defaultLocale: 'en', messages: vi });

const read = async (name: string, bytes: Uint8Array) =>
  toManuscriptReadResult(await readManuscript({ fileName: name, bytes }));

describe('fileReadNote (the compose panel after Open)', () => {
  it('names the encoding a text file that is not UTF-8 was read in, in both languages', async () => {
    const english = await read('pride.txt', iconv(ENGLISH, 'WINDOWS-1252'));
    expect(english.text).toContain('“My dear Mr. Bennet,”');
    expect(fileReadNote(EN, 'pride.txt', english)).toBe(
      '“pride.txt” was read as Windows-1252 text (the file is not UTF-8: check its accented letters).',
    );
    expect(fileReadNote(VI, 'pride.txt', english)).toBe(
      '“pride.txt” được đọc theo bảng mã Windows-1252 (tệp không phải UTF-8: hãy kiểm tra các chữ có dấu).',
    );
    const kieu = await read('kieu.txt', iconv(VIETNAMESE, 'UTF-16'));
    expect(fileReadNote(EN, 'kieu.txt', kieu)).toBe(
      '“kieu.txt” was read as UTF-16 LE text (the file is not UTF-8: check its accented letters).',
    );
    const french = await read('miserables.txt', iconv(FRENCH, 'ISO-8859-1'));
    expect(fileReadNote(EN, 'miserables.txt', french)).toMatch(
      /^“miserables\.txt” was read as (ISO-8859-1|Windows-1252) text/,
    );
  });

  it('says a legacy Vietnamese text was converted, and nothing for UTF-8', async () => {
    const tcvn3 = await read('tat-den.txt', latinBytes(toTcvn3(TAT_DEN)));
    expect(fileReadNote(VI, 'tat-den.txt', tcvn3)).toBe(
      '“tat-den.txt” dùng bảng mã tiếng Việt cũ TCVN3 (ABC): văn bản đã được chuyển sang Unicode.',
    );
    expect(fileReadNote(EN, 'tat-den.txt', tcvn3)).toBe(
      '“tat-den.txt” was in TCVN3 (ABC), an old Vietnamese encoding: its text was converted to Unicode.',
    );
    const utf8 = await read('kieu.txt', new TextEncoder().encode(VIETNAMESE));
    expect(utf8.text_encoding).toBe('utf-8');
    expect(fileReadNote(EN, 'kieu.txt', utf8)).toBeNull();
    expect(fileReadNote(VI, 'kieu.txt', utf8)).toBeNull();
  });
});
