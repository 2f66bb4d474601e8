/**
 * Sends a finished file with Content-Length and single-range HTTP Range support
 * (206 with Content-Range; 416 when the range starts past the end).
 */

import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../../shared/download-name';
import { AppError } from '../../shared/errors';
import { AUDIO_CONTENT_TYPES } from '../engine';
import type { ResultFiles } from '../jobs';

export const CONTENT_TYPES = {
  ...AUDIO_CONTENT_TYPES,
  srt: 'application/x-subrip',
} as const;

/** Parses a `bytes=` Range header against a file size. undefined = ignore the header (send all). */
function parseRange(
  header: string,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: RFC 9110 lets a server ignore Range and send the whole file.
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { files: ResultFiles; path: string },
  contentType: string,
  downloadName: string,
): Promise<FastifyReply> {
  const { files, path } = file;
  const info = await files.info(path);
  if (!info) throw new AppError('NOT_FOUND', 'The file is gone from the data directory.');
  const size = info.size;
  const mtime = info.modified;
  reply
    .header('accept-ranges', 'bytes')
    .header('content-type', contentType)
    .header('last-modified', mtime.toUTCString())
    .header('etag', `"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`)
    .header('cache-control', 'private, max-age=3600')
    .header('content-disposition', contentDisposition('inline', downloadName));
  const header = request.headers.range;
  const range = header ? parseRange(header, size) : undefined;
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${size}`).header('content-length', '0').send();
  }
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', String(range.end - range.start + 1));
    if (request.method === 'HEAD') return reply.send(emptyStream());
    return reply.send(files.read(path, { start: range.start, end: range.end }));
  }
  reply.code(200).header('content-length', String(size));
  if (request.method === 'HEAD') return reply.send(emptyStream());
  return reply.send(size === 0 ? '' : files.read(path));
}

/** fastify's HEAD handling keeps our Content-Length only for a stream payload (else it writes 0). */
function emptyStream(): Readable {
  return Readable.from([]);
}
