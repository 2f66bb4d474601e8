/**
 * CSV as this app writes it (RFC 4180): fields quoted when they hold a comma, a quote, a line
 * break or a space at either end, quotes doubled, CRLF after every record; and a file starts with
 * the UTF-8 byte-order mark, without which Excel reads UTF-8 as the system's 8-bit code page and
 * shows Vietnamese ("Thùy Trang") as mojibake ("ThÃ¹y Trang"). Readers of our CSV files drop it.
 * Column names are stable English machine names in every interface language (docs/USER-GUIDE.md).
 */

/** U+FEFF, written as the bytes EF BB BF in UTF-8, first in every CSV file we write. */
export const CSV_BOM = '\uFEFF';

export type CsvValue = string | number | boolean | null | undefined;

/** One field, quoted when it holds a comma, a quote, a line break or leading/trailing space. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Records as CSV text (no BOM): fields joined by commas, each record ended by CRLF. */
export function csvRecords(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => row.map(csvField).join(',') + '\r\n').join('');
}

/** A whole CSV file: the byte-order mark, then the records (a header row first). */
export function csvFile(rows: readonly (readonly CsvValue[])[]): string {
  return CSV_BOM + csvRecords(rows);
}
