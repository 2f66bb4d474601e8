/**
 * Reading CSV (RFC 4180) for core: the lexicon's CSV files (csv.ts of shared writes them). The
 * parsing is csv-parse's (its sync API, Node's build): the byte-order mark dropped, blank lines
 * skipped, each record with the line it starts on, a syntax error with its line and field
 * (`CsvReadError`).
 */

import { CsvError, parse } from 'csv-parse/sync';
import { unescapeFormula } from '../../shared/csv';

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
