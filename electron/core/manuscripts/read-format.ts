/**
 * A file of a known format read in this process: the reader child (manuscript-reader-child.ts)
 * runs it, and a benchmark compares it with the child; the app's own process never does
 * (readManuscript in index.ts hands every read to a child). Each format's reader is loaded when
 * first asked for, so a child loads only the libraries of the file it reads.
 */

import { AppError, isAppError } from '../../shared/errors';
import type { Manuscript, ManuscriptFormat, ManuscriptOptions } from '../../shared/manuscript';
import type { ManuscriptReader } from './reader';

const READERS: Readonly<Record<ManuscriptFormat, () => Promise<ManuscriptReader>>> = {
  docx: async () => (await import('./docx')).readDocx,
  epub: async () => (await import('./epub')).readEpub,
  odt: async () => (await import('./odt')).readOdt,
  html: async () => (await import('./html')).readHtml,
  markdown: async () => (await import('./markdown')).readMarkdown,
  text: async () => (await import('./plain-text')).readPlainText,
  pdf: async () => (await import('./pdf-extract')).extractPdf,
  rtf: async () => (await import('./rtf')).readRtf,
  fb2: async () => (await import('./fb2')).readFb2,
};

/**
 * Reads `bytes` as `format`. Rejects with AppError MANUSCRIPT_INVALID or MANUSCRIPT_TOO_LARGE
 * naming the file; a reader's own error becomes MANUSCRIPT_INVALID with its message.
 */
export async function readFormat(
  format: ManuscriptFormat,
  bytes: Uint8Array,
  fileName: string,
  options: ManuscriptOptions,
): Promise<Manuscript> {
  try {
    const reader = await READERS[format]();
    return await reader(bytes, fileName, options);
  } catch (error) {
    if (isAppError(error)) throw error;
    throw new AppError(
      'MANUSCRIPT_INVALID',
      `"${fileName}" cannot be read as ${format.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`,
      { file: fileName, format },
      { cause: error },
    );
  }
}
