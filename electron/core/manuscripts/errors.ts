/**
 * The errors every manuscript reader throws: the file is named in each message, and a limit's
 * message names the limit. readManuscript (index.ts) passes AppErrors through untouched.
 */

import { AppError } from '../../shared/errors';
import type { ManuscriptFormat } from '../../shared/manuscript';

const MIB = 1024 * 1024;

/** A size in words: "64 MiB", "2,000 bytes". */
export function sizeText(bytes: number): string {
  return bytes >= MIB && bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/** The file cannot be read as `format`: `reason` says why (a sentence fragment, no final stop). */
export function invalidManuscript(
  fileName: string,
  format: ManuscriptFormat,
  reason: string,
  cause?: unknown,
): AppError {
  return new AppError(
    'MANUSCRIPT_INVALID',
    `"${fileName}" cannot be read as ${format.toUpperCase()}: ${reason}.`,
    { file: fileName, format },
    cause === undefined ? undefined : { cause },
  );
}

/** The file is over a limit: `what` says what is too large, `limit` the limit in words. */
export function manuscriptTooLarge(
  fileName: string,
  what: string,
  limit: string,
  details: Record<string, unknown> = {},
): AppError {
  return new AppError(
    'MANUSCRIPT_TOO_LARGE',
    `"${fileName}" is too large: ${what} (the limit is ${limit}).`,
    {
      file: fileName,
      ...details,
    },
  );
}
