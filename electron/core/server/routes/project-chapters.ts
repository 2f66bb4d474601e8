/**
 * A book project's chapters and segments over HTTP: rename, include or leave out and set the
 * kind of a chapter, reorder, merge and split chapters, a chapter's changes since its last
 * export; a window of a chapter's segments, and a segment's edit. Composed by routes/projects.ts.
 */

import type { FastifyInstance } from 'fastify';
import {
  ChapterChangesSchema,
  ChapterIdsSchema,
  ChapterPatchSchema,
  ChapterSplitSchema,
  PROJECT_LIMITS,
  ProjectDetailSchema,
  SegmentPageQuerySchema,
  SegmentPageSchema,
  SegmentPatchSchema,
  SegmentRecordSchema,
} from '../../../shared/projects';
import { apiRoute, KEY, pathParams, typed } from '../openapi';
import { sendResult } from '../reply';
import {
  PROJECT_ID,
  projectQueryWording,
  requestKeyId,
  type ProjectRouteOptions,
} from './project-route-context';

const chapterParams = pathParams({ ...PROJECT_ID, cid: 'The chapter id.' });

export function registerChapterRoutes(app: FastifyInstance, { auth, projects }: ProjectRouteOptions): void {
  const routes = typed(app);
  const key = requestKeyId(auth);

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
        params: pathParams(PROJECT_ID),
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
        params: pathParams(PROJECT_ID),
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
}

export function registerSegmentRoutes(app: FastifyInstance, { auth, projects }: ProjectRouteOptions): void {
  const routes = typed(app);
  const key = requestKeyId(auth);

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
        params: pathParams({ ...PROJECT_ID, sid: 'The segment id.' }),
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
}
