/**
 * Imports into book projects, each taking the file's bytes as the body (their own parser and
 * limits, in their own fastify context): a new project from a manuscript file, a manuscript's
 * chapters appended to a project, and a new project from a project archive. Composed by
 * routes/projects.ts.
 */

import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../../shared/errors';
import { MANUSCRIPT_LIMITS, type NotesMode } from '../../../shared/manuscript';
import {
  FileNameQuerySchema,
  ImportIntoQuerySchema,
  ProjectDetailSchema,
  ProjectImportQuerySchema,
} from '../../../shared/projects';
import { readManuscript } from '../../manuscripts';
import { checkFreeSpace } from '../../platform/free-space';
import { ARCHIVE_LIMITS, readProjectArchive } from '../../projects';
import { clientGoneSignal } from '../client-gone';
import { apiRoute, KEY, pathParams, typed } from '../openapi';
import { sendResult } from '../reply';
import {
  PROJECT_ID,
  projectQueryWording,
  requestKeyId,
  type ProjectRouteOptions,
} from './project-route-context';

const RAW_TYPES = ['application/octet-stream'];

/** The body's bytes, at most `limit` (MANUSCRIPT_TOO_LARGE naming the file past it). */
async function readImportBody(request: FastifyRequest, fileName: string, limit: number, path?: string) {
  const tooLarge = () =>
    new AppError(
      'MANUSCRIPT_TOO_LARGE',
      `"${fileName}" is larger than ${Math.floor(limit / 1024 ** 2)} MiB, the limit for an import.`,
      { file: fileName, limit_bytes: limit },
    );
  const empty = () =>
    new AppError('MANUSCRIPT_INVALID', `"${fileName}" is empty: send the file's bytes as the body.`, {
      file: fileName,
      reason: 'empty',
    });
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  const source = request.body as Readable | undefined;
  if (!source || typeof source.pipe !== 'function') {
    throw empty();
  }
  let seen = 0;
  const chunks: Buffer[] = [];
  const counter = new Transform({
    transform(chunk: Buffer, _e, callback) {
      seen += chunk.length;
      if (seen > limit) callback(tooLarge());
      else callback(null, chunk);
    },
  });
  if (path) {
    await pipeline(source, counter, createWriteStream(path));
  } else {
    await pipeline(source, counter, async (input: AsyncIterable<Buffer>) => {
      for await (const chunk of input) chunks.push(chunk);
    });
  }
  if (seen === 0) {
    throw empty();
  }
  return { bytes: Buffer.concat(chunks), size: seen };
}

/** `signal`: the client went away (the read in its child process stops); `owner`: the key whose turn it is; `notes`: NOTES_MODES. */
async function manuscriptFrom(
  request: FastifyRequest,
  fileName: string,
  signal: AbortSignal,
  owner: string,
  notes?: NotesMode,
) {
  const { bytes } = await readImportBody(request, fileName, MANUSCRIPT_LIMITS.fileBytes);
  return await readManuscript({ fileName, bytes }, { signal, owner, ...(notes ? { notes } : {}) });
}

export function registerProjectImportRoutes(
  app: FastifyInstance,
  { auth, projects }: ProjectRouteOptions,
): void {
  const { tempDir } = projects;
  const key = requestKeyId(auth);
  void app.register(async (scope) => {
    const scoped = typed(scope);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    scoped.post(
      '/api/v1/projects/import',
      {
        schema: apiRoute({
          operationId: 'importProject',
          tag: 'projects',
          summary:
            'A new project from a manuscript file (DOCX, EPUB, ODT, RTF, FB2, HTML, Markdown, text, PDF) as the body (201)',
          security: KEY,
          querystring: ProjectImportQuerySchema,
          validate: { wording: projectQueryWording },
          rawBody: RAW_TYPES,
          result: ProjectDetailSchema,
        }),
      },
      async (request, reply) => {
        const keyId = await key(request);
        const q = request.query;
        const manuscript = await manuscriptFrom(
          request,
          q.file_name,
          clientGoneSignal(reply),
          keyId,
          q.notes,
        );
        const detail = await projects.createFromManuscript(keyId, manuscript, {
          ...(q.title ? { title: q.title } : {}),
          ...(q.author ? { author: q.author } : {}),
          ...(q.voice_code ? { voice_code: q.voice_code } : {}),
          ...(q.language ? { language: q.language } : {}),
        });
        return sendResult(reply.code(201), detail);
      },
    );

    scoped.post(
      '/api/v1/projects/:id/import',
      {
        schema: apiRoute({
          operationId: 'importIntoProject',
          tag: 'projects',
          summary: "A manuscript's chapters appended to a project (the file as the body)",
          security: KEY,
          params: pathParams(PROJECT_ID),
          querystring: ImportIntoQuerySchema,
          validate: { wording: projectQueryWording },
          rawBody: RAW_TYPES,
          result: ProjectDetailSchema,
        }),
      },
      async (request, reply) => {
        const keyId = await key(request);
        const { file_name, notes } = request.query;
        await projects.owned(keyId, request.params.id);
        const manuscript = await manuscriptFrom(request, file_name, clientGoneSignal(reply), keyId, notes);
        return sendResult(reply, await projects.importInto(keyId, request.params.id, manuscript));
      },
    );

    scoped.post(
      '/api/v1/projects/import-archive',
      {
        schema: apiRoute({
          operationId: 'importProjectArchive',
          tag: 'projects',
          summary: 'A new project (new ids) from a project archive as the body (201)',
          security: KEY,
          querystring: FileNameQuerySchema,
          validate: { wording: projectQueryWording },
          rawBody: ['application/zip', ...RAW_TYPES],
          result: ProjectDetailSchema,
        }),
      },
      async (request, reply) => {
        const keyId = await key(request);
        const { file_name } = request.query;
        await mkdir(tempDir, { recursive: true });
        // The body goes to disk while it arrives: refused at once when the disk has no room for it.
        const declared = Number(request.headers['content-length']);
        if (Number.isFinite(declared) && declared <= ARCHIVE_LIMITS.fileBytes)
          await checkFreeSpace(tempDir, declared, `"${file_name}"`);
        const path = join(tempDir, `import-${randomBytes(8).toString('hex')}.zip`);
        try {
          const { size } = await readImportBody(request, file_name, ARCHIVE_LIMITS.fileBytes, path);
          // Read in a child process in the key's turn, stopped when the client goes away.
          const signal = clientGoneSignal(reply);
          return sendResult(
            reply.code(201),
            await readProjectArchive(projects, keyId, path, file_name, size, { signal }),
          );
        } catch (error) {
          if (isAppError(error)) throw error;
          throw new AppError(
            'MANUSCRIPT_INVALID',
            `"${file_name}" could not be received: ${(error as Error).message}`,
            {
              file: file_name,
            },
          );
        } finally {
          await rm(path, { force: true });
        }
      },
    );
  });
}
