/**
 * Reading lexicon files (only core reads them; shared/lexicon-files.ts writes them): JSON, CSV
 * (core/platform/csv-reader.ts, csv-parse) and PLS 1.0, whose XML fast-xml-parser checks is
 * well-formed (with the place of a fault) and saxes reads (elements, attributes, text, CDATA;
 * comments, processing instructions and a DOCTYPE skipped; no declared entity expanded, an
 * undefined one refused). Both are the parsers the manuscript readers use. The check comes first
 * because saxes 6 reads a bare "&" followed by a space as the start of an entity to the end of
 * the file, and says only that tags are unclosed.
 *
 * Reading checks every entry with the lexicon's rules (`prepareEntry`) and fails on the first
 * problem with its place: line and column for syntax, line (CSV, PLS) or entry number (JSON) for
 * a bad entry. Reading PLS takes every `<grapheme>` of a `<lexeme>` as an entry of its own, with
 * the lexeme's first pronunciation (`<phoneme>` or `<alias>`, whichever comes first, as PLS
 * prescribes); `role` is PLS's space-separated names, a prefix ignored.
 */

import { Value } from '@sinclair/typebox/value';
import { XMLValidator } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';
import { LANGUAGE_CODES, languageOfTag, type LanguageCode } from '../../shared/languages';
import {
  LEXICON_KINDS,
  LexiconEntryInputSchema,
  MAX_LEXICON_ENTRIES,
  prepareEntry,
  type LexiconEntryInput,
  type LexiconFormat,
} from '../../shared/lexicon';
import {
  CSV_COLUMNS,
  LexiconFileError,
  type CsvColumn,
  type ImportedEntry,
} from '../../shared/lexicon-files';
import { CsvReadError, readCsv, type CsvRecord } from '../platform/csv-reader';

const REQUIRED_COLUMNS: readonly CsvColumn[] = ['language', 'match', 'kind', 'replacement'];

/**
 * The entries of a lexicon file, checked and normalised. `language` is the language of a PLS
 * file's entries (default: the file's `xml:lang`). Throws LexiconFileError.
 */
export function parseLexicon(text: string, format: LexiconFormat, language?: LanguageCode): ImportedEntry[] {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const entries =
    format === 'json'
      ? parseJson(body)
      : format === 'csv'
        ? parseCsv(body)
        : parsePls(readXml(body), language);
  if (entries.length > MAX_LEXICON_ENTRIES)
    throw new LexiconFileError(
      `The file has ${entries.length} entries; a lexicon holds ${MAX_LEXICON_ENTRIES} at most.`,
    );
  return entries;
}

/** Line and column (1-based) of a UTF-16 offset. */
function place(text: string, offset: number): { line: number; column: number } {
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

/** The records of a CSV file (core/platform/csv-reader.ts), its syntax errors as LexiconFileError. */
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

/** An XML element as the PLS reader needs it (`readXml` reads the file into it). */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: (XmlElement | string)[];
  line: number;
  column: number;
}

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

/** fast-xml-parser's fault in the words of the lexicon's other file readers. */
function xmlFault(code: string, message: string): string {
  const mismatch =
    /^Expected closing tag '([^']+)' \(opened in line (\d+).*instead of closing tag '([^']+)'/.exec(message);
  if (mismatch) return `</${mismatch[3]}> closes <${mismatch[1]}> (line ${mismatch[2]})`;
  const unclosed = /^Unclosed tag '([^']+)'/.exec(message);
  if (unclosed) return `the tag <${unclosed[1]}> is not closed`;
  if (code === 'InvalidChar' && message.startsWith("char '&'"))
    return 'an entity reference must end with ";"';
  if (message.startsWith('Start tag expected')) return 'the document must start with an element';
  if (message.startsWith('Extra text at the end')) return 'text after the root element';
  return message.replace(/\.$/, '');
}

/** Parses `text` as XML: one root element. Throws LexiconFileError with line and column. */
export function readXml(text: string): XmlElement {
  const fail = (message: string, line: number, column: number): never => {
    throw new LexiconFileError(`XML line ${line}, column ${column}: ${message}`, line, column);
  };
  const checked = XMLValidator.validate(text);
  if (checked !== true)
    fail(xmlFault(checked.err.code, checked.err.msg), checked.err.line || 1, checked.err.col || 1);

  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  /** Where the tag being read starts (saxes says where it is when it has read the name). */
  let tagAt = { line: 1, column: 1 };
  parser.on('opentagstart', () => {
    tagAt = place(text, text.lastIndexOf('<', parser.position - 1));
  });
  parser.on('opentag', (tag) => {
    if (root && stack.length === 0) fail('text after the root element', tagAt.line, tagAt.column);
    const element: XmlElement = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      children: [],
      ...tagAt,
    };
    stack.at(-1)?.children.push(element);
    root ??= element;
    if (!tag.isSelfClosing) stack.push(element);
  });
  parser.on('closetag', (tag) => {
    if (!tag.isSelfClosing) stack.pop();
  });
  parser.on('text', (value) => stack.at(-1)?.children.push(value));
  parser.on('cdata', (value) => stack.at(-1)?.children.push(value));
  parser.on('error', (error) => {
    const at = place(text, Math.max(0, parser.position - 1));
    const message = error.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    if (/only one root/.test(message)) fail('text after the root element', tagAt.line, tagAt.column);
    if (/outside of root/.test(message)) fail('text after the root element', at.line, at.column);
    if (/undefined entity/.test(message)) {
      const amp = text.lastIndexOf('&', parser.position - 1);
      const where = place(text, amp);
      fail(`unknown entity "${text.slice(amp, text.indexOf(';', amp) + 1)}"`, where.line, where.column);
    }
    fail(message, at.line, at.column);
  });
  parser.write(text).close();
  if (!root) return fail('the document must start with an element', 1, 1);
  return root;
}
