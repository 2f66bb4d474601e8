/**
 * Kokoro-FastAPI's own routes (remsky/Kokoro-FastAPI, `api/src/routers/development.py` and
 * `openai_compatible.py`), for clients written against it:
 * - `POST /dev/captioned_speech`: the speech of POST /v1/audio/speech (same body, key, queue,
 *   credits and history) with its words' times. `stream: false`: one JSON object
 *   `{audio: <base64>, audio_format: <content type>, timestamps: [{word, start_time, end_time}]}`
 *   (seconds); `stream: true` (their default): one such object per line as the audio renders,
 *   the words coming in the last line (our word timings are known once the render is done).
 * - `GET /v1/download/<file>`, and `GET /download/<file>`: the finished file an
 *   `X-Download-Path` header named (`return_download_link`). That header says `/download/<file>`
 *   while Kokoro-FastAPI serves it under `/v1` (its web player adds the prefix), so a client
 *   that resolves the header against the server's root finds it too; both addresses answer
 *   alike. Kokoro-FastAPI asks no key here; neither do we: the name holds the request's
 *   download token, as the spec's download links do.
 */

import { buffer } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import {
  CaptionedSpeechSchema,
  OpenAiSpeechRequestSchema,
  type CaptionedSpeech,
  type WordTimestamp,
} from '../../../shared/api';
import { AppError, type ErrorCode } from '../../../shared/errors';
import type { AudioFormat } from '../../../shared/options';
import { isWordTiming, readTimings } from '../../jobs';
import { outsideNameProblem } from '../../platform/outside-names';
import type { RequestRow, Store } from '../../store';
import { CONTENT_TYPES, sendFile } from '../files';
import { openAiSpeechWording, parseDownloadName } from '../openai-compat';
import { sameSecret } from '../security';
import { sendSpeech, type SpeechFraming } from '../speech-stream';
import { binary, KEY, openAiRoute, pathParams, PUBLIC, typed } from '../openapi';
import { acceptSpeech, sendOpenAiError, type OpenAiRouteOptions } from './openai';

/** `audio_format` as Kokoro-FastAPI names it (its `content_type` table; others `audio/<format>`). */
const KOKORO_AUDIO_FORMAT: Record<AudioFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** The words of a finished request, from the timings its render kept (SSML marks left out). */
async function timestampsOf(path: string): Promise<WordTimestamp[]> {
  const items = await readTimings(path).catch((error: unknown) => {
    throw new AppError('ENGINE_FAILED', 'The word timings of this request are gone.', undefined, {
      cause: error,
    });
  });
  return items
    .filter(isWordTiming)
    .map((item) => ({ word: item.text, start_time: item.startMs / 1000, end_time: item.endMs / 1000 }));
}

function failure(row: RequestRow): AppError {
  return new AppError(
    (row.error_code ?? 'ENGINE_FAILED') as ErrorCode,
    row.error_message ?? 'Synthesis failed.',
  );
}

export function registerKokoroFastApiRoutes(
  app: FastifyInstance,
  options: OpenAiRouteOptions & { store: Store },
): void {
  const { jobs, store } = options;

  typed(app).post(
    '/dev/captioned_speech',
    {
      schema: openAiRoute({
        operationId: 'createCaptionedSpeech',
        summary:
          "Kokoro-FastAPI's captioned speech: the audio (base64) and its words' times, whole or as lines of JSON",
        description:
          'The body of POST /v1/audio/speech (same key, queue, credits and history). `stream: false`: one JSON object; `stream: true` (the default): one object per line as the audio renders, the words in the last line.',
        security: KEY,
        body: OpenAiSpeechRequestSchema,
        validate: { wording: openAiSpeechWording },
        result: CaptionedSpeechSchema,
      }),
    },
    async (request, reply) => {
      try {
        const { speech, row } = await acceptSpeech(options, request, reply, request.body, {
          wordTimings: true,
        });
        const audioFormat = KOKORO_AUDIO_FORMAT[row.audio_type];
        const words = async (done: RequestRow) =>
          speech.timestamps ? await timestampsOf(jobs.files.timingsPath(done)) : null;
        reply.header('x-request-id', row.id);
        if (!speech.stream) {
          const done = await jobs.whenFinished(row.id);
          if (done.status !== 'SUCCESS') throw failure(done);
          const audio = await buffer(jobs.files.read(jobs.files.audioPath(done))).catch((error: unknown) => {
            throw new AppError('NOT_FOUND', 'The file is gone from the data directory.', undefined, {
              cause: error,
            });
          });
          return await reply
            .code(200)
            .type('application/json')
            .send({
              audio: audio.toString('base64'),
              audio_format: audioFormat,
              timestamps: await words(done),
            } satisfies CaptionedSpeech);
        }
        const line = (audio: Uint8Array, timestamps: WordTimestamp[] | null) =>
          `${JSON.stringify({ audio: Buffer.from(audio).toString('base64'), audio_format: audioFormat, timestamps })}\n`;
        const framing: SpeechFraming = {
          contentType: 'application/json',
          wrap: (bytes) => line(bytes, []),
          closing: async (done) => line(new Uint8Array(0), await words(done)),
        };
        return await sendSpeech({ request, reply, jobs, row, streamFormat: framing });
      } catch (error) {
        return sendOpenAiError(reply, error);
      }
    },
  );

  for (const { path, operationId, where } of [
    { path: '/v1/download/:file', operationId: 'downloadSpeechFile', where: "Kokoro-FastAPI's address" },
    {
      path: '/download/:file',
      operationId: 'downloadSpeechFileFromRoot',
      where: 'The X-Download-Path as it is, from the root',
    },
  ]) {
    app.get<{ Params: { file: string } }>(
      path,
      {
        schema: openAiRoute({
          operationId,
          summary:
            "The finished file an X-Download-Path header named (Kokoro-FastAPI's return_download_link)",
          description: `${where}. No key: the name holds the request's download token, as the spec's download links do.`,
          security: PUBLIC,
          params: pathParams({ file: 'The name from X-Download-Path: <request id>-<token>.<format>.' }),
          result: binary(
            'The audio file',
            Object.values(CONTENT_TYPES).filter((type) => type.startsWith('audio/')),
          ),
        }),
      },
      async (request, reply) => {
        try {
          const { file } = request.params;
          const notFound = new AppError('NOT_FOUND', 'Audio file not found.');
          // The name never becomes a path (the request's row says where its file is); a name that
          // could not be a file name is refused as not found all the same.
          if (outsideNameProblem(file) !== undefined) throw notFound;
          const name = parseDownloadName(file);
          const row = name && (await store.requests.get(name.id));
          if (!name || !row || !sameSecret(name.token, row.download_token)) throw notFound;
          if (row.status !== 'SUCCESS' || name.format !== row.audio_type) throw notFound;
          return await sendFile(
            request,
            reply,
            { files: jobs.files, path: jobs.files.audioPath(row) },
            CONTENT_TYPES[row.audio_type],
            `speech.${row.audio_type}`,
          );
        } catch (error) {
          return sendOpenAiError(reply, error);
        }
      },
    );
  }
}
