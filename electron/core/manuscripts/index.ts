/**
 * Manuscripts read from files into one shape (shared/manuscript.ts): the format is told by the
 * file's first bytes and its name, each format has its reader (a library made for it: yauzl for
 * the zip containers, saxes for DOCX, ODT and FB2, rtf-stream-parser's tokenizer for RTF, fast-xml-parser and parse5 for EPUB, parse5 for
 * HTML, markdown-it for Markdown, pdf.js for PDF), and every reader keeps the limits of
 * MANUSCRIPT_LIMITS. Every read runs in a child process (reader-process.ts), never on the
 * caller's thread: a wall-clock and a memory limit each, at most MANUSCRIPT_LIMITS.readers at
 * once and readerQueue waiting, fair between keys (reader-queue.ts), stopped when the caller's
 * signal aborts. A file that cannot be read is refused whole: nothing is half imported. The
 * project archives' reader (projects/) runs in the same way and takes its turns in the same queue
 * (readerTurn, runInChild).
 */

import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { AppError } from '../../shared/errors';
import {
  MANUSCRIPT_EXTENSIONS,
  MANUSCRIPT_FORMATS,
  MANUSCRIPT_LIMITS,
  type Manuscript,
  type ManuscriptFormat,
  type ManuscriptOptions,
} from '../../shared/manuscript';
import { readInChild } from './reader-process';
import { ReaderQueue } from './reader-queue';
import { bomEncoding, detectTextEncoding } from './text-decoding';

/** A manuscript file: its name (for the format and messages) and its bytes or where they are. */
export type ManuscriptSource = { fileName: string } & ({ bytes: Uint8Array } | { path: string });

/** What a read may be asked besides the text: notes, comments, and a signal that stops it. */
export interface ManuscriptReadOptions extends ManuscriptOptions {
  /** Aborting stops the read: a waiting read leaves the queue, a running one's child is killed. */
  signal?: AbortSignal;
  /** Whose read it is (an API key's id; the studio's session is its key's): turns are fair between owners. */
  owner?: string;
}

/** The readers' turns, one queue for the process (manuscripts and project archives): the limits are the machine's. */
const readers = new ReaderQueue({
  readers: MANUSCRIPT_LIMITS.readers,
  waiting: MANUSCRIPT_LIMITS.readerQueue,
  waitingPerOwner: MANUSCRIPT_LIMITS.readerQueuePerKey,
});

/** The owner of reads that name none (the command line's). */
const NO_OWNER = '';

const MIB = 1024 * 1024;

/** What a person reads for the formats we take. */
const READABLE_FORMATS_TEXT =
  'DOCX, EPUB, ODT, RTF, FB2, HTML, Markdown, plain text or PDF (with a text layer)';

/** Reads running (each in its child) and waiting for a turn now. */
export function manuscriptReaderLoad(): { running: number; waiting: number } {
  return readers.load;
}

/**
 * Runs `read` (a read in a child process: runInChild) of `owner` in its turn among the readers;
 * rejects with TOO_MANY_REQUESTS when the queue or the owner's places in it are full, or with the
 * abort's error when `signal` aborts while it waits.
 */
export function readerTurn<T>(
  owner: string,
  fileName: string,
  read: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  return readers.run(owner, fileName, read, signal);
}

export { runInChild, type ChildRead, type ReaderLimits } from './reader-process';
export { answerOneRequest, type SendPart } from './reader-child-main';

/**
 * Reads a manuscript in a child process, in its turn. Rejects with AppError MANUSCRIPT_INVALID
 * (broken, encrypted, hostile, no text), MANUSCRIPT_TOO_LARGE (over a limit, the time or memory
 * limits included: the message names the file and the limit), UNSUPPORTED_MEDIA_TYPE (not a
 * format we read), TOO_MANY_REQUESTS (every reader busy and the queue full) or, when
 * `options.signal` aborts, its reason (CANCELLED by default); each message names the file.
 */
export async function readManuscript(
  source: ManuscriptSource,
  { signal, owner = NO_OWNER, ...options }: ManuscriptReadOptions = {},
): Promise<Manuscript> {
  const fileName = basename(source.fileName.replaceAll('\\', '/')) || 'manuscript';
  const bytes = 'bytes' in source ? source.bytes : await readLimited(source.path, fileName);
  if (bytes.byteLength > MANUSCRIPT_LIMITS.fileBytes) throw tooLarge(fileName, bytes.byteLength);
  const format = detectManuscriptFormat(fileName, bytes.subarray(0, 8192));
  if (!format) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `"${fileName}" is not a manuscript we can read: import ${READABLE_FORMATS_TEXT}.`,
      { file: fileName },
    );
  }
  const limits = {
    timeoutMs: MANUSCRIPT_LIMITS.readerTimeoutMs,
    maxRssBytes: MANUSCRIPT_LIMITS.readerMaxRssBytes,
  };
  return readers.run(
    owner,
    fileName,
    () => readInChild({ fileName, format, bytes, options }, limits, signal),
    signal,
  );
}

/**
 * The format of a file by its first bytes and its name, or null when it is none we read: a zip
 * is DOCX, EPUB, ODT or FB2 (`.fb2.zip`) by its name (else by its first entry), `%PDF-` is a
 * PDF, `{\rtf` is RTF, a `.fb2` is FictionBook (its reader checks it and decodes it), and text
 * (detectTextEncoding: UTF-8, UTF-16, a Windows or ISO code page, TCVN3, VNI) is HTML, Markdown or
 * plain text by its name
 * (HTML also by a leading `<!DOCTYPE html` or `<html`).
 */
export function detectManuscriptFormat(fileName: string, head: Uint8Array): ManuscriptFormat | null {
  const extension = extname(fileName).slice(1).toLowerCase();
  const fb2Zip = fileName.toLowerCase().endsWith('.fb2.zip');
  const byName = fb2Zip
    ? 'fb2'
    : MANUSCRIPT_FORMATS.find((format) => MANUSCRIPT_EXTENSIONS[format].includes(extension));
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    return byName === 'docx' || byName === 'epub' || byName === 'odt' || byName === 'fb2'
      ? byName
      : zipKind(head);
  }
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(head, [0x7b, 0x5c, 0x72, 0x74, 0x66])) return 'rtf';
  if (
    byName === 'docx' ||
    byName === 'epub' ||
    byName === 'odt' ||
    byName === 'pdf' ||
    byName === 'rtf' ||
    fb2Zip
  )
    return null;
  // FictionBook is XML in the encoding its declaration names (often windows-1251): its reader decodes it.
  if (byName === 'fb2') return 'fb2';
  if (!looksLikeText(head)) return null;
  if (byName) return byName;
  const bom = bomEncoding(head);
  const start = new TextDecoder(bom ?? 'utf-8').decode(head.subarray(0, 1024)).trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  return extension === '' ? 'text' : null;
}

/** A zip without a telling name: its first entry, the `mimetype` of EPUB and ODT, says. */
function zipKind(head: Uint8Array): ManuscriptFormat | null {
  const text = new TextDecoder('latin1').decode(head.subarray(30, 120));
  if (text.startsWith('mimetypeapplication/epub+zip')) return 'epub';
  if (text.startsWith('mimetypeapplication/vnd.oasis.opendocument.text')) return 'odt';
  if (text.includes('[Content_Types].xml') || text.startsWith('word/') || text.startsWith('_rels/'))
    return 'docx';
  const nameLength = head[26]! | (head[27]! << 8);
  if (
    new TextDecoder('latin1')
      .decode(head.subarray(30, 30 + nameLength))
      .toLowerCase()
      .endsWith('.fb2')
  )
    return 'fb2';
  return null;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

/** Text in an encoding detectTextEncoding knows (UTF-8, UTF-16, a code page…), judged on its first bytes. */
function looksLikeText(head: Uint8Array): boolean {
  return detectTextEncoding(head, true) !== null;
}

async function readLimited(path: string, fileName: string): Promise<Uint8Array> {
  const handle = await open(path, 'r').catch((error: unknown) => {
    throw new AppError('MANUSCRIPT_INVALID', `"${fileName}" cannot be opened: ${(error as Error).message}`, {
      file: fileName,
    });
  });
  try {
    const { size } = await handle.stat();
    if (size > MANUSCRIPT_LIMITS.fileBytes) throw tooLarge(fileName, size);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function tooLarge(fileName: string, bytes: number): AppError {
  return new AppError(
    'MANUSCRIPT_TOO_LARGE',
    `"${fileName}" is ${Math.ceil(bytes / MIB)} MiB; a manuscript may be at most ${MANUSCRIPT_LIMITS.fileBytes / MIB} MiB.`,
    { file: fileName, limit_bytes: MANUSCRIPT_LIMITS.fileBytes },
  );
}
