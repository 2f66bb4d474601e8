/**
 * Book projects (/api/v1/projects/…): list, create (empty, from a manuscript file sent as the
 * body, from a project archive), read, settings, duplicate, delete, archive; chapters (rename,
 * include, kind, reorder, merge, split, changes since the last export); segments; the cast;
 * suggestions; undo and redo. A key sees only its own projects (another key's is
 * PROJECT_NOT_FOUND). `registerProjectRoutes` composes one registration per resource: the
 * project itself (here), its chapters and segments (project-chapters.ts), its cast
 * (project-cast.ts) and the imports (project-imports.ts). Rendering and exporting a project:
 * routes/project-renders.ts.
 */

import { createReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors';
import { MANUSCRIPT_LIMITS } from '../../../shared/manuscript';
import {
  PROJECT_LIMITS,
  ProjectDetailSchema,
  ProjectListQuerySchema,
  ProjectListSchema,
  ProjectRemovalSchema,
  ProjectSettingsSchema,
} from '../../../shared/projects';
import { writeProjectArchive } from '../../projects';
import { contentDisposition } from '../../../shared/download-name';
import { apiRoute, binary, KEY, pathParams, typed } from '../openapi';
import { sendResult } from '../reply';
import { registerCastRoutes } from './project-cast';
import { registerChapterRoutes, registerSegmentRoutes } from './project-chapters';
import { registerProjectImportRoutes } from './project-imports';
import {
  PROJECT_ID,
  projectQueryWording,
  requestKeyId,
  type ProjectRouteOptions,
} from './project-route-context';

export function registerProjectRoutes(app: FastifyInstance, options: ProjectRouteOptions): void {
  registerProjectRecordRoutes(app, options);
  registerProjectFileRoutes(app, options);
  registerChapterRoutes(app, options);
  registerSegmentRoutes(app, options);
  registerCastRoutes(app, options);
  registerUndoRoutes(app, options);
  registerProjectImportRoutes(app, options);
}

/** List, create, read, change the settings of, duplicate and delete projects. */
function registerProjectRecordRoutes(app: FastifyInstance, { auth, projects }: ProjectRouteOptions): void {
  const routes = typed(app);
  const key = requestKeyId(auth);

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
        params: pathParams(PROJECT_ID),
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
        params: pathParams(PROJECT_ID),
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
        params: pathParams(PROJECT_ID),
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
        params: pathParams(PROJECT_ID),
        result: ProjectRemovalSchema,
      }),
    },
    async (request, reply) => sendResult(reply, await projects.remove(await key(request), request.params.id)),
  );
}

/** A project's cover picture, and the whole project as one archive. */
function registerProjectFileRoutes(
  app: FastifyInstance,
  { store, auth, projects }: ProjectRouteOptions,
): void {
  const { tempDir } = projects;
  const routes = typed(app);
  const key = requestKeyId(auth);

  routes.get(
    '/api/v1/projects/:id/cover',
    {
      schema: apiRoute({
        operationId: 'getProjectCover',
        tag: 'projects',
        summary: "The project's cover picture (404 PROJECT_NOT_FOUND when it has none)",
        security: KEY,
        params: pathParams(PROJECT_ID),
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
        params: pathParams(PROJECT_ID),
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
}

/** Undo the last edit of a project, or redo the last undone. */
function registerUndoRoutes(app: FastifyInstance, { auth, projects }: ProjectRouteOptions): void {
  const routes = typed(app);
  const key = requestKeyId(auth);

  for (const direction of ['undo', 'redo'] as const) {
    routes.post(
      `/api/v1/projects/:id/${direction}`,
      {
        schema: apiRoute({
          operationId: `${direction}Project`,
          tag: 'projects',
          summary: direction === 'undo' ? 'Undo the last edit' : 'Redo the last undone edit',
          security: KEY,
          params: pathParams(PROJECT_ID),
          result: ProjectDetailSchema,
        }),
      },
      async (request, reply) =>
        sendResult(reply, await projects[direction](await key(request), request.params.id)),
    );
  }
}
