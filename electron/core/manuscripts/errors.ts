/**
 * The errors every manuscript reader throws: the file is named in each message, and a limit's
 * message names the limit. readManuscript (index.ts) passes AppErrors through untouched.
 */

import { AppError } from '../../shared/errors';
import { MANUSCRIPT_LIMITS, type ManuscriptFormat } from '../../shared/manuscript';

const MIB = 1024 * 1024;

/** A size in words: "64 MiB", "2,000 bytes". */
export function sizeText(bytes: number): string {
  return bytes >= MIB && bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/**
 * Why a manuscript is refused, as `details.reason` (a client words it in its language): locked
 * with a password or DRM, entities declared (entity expansion), a PDF of pictures, no bytes; none
 * when the file is damaged or not of its format.
 */
export type ManuscriptRefusal = 'encrypted' | 'entities' | 'no_text_layer' | 'empty';

/** The file cannot be read as `format`: `reason` says why (a sentence fragment, no final stop). */
export function invalidManuscript(
  fileName: string,
  format: ManuscriptFormat,
  reason: string,
  cause?: unknown,
  refusal?: ManuscriptRefusal,
): AppError {
  return new AppError(
    'MANUSCRIPT_INVALID',
    `"${fileName}" cannot be read as ${format.toUpperCase()}: ${reason}.`,
    { file: fileName, format, ...(refusal ? { reason: refusal } : {}) },
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

/** What a limit's message says of `part`: its name inside the file, or the file itself. */
function partText(part: string | null): { what: string; details: Record<string, unknown> } {
  return part === null ? { what: 'it', details: {} } : { what: part, details: { entry: part } };
}

/** `part` of the file (null: the file itself) nests elements deeper than MANUSCRIPT_LIMITS.nestingDepth. */
export function nestedTooDeep(fileName: string, part: string | null): AppError {
  const limit = `${MANUSCRIPT_LIMITS.nestingDepth} elements deep`;
  const { what, details } = partText(part);
  return manuscriptTooLarge(
    fileName,
    `${what} nests elements more than ${MANUSCRIPT_LIMITS.nestingDepth} deep`,
    limit,
    {
      ...details,
      limit_depth: MANUSCRIPT_LIMITS.nestingDepth,
    },
  );
}

/** `part` of the file (null: the file itself) holds more than `limit` elements. */
export function tooManyElements(fileName: string, part: string | null, limit: number): AppError {
  const text = `${limit.toLocaleString('en-US')} elements`;
  const { what, details } = partText(part);
  return manuscriptTooLarge(fileName, `${what} holds more than ${text}`, `${text} a document`, {
    ...details,
    limit_elements: limit,
  });
}

/** The manuscript holds more paragraphs than MANUSCRIPT_LIMITS.paragraphs. */
export function tooManyParagraphs(fileName: string): AppError {
  const limit = `${MANUSCRIPT_LIMITS.paragraphs.toLocaleString('en-US')} paragraphs`;
  return manuscriptTooLarge(fileName, `it holds more than ${limit}`, limit, {
    limit_paragraphs: MANUSCRIPT_LIMITS.paragraphs,
  });
}

/** Why a read stopped when its signal aborted: the signal's AppError, else CANCELLED naming the file. */
export function readAborted(signal: AbortSignal, fileName: string): AppError {
  if (signal.reason instanceof AppError) return signal.reason;
  return new AppError('CANCELLED', `The read of "${fileName}" was stopped: its request went away.`, {
    file: fileName,
  });
}
