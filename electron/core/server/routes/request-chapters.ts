/**
 * GET /api/v1/tts/<id>/chapters: where the chapters of a request's text start in its audio
 * (jobs/request-chapters.ts), for players and the studio's waveform. Empty for a text without
 * chapter lines and until the request is SUCCESS.
 */

import type { FastifyInstance } from 'fastify';
import { RequestChaptersSchema, type RequestChapters } from '../../../shared/book-exports';
import { type Jobs, readRequestChapters } from '../../jobs';
import type { Store } from '../../store';
import type { Auth } from '../auth';
import { sendResult } from '../reply';
import { ownedRequest } from './tts';
import { apiRoute, KEY, pathParams, typed } from '../openapi';

export function registerRequestChaptersRoute(
  app: FastifyInstance,
  { store, jobs, auth }: { store: Store; jobs: Jobs; auth: Auth },
): void {
  typed(app).get(
    '/api/v1/tts/:id/chapters',
    {
      schema: apiRoute({
        operationId: 'getTtsChapters',
        tag: 'tts',
        summary: "Where the text's chapters start in its audio",
        security: KEY,
        params: pathParams({ id: 'The request_id (32 lowercase hex digits).' }),
        result: RequestChaptersSchema,
        validate: {},
      }),
    },
    async (request, reply) => {
      const row = await ownedRequest(store, auth, request, request.params.id);
      const items = row.status === 'SUCCESS' ? await readRequestChapters(jobs.files.chaptersPath(row)) : [];
      const result: RequestChapters = { items };
      return sendResult(reply, result);
    },
  );
}
