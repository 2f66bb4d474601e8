/**
 * OpenAI-compatible speech API: `POST /v1/audio/speech` answers with the audio (streamed as
 * it renders, see speech-stream.ts), `GET /v1/models`, `GET /v1/audio/models` and
 * `GET /v1/audio/voices` list what it takes. Speech goes through the same queue, credits and
 * history as the spec's API (source "openai"), so a crash mid-way still finishes the request on
 * restart. Errors use OpenAI's shape.
 *
 * The lists are the public catalogue (like GET /api/v1/voices): readable without a key, as
 * Open WebUI asks for them. A request that does present a key still has it checked (a wrong
 * one is refused and counts towards the failed-authentication throttle), so an app's
 * "test the connection" call with `client.models.list()` still catches a mistyped key; a
 * keyless read never touches the throttle.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../../../shared/errors';
import type { Jobs } from '../../jobs';
import type { Auth } from '../auth';
import { HTTP_STATUS, setRetryAfter, toAppError } from '../errors';
import { submitIdempotently } from '../idempotency';
import {
  openAiModelEntry,
  openAiModelFor,
  openAiModels,
  openAiVoices,
  parseOpenAiSpeech,
} from '../openai-compat';
import { sendSpeech } from '../speech-stream';
import { OpenAiSpeechRequestSchema, type OpenAiErrorBody } from '../../../shared/api';
import { binary, KEY, openAiRoute, pathParams, PUBLIC } from '../openapi';

export function registerOpenAiRoutes(
  app: FastifyInstance,
  { jobs, auth, maxTextChars }: { jobs: Jobs; auth: Auth; maxTextChars: number },
): void {
  app.post(
    '/v1/audio/speech',
    {
      schema: openAiRoute({
        operationId: 'createSpeech',
        summary: "Speak a text (OpenAI speech API): the audio streamed as it renders, or OpenAI's SSE events",
        security: KEY,
        body: OpenAiSpeechRequestSchema,
        result: binary('The audio (`response_format`), or events with `stream_format: "sse"`', [
          'audio/mpeg',
          'audio/wav',
          'audio/ogg',
          'audio/aac',
          'audio/flac',
          'audio/L16',
          'text/event-stream',
        ]),
      }),
    },
    async (request, reply) => {
      try {
        const key = await auth.requireKey(request);
        const { request: input, streamFormat } = parseOpenAiSpeech(request.body, maxTextChars);
        const row = await submitIdempotently(
          jobs,
          request,
          reply,
          { keyId: key.id, source: 'openai', ...input },
          { stream_format: streamFormat },
        );
        return await sendSpeech({ request, reply, jobs, row, streamFormat });
      } catch (error) {
        return sendOpenAiError(reply, error);
      }
    },
  );

  /** A public list: answered without a key; a presented key must be valid. */
  const publicList =
    (answer: (request: FastifyRequest, reply: FastifyReply) => FastifyReply) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        if (request.headers.authorization !== undefined) await auth.requireKey(request);
        return await answer(request, reply);
      } catch (error) {
        return sendOpenAiError(reply, error);
      }
    };

  app.get(
    '/v1/models',
    {
      schema: openAiRoute({
        operationId: 'listModels',
        summary: 'Model names the speech route takes (no key needed)',
        security: PUBLIC,
      }),
    },
    publicList((_request, reply) => reply.send({ object: 'list', data: openAiModels() })),
  );

  app.get(
    '/v1/models/:id',
    {
      schema: openAiRoute({
        operationId: 'getModel',
        summary: 'One model name (no key needed)',
        security: PUBLIC,
        params: pathParams({ id: 'A model name.' }),
      }),
    },
    publicList((request, reply) => {
      const { id } = request.params as { id: string };
      if (openAiModelFor(id)) return reply.send(openAiModelEntry(id));
      return reply.code(404).send({
        error: {
          message: `The model '${id}' does not exist`,
          type: 'invalid_request_error',
          param: 'model',
          code: 'model_not_found',
        },
      });
    }),
  );

  // Open WebUI reads `models[].id`.
  app.get(
    '/v1/audio/models',
    {
      schema: openAiRoute({
        operationId: 'listAudioModels',
        summary: 'The same list as {models: […]} (Kokoro-FastAPI, Open WebUI; no key needed)',
        security: PUBLIC,
      }),
    },
    publicList((_request, reply) => reply.send({ models: openAiModels() })),
  );

  // `?legacy=true`: plain strings, Kokoro-FastAPI's older shape (wyoming_openai reads it).
  app.get(
    '/v1/audio/voices',
    {
      schema: openAiRoute({
        operationId: 'listAudioVoices',
        summary:
          'Voice names and codes (Kokoro-FastAPI, Open WebUI; no key needed); ?legacy=true: plain strings',
        security: PUBLIC,
      }),
    },
    publicList((request, reply) => {
      const voices = openAiVoices();
      const { legacy } = request.query as { legacy?: unknown };
      const plain = legacy === 'true' || legacy === '1';
      return reply.send({ voices: plain ? voices.map((voice) => voice.id) : voices });
    }),
  );
}

/** Sends any error in OpenAI's `{error: {message, type, param, code}}` shape. */
export function sendOpenAiError(reply: FastifyReply, error: unknown): FastifyReply {
  const appError = toAppError(error);
  const status = HTTP_STATUS[appError.code] ?? 500;
  const type =
    status === 401
      ? 'authentication_error'
      : status === 429 || status === 402
        ? 'insufficient_quota'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error';
  const param =
    isAppError(appError) && typeof appError.details?.field === 'string' ? appError.details.field : null;
  setRetryAfter(reply, appError);
  const body: OpenAiErrorBody = {
    error: {
      message: status >= 500 && appError.code === 'INTERNAL' ? 'Internal error.' : appError.message,
      type,
      param,
      code: appError.code,
    },
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
