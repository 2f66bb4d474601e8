/**
 * Lexicon files, what studio and core share: their types, content types and extensions, and
 * writing them: JSON (an array of entries), CSV (shared/csv.ts: RFC 4180, with a header row; cells
 * a spreadsheet would run as formulas written as text) and PLS, the W3C Pronunciation Lexicon
 * Specification 1.0 (`<lexicon version="1.0" alphabet="ipa" xml:lang="en">`). Reading them is
 * core's (core/lexicon/lexicon-file-reader.ts): only core reads lexicon files.
 *
 * What PLS cannot hold: case and whole-word rules (a PLS entry reads back case-insensitive and
 * whole-word, an abbreviation case-sensitive) and notes. A respelling is a PLS `<alias>`, IPA a
 * `<phoneme>`; an abbreviation is an `<alias>` in a `<lexeme role="abbreviation">`, a unit an
 * `<alias>` "one|many" in a `<lexeme role="unit">`.
 */

import { csvFile } from './csv';
import type { LexiconEntry, LexiconEntryInput, LexiconFormat } from './lexicon';
import type { LanguageCode } from './languages';

/** An entry read from a file, ready to store (no id yet). */
export type ImportedEntry = Omit<LexiconEntry, 'id'>;

/** A file that cannot be read: the message names the place (line and column, or entry). */
export class LexiconFileError extends Error {
  constructor(
    message: string,
    /** 1-based, when known. */
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'LexiconFileError';
  }
}

/** The CSV columns, in the order we write them. */
export const CSV_COLUMNS = [
  'language',
  'match',
  'kind',
  'replacement',
  'case_sensitive',
  'whole_word',
  'note',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** The PLS 1.0 namespace. */
export const PLS_NAMESPACE = 'http://www.w3.org/2005/01/pronunciation-lexicon';

/** Content type and file extension of each format. */
export const LEXICON_FILE_TYPES: Record<LexiconFormat, { contentType: string; extension: string }> = {
  json: { contentType: 'application/json; charset=utf-8', extension: 'json' },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  pls: { contentType: 'application/pls+xml; charset=utf-8', extension: 'pls' },
};

// ---------------------------------------------------------------------------------------
// Writing

/** The entries as a file. PLS takes the entries of one language (`language`, required for it). */
export function formatLexicon(
  entries: readonly LexiconEntry[],
  format: LexiconFormat,
  language?: LanguageCode,
): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(entries.map(withoutId), null, 2)}\n`;
    case 'csv':
      return formatCsv(entries);
    case 'pls':
      if (!language)
        throw new LexiconFileError('A PLS file holds one language: choose the language to export.');
      return formatPls(
        entries.filter((e) => e.language === language),
        language,
      );
  }
}

function withoutId(entry: LexiconEntry): LexiconEntryInput {
  return {
    language: entry.language,
    match: entry.match,
    kind: entry.kind,
    replacement: entry.replacement,
    case_sensitive: entry.case_sensitive,
    whole_word: entry.whole_word,
    ...(entry.note !== undefined ? { note: entry.note } : {}),
  };
}

/**
 * The CSV file (csvFile: the UTF-8 byte-order mark first, which the reader drops again; formula
 * cells escaped, which the reader undoes).
 */
function formatCsv(entries: readonly LexiconEntry[]): string {
  return csvFile([
    CSV_COLUMNS,
    ...entries.map((e) => [
      e.language,
      e.match,
      e.kind,
      e.replacement,
      String(e.case_sensitive),
      String(e.whole_word),
      e.note ?? '',
    ]),
  ]);
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&"']/g,
    (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]};`,
  );
}

function formatPls(entries: readonly LexiconEntry[], language: LanguageCode): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<lexicon version="1.0" xmlns="${PLS_NAMESPACE}" alphabet="ipa" xml:lang="${language}">`,
  ];
  for (const e of entries) {
    const pronunciation =
      e.kind === 'ipa'
        ? `<phoneme>${escapeXml(e.replacement)}</phoneme>`
        : `<alias>${escapeXml(e.replacement)}</alias>`;
    const role = e.kind === 'abbreviation' || e.kind === 'unit' ? ` role="${e.kind}"` : '';
    lines.push(`  <lexeme${role}><grapheme>${escapeXml(e.match)}</grapheme>${pronunciation}</lexeme>`);
  }
  lines.push('</lexicon>', '');
  return lines.join('\n');
}
