/**
 * The one CSV writer (electron/shared/csv.ts): RFC 4180 quoting, CRLF records, the UTF-8
 * byte-order mark first unless asked not to (so that Excel shows Vietnamese right), formula cells
 * written as text; and core's reader (electron/core/platform/csv-reader.ts), csv-parse with each
 * record's line. The workbench's CSV and a
 * lexicon written by a real writer (Python's csv module, Excel's dialect: CRLF and a BOM,
 * test/fixtures/csv/write-excel-lexicon.py) go through it.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLexicon } from '../../electron/core/lexicon/lexicon-file-reader';
import { CsvReadError, readCsv } from '../../electron/core/platform/csv-reader';
import {
  CSV_BOM,
  csvField,
  csvFile,
  csvRecords,
  escapeFormula,
  unescapeFormula,
} from '../../electron/shared/csv';
import {
  comparisonCsv,
  CSV_HEADER,
  type ComparisonRow,
} from '../../renderer/src/features/voices/workbench/logic';

const FIXTURES = join(import.meta.dirname, '../fixtures/csv');

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
    // Without the mark when asked.
    expect(csvFile([['a']], { bom: false })).toBe('a\r\n');
  });

  it('quote a field only for a comma, a quote, a line break or a space at either end', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField(true)).toBe('true');
    expect(csvField(undefined)).toBe('');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('trailing ')).toBe('"trailing "');
    expect(csvRecords([['a', 1, null]])).toBe('a,1,\r\n');
  });

  it('write a text cell a spreadsheet would run as a formula after a quote mark, numbers as they are', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(escapeFormula(`${start}1+1`)).toBe(`'${start}1+1`);
      expect(unescapeFormula(escapeFormula(`${start}1+1`))).toBe(`${start}1+1`);
    }
    expect(csvField('=HYPERLINK("http://127.0.0.1/","x")')).toBe(
      `"'=HYPERLINK(""http://127.0.0.1/"",""x"")"`,
    );
    // Looks escaped already: one more mark, so that reading takes exactly one off.
    expect(escapeFormula("'=1")).toBe("''=1");
    expect(unescapeFormula("''=1")).toBe("'=1");
    // Plain text and a mark before ordinary text are left alone.
    expect(escapeFormula('a=b')).toBe('a=b');
    expect(unescapeFormula("'tis")).toBe("'tis");
    expect(csvField(-3)).toBe('-3');
    expect(csvField('-3')).toBe("'-3");
  });

  it('round-trip quotes, commas, line breaks, spaces, Vietnamese and formulas through the reader', () => {
    const rows = [
      ['match', 'note'],
      ['Nguyễn Thị Minh Khai', 'đường, quận 1'],
      ['"quoted"', 'dòng một\ndòng hai\r\ndòng ba'],
      [' spaced ', ''],
      ['=HYPERLINK("http://127.0.0.1/")', '@SUM(A1)'],
      ['Thùy Trang', "''=already"],
    ];
    const text = csvFile(rows);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    const read = readCsv(text, { unescapeFormulas: true });
    expect(read.map((r) => r.fields)).toEqual(rows);
    expect(read.map((r) => r.line)).toEqual([1, 2, 3, 6, 7, 8]);
    // Without undoing the escape, a formula cell reads as the text a spreadsheet shows.
    expect(readCsv(text)[4]!.fields).toEqual([`'=HYPERLINK("http://127.0.0.1/")`, "'@SUM(A1)"]);
  });

  it('read LF, CRLF and CR records, mixed, and skip blank lines, counting lines as an editor does', () => {
    const text = '\uFEFFa,b\r\n\r\nc,"d\r\ne"\n\nf,g\rh,i';
    expect(readCsv(text)).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['c', 'd\r\ne'], line: 3 },
      { fields: ['f', 'g'], line: 6 },
      { fields: ['h', 'i'], line: 7 },
    ]);
    expect(readCsv('')).toEqual([]);
    expect(readCsv('\n\r\n')).toEqual([]);
  });

  it('say on which line and in which field the syntax is wrong', () => {
    expect(() => readCsv('a,b\r\n"x\r\ny",z\r\n\r\nok,x"y\r\n')).toThrow(
      expect.objectContaining({
        name: 'CsvReadError',
        message:
          'CSV line 5, field 2: a quote inside an unquoted field (quote the whole field and double the quote).',
        line: 5,
        field: 2,
      }),
    );
    expect(() => readCsv('a,b\n"a"b,c\n')).toThrow(
      new CsvReadError('CSV line 2, field 1: a closing quote must end its field.', 2, 1),
    );
    expect(() => readCsv('a,b\n\nc,"open\nmore\n')).toThrow(
      expect.objectContaining({ message: 'CSV line 3: a quoted field is not closed.', line: 3 }),
    );
  });
});

describe('the CSV of others and of the app', () => {
  it("reads a lexicon written by Python's csv module in Excel's dialect (CRLF, BOM)", () => {
    const bytes = readFileSync(join(FIXTURES, 'excel-lexicon.csv'));
    // The writer's own marks, as written: the BOM, and CRLF after each record.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.split('\r\n')).toHaveLength(6);
    expect(readCsv(text).map((r) => r.line)).toEqual([1, 2, 3, 5, 6]);
    expect(parseLexicon(text, 'csv')).toEqual([
      {
        language: 'vi',
        match: 'TP.HCM',
        kind: 'abbreviation',
        replacement: 'Thành phố Hồ Chí Minh',
        case_sensitive: true,
        whole_word: true,
        note: 'viết tắt, thường gặp',
      },
      {
        language: 'vi',
        match: 'Nguyễn',
        kind: 'respell',
        replacement: 'Nguyễn',
        case_sensitive: false,
        whole_word: true,
        note: 'họ "phổ biến" nhất\nở Việt Nam',
      },
      {
        language: 'en',
        match: 'GIF',
        kind: 'respell',
        replacement: 'jif',
        case_sensitive: false,
        whole_word: true,
        note: '=HYPERLINK("http://127.0.0.1/","click")',
      },
      {
        language: 'en',
        match: 'cholmondeley',
        kind: 'ipa',
        replacement: 'ˈtʃʌmli',
        case_sensitive: false,
        whole_word: true,
      },
    ]);
  });

  it('writes a formula in a workbench note as text, and the reader gets the note back', () => {
    const row: ComparisonRow = {
      file: '01-vi_female_thuytrang_mb.wav',
      voiceCode: 'vi_female_thuytrang_mb',
      name: 'Thùy Trang',
      kind: 'catalogue',
      engine: 'espeak',
      durationS: 2.5,
      firstAudioMs: 120.4,
      totalMs: 900.6,
      rtf: 0.36,
      cache: '',
      favourite: true,
      note: '=HYPERLINK("http://127.0.0.1/","nghe")',
      wins: 2,
      sentence: 'Xin chào, "bạn"\nkhỏe không?',
    };
    const text = comparisonCsv([row]);
    expect(text.startsWith(CSV_BOM)).toBe(true);
    const [header, record] = readCsv(text);
    expect(header!.fields).toEqual(CSV_HEADER);
    const cell = (name: (typeof CSV_HEADER)[number]) => record!.fields[CSV_HEADER.indexOf(name)];
    // As a spreadsheet gets it: a quote mark first, so the cell is text, not a formula.
    expect(cell('note')).toBe(`'=HYPERLINK("http://127.0.0.1/","nghe")`);
    expect(cell('sentence')).toBe('Xin chào, "bạn"\nkhỏe không?');
    expect([cell('duration_s'), cell('first_audio_ms'), cell('favourite'), cell('ab_wins')]).toEqual([
      '2.500',
      '120',
      'yes',
      '2',
    ]);
    const [, unescaped] = readCsv(text, { unescapeFormulas: true });
    expect(unescaped!.fields[CSV_HEADER.indexOf('note')]).toBe(row.note);
  });
});
