/**
 * CSV as the app writes it (electron/shared/csv.ts): RFC 4180 quoting, CRLF records, and the
 * UTF-8 byte-order mark first in every file, so that Excel shows Vietnamese right.
 */

import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvFile, csvRecords } from '../../electron/shared/csv';

describe('CSV files', () => {
  it('start with the bytes EF BB BF in UTF-8, then the header and the records', () => {
    const text = csvFile([
      ['name', 'note'],
      ['Thùy Trang', 'giọng ấm, rõ'],
    ]);
    const bytes = new TextEncoder().encode(text);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(CSV_BOM.codePointAt(0)).toBe(0xfeff);
    expect(text).toBe('\uFEFFname,note\r\nThùy Trang,"giọng ấm, rõ"\r\n');
    // A reader that honours the mark (TextDecoder, like Excel) gets the text without it.
    expect(new TextDecoder('utf-8').decode(bytes)).toBe('name,note\r\nThùy Trang,"giọng ấm, rõ"\r\n');
  });

  it('quote a field only for a comma, a quote, a line break or a space at either end', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(true)).toBe('true');
    expect(csvField(undefined)).toBe('');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('trailing ')).toBe('"trailing "');
    expect(csvRecords([['a', 1, null]])).toBe('a,1,\r\n');
  });
});
