/**
 * Every CSV the app writes or reads (RFC 4180), in one place: the voice workbench's comparison,
 * the lexicon's files (studio, API, CLI).
 *
 * Writing is ours: fields quoted when they hold a comma, a quote, a line break or a space at
 * either end, quotes doubled, CRLF after every record. A text cell a spreadsheet would run as a
 * formula (`=HYPERLINK(…)` in a note) is written after a `'`, which spreadsheets show as text
 * (OWASP's defence against CSV injection, `escapeFormula`). A file starts with the UTF-8
 * byte-order mark unless asked not to: without it Excel reads UTF-8 as the system's 8-bit code
 * page and shows Vietnamese ("Thùy Trang") as mojibake ("ThÃ¹y Trang").
 *
 * Reading is csv-parse's (its sync API, in the build made for browsers as well, so that this
 * module loads in the renderer bundle too, where Node's `Buffer` is missing): the byte-order mark
 * dropped, blank lines skipped, each record with the line it starts on, a syntax error with its
 * line and field (`CsvReadError`).
 *
 * Column names are stable English machine names in every interface language (docs/USER-GUIDE.md).
 */

import { CsvError, parse } from 'csv-parse/browser/esm/sync';

/** U+FEFF, written as the bytes EF BB BF in UTF-8, first in every CSV file we write. */
export const CSV_BOM = '\uFEFF';

export type CsvValue = string | number | boolean | null | undefined;

// ---------------------------------------------------------------------------------------
// Formulas

/** A cell a spreadsheet would run as a formula: `=`, `+`, `-`, `@`, tab or CR first (OWASP), after any `'`s. */
const FORMULA_START = /^'*[=+\-@\t\r]/;

/**
 * A text cell a spreadsheet would run as a formula (`=HYPERLINK(…)`, `+cmd|…`, `@SUM(…)`) with a
 * `'` first, which spreadsheets show as text. A cell that looks escaped already (`'`s, then one of
 * those characters) gets one too, so `unescapeFormula` takes exactly one `'` off what looks
 * escaped and a round trip is lossless.
 */
export function escapeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The cell as it was before `escapeFormula`: one leading `'` off a cell that looks escaped. */
export function unescapeFormula(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text) ? text.slice(1) : text;
}

// ---------------------------------------------------------------------------------------
// Writing

/**
 * One field: text formula-escaped (`escapeFormula`; numbers and booleans are written as they
 * are), then quoted when it holds a comma, a quote, a line break or leading/trailing space.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? escapeFormula(value) : String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records as CSV text (no BOM): fields joined by commas, each record ended by CRLF. */
export function csvRecords(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvField).join(',') + '\r\n').join('');
}

/** A whole CSV file: the byte-order mark (unless `bom` is false), then the records (a header row first). */
export function csvFile(rows: readonly (readonly CsvValue[])[], options: { bom?: boolean } = {}): string {
  return (options.bom === false ? '' : CSV_BOM) + csvRecords(rows);
}

// ---------------------------------------------------------------------------------------
// Reading

/** A record read, with the (1-based) line it starts on. */
export interface CsvRecord {
  fields: string[];
  line: number;
}

/** A file that is not CSV: the message names the line (and the field when known), 1-based. */
export class CsvReadError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly field?: number,
  ) {
    super(message);
    this.name = 'CsvReadError';
  }
}

/** Line breaks of a text: CRLF, LF or CR, one each. */
const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * The records of a CSV text (RFC 4180; records end with CRLF, LF or CR):
 * the byte-order mark dropped, blank lines skipped, each record with the line it starts on.
 * `unescapeFormulas` takes `escapeFormula`'s `'` off again (for files this app wrote). Throws
 * CsvReadError.
 */
export function readCsv(text: string, options: { unescapeFormulas?: boolean } = {}): CsvRecord[] {
  const records: CsvRecord[] = [];
  // The line after the last record read, and how many blank lines csv-parse had skipped then:
  // csv-parse's own line count takes a CRLF inside a quoted field for two lines.
  let nextLine = 1;
  let blankBefore = 0;
  try {
    parse(text, {
      bom: true,
      // Any of the three, even mixed in one file (a file edited by hand on two systems).
      record_delimiter: ['\r\n', '\n', '\r'],
      skip_empty_lines: true,
      relax_column_count: true,
      on_record: (fields: string[], info) => {
        const line = nextLine + (info.empty_lines - blankBefore);
        blankBefore = info.empty_lines;
        nextLine = line + fields.reduce((n, f) => n + (f.match(LINE_BREAK)?.length ?? 0), 0) + 1;
        records.push({ fields: options.unescapeFormulas ? fields.map(unescapeFormula) : fields, line });
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    throw readError(error, firstFilledLine(text, nextLine));
  }
  return records;
}

/** The error of the record starting on `line`, in words. */
function readError(error: CsvError, line: number): CsvReadError {
  const field = typeof error.column === 'number' ? error.column + 1 : undefined;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new CsvReadError(`CSV line ${line}: a quoted field is not closed.`, line);
    case 'INVALID_OPENING_QUOTE':
      return new CsvReadError(
        `CSV line ${line}${field ? `, field ${field}` : ''}: a quote inside an unquoted field (quote the whole field and double the quote).`,
        line,
        field,
      );
    case 'CSV_INVALID_CLOSING_QUOTE':
      return new CsvReadError(
        `CSV line ${line}${field ? `, field ${field}` : ''}: a closing quote must end its field.`,
        line,
        field,
      );
    default:
      return new CsvReadError(`CSV line ${line}: ${error.message}`, line, field);
  }
}

/** The first line from `line` on that is not blank (where the next record starts). */
function firstFilledLine(text: string, line: number): number {
  const lines = text.replace(/^\uFEFF/, '').split(LINE_BREAK);
  let at = line;
  while (at <= lines.length && lines[at - 1] === '') at++;
  return at;
}
