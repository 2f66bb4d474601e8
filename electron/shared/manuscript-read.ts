/**
 * The answer of POST /api/v1/manuscripts/read: a manuscript file read by the same readers a book
 * project imports with (core/manuscripts), summed up for the quick studio text and the export
 * page: its metadata, its chapters (title, kind, paragraph count) and the whole as text with `#`
 * headings (manuscriptText). Nothing is stored.
 */

import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  CHAPTER_KINDS,
  LEGACY_VIETNAMESE_ENCODINGS,
  MANUSCRIPT_FORMATS,
  TEXT_ENCODINGS,
  manuscriptText,
  type Manuscript,
} from './manuscript';

const literals = <T extends string | number>(values: readonly T[]) =>
  Type.Union(values.map((v) => Type.Literal(v)));
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ManuscriptReadQuerySchema = Type.Object({
  file_name: Type.String({
    pattern: '\\S',
    description: 'The file’s name (its extension helps tell the format; messages name it).',
  }),
});

export const ManuscriptReadResultSchema = Type.Object({
  file_name: Type.String(),
  format: literals(MANUSCRIPT_FORMATS),
  title: Nullable(Type.String()),
  author: Nullable(Type.String()),
  language: Nullable(Type.String()),
  chapters: Type.Array(
    Type.Object({
      title: Type.String(),
      kind: literals(CHAPTER_KINDS),
      /** How many paragraphs the chapter holds. */
      paragraphs: Type.Integer({ minimum: 0 }),
    }),
  ),
  /** The manuscript as text: each chapter a `# title` line, then its paragraphs, blank lines between. */
  text: Type.String(),
  /** What was left out or guessed, in words. */
  warnings: Type.Array(Type.String()),
  /** The legacy Vietnamese encoding (TCVN3, VNI, VIQR) the text was converted from, or null. */
  legacy_encoding: Nullable(literals(LEGACY_VIETNAMESE_ENCODINGS)),
  /** The character encoding a plain-text or Markdown file was read in (detected), or null for other formats. */
  text_encoding: Nullable(literals(TEXT_ENCODINGS)),
});
export type ManuscriptReadResult = Static<typeof ManuscriptReadResultSchema>;

export function toManuscriptReadResult(manuscript: Manuscript): ManuscriptReadResult {
  return {
    file_name: manuscript.fileName,
    format: manuscript.format,
    title: manuscript.title,
    author: manuscript.author,
    language: manuscript.language,
    chapters: manuscript.chapters.map((chapter) => ({
      title: chapter.title,
      kind: chapter.kind,
      paragraphs: chapter.paragraphs.length,
    })),
    text: manuscriptText(manuscript),
    warnings: manuscript.warnings,
    legacy_encoding: manuscript.legacyEncoding ?? null,
    text_encoding: manuscript.textEncoding ?? null,
  };
}
