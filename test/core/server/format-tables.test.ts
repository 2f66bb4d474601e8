/**
 * Every list of output formats and languages is derived from its table (shared/options.ts's
 * AUDIO_FORMAT_TABLE, shared/book-formats.ts's BOOK_FORMAT_TABLE, shared/languages.ts's
 * LANGUAGES): the OpenAPI document's MIME types and enums, and the docs' tables. A list typed by
 * hand somewhere goes stale when a row is added, and fails here.
 */

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../../electron/core/server/openapi';
import { BOOK_CONTENT_TYPES, BOOK_FORMATS } from '../../../electron/shared/book-formats';
import { LANGUAGE_CODES } from '../../../electron/shared/languages';
import { AUDIO_CONTENT_TYPES, AUDIO_FORMATS, AUDIO_TYPES } from '../../../electron/shared/options';
import { buildTestApp, type TestApp } from './inject';

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

/** The MIME types of each operation's 200 answer, by operationId. */
function answerTypes(document: { paths: Record<string, Record<string, Operation>> }): Map<string, string[]> {
  const types = new Map<string, string[]>();
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      const content = operation.responses?.['200']?.content;
      if (operation.operationId && content) types.set(operation.operationId, Object.keys(content));
    }
  }
  return types;
}

/** Every set of `const` values the document gives a property named `name`, anywhere. */
function enumsOf(node: unknown, name: string, found: string[][] = []): string[][] {
  if (Array.isArray(node)) {
    for (const item of node) enumsOf(item, name, found);
  } else if (node && typeof node === 'object') {
    const properties = (node as { properties?: Record<string, unknown> }).properties;
    const property = properties?.[name];
    if (property) {
      const values: string[] = [];
      const collect = (schema: unknown): void => {
        if (Array.isArray(schema)) schema.forEach(collect);
        else if (schema && typeof schema === 'object') {
          const { const: value, enum: list } = schema as { const?: unknown; enum?: unknown[] };
          if (typeof value === 'string') values.push(value);
          for (const item of list ?? []) if (typeof item === 'string') values.push(item);
          Object.values(schema).forEach(collect);
        }
      };
      collect(property);
      if (values.length > 0) found.push(values);
    }
    for (const value of Object.values(node)) enumsOf(value, name, found);
  }
  return found;
}

/** The backticked codes of the first cell of each row of the table under `header` in a Markdown file. */
function tableCodes(file: string, header: RegExp, cell = 0): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => header.test(line));
  expect(start, `${file}: a table headed ${header}`).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.trim().startsWith('|')) break;
    rows.push(line.split('|')[cell + 1] ?? '');
  }
  return rows.flatMap((text) => [...text.matchAll(/`([\w-]+)`/g)].map((m) => m[1]!));
}

describe('lists derived from the format and language tables', () => {
  let t: TestApp;
  let document: { paths: Record<string, Record<string, Operation>> };

  beforeAll(async () => {
    t = await buildTestApp();
    const answer = await t.call('GET', OPENAPI_PATH, { key: null });
    expect(answer.status).toBe(200);
    document = answer.json as typeof document;
  });
  afterAll(async () => t?.close());

  it("gives the OpenAPI document's answers the MIME types of the format tables", () => {
    const types = answerTypes(document);
    const audio = AUDIO_FORMATS.map((format) => AUDIO_CONTENT_TYPES[format]);
    const books = Object.values(BOOK_CONTENT_TYPES);
    expect(types.get('createSpeech')).toEqual([...audio, 'text/event-stream']);
    expect(types.get('downloadRequestFile')).toEqual([...audio, 'application/x-subrip']);
    expect(types.get('downloadExportFile')).toEqual([...books, 'application/json']);
    expect(types.get('downloadProjectExport')).toEqual(books);
    expect(books).toEqual(['audio/mp4', 'audio/mpeg', 'application/zip']);
  });

  it("gives the document's request schemas the tables' formats and languages", () => {
    const responseFormats = enumsOf(document, 'response_format');
    const audioTypes = enumsOf(document, 'audio_type');
    const bookFormats = enumsOf(document, 'format').filter((values) => values.includes('m4b'));
    const languages = enumsOf(document, 'language').filter((values) => values.includes('vi'));
    expect(responseFormats.length).toBeGreaterThan(0);
    expect(audioTypes.length).toBeGreaterThan(0);
    expect(bookFormats.length).toBeGreaterThan(0);
    expect(languages.length).toBeGreaterThan(0);
    for (const values of responseFormats) expect(values).toEqual([...AUDIO_FORMATS]);
    // The spec's requests take its two formats; our own (and the requests' records) all of them.
    for (const values of audioTypes) expect([[...AUDIO_TYPES], [...AUDIO_FORMATS]]).toContainEqual(values);
    expect(AUDIO_TYPES).toEqual(['mp3', 'wav']);
    for (const values of bookFormats) expect(values).toEqual([...BOOK_FORMATS]);
    for (const values of languages) expect(values).toEqual([...LANGUAGE_CODES]);
  });

  it("keeps the docs' format tables equal to the tables", () => {
    expect(new Set(tableCodes('docs/API.md', /^\s*\| `response_format` \|/))).toEqual(new Set(AUDIO_FORMATS));
    expect(new Set(tableCodes('docs/USER-GUIDE.md', /^\| `--format` \|/))).toEqual(new Set(BOOK_FORMATS));
  });
});
