/**
 * OpenAI-compatible POST /v1/audio/speech: synchronous, returns the audio in the body.
 * It goes through the same queue, credits and history as the spec's API (source "openai"),
 * so a crash mid-way still finishes the request on restart. Errors use OpenAI's shape.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError, isAppError } from '../../../shared/errors';
import type { Jobs } from '../../jobs';
import type { Auth } from '../auth';
import { HTTP_STATUS, setRetryAfter, toAppError } from '../errors';
import { CONTENT_TYPES, sendFile } from '../files';
import { parseOpenAiSpeech } from '../validation';

export function registerOpenAiRoutes(
  app: FastifyInstance,
  { jobs, auth, maxTextChars }: { jobs: Jobs; auth: Auth; maxTextChars: number },
): void {
  app.post('/v1/audio/speech', async (request, reply) => {
    try {
      const key = await auth.requireKey(request);
      const input = parseOpenAiSpeech(request.body, maxTextChars);
      const accepted = await jobs.submit({ keyId: key.id, source: 'openai', ...input });
      const row = await jobs.whenFinished(accepted.id);
      if (row.status !== 'SUCCESS') {
        throw new AppError(
          (row.error_code ?? 'ENGINE_FAILED') as never,
          row.error_message ?? 'Synthesis failed.',
        );
      }
      return await sendFile(
        request,
        reply,
        jobs.files.audioPath(row),
        CONTENT_TYPES[row.audio_type],
        `speech.${row.audio_type}`,
      );
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
