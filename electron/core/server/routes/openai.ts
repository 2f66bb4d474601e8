/**
 * OpenAI-compatible speech API: `POST /v1/audio/speech` answers with the audio (streamed as
 * it renders, see speech-stream.ts), `GET /v1/models` and `GET /v1/audio/voices` list what it
 * takes. Speech goes through the same queue, credits and history as the spec's API (source
 * "openai"), so a crash mid-way still finishes the request on restart. Errors use OpenAI's shape.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import { isAppError } from '../../../shared/errors';
import type { Jobs } from '../../jobs';
import type { Auth } from '../auth';
import { HTTP_STATUS, setRetryAfter, toAppError } from '../errors';
import { submitIdempotently } from '../idempotency';
import { openAiModels, openAiVoiceNames, parseOpenAiSpeech } from '../openai-compat';
import { sendSpeech } from '../speech-stream';

export function registerOpenAiRoutes(
  app: FastifyInstance,
  { jobs, auth, maxTextChars }: { jobs: Jobs; auth: Auth; maxTextChars: number },
): void {
  app.post('/v1/audio/speech', async (request, reply) => {
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
  });

  app.get('/v1/models', async (request, reply) => {
    try {
      await auth.requireKey(request);
      return await reply.send({ object: 'list', data: openAiModels() });
    } catch (error) {
      return sendOpenAiError(reply, error);
    }
  });

  app.get<{ Params: { id: string } }>('/v1/models/:id', async (request, reply) => {
    try {
      await auth.requireKey(request);
      const model = openAiModels().find((m) => m.id === request.params.id);
      if (!model) {
        return await reply.code(404).send({
          error: {
            message: `The model '${request.params.id}' does not exist`,
            type: 'invalid_request_error',
            param: 'model',
            code: 'model_not_found',
          },
        });
      }
      return await reply.send(model);
    } catch (error) {
      return sendOpenAiError(reply, error);
    }
  });

  app.get('/v1/audio/voices', async (request, reply) => {
    try {
      await auth.requireKey(request);
      return await reply.send({ voices: openAiVoiceNames() });
    } catch (error) {
      return sendOpenAiError(reply, error);
    }
  });
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
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({
      error: {
        message: status >= 500 && appError.code === 'INTERNAL' ? 'Internal error.' : appError.message,
        type,
        param,
        code: appError.code,
      },
    });
}
