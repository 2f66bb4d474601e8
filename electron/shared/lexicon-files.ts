/**
 * Lexicon files, both ways: JSON (an array of entries), CSV (csv.ts: RFC 4180, with a header row;
 * cells a spreadsheet would run as formulas written as text, and read back as they were) and
 * PLS, the W3C Pronunciation Lexicon Specification 1.0 (`<lexicon version="1.0" alphabet="ipa"
 * xml:lang="en">`, its XML read by core/lexicon/pls-xml.ts with fast-xml-parser and saxes). Reading checks every entry
 * with the lexicon's rules (`prepareEntry`) and fails on the first problem with its place:
 * line and column for syntax, line (CSV, PLS) or entry number (JSON) for a bad entry.
 *
 * What PLS cannot hold: case and whole-word rules (a PLS entry reads back case-insensitive and
 * whole-word, an abbreviation case-sensitive) and notes. A respelling is a PLS `<alias>`, IPA a
 * `<phoneme>`; an abbreviation is an `<alias>` in a `<lexeme role="abbreviation">`, a unit an
 * `<alias>` "one|many" in a `<lexeme role="unit">` (PLS's `role`, space-separated names; a
 * prefix is ignored). Reading PLS takes every `<grapheme>` of a `<lexeme>` as an entry of its
 * own, with the lexeme's first pronunciation (`<phoneme>` or `<alias>`, whichever comes first,
 * as PLS prescribes).
 */

import { Value } from '@sinclair/typebox/value';
import { csvFile, CsvReadError, readCsv, type CsvRecord } from './csv';
import {
  LEXICON_KINDS,
  LexiconEntryInputSchema,
  MAX_LEXICON_ENTRIES,
  prepareEntry,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconFormat,
} from './lexicon';
import { LANGUAGE_CODES, languageOfTag, type LanguageCode } from './languages';

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
type CsvColumn = (typeof CSV_COLUMNS)[number];
const REQUIRED_COLUMNS: readonly CsvColumn[] = ['language', 'match', 'kind', 'replacement'];

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
 * The CSV file (csvFile: the UTF-8 byte-order mark first, which parseLexicon drops again; formula
 * cells escaped, which parseLexicon undoes).
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

// ---------------------------------------------------------------------------------------
// Reading

/**
 * The entries of a lexicon file, checked and normalised. `language` is the language of a PLS
 * file's entries (default: the file's `xml:lang`); PLS is read with `readXml` (the XML parsers
 * are core's: `parseLexiconFile` of core/lexicon passes them). Throws LexiconFileError.
 */
export function parseLexicon(
  text: string,
  format: LexiconFormat,
  language?: LanguageCode,
  readXml?: XmlReader,
): ImportedEntry[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const pls = (): ImportedEntry[] => {
    if (!readXml) throw new Error('reading PLS needs an XML reader: use parseLexiconFile of core/lexicon');
    return parsePls(readXml(body), language);
  };
  const entries = format === 'json' ? parseJson(body) : format === 'csv' ? parseCsv(body) : pls();
  if (entries.length > MAX_LEXICON_ENTRIES)
    throw new LexiconFileError(
      `The file has ${entries.length} entries; a lexicon holds ${MAX_LEXICON_ENTRIES} at most.`,
    );
  return entries;
}

/** Line and column (1-based) of a UTF-16 offset. */
export function place(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** Checks one entry as the API would; `where` names it in the error ("line 4", "entry 2"). */
function checkEntry(value: unknown, where: string, line?: number): ImportedEntry {
  const input = value as LexiconEntryInput;
  if (!Value.Check(LexiconEntryInputSchema, input)) {
    const error = [...Value.Errors(LexiconEntryInputSchema, input)][0];
    const field = error?.path.replace(/^\//, '') || 'entry';
    const message =
      field === 'language'
        ? `language must be one of ${LANGUAGE_CODES.join(', ')}`
        : field === 'kind'
          ? `kind must be one of ${LEXICON_KINDS.join(', ')}`
          : `${field}: ${error?.message ?? 'not valid'}`;
    throw new LexiconFileError(`${where}: ${message}.`, line);
  }
  const prepared = prepareEntry(input);
  if (!prepared.ok) throw new LexiconFileError(`${where}: ${prepared.problem.message}`, line);
  return prepared.entry;
}

function parseJson(text: string): ImportedEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8: "Unexpected token } in JSON at position 12" or "… (line 2 column 5)".
    const position = /position (\d+)/.exec(message);
    const at = position ? place(text, Number(position[1])) : undefined;
    const where = at ? `line ${at.line}, column ${at.column}` : 'the file';
    throw new LexiconFileError(`Not valid JSON at ${where}: ${message}`, at?.line, at?.column);
  }
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && Array.isArray((value as { items?: unknown }).items)
      ? (value as { items: unknown[] }).items
      : undefined;
  if (!list) throw new LexiconFileError('A JSON lexicon is an array of entries.');
  return list.map((item, i) => checkEntry(item, `entry ${i + 1}`));
}

function readBoolean(value: string, column: string, line: number): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  if (v === 'true' || v === '1' || v === 'yes') return true;
  if (v === 'false' || v === '0' || v === 'no') return false;
  throw new LexiconFileError(`CSV line ${line}: ${column} must be true or false, not "${value}".`, line);
}

/** The records of a CSV file (csv.ts's reader), its syntax errors as LexiconFileError. */
function readCsvRecords(text: string): CsvRecord[] {
  try {
    return readCsv(text, { unescapeFormulas: true });
  } catch (error) {
    if (error instanceof CsvReadError) throw new LexiconFileError(error.message, error.line);
    throw error;
  }
}

function parseCsv(text: string): ImportedEntry[] {
  const records = readCsvRecords(text);
  const header = records.shift();
  if (!header) throw new LexiconFileError('The CSV file is empty: it needs a header row.');
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  columns.forEach((name, k) => {
    if (!(CSV_COLUMNS as readonly string[]).includes(name))
      throw new LexiconFileError(
        `CSV line ${header.line}: unknown column "${header.fields[k]}" (the columns are ${CSV_COLUMNS.join(', ')}).`,
        header.line,
      );
  });
  for (const required of REQUIRED_COLUMNS) {
    if (!columns.includes(required))
      throw new LexiconFileError(
        `CSV line ${header.line}: the header has no "${required}" column.`,
        header.line,
      );
  }
  return records.map(({ fields, line }) => {
    if (fields.length !== columns.length)
      throw new LexiconFileError(
        `CSV line ${line}: ${fields.length} fields where the header has ${columns.length}.`,
        line,
      );
    const row = Object.fromEntries(columns.map((name, k) => [name, fields[k] ?? ''])) as Record<
      CsvColumn,
      string
    >;
    const caseSensitive = readBoolean(row.case_sensitive ?? '', 'case_sensitive', line);
    const wholeWord = readBoolean(row.whole_word ?? '', 'whole_word', line);
    const input = {
      language: row.language.trim(),
      match: row.match,
      kind: row.kind.trim(),
      replacement: row.replacement,
      ...(caseSensitive !== undefined ? { case_sensitive: caseSensitive } : {}),
      ...(wholeWord !== undefined ? { whole_word: wholeWord } : {}),
      ...(row.note ? { note: row.note } : {}),
    };
    return checkEntry(input, `CSV line ${line}`, line);
  });
}

// --- PLS ------------------------------------------------------------------------------

/** An XML element as the PLS reader needs it (core/lexicon/pls-xml.ts reads the file into it). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
  line: number;
  column: number;
}

/** Reads XML text into its root element; throws LexiconFileError with line and column. */
export type XmlReader = (text: string) => XmlElement;

/** Local name of a possibly prefixed XML name ("pls:lexeme" → "lexeme"). */
const local = (name: string) => name.slice(name.indexOf(':') + 1);
const elements = (el: XmlElement) => el.children.filter((c): c is XmlElement => typeof c !== 'string');
const textOf = (el: XmlElement): string =>
  el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');

function parsePls(root: XmlElement, override?: LanguageCode): ImportedEntry[] {
  if (local(root.name) !== 'lexicon')
    throw new LexiconFileError(
      `PLS line ${root.line}: the root element must be <lexicon>, not <${root.name}>.`,
      root.line,
    );
  const alphabet = root.attributes.alphabet ?? '';
  const xmlLang = root.attributes['xml:lang'] ?? '';
  const language = override ?? languageOfTag(xmlLang);
  if (!language)
    throw new LexiconFileError(
      xmlLang
        ? `PLS line ${root.line}: xml:lang "${xmlLang}" is none of the app's languages (${LANGUAGE_CODES.join(', ')}).`
        : `PLS line ${root.line}: <lexicon> has no xml:lang; choose the language of its entries.`,
      root.line,
    );
  const entries: ImportedEntry[] = [];
  for (const lexeme of elements(root)) {
    if (local(lexeme.name) !== 'lexeme') continue;
    const graphemes = elements(lexeme)
      .filter((e) => local(e.name) === 'grapheme')
      .map((e) => textOf(e).trim())
      .filter((g) => g !== '');
    if (graphemes.length === 0)
      throw new LexiconFileError(`PLS line ${lexeme.line}: the <lexeme> has no <grapheme>.`, lexeme.line);
    const pronunciation = elements(lexeme).find(
      (e) => local(e.name) === 'phoneme' || local(e.name) === 'alias',
    );
    if (!pronunciation)
      throw new LexiconFileError(
        `PLS line ${lexeme.line}: the <lexeme> of "${graphemes[0]}" has neither <phoneme> nor <alias>.`,
        lexeme.line,
      );
    const isPhoneme = local(pronunciation.name) === 'phoneme';
    const phonemeAlphabet = pronunciation.attributes.alphabet ?? alphabet;
    if (isPhoneme && phonemeAlphabet.toLowerCase() !== 'ipa')
      throw new LexiconFileError(
        `PLS line ${pronunciation.line}: the alphabet "${phonemeAlphabet}" is not supported; only "ipa" is.`,
        pronunciation.line,
      );
    const roles = (lexeme.attributes.role ?? '').split(/\s+/u).map(local);
    const aliasKind = roles.includes('unit')
      ? 'unit'
      : roles.includes('abbreviation')
        ? 'abbreviation'
        : 'respell';
    for (const grapheme of graphemes) {
      entries.push(
        checkEntry(
          {
            language,
            match: grapheme,
            kind: isPhoneme ? 'ipa' : aliasKind,
            replacement: textOf(pronunciation).trim(),
          },
          `PLS line ${pronunciation.line}`,
          pronunciation.line,
        ),
      );
    }
  }
  return entries;
}
