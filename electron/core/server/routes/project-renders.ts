/**
 * Rendering and exporting book projects: POST/GET /api/v1/projects/<id>/renders, pause, resume
 * and cancel a render, regenerate one segment, a segment's audio (WAV) and word timings, and
 * exports (POST …/exports, GET …/exports/<eid>, its file at …/exports/<eid>/file). A key sees only
 * its own projects (another key's is PROJECT_NOT_FOUND). Progress arrives as `project` events on
 * GET /api/v1/events. The project's own routes: routes/projects.ts.
 */

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { BOOK_CONTENT_TYPES, bookExtension } from '../../../shared/book-formats';
import { AppError } from '../../../shared/errors';
import {
  ProjectExportBodySchema,
  ProjectExportRecordSchema,
  ProjectRenderBodySchema,
  ProjectRenderRecordSchema,
  RegenerateBodySchema,
  SegmentRecordSchema,
} from '../../../shared/projects';
import { findVoice } from '../../../shared/voices';
import {
  audioPathOf,
  type ProjectExports,
  type ProjectRenders,
  segmentRecord,
  timingsPathOf,
} from '../../projects';
import type { Store } from '../../store';
import type { Auth } from '../auth';
import { contentDisposition } from '../../../shared/download-name';
import { apiRoute, binary, KEY, pathParams, typed } from '../openapi';
import { sendResult } from '../reply';
import type { Wording } from '../route-validation';
import { PROJECT_ID } from './project-route-context';

export interface ProjectRenderRouteOptions {
  store: Store;
  auth: Auth;
  renders: ProjectRenders;
  exports: ProjectExports;
  /** `<dataDir>/files`: segment audio is in its `projects/<id>/`. */
  filesDir: string;
}

const RENDER = { ...PROJECT_ID, rid: 'The render id.' };
const SEGMENT = { ...PROJECT_ID, sid: 'The segment id.' };
const EXPORT = { ...PROJECT_ID, eid: 'The export id.' };

const SUBTITLE_TYPES = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
} as const;

/** An export's subtitles: its path, and which kind. */
const SUBTITLES_PARAMS = Type.Object({
  ...pathParams(EXPORT).properties,
  kind: Type.Union([Type.Literal('srt'), Type.Literal('vtt')], { description: '`srt` or `vtt`.' }),
});

/** A subtitles kind that is neither: INVALID_FIELD as the route always worded it. */
const subtitleKindWording: Wording = ({ part, field }) =>
  part === 'params' && field === 'kind'
    ? new AppError('INVALID_FIELD', 'kind must be "srt" or "vtt".', { field: 'kind' })
    : undefined;

export function registerProjectRenderRoutes(app: FastifyInstance, options: ProjectRenderRouteOptions): void {
  registerRenderRoutes(app, options);
  registerSegmentRenderRoutes(app, options);
  registerProjectExportRoutes(app, options);
}

/** A request's own project, render or segment (another key's is PROJECT_NOT_FOUND). */
function projectAccess({ store, auth, renders }: ProjectRenderRouteOptions) {
  /** The key's project, or PROJECT_NOT_FOUND. */
  const owned = async (request: FastifyRequest, projectId: string) => {
    const key = await auth.requireKey(request);
    const project = await store.projects.getProject(projectId);
    if (!project || project.key_id !== key.id)
      throw new AppError('PROJECT_NOT_FOUND', `No project "${projectId}".`, {
        part: 'project',
        id: projectId,
      });
    return { key, project };
  };
  const ownRender = async (request: FastifyRequest, projectId: string, renderId: string) => {
    await owned(request, projectId);
    const row = await renders.get(renderId);
    if (!row || row.project_id !== projectId)
      throw new AppError('PROJECT_NOT_FOUND', `No render "${renderId}" in this project.`, {
        part: 'render',
        id: renderId,
      });
    return row;
  };
  const ownSegment = async (request: FastifyRequest, projectId: string, segmentId: string) => {
    const { key } = await owned(request, projectId);
    const segment = await store.projects.getSegment(segmentId);
    if (!segment || segment.project_id !== projectId) {
      throw new AppError('PROJECT_NOT_FOUND', `No segment "${segmentId}" in this project.`, {
        part: 'segment',
        id: segmentId,
      });
    }
    return { key, segment };
  };
  return { owned, ownRender, ownSegment };
}

/** Start, list, pause, resume and cancel renders. */
function registerRenderRoutes(app: FastifyInstance, options: ProjectRenderRouteOptions): void {
  const { renders } = options;
  const { owned, ownRender } = projectAccess(options);
  const routes = typed(app);

  routes.post(
    '/api/v1/projects/:id/renders',
    {
      schema: apiRoute({
        operationId: 'renderProject',
        tag: 'projects',
        summary: 'Render the book, some chapters or some segments in the background (answered 201)',
        description:
          "Without chapter_ids or segment_ids: every included chapter. Only segments not rendered, changed or failed are rendered (segment_ids: those, whatever their state). The key is charged up front as the API charges per character, at each segment speaker's voice price; what is not rendered is refunded.",
        security: KEY,
        params: pathParams(PROJECT_ID),
        body: ProjectRenderBodySchema,
        validate: { emptyBodyIsObject: true },
        result: ProjectRenderRecordSchema,
      }),
    },
    async (request, reply) => {
      const { key } = await owned(request, request.params.id);
      const input = request.body;
      const row = await renders.submit(request.params.id, key.id, {
        chapterIds: input.chapter_ids,
        segmentIds: input.segment_ids,
      });
      return sendResult(reply.code(201), renders.record(row));
    },
  );

  routes.get(
    '/api/v1/projects/:id/renders',
    {
      schema: apiRoute({
        operationId: 'listProjectRenders',
        tag: 'projects',
        summary: "A project's renders, newest first",
        security: KEY,
        params: pathParams(PROJECT_ID),
        result: Type.Object({ items: Type.Array(ProjectRenderRecordSchema) }),
      }),
    },
    async (request, reply) => {
      await owned(request, request.params.id);
      const rows = await renders.list(request.params.id);
      return sendResult(reply, { items: rows.map((r) => renders.record(r)) });
    },
  );

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    routes.post(
      `/api/v1/projects/:id/renders/:rid/${action}`,
      {
        schema: apiRoute({
          operationId: `${action}ProjectRender`,
          tag: 'projects',
          summary: {
            pause: 'Pause a render (a running one after its current segment)',
            resume: 'Resume a paused render',
            cancel: 'Cancel a render: what it did not render is refunded',
          }[action],
          security: KEY,
          params: pathParams(RENDER),
          result: ProjectRenderRecordSchema,
        }),
      },
      async (request, reply) => {
        const row = await ownRender(request, request.params.id, request.params.rid);
        return sendResult(reply, renders.record(await renders[action](row.id)));
      },
    );
  }
}

/** Regenerate one segment; a segment's audio and word timings. */
function registerSegmentRenderRoutes(app: FastifyInstance, options: ProjectRenderRouteOptions): void {
  const { renders, filesDir } = options;
  const { ownSegment } = projectAccess(options);
  const routes = typed(app);

  routes.post(
    '/api/v1/projects/:id/segments/:sid/regenerate',
    {
      schema: apiRoute({
        operationId: 'regenerateSegment',
        tag: 'projects',
        summary: 'Render one segment now and wait for it (charged as the API charges)',
        description:
          'With voice_code, speed_rate, pitch_rate or volume: the segment is assigned to a character with that voice (one of the cast that has it, else a new one named after its speaker), an undoable edit, and rendered with it.',
        security: KEY,
        params: pathParams(SEGMENT),
        body: RegenerateBodySchema,
        validate: { emptyBodyIsObject: true },
        result: SegmentRecordSchema,
      }),
    },
    async (request, reply) => {
      const { key } = await ownSegment(request, request.params.id, request.params.sid);
      const input = request.body;
      if (input.voice_code !== undefined && !findVoice(input.voice_code)) {
        throw new AppError(
          'UNKNOWN_VOICE',
          `Unknown voice_code "${input.voice_code}". GET /api/v1/voices lists the voices.`,
          {
            field: 'voice_code',
          },
        );
      }
      const row = await renders.regenerate(request.params.id, request.params.sid, key.id, input);
      return sendResult(reply, segmentRecord(row));
    },
  );

  routes.get(
    '/api/v1/projects/:id/segments/:sid/audio',
    {
      schema: apiRoute({
        operationId: 'getSegmentAudio',
        tag: 'projects',
        summary: "A segment's audio (WAV); 404 before its first render",
        security: KEY,
        params: pathParams(SEGMENT),
        result: binary("The segment's audio.", ['audio/wav']),
      }),
    },
    async (request, reply) => {
      const { segment } = await ownSegment(request, request.params.id, request.params.sid);
      if (!segment.audio_key) throw new AppError('NOT_FOUND', 'This segment has no audio yet.');
      const path = audioPathOf(filesDir, segment.project_id, segment.audio_key);
      const info = await stat(path).catch(() => undefined);
      if (!info) throw new AppError('NOT_FOUND', "The segment's audio is gone from the data directory.");
      return reply
        .header('content-type', 'audio/wav')
        .header('content-length', String(info.size))
        .header('cache-control', 'private, max-age=3600')
        .send(createReadStream(path));
    },
  );

  routes.get(
    '/api/v1/projects/:id/segments/:sid/timings',
    {
      schema: apiRoute({
        operationId: 'getSegmentTimings',
        tag: 'projects',
        summary: "A segment's word timings (JSON array: text, startMs, endMs, charStart, charEnd)",
        security: KEY,
        params: pathParams(SEGMENT),
        result: binary('The word timings.', ['application/json']),
      }),
    },
    async (request, reply) => {
      const { segment } = await ownSegment(request, request.params.id, request.params.sid);
      if (!segment.audio_key) throw new AppError('NOT_FOUND', 'This segment has no audio yet.');
      const path = timingsPathOf(filesDir, segment.project_id, segment.audio_key);
      const info = await stat(path).catch(() => undefined);
      if (!info) throw new AppError('NOT_FOUND', "The segment's timings are gone from the data directory.");
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-length', String(info.size))
        .send(createReadStream(path));
    },
  );
}

/** Export the book; an export's record, file and subtitles. */
function registerProjectExportRoutes(app: FastifyInstance, options: ProjectRenderRouteOptions): void {
  const { exports } = options;
  const { owned } = projectAccess(options);
  const routes = typed(app);

  routes.post(
    '/api/v1/projects/:id/exports',
    {
      schema: apiRoute({
        operationId: 'exportProject',
        tag: 'projects',
        summary: 'Export the book (answered 201): changed segments rendered first, then encoded',
        description:
          'M4B with chapters, MP3 with ID3 chapters, or a folder of one file per chapter (a zip). Only included chapters; named after the book and its chapters. Poll GET …/exports/<eid> for its status.',
        security: KEY,
        params: pathParams(PROJECT_ID),
        body: ProjectExportBodySchema,
        validate: { emptyBodyIsObject: true },
        result: ProjectExportRecordSchema,
      }),
    },
    async (request, reply) => {
      const { key } = await owned(request, request.params.id);
      const input = request.body;
      if (input.folder_format && (input.format ?? 'folder') !== 'folder') {
        throw new AppError('INVALID_FIELD', 'folder_format applies only to format "folder".', {
          field: 'folder_format',
        });
      }
      const record = await exports.start(request.params.id, key.id, {
        format: input.format,
        folderFormat: input.folder_format,
      });
      return sendResult(reply.code(201), record);
    },
  );

  routes.get(
    '/api/v1/projects/:id/exports/:eid',
    {
      schema: apiRoute({
        operationId: 'getProjectExport',
        tag: 'projects',
        summary: 'An export of the project: status, chapters, loudness report, download link',
        security: KEY,
        params: pathParams(EXPORT),
        result: ProjectExportRecordSchema,
      }),
    },
    async (request, reply) => {
      await owned(request, request.params.id);
      const record = await exports.get(request.params.id, request.params.eid);
      if (!record) throw new AppError('NOT_FOUND', `No export "${request.params.eid}" of this project.`);
      return sendResult(reply, record);
    },
  );

  routes.get(
    '/api/v1/projects/:id/exports/:eid/file',
    {
      schema: apiRoute({
        operationId: 'downloadProjectExport',
        tag: 'projects',
        summary: "A finished export's file, named after the book",
        security: KEY,
        params: pathParams(EXPORT),
        result: binary('The book.', Object.values(BOOK_CONTENT_TYPES)),
      }),
    },
    async (request, reply) => {
      await owned(request, request.params.id);
      const record = await exports.get(request.params.id, request.params.eid);
      if (!record) throw new AppError('NOT_FOUND', `No export "${request.params.eid}" of this project.`);
      if (record.status !== 'done')
        throw new AppError('NOT_FOUND', `The export is ${record.status}: no file yet.`);
      const path = exports.filePath(record);
      const info = await stat(path).catch(() => undefined);
      if (!info) throw new AppError('NOT_FOUND', "The export's file is gone from the data directory.");
      return reply
        .header('content-type', BOOK_CONTENT_TYPES[bookExtension(record.format)])
        .header('content-length', String(info.size))
        .header('content-disposition', contentDisposition('attachment', record.file_name))
        .send(createReadStream(path));
    },
  );

  routes.get(
    '/api/v1/projects/:id/exports/:eid/subtitles/:kind',
    {
      schema: apiRoute({
        operationId: 'downloadProjectExportSubtitles',
        tag: 'projects',
        summary: "A finished export's book-wide subtitles, SRT or WebVTT, named after the book",
        security: KEY,
        params: SUBTITLES_PARAMS,
        result: binary('The subtitles.', Object.values(SUBTITLE_TYPES)),
        validate: { wording: subtitleKindWording },
      }),
    },
    async (request, reply) => {
      await owned(request, request.params.id);
      const { kind } = request.params;
      const record = await exports.get(request.params.id, request.params.eid);
      if (!record) throw new AppError('NOT_FOUND', `No export "${request.params.eid}" of this project.`);
      if (record.status !== 'done')
        throw new AppError('NOT_FOUND', `The export is ${record.status}: no subtitles yet.`);
      const path = exports.subtitlesPath(record, kind);
      const info = await stat(path).catch(() => undefined);
      if (!info) throw new AppError('NOT_FOUND', "The export's subtitles are gone from the data directory.");
      return reply
        .header('content-type', SUBTITLE_TYPES[kind])
        .header('content-length', String(info.size))
        .header('content-disposition', contentDisposition('attachment', basename(path)))
        .send(createReadStream(path));
    },
  );
}
