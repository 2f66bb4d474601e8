/**
 * Manuscripts read from files into one shape (shared/manuscript.ts): the format is told by the
 * file's first bytes and its name, each format has its reader (a library made for it: yauzl for
 * the zip containers, saxes for DOCX and ODT, fast-xml-parser and parse5 for EPUB, parse5 for
 * HTML, markdown-it for Markdown, pdf.js in a child process for PDF), and every reader keeps the
 * limits of MANUSCRIPT_LIMITS. A file that cannot be read is refused whole: nothing is half
 * imported.
 */

import { AppError } from '../../shared/errors';
import type { Manuscript, ManuscriptFormat, ManuscriptOptions } from '../../shared/manuscript';

/** A manuscript file: its name (for the format and messages) and its bytes or where they are. */
export type ManuscriptSource = { fileName: string } & ({ bytes: Uint8Array } | { path: string });

/** One format's reader. */
export type ManuscriptReader = (
  bytes: Uint8Array,
  fileName: string,
  options: ManuscriptOptions,
) => Promise<Manuscript>;

/** Reads a manuscript. Rejects with AppError MANUSCRIPT_INVALID, MANUSCRIPT_TOO_LARGE or UNSUPPORTED_MEDIA_TYPE. */
export async function readManuscript(
  source: ManuscriptSource,
  options: ManuscriptOptions = {},
): Promise<Manuscript> {
  void source;
  void options;
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'not yet');
}

/** The format of a file by its first bytes and its name, or null when it is none we read. */
export function detectManuscriptFormat(fileName: string, head: Uint8Array): ManuscriptFormat | null {
  void fileName;
  void head;
  return null;
}
