/**
 * Book projects (/api/v1/projects/…): list, create (empty, from a manuscript file sent as the
 * body, from a project archive), read, settings, duplicate, delete, archive; chapters (rename,
 * include, kind, reorder, merge, split, changes since the last export); segments; the cast;
 * suggestions; undo and redo. A key sees only its own projects (another key's is
 * PROJECT_NOT_FOUND). Rendering and exporting a project: routes/project-renders.ts.
 */

import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../../../shared/errors';
import { MANUSCRIPT_LIMITS, type NotesMode } from '../../../shared/manuscript';
import {
  ChapterChangesSchema,
  ChapterIdsSchema,
  ChapterPatchSchema,
  ChapterSplitSchema,
  CharacterBodySchema,
  CharacterPatchSchema,
  CharacterMergeSchema,
  CharacterSplitSchema,
  CharacterRecordSchema,
  FileNameQuerySchema,
  PROJECT_LIMITS,
  ProjectDetailSchema,
  ImportIntoQuerySchema,
  ProjectImportQuerySchema,
  ProjectListQuerySchema,
  ProjectListSchema,
  ProjectRemovalSchema,
  ProjectSettingsSchema,
  SegmentPageQuerySchema,
  SegmentPageSchema,
  SegmentPatchSchema,
  SegmentRecordSchema,
  SuggestionsApplySchema,
} from '../../../shared/projects';
import { readManuscript } from '../../manuscripts';
import { checkFreeSpace } from '../../platform/free-space';
import { ARCHIVE_LIMITS, type ProjectService, readProjectArchive, writeProjectArchive } from '../../projects';
import type { Store } from '../../store';
import type { Auth } from '../auth';
import { clientGoneSignal } from '../client-gone';
import { contentDisposition } from '../../../shared/download-name';
import { apiRoute, binary, KEY, pathParams, typed } from '../openapi';
import { sendResult } from '../reply';
import type { Wording } from '../route-validation';

export interface ProjectRouteOptions {
  store: Store;
  auth: Auth;
  projects: ProjectService;
}

const ID = { id: 'The project id.' };
const RAW_TYPES = ['application/octet-stream'];

/** A query that breaks its schema: MISSING_FIELD for an absent file_name, else INVALID_FIELD naming the parameter. */
const projectQueryWording: Wording = ({ part, field, message, missing }) =>
  part === 'querystring'
    ? new AppError(
        field === 'file_name' && missing ? 'MISSING_FIELD' : 'INVALID_FIELD',
        `${field || 'query'}: ${message}.`,
        { field },
      )
    : undefined;

export function registerProjectRoutes(
  app: FastifyInstance,
  { store, auth, projects }: ProjectRouteOptions,
): void {
  const { tempDir } = projects;
  const routes = typed(app);
  const key = async (request: FastifyRequest) => (await auth.requireKey(request)).id;

  routes.get(
    '/api/v1/projects',
    {
      schema: apiRoute({
        operationId: 'listProjects',
        tag: 'projects',
        summary: `A page of the key's book projects, newest first (limit: at most ${PROJECT_LIMITS.listPage}; cursor: a next_cursor)`,
        security: KEY,
        querystring: ProjectListQuerySchema,
        validate: { wording: projectQueryWording },
        result: ProjectListSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const q = request.query;
      return sendResult(
        reply,
        await projects.list(keyId, {
          ...(q.cursor === undefined ? {} : { cursor: q.cursor }),
          ...(q.limit === undefined ? {} : { limit: Number(q.limit) }),
        }),
      );
    },
  );

  routes.post(
    '/api/v1/projects',
    {
      schema: apiRoute({
        operationId: 'createProject',
        tag: 'projects',
        summary: 'An empty project (answered 201)',
        security: KEY,
        body: ProjectSettingsSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
      bodyLimit: Math.ceil((MANUSCRIPT_LIMITS.coverBytes * 4) / 3) + 64 * 1024,
    },
    async (request, reply) => {
      const keyId = await key(request);
      const settings = request.body;
      return sendResult(reply.code(201), await projects.create(keyId, settings));
    },
  );

  routes.get(
    '/api/v1/projects/:id',
    {
      schema: apiRoute({
        operationId: 'getProject',
        tag: 'projects',
        summary: 'A project with its cast and chapters (their segments: GET …/chapters/<cid>/segments)',
        security: KEY,
        params: pathParams(ID),
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => sendResult(reply, await projects.detail(await key(request), request.params.id)),
  );

  routes.patch(
    '/api/v1/projects/:id',
    {
      schema: apiRoute({
        operationId: 'updateProject',
        tag: 'projects',
        summary:
          "A project's settings: title, author, cover, language, the narrator's voice, model, preset, format",
        security: KEY,
        params: pathParams(ID),
        body: ProjectSettingsSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
      bodyLimit: Math.ceil((MANUSCRIPT_LIMITS.coverBytes * 4) / 3) + 64 * 1024,
    },
    async (request, reply) => {
      const keyId = await key(request);
      const settings = request.body;
      return sendResult(reply, await projects.updateSettings(keyId, request.params.id, settings));
    },
  );

  routes.post(
    '/api/v1/projects/:id/duplicate',
    {
      schema: apiRoute({
        operationId: 'duplicateProject',
        tag: 'projects',
        summary: 'A copy under new ids, its audio kept (answered 201)',
        security: KEY,
        params: pathParams(ID),
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) =>
      sendResult(reply.code(201), await projects.duplicate(await key(request), request.params.id)),
  );

  routes.delete(
    '/api/v1/projects/:id',
    {
      schema: apiRoute({
        operationId: 'deleteProject',
        tag: 'projects',
        summary: 'Removes the project and its audio',
        security: KEY,
        params: pathParams(ID),
        result: ProjectRemovalSchema,
      }),
    },
    async (request, reply) => sendResult(reply, await projects.remove(await key(request), request.params.id)),
  );

  routes.get(
    '/api/v1/projects/:id/cover',
    {
      schema: apiRoute({
        operationId: 'getProjectCover',
        tag: 'projects',
        summary: "The project's cover picture (404 PROJECT_NOT_FOUND when it has none)",
        security: KEY,
        params: pathParams(ID),
        result: binary('The cover, JPEG or PNG.', ['image/jpeg', 'image/png']),
      }),
    },
    async (request, reply) => {
      const project = await projects.owned(await key(request), request.params.id);
      if (!project.cover_base64 || !project.cover_type) {
        throw new AppError('PROJECT_NOT_FOUND', `Project "${project.id}" has no cover.`, {
          part: 'cover',
          id: project.id,
        });
      }
      return reply
        .type(project.cover_type)
        .header('cache-control', 'no-store')
        .send(Buffer.from(project.cover_base64, 'base64'));
    },
  );

  routes.get(
    '/api/v1/projects/:id/archive',
    {
      schema: apiRoute({
        operationId: 'exportProjectArchive',
        tag: 'projects',
        summary: 'The whole project as one zip (project.json and the segment audio)',
        security: KEY,
        params: pathParams(ID),
        result: binary('The archive, named "<title>.narration.zip".', ['application/zip']),
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      await mkdir(tempDir, { recursive: true });
      const path = join(tempDir, `archive-${randomBytes(8).toString('hex')}.zip`);
      try {
        const { fileName } = await writeProjectArchive(store, projects, keyId, request.params.id, path);
        const { size } = await stat(path);
        const stream = createReadStream(path);
        // The file goes once the answer is sent (or the client left).
        stream.once('close', () => void rm(path, { force: true }));
        return reply
          .type('application/zip')
          .header('content-length', size)
          .header('content-disposition', contentDisposition('attachment', fileName))
          .send(stream);
      } catch (error) {
        await rm(path, { force: true });
        throw error;
      }
    },
  );

  const chapterParams = pathParams({ ...ID, cid: 'The chapter id.' });

  routes.patch(
    '/api/v1/projects/:id/chapters/:cid',
    {
      schema: apiRoute({
        operationId: 'updateChapter',
        tag: 'projects',
        summary: 'Rename a chapter, include or leave it out, set its kind',
        security: KEY,
        params: chapterParams,
        body: ChapterPatchSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const change = request.body;
      return sendResult(
        reply,
        await projects.updateChapter(keyId, request.params.id, request.params.cid, change),
      );
    },
  );

  routes.post(
    '/api/v1/projects/:id/chapters/order',
    {
      schema: apiRoute({
        operationId: 'reorderChapters',
        tag: 'projects',
        summary: 'Put the chapters in a new order (every chapter id, once)',
        security: KEY,
        params: pathParams(ID),
        body: ChapterIdsSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { chapter_ids } = request.body;
      return sendResult(reply, await projects.reorderChapters(keyId, request.params.id, chapter_ids));
    },
  );

  routes.post(
    '/api/v1/projects/:id/chapters/merge',
    {
      schema: apiRoute({
        operationId: 'mergeChapters',
        tag: 'projects',
        summary: 'Merge adjacent chapters into the first',
        security: KEY,
        params: pathParams(ID),
        body: ChapterIdsSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { chapter_ids } = request.body;
      return sendResult(reply, await projects.mergeChapters(keyId, request.params.id, chapter_ids));
    },
  );

  routes.post(
    '/api/v1/projects/:id/chapters/:cid/split',
    {
      schema: apiRoute({
        operationId: 'splitChapter',
        tag: 'projects',
        summary: 'Split a chapter: segment_id and the segments after it make a new chapter',
        security: KEY,
        params: chapterParams,
        body: ChapterSplitSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const split = request.body;
      return sendResult(
        reply,
        await projects.splitChapter(
          keyId,
          request.params.id,
          request.params.cid,
          split.segment_id,
          split.title,
        ),
      );
    },
  );

  routes.get(
    '/api/v1/projects/:id/chapters/:cid/changes',
    {
      schema: apiRoute({
        operationId: 'chapterChanges',
        tag: 'projects',
        summary: "A chapter's text now and at its last export",
        security: KEY,
        params: chapterParams,
        result: ChapterChangesSchema,
      }),
    },
    async (request, reply) =>
      sendResult(
        reply,
        await projects.chapterChanges(await key(request), request.params.id, request.params.cid),
      ),
  );

  routes.get(
    '/api/v1/projects/:id/chapters/:cid/segments',
    {
      schema: apiRoute({
        operationId: 'listChapterSegments',
        tag: 'projects',
        summary: `A window of a chapter's segments in order (offset, limit: at most ${PROJECT_LIMITS.segmentPage}) and their total`,
        security: KEY,
        params: chapterParams,
        querystring: SegmentPageQuerySchema,
        validate: { wording: projectQueryWording },
        result: SegmentPageSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const q = request.query;
      return sendResult(
        reply,
        await projects.segments(
          keyId,
          request.params.id,
          request.params.cid,
          q.offset === undefined ? 0 : Number(q.offset),
          q.limit === undefined ? PROJECT_LIMITS.segmentPageDefault : Number(q.limit),
        ),
      );
    },
  );

  routes.patch(
    '/api/v1/projects/:id/segments/:sid',
    {
      schema: apiRoute({
        operationId: 'updateSegment',
        tag: 'projects',
        summary: "Edit a segment's text, speaker, quote voices or flag (only it is marked changed)",
        security: KEY,
        params: pathParams({ ...ID, sid: 'The segment id.' }),
        body: SegmentPatchSchema,
        validate: {},
        result: SegmentRecordSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const change = request.body;
      return sendResult(
        reply,
        await projects.editSegment(keyId, request.params.id, request.params.sid, change),
      );
    },
  );

  routes.post(
    '/api/v1/projects/:id/characters',
    {
      schema: apiRoute({
        operationId: 'addCharacter',
        tag: 'projects',
        summary: 'Add a character with its voice (answered 201)',
        security: KEY,
        params: pathParams(ID),
        body: CharacterBodySchema,
        validate: {},
        result: CharacterRecordSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const input = request.body;
      return sendResult(reply.code(201), await projects.addCharacter(keyId, request.params.id, input));
    },
  );

  const characterParams = pathParams({ ...ID, chid: 'The character id.' });

  routes.patch(
    '/api/v1/projects/:id/characters/:chid',
    {
      schema: apiRoute({
        operationId: 'updateCharacter',
        tag: 'projects',
        summary: 'Change a character; confirmed: true gives a suggested one its segments',
        security: KEY,
        params: characterParams,
        body: CharacterPatchSchema,
        validate: {},
        result: CharacterRecordSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const input = request.body;
      return sendResult(
        reply,
        await projects.updateCharacter(keyId, request.params.id, request.params.chid, input),
      );
    },
  );

  routes.delete(
    '/api/v1/projects/:id/characters/:chid',
    {
      schema: apiRoute({
        operationId: 'removeCharacter',
        tag: 'projects',
        summary: 'Remove a character (its segments go back to the narrator)',
        security: KEY,
        params: characterParams,
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) =>
      sendResult(
        reply,
        await projects.removeCharacter(await key(request), request.params.id, request.params.chid),
      ),
  );

  routes.post(
    '/api/v1/projects/:id/characters/:chid/merge',
    {
      schema: apiRoute({
        operationId: 'mergeCharacter',
        tag: 'projects',
        summary: "Merge a character into another (`into`): its segments and quotes become that one's",
        security: KEY,
        params: characterParams,
        body: CharacterMergeSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { into } = request.body;
      return sendResult(
        reply,
        await projects.mergeCharacter(keyId, request.params.id, request.params.chid, into),
      );
    },
  );

  routes.post(
    '/api/v1/projects/:id/characters/:chid/split',
    {
      schema: apiRoute({
        operationId: 'splitCharacter',
        tag: 'projects',
        summary:
          'Split names out of a character: each becomes a character with the segments and quotes the text attributes to it',
        security: KEY,
        params: characterParams,
        body: CharacterSplitSchema,
        validate: {},
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { names } = request.body;
      return sendResult(
        reply,
        await projects.splitCharacter(keyId, request.params.id, request.params.chid, names),
      );
    },
  );

  routes.post(
    '/api/v1/projects/:id/suggestions/apply',
    {
      schema: apiRoute({
        operationId: 'applySuggestions',
        tag: 'projects',
        summary: 'Confirm the suggested speakers (of the given segments, or all)',
        security: KEY,
        params: pathParams(ID),
        body: SuggestionsApplySchema,
        validate: { emptyBodyIsObject: true },
        result: ProjectDetailSchema,
      }),
    },
    async (request, reply) => {
      const keyId = await key(request);
      const { segment_ids } = request.body;
      return sendResult(reply, await projects.applySuggestions(keyId, request.params.id, segment_ids));
    },
  );

  for (const direction of ['undo', 'redo'] as const) {
    routes.post(
      `/api/v1/projects/:id/${direction}`,
      {
        schema: apiRoute({
          operationId: `${direction}Project`,
          tag: 'projects',
          summary: direction === 'undo' ? 'Undo the last edit' : 'Redo the last undone edit',
          security: KEY,
          params: pathParams(ID),
          result: ProjectDetailSchema,
        }),
      },
      async (request, reply) =>
        sendResult(reply, await projects[direction](await key(request), request.params.id)),
    );
  }

  // The imports take the file's bytes as the body: their own parser and limits, in their own context.
  void app.register(async (scope) => {
    const scoped = typed(scope);
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

    /** The body's bytes, at most `limit` (MANUSCRIPT_TOO_LARGE naming the file past it). */
    const readBody = async (request: FastifyRequest, fileName: string, limit: number, path?: string) => {
      const tooLarge = () =>
        new AppError(
          'MANUSCRIPT_TOO_LARGE',
          `"${fileName}" is larger than ${Math.floor(limit / 1024 ** 2)} MiB, the limit for an import.`,
          { file: fileName, limit_bytes: limit },
        );
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > limit) throw tooLarge();
      const source = request.body as Readable | undefined;
      if (!source || typeof source.pipe !== 'function') {
        throw new AppError(
          'MANUSCRIPT_INVALID',
          `"${fileName}" is empty: send the file's bytes as the body.`,
          {
            file: fileName,
            reason: 'empty',
          },
        );
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
        throw new AppError(
          'MANUSCRIPT_INVALID',
          `"${fileName}" is empty: send the file's bytes as the body.`,
          {
            file: fileName,
            reason: 'empty',
          },
        );
      }
      return { bytes: Buffer.concat(chunks), size: seen };
    };

    /** `signal`: the client went away (the read in its child process stops); `owner`: the key whose turn it is; `notes`: NOTES_MODES. */
    const manuscriptFrom = async (
      request: FastifyRequest,
      fileName: string,
      signal: AbortSignal,
      owner: string,
      notes?: NotesMode,
    ) => {
      const { bytes } = await readBody(request, fileName, MANUSCRIPT_LIMITS.fileBytes);
      return await readManuscript({ fileName, bytes }, { signal, owner, ...(notes ? { notes } : {}) });
    };

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
          params: pathParams(ID),
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
          const { size } = await readBody(request, file_name, ARCHIVE_LIMITS.fileBytes, path);
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
