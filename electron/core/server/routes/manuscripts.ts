/**
 * POST /api/v1/manuscripts/read?file_name=<name>: a manuscript file as the raw body (any content
 * type; application/octet-stream is what clients send), read by the readers a book project imports
 * with (core/manuscripts: DOCX, EPUB, ODT, HTML, Markdown, plain text, PDF), answered as its
 * metadata, chapters and text (shared/manuscript-read.ts). The quick studio text opens files
 * through it. Nothing is stored or charged. A body over MANUSCRIPT_LIMITS.fileBytes is refused with
 * MANUSCRIPT_TOO_LARGE naming the file and the limit, before the rest of it is read. The read runs
 * in a child process in its turn (core/manuscripts), stopped when the client goes away.
 */

import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../shared/errors';
import { MANUSCRIPT_LIMITS } from '../../../shared/manuscript';
import {
  ManuscriptReadQuerySchema,
  ManuscriptReadResultSchema,
  toManuscriptReadResult,
} from '../../../shared/manuscript-read';
import { readManuscript } from '../../manuscripts';
import type { Auth } from '../auth';
import { clientGoneSignal } from '../client-gone';
import { apiRoute, KEY, typed } from '../openapi';
import type { Wording } from '../route-validation';
import { sendResult } from '../reply';

const MIB = 1024 * 1024;

export interface ManuscriptRouteOptions {
  auth: Auth;
  /** Bytes a file may have (MANUSCRIPT_LIMITS.fileBytes; tests lower it). */
  fileBytes?: number;
}

/** A file_name absent, blank or repeated: MISSING_FIELD, as the name is what every message gives. */
const fileNameWording: Wording = ({ part }) =>
  part === 'querystring'
    ? new AppError('MISSING_FIELD', 'file_name is required: the name of the file sent as the body.', {
        field: 'file_name',
      })
    : undefined;

export function registerManuscriptRoutes(
  app: FastifyInstance,
  { auth, fileBytes }: ManuscriptRouteOptions,
): void {
  const limit = fileBytes ?? MANUSCRIPT_LIMITS.fileBytes;
  // A raw body of any type, read here (under our limit and message), in its own context.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    typed(scope).post(
      '/api/v1/manuscripts/read',
      {
        schema: apiRoute({
          operationId: 'readManuscript',
          tag: 'manuscripts',
          summary:
            'Read a manuscript file (DOCX, EPUB, ODT, HTML, Markdown, text, PDF) into chapters and text',
          description:
            'The file is the raw body. Nothing is stored. Errors name the file: MANUSCRIPT_INVALID (broken, encrypted, ' +
            'no text layer), MANUSCRIPT_TOO_LARGE (over a limit, which the message gives), UNSUPPORTED_MEDIA_TYPE ' +
            '(not a format we read), TOO_MANY_REQUESTS (2 files being read and 8 waiting: Retry-After). The file is read ' +
            'in a child process, stopped when the client goes away.',
          security: KEY,
          rawBody: ['application/octet-stream'],
          querystring: ManuscriptReadQuerySchema,
          result: ManuscriptReadResultSchema,
          validate: { wording: fileNameWording },
        }),
      },
      async (request, reply) => {
        const owner = (await auth.requireKey(request)).id;
        const fileName = request.query.file_name.trim();
        const tooLarge = () =>
          new AppError(
            'MANUSCRIPT_TOO_LARGE',
            `"${fileName}" is larger than ${limit / MIB} MiB; a manuscript may be at most ${limit / MIB} MiB.`,
            { file: fileName, limit_bytes: limit },
          );
        const body = request.body as Readable;
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared > limit) {
          await discard(body, limit * DISCARD_FACTOR, reply);
          throw tooLarge();
        }
        const bytes = await readBody(body, limit, reply, tooLarge);
        const manuscript = await readManuscript(
          { fileName, bytes },
          { signal: clientGoneSignal(reply), owner },
        );
        return sendResult(reply, toManuscriptReadResult(manuscript));
      },
    );
  });
}

/**
 * A body past the limit is read on and dropped (up to this many times the limit, then the
 * connection is closed), so that the client, still sending, receives the error rather than a reset.
 */
const DISCARD_FACTOR = 4;

/** The whole body, or `tooLarge` once it passes `limit` (what follows is dropped, not kept). */
async function readBody(
  body: Readable,
  limit: number,
  reply: FastifyReply,
  tooLarge: () => AppError,
): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > limit) {
      await discard(body, limit * DISCARD_FACTOR - length, reply);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** Reads the rest of `body` without keeping it; past `budget` bytes, closes the connection instead. */
async function discard(body: Readable, budget: number, reply: FastifyReply): Promise<void> {
  let left = budget;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    left -= chunk.length;
    if (left < 0) {
      reply.header('connection', 'close');
      body.destroy();
      return;
    }
  }
}
