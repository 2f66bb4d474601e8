/** The spec's endpoints and their extensions under /api/v1/tts. */

import type { FastifyInstance } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import { RequestListQuerySchema, type RequestListQuery } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import type { Jobs } from '../../jobs';
import type { KeyRow, RequestRow, Store } from '../../store';
import type { Auth } from '../auth';
import { API_CONTENT_TYPE } from '../errors';
import { parseTtsRequest } from '../validation';
import { toCallbackAttempt, toCallbackResult, toRequestDetail, toRequestRecord } from '../views';

export interface TtsRouteOptions {
  store: Store;
  jobs: Jobs;
  auth: Auth;
  maxTextChars: number;
}

/** The request if it exists and belongs to `key`; otherwise REQUEST_NOT_FOUND (other keys' requests do not exist for you). */
export function ownedRequest(store: Store, key: KeyRow, id: string): RequestRow {
  const row = /^[0-9a-f]{32}$/.test(id) ? store.requests.get(id) : undefined;
  if (!row || row.key_id !== key.id)
    throw new AppError('REQUEST_NOT_FOUND', `No request "${id}" for this API key.`);
  return row;
}

export function registerTtsRoutes(
  app: FastifyInstance,
  { store, jobs, auth, maxTextChars }: TtsRouteOptions,
): void {
  const ok = (result: unknown) => ({ status: 1 as const, result });

  app.post('/api/v1/tts', async (request, reply) => {
    const key = await auth.requireKey(request);
    const input = parseTtsRequest(request.body, maxTextChars);
    const row = await jobs.submit({ keyId: key.id, source: 'api', ...input });
    return reply.type(API_CONTENT_TYPE).send(ok(toRequestRecord(row, jobs.links)));
  });

  app.get<{ Querystring: Record<string, string> }>('/api/v1/tts', async (request, reply) => {
    const key = await auth.requireKey(request);
    const query = request.query;
    const firstError = Value.Errors(RequestListQuerySchema, query).First();
    if (firstError) {
      const field = firstError.path.split('/')[1] ?? 'query';
      throw new AppError('INVALID_FIELD', `Invalid query parameter ${field}: ${firstError.message}.`, {
        field,
      });
    }
    const { page: pageText, page_size: sizeText, status, voice_code } = query as RequestListQuery;
    const page = pageText ? Number(pageText) : 1;
    const pageSize = sizeText ? Number(sizeText) : 20;
    if (pageSize > 100)
      throw new AppError('INVALID_FIELD', 'page_size must be from 1 to 100.', { field: 'page_size' });
    const { rows, total } = store.requests.list({
      keyId: key.id,
      status,
      voiceCode: voice_code,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    const items = rows.map((row) => toRequestDetail(row, jobs.runner.progress(row.id), jobs.links));
    return reply.type(API_CONTENT_TYPE).send(ok({ items, page, page_size: pageSize, total }));
  });

  app.get<{ Params: { id: string } }>('/api/v1/tts/:id', async (request, reply) => {
    const row = ownedRequest(store, await auth.requireKey(request), request.params.id);
    return reply
      .type(API_CONTENT_TYPE)
      .send(ok(toRequestDetail(row, jobs.runner.progress(row.id), jobs.links)));
  });

  app.get<{ Params: { id: string } }>('/api/v1/tts/:id/callback-result', async (request, reply) => {
    const row = ownedRequest(store, await auth.requireKey(request), request.params.id);
    if (!row.callback_url)
      throw new AppError('NO_CALLBACK_URL', 'This request was submitted without callback_url.');
    const latest = store.callbacks.latest(row.id);
    if (!latest) {
      throw new AppError(
        'CALLBACK_NOT_ATTEMPTED',
        row.status === 'SUCCESS' || row.status === 'FAILURE'
          ? 'The callback has not been attempted yet; it is about to be.'
          : `The callback has not been attempted yet: the request is ${row.status}.`,
      );
    }
    return reply.type(API_CONTENT_TYPE).send(ok(toCallbackResult(latest)));
  });

  app.get<{ Params: { id: string } }>('/api/v1/tts/:id/callback-attempts', async (request, reply) => {
    const row = ownedRequest(store, await auth.requireKey(request), request.params.id);
    const attempts = store.callbacks.list(row.id).map(toCallbackAttempt);
    return reply.type(API_CONTENT_TYPE).send(ok({ items: attempts }));
  });

  app.post<{ Params: { id: string } }>('/api/v1/tts/:id/cancel', async (request, reply) => {
    const row = ownedRequest(store, await auth.requireKey(request), request.params.id);
    // Idempotent: cancelling a finished request changes nothing and answers its record.
    jobs.runner.cancel(row.id);
    if (store.requests.get(row.id)!.status === 'processing') await jobs.whenFinished(row.id);
    const updated = store.requests.get(row.id)!;
    return reply
      .type(API_CONTENT_TYPE)
      .send(ok(toRequestDetail(updated, jobs.runner.progress(row.id), jobs.links)));
  });

  app.post<{ Params: { id: string } }>('/api/v1/tts/:id/callback-retry', async (request, reply) => {
    const row = ownedRequest(store, await auth.requireKey(request), request.params.id);
    jobs.deliverer.retry(row);
    const updated = store.requests.get(row.id)!;
    return reply.type(API_CONTENT_TYPE).send(ok(toRequestDetail(updated, undefined, jobs.links)));
  });
}
