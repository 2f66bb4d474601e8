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
import { Type } from '@sinclair/typebox';
import { isAppError } from '../../../shared/errors';
import { AUDIO_CONTENT_TYPES } from '../../../shared/options';
import type { Jobs } from '../../jobs';
import type { Auth } from '../auth';
import { HTTP_STATUS, setRetryAfter, toAppError } from '../errors';
import { submitIdempotently } from '../idempotency';
import type { RequestRow } from '../../store';
import {
  engineLabel,
  PUBLIC_ACCESS,
  type CustomVoiceAccess,
  type CustomVoices,
  type VoiceLibrary,
} from '../../voices';
import { voiceAccess, withCustomVoice } from './custom-voices';
import {
  DOWNLOAD_PATH_HEADER,
  downloadPath,
  openAiModelEntry,
  openAiModelFor,
  openAiModels,
  openAiVoices,
  checkOpenAiSpeech,
  openAiSpeechWording,
  speechVoiceName,
  type ValidSpeechRequest,
} from '../openai-compat';
import { sendSpeech } from '../speech-stream';
import type { VoiceMapping } from '../../../shared/voice-mapping';
import {
  OpenAiSpeechRequestSchema,
  type OpenAiErrorBody,
  type OpenAiSpeechRequest,
} from '../../../shared/api';
import { binary, KEY, openAiRoute, pathParams, PUBLIC, typed } from '../openapi';
import { redactPaths } from '../../platform/redact-paths';

/** GET /v1/audio/voices' query: `legacy=true` (or `1`) answers plain strings. */
const OpenAiVoicesQuerySchema = Type.Object({
  legacy: Type.Optional(
    Type.String({ description: "`true` or `1`: plain strings, Kokoro-FastAPI's older shape." }),
  ),
});

export interface OpenAiRouteOptions {
  jobs: Jobs;
  auth: Auth;
  maxTextChars: number;
  /** The voice library, to say which voice speaks (X-Narration-Voice); without it, eSpeak. */
  voices?: Pick<VoiceLibrary, 'resolve' | 'kokoroVoice'> | undefined;
  /** `--voice-alias` and `--unknown-voices`: how a name that is not ours is spoken. */
  voiceMapping: VoiceMapping;
  /** Custom voices: their codes are taken as `voice` and listed by GET /v1/audio/voices. */
  customVoices?: Pick<CustomVoices, 'find' | 'list'> | undefined;
}

/** Names the voice that speaks a request: its engine label, e.g. `kokoro:kokoro-v1.0-q8#af_bella`. */
const NARRATION_VOICE_HEADER = 'X-Narration-Voice';

/**
 * Checks, stores and queues a speech request (POST /v1/audio/speech, POST /dev/captioned_speech),
 * and sets the headers every answer has: `X-Narration-Voice` (which voice speaks it: a Kokoro
 * name or mix spoken by our voice in its stead adds `; in-place-of=<name>; voice-code=<code>`)
 * and, with Kokoro-FastAPI's `return_download_link`, `X-Download-Path`.
 */
export async function acceptSpeech(
  { jobs, auth, maxTextChars, voices, voiceMapping, customVoices }: OpenAiRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
  body: OpenAiSpeechRequest,
  { wordTimings = false }: { wordTimings?: boolean } = {},
): Promise<{ speech: ValidSpeechRequest; row: RequestRow }> {
  const key = await auth.requireKey(request);
  const named = speechVoiceName(body.voice);
  const speech = checkOpenAiSpeech(
    body,
    maxTextChars,
    await withCustomVoice(voiceMapping, customVoices, voiceAccess(request, key), named),
  );
  const { request: input } = speech;
  const row = await submitIdempotently(
    jobs,
    request,
    reply,
    { keyId: key.id, source: 'openai', ...input, word_timings: wordTimings },
    {
      stream_format: speech.streamFormat,
      download_link: speech.downloadLink,
      ...(wordTimings ? { stream: speech.stream, timestamps: speech.timestamps } : {}),
    },
  );
  // As the render will choose (a library it cannot read leaves the request to eSpeak).
  const kokoro = speech.kokoro && (await voices?.kokoroVoice(speech.kokoro).catch(() => undefined));
  let speaks = kokoro?.label;
  if (speaks === undefined) {
    const resolved = await voices
      ?.resolve(input.spoken?.voice_code ?? input.voice_code, input.model_id)
      .catch(() => undefined);
    const label = resolved ? engineLabel(resolved) : 'espeak';
    speaks = speech.kokoro
      ? `${label}; in-place-of=${speech.kokoro.text}; voice-code=${input.voice_code}`
      : label;
  }
  reply.header(NARRATION_VOICE_HEADER, speaks);
  if (speech.downloadLink) reply.header(DOWNLOAD_PATH_HEADER, downloadPath(row));
  return { speech, row };
}

export function registerOpenAiRoutes(app: FastifyInstance, options: OpenAiRouteOptions): void {
  const { auth } = options;
  const routes = typed(app);
  routes.post(
    '/v1/audio/speech',
    {
      schema: openAiRoute({
        operationId: 'createSpeech',
        summary: "Speak a text (OpenAI speech API): the audio streamed as it renders, or OpenAI's SSE events",
        security: KEY,
        body: OpenAiSpeechRequestSchema,
        validate: { wording: openAiSpeechWording },
        result: binary('The audio (`response_format`), or events with `stream_format: "sse"`', [
          ...Object.values(AUDIO_CONTENT_TYPES),
          'text/event-stream',
        ]),
      }),
    },
    async (request, reply) => {
      try {
        const { speech, row } = await acceptSpeech(options, request, reply, request.body);
        return await sendSpeech({
          request,
          reply,
          jobs: options.jobs,
          row,
          streamFormat: speech.streamFormat,
        });
      } catch (error) {
        return sendOpenAiError(reply, error);
      }
    },
  );

  /**
   * A public list: answered without a key; a presented key must be valid. `access` is whose custom
   * voices the caller reaches: the studio's only without a key (or session).
   */
  const publicList = async (
    request: FastifyRequest,
    reply: FastifyReply,
    answer: (access: CustomVoiceAccess) => FastifyReply | Promise<FastifyReply>,
  ): Promise<FastifyReply> => {
    try {
      const key =
        request.headers.authorization !== undefined || request.sessionKey
          ? await auth.requireKey(request)
          : undefined;
      return await answer(key ? voiceAccess(request, key) : PUBLIC_ACCESS);
    } catch (error) {
      return sendOpenAiError(reply, error);
    }
  };

  routes.get(
    '/v1/models',
    {
      schema: openAiRoute({
        operationId: 'listModels',
        summary: 'Model names the speech route takes (no key needed)',
        security: PUBLIC,
      }),
    },
    (request, reply) =>
      publicList(request, reply, () => reply.send({ object: 'list', data: openAiModels() })),
  );

  routes.get(
    '/v1/models/:id',
    {
      schema: openAiRoute({
        operationId: 'getModel',
        summary: 'One model name (no key needed)',
        security: PUBLIC,
        params: pathParams({ id: 'A model name.' }),
        validate: {},
      }),
    },
    (request, reply) =>
      publicList(request, reply, () => {
        const { id } = request.params;
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
  routes.get(
    '/v1/audio/models',
    {
      schema: openAiRoute({
        operationId: 'listAudioModels',
        summary: 'The same list as {models: […]} (Kokoro-FastAPI, Open WebUI; no key needed)',
        security: PUBLIC,
      }),
    },
    (request, reply) => publicList(request, reply, () => reply.send({ models: openAiModels() })),
  );

  // `?legacy=true`: plain strings, Kokoro-FastAPI's older shape (wyoming_openai reads it).
  routes.get(
    '/v1/audio/voices',
    {
      schema: openAiRoute({
        operationId: 'listAudioVoices',
        summary:
          'Voice names and codes (Kokoro-FastAPI, Open WebUI; no key needed); ?legacy=true: plain strings',
        security: PUBLIC,
        querystring: OpenAiVoicesQuerySchema,
        validate: {},
      }),
    },
    (request, reply) =>
      publicList(request, reply, async (access) => {
        const voices = openAiVoices((await options.customVoices?.list(access)) ?? []);
        const { legacy } = request.query;
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
      message:
        status >= 500 && appError.code === 'INTERNAL' ? 'Internal error.' : redactPaths(appError.message),
      type,
      param,
      code: appError.code,
    },
  };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}
