/**
 * Every CSV the app writes (RFC 4180), in one place: the voice workbench's comparison, the
 * lexicon's files (studio, API, CLI). Reading is core's (core/platform/csv-reader.ts): only core
 * reads CSV files, so csv-parse stays out of the renderer's bundle and out of this layer's types.
 *
 * Fields quoted when they hold a comma, a quote, a line break or a space at either end, quotes
 * doubled, CRLF after every record. A text cell a spreadsheet would run as a formula
 * (`=HYPERLINK(…)` in a note) is written after a `'`, which spreadsheets show as text (OWASP's
 * defence against CSV injection, `escapeFormula`; `unescapeFormula` is the reader's way back). A
 * file starts with the UTF-8 byte-order mark unless asked not to: without it Excel reads UTF-8 as
 * the system's 8-bit code page and shows Vietnamese ("Thùy Trang") as mojibake ("ThÃ¹y Trang").
 *
 * Column names are stable English machine names in every interface language (docs/USER-GUIDE.md).
 */

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
