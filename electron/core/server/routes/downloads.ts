/**
 * GET /files/<id>/<token>/<name>: a finished request's audio or subtitles. The token in the
 * link is the only credential (callback receivers have no key); anything wrong is a plain 404.
 */

import type { FastifyInstance } from 'fastify';
import { downloadName } from '../../../shared/download-name';
import { AppError } from '../../../shared/errors';
import { AUDIO_CONTENT_TYPES, AUDIO_FORMATS } from '../../../shared/options';
import type { Jobs } from '../../jobs';
import type { Store } from '../../store';
import { CONTENT_TYPES, sendFile } from '../files';
import { sameSecret } from '../security';
import { isRequestId } from '../validation';
import { apiRoute, binary, pathParams, PUBLIC, typed } from '../openapi';

export function registerDownloadRoute(
  app: FastifyInstance,
  { store, jobs }: { store: Store; jobs: Jobs },
): void {
  typed(app).get(
    '/files/:id/:token/:name',
    {
      schema: apiRoute({
        operationId: 'downloadRequestFile',
        tag: 'files',
        summary: "A finished request's audio (audio.<format>) or subtitles (subtitles.srt), by its link",
        security: PUBLIC,
        params: pathParams({
          id: 'The request_id.',
          token: 'The token of the link.',
          name: `audio.<${AUDIO_FORMATS.join('|')}> or subtitles.srt`,
        }),
        result: binary('The audio or the subtitles (Range requests are answered)', [
          ...Object.values(AUDIO_CONTENT_TYPES),
          'application/x-subrip',
        ]),
        validate: {},
      }),
    },
    async (request, reply) => {
      const { id, token, name } = request.params;
      const row = isRequestId(id) ? await store.requests.get(id) : undefined;
      const notFound = new AppError('NOT_FOUND', 'No such file.');
      if (!row) throw notFound;
      if (!sameSecret(token, row.download_token)) throw notFound;
      if (row.status !== 'SUCCESS') throw notFound;
      if (name === `audio.${row.audio_type}`) {
        return sendFile(
          request,
          reply,
          { files: jobs.files, path: jobs.files.audioPath(row) },
          CONTENT_TYPES[row.audio_type],
          downloadName({ text: row.input_text, voice: row.voice_code, extension: row.audio_type }),
        );
      }
      if (name === 'subtitles.srt' && row.generate_srt) {
        return sendFile(
          request,
          reply,
          { files: jobs.files, path: jobs.files.srtPath(row) },
          CONTENT_TYPES.srt,
          downloadName({ text: row.input_text, voice: row.voice_code, extension: 'srt' }),
        );
      }
      throw notFound;
    },
  );
}
