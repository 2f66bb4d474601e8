/** The spec's endpoints and their extensions under /api/v1/tts. */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  CALLBACK_ATTEMPT_LIMITS,
  CallbackAttemptListQuerySchema,
  CallbackAttemptListSchema,
  CallbackResultSchema,
  DirectRecordSchema,
  RequestDetailSchema,
  RequestListQuerySchema,
  RequestListSchema,
  RequestRecordSchema,
  TtsRequestSchema,
  type DirectRecord,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { decodeListCursor, encodeListCursor } from '../../platform/list-cursor';
import type { VoiceMapping } from '../../../shared/voice-mapping';
import type { Jobs } from '../../jobs';
import type { RequestRow, Store } from '../../store';
import type { CustomVoices } from '../../voices';
import { voiceAccess, withCustomVoice } from './custom-voices';
import { isStudio, keyFilter, type Auth } from '../auth';
import { submitIdempotently } from '../idempotency';
import { apiRoute, KEY, pathParams, typed } from '../openapi';
import { sendResult } from '../reply';
import {
  checkTtsRequest,
  isRequestId,
  listPage,
  listQueryWording,
  readSubmitBody,
  submitWording,
} from '../validation';
import {
  toCallbackAttempt,
  toCallbackResult,
  toDirectRecord,
  toRequestDetail,
  toRequestRecord,
} from '../views';

const DEFAULT_PAGE_SIZE = 20;

const REQUEST_ID = pathParams({ id: 'The request_id (32 lowercase hex digits).' });

/** The tag of callback-attempts' cursors: `["before", <attempt>]`, the last attempt of the page. */
const ATTEMPT_CURSOR = 'before';

function decodeAttemptCursor(cursor: string): number {
  return decodeListCursor(cursor, ATTEMPT_CURSOR, ([attempt, ...rest]) =>
    rest.length === 0 && Number.isSafeInteger(attempt) && (attempt as number) > 0
      ? (attempt as number)
      : undefined,
  );
}

export interface TtsRouteOptions {
  store: Store;
  jobs: Jobs;
  auth: Auth;
  maxTextChars: number;
  /**
   * How long a submit with `response_type: "direct"` waits for its render, ms; past it the
   * record is answered as it stands and the request carries on.
   */
  directTimeoutMs: number;
  /** Voice codes that are not ours: aliases, and what an unknown code gets. */
  voiceMapping: VoiceMapping;
  /** Custom voices: their codes are taken as voice_code. */
  customVoices?: Pick<CustomVoices, 'find'> | undefined;
}

/**
 * The request `id` if it exists and belongs to the caller's key (any key's for the signed-in
 * studio, which lists them all); otherwise REQUEST_NOT_FOUND (other keys' requests do not exist
 * for a bearer key).
 */
export async function ownedRequest(
  store: Store,
  auth: Auth,
  request: FastifyRequest,
  id: string,
): Promise<RequestRow> {
  const key = await auth.requireKey(request);
  const row = isRequestId(id) ? await store.requests.get(id) : undefined;
  if (!row || (row.key_id !== key.id && !isStudio(request)))
    throw new AppError('REQUEST_NOT_FOUND', `No request "${id}" for this API key.`, { id });
  return row;
}

export function registerTtsRoutes(app: FastifyInstance, options: TtsRouteOptions): void {
  registerSubmitRoute(app, options);
  registerRequestRoutes(app, options);
  registerCallbackRoutes(app, options);
}

/** POST /api/v1/tts: the submit, indirect or direct. */
function registerSubmitRoute(
  app: FastifyInstance,
  { jobs, auth, maxTextChars, directTimeoutMs, voiceMapping, customVoices }: TtsRouteOptions,
): void {
  const routes = typed(app);
  // Direct submits stop waiting once the server starts closing, so they never hold shutdown up.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  /**
   * The direct answer: the record once the request is finished, or as it stands when the limit
   * passes, the server closes or the client goes away first. Only the wait ends: the request,
   * its charge and its callback are those of any submit.
   */
  const waitDirect = async (row: RequestRow, reply: FastifyReply): Promise<DirectRecord> => {
    const stop = new AbortController();
    const onStop = () => stop.abort();
    const timer = setTimeout(onStop, directTimeoutMs);
    reply.raw.once('close', onStop);
    closing.signal.addEventListener('abort', onStop);
    if (closing.signal.aborted) onStop();
    try {
      const latest = await jobs.whenFinished(row.id, stop.signal);
      return toDirectRecord(latest, jobs.progress(latest.id), jobs.links);
    } finally {
      clearTimeout(timer);
      reply.raw.off('close', onStop);
      closing.signal.removeEventListener('abort', onStop);
    }
  };

  routes.post(
    '/api/v1/tts',
    {
      // The service's clients send numbers and generate_srt as strings: read before the schema.
      preValidation: readSubmitBody,
      schema: apiRoute({
        operationId: 'submitTts',
        tag: 'tts',
        summary: 'Submit a text to speak',
        description:
          'The spec\'s submit. `response_type: "indirect"` (default) answers the request record at once; `"direct"` waits for the render and answers the finished record with its links. Numbers and generate_srt may be strings ("128", "1.0", "true"). Optional `Idempotency-Key` header.',
        security: KEY,
        body: TtsRequestSchema,
        result: Type.Union([RequestRecordSchema, DirectRecordSchema]),
        validate: { wording: submitWording },
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const { body } = request;
      const { response_type: responseType, ...input } = checkTtsRequest(
        body,
        maxTextChars,
        await withCustomVoice(
          voiceMapping,
          customVoices,
          voiceAccess(request, key),
          body.voice_code,
          body.input_text,
        ),
      );
      const row = await submitIdempotently(
        jobs,
        request,
        reply,
        { keyId: key.id, source: 'api', ...input },
        { response_type: responseType },
      );
      if (responseType === 'direct') return sendResult(reply, await waitDirect(row, reply));
      return sendResult(reply, toRequestRecord(row, jobs.links));
    },
  );
}

/** The key's requests: list, read, cancel. */
function registerRequestRoutes(app: FastifyInstance, { store, jobs, auth }: TtsRouteOptions): void {
  const routes = typed(app);
  routes.get(
    '/api/v1/tts',
    {
      schema: apiRoute({
        operationId: 'listTts',
        tag: 'tts',
        summary: "The key's requests, newest first",
        security: KEY,
        querystring: RequestListQuerySchema,
        result: RequestListSchema,
        validate: { wording: listQueryWording },
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const { query } = request;
      const { page, pageSize, offset } = listPage(query, DEFAULT_PAGE_SIZE);
      const shown = await keyFilter(store, request, key, query.key);
      const { rows, total } = await store.requests.list({
        keyId: shown?.id,
        status: query.status,
        voiceCode: query.voice_code,
        limit: pageSize,
        offset,
      });
      const items = rows.map((row) => toRequestDetail(row, jobs.progress(row.id), jobs.links));
      return sendResult(reply, { items, page, page_size: pageSize, total });
    },
  );

  routes.get(
    '/api/v1/tts/:id',
    {
      schema: apiRoute({
        operationId: 'getTts',
        tag: 'tts',
        summary: 'A request: status, progress, links',
        security: KEY,
        params: REQUEST_ID,
        result: RequestDetailSchema,
      }),
    },
    async (request, reply) => {
      const row = await ownedRequest(store, auth, request, request.params.id);
      return sendResult(reply, toRequestDetail(row, jobs.progress(row.id), jobs.links));
    },
  );

  routes.post(
    '/api/v1/tts/:id/cancel',
    {
      schema: apiRoute({
        operationId: 'cancelTts',
        tag: 'tts',
        summary: 'Cancel a request (idempotent; the charge is refunded)',
        security: KEY,
        params: REQUEST_ID,
        result: RequestDetailSchema,
      }),
    },
    async (request, reply) => {
      const row = await ownedRequest(store, auth, request, request.params.id);
      // Idempotent: cancelling a finished request changes nothing and answers its record.
      await jobs.cancel(row.id);
      if ((await store.requests.get(row.id))!.status === 'processing') await jobs.whenFinished(row.id);
      const updated = (await store.requests.get(row.id))!;
      return sendResult(reply, toRequestDetail(updated, jobs.progress(row.id), jobs.links));
    },
  );
}

/** A request's callback: its latest attempt, a page of its attempts, deliver it again. */
function registerCallbackRoutes(app: FastifyInstance, { store, jobs, auth }: TtsRouteOptions): void {
  const routes = typed(app);
  routes.get(
    '/api/v1/tts/:id/callback-result',
    {
      schema: apiRoute({
        operationId: 'getTtsCallbackResult',
        tag: 'tts',
        summary: "The latest callback attempt (the spec's)",
        security: KEY,
        params: REQUEST_ID,
        result: CallbackResultSchema,
      }),
    },
    async (request, reply) => {
      const row = await ownedRequest(store, auth, request, request.params.id);
      if (!row.callback_url)
        throw new AppError('NO_CALLBACK_URL', 'This request was submitted without callback_url.');
      const latest = await store.callbacks.latest(row.id);
      if (!latest) {
        throw new AppError(
          'CALLBACK_NOT_ATTEMPTED',
          row.status === 'SUCCESS' || row.status === 'FAILURE'
            ? 'The callback has not been attempted yet; it is about to be.'
            : `The callback has not been attempted yet: the request is ${row.status}.`,
        );
      }
      return sendResult(reply, toCallbackResult(latest));
    },
  );

  routes.get(
    '/api/v1/tts/:id/callback-attempts',
    {
      schema: apiRoute({
        operationId: 'listTtsCallbackAttempts',
        tag: 'tts',
        summary: `A page of a request's callback attempts, newest first (limit: at most ${CALLBACK_ATTEMPT_LIMITS.page}; cursor: a next_cursor); the newest ${CALLBACK_ATTEMPT_LIMITS.kept} are kept`,
        security: KEY,
        params: REQUEST_ID,
        querystring: CallbackAttemptListQuerySchema,
        result: CallbackAttemptListSchema,
        validate: {},
      }),
    },
    async (request, reply) => {
      const row = await ownedRequest(store, auth, request, request.params.id);
      const q = request.query;
      const limit = q.limit === undefined ? CALLBACK_ATTEMPT_LIMITS.pageDefault : Number(q.limit);
      const before = q.cursor === undefined ? undefined : decodeAttemptCursor(q.cursor);
      // One more than the page tells whether another follows.
      const rows = await store.callbacks.page(row.id, { before, limit: limit + 1 });
      const items = rows.slice(0, limit);
      const total = await store.callbacks.count(row.id);
      return sendResult(reply, {
        items: items.map(toCallbackAttempt),
        next_cursor:
          rows.length > limit ? encodeListCursor(ATTEMPT_CURSOR, items[items.length - 1]!.attempt) : null,
        total,
        dropped: Math.max(0, row.callback_attempts - total),
      });
    },
  );

  routes.post(
    '/api/v1/tts/:id/callback-retry',
    {
      schema: apiRoute({
        operationId: 'retryTtsCallback',
        tag: 'tts',
        summary: 'Deliver the callback again',
        security: KEY,
        params: REQUEST_ID,
        result: RequestDetailSchema,
      }),
    },
    async (request, reply) => {
      const row = await ownedRequest(store, auth, request, request.params.id);
      await jobs.deliverer.retry(row);
      const updated = (await store.requests.get(row.id))!;
      return sendResult(reply, toRequestDetail(updated, undefined, jobs.links));
    },
  );
}
