/**
 * Audiobook exports as API jobs: POST /api/v1/exports (accept, charge), GET /api/v1/exports
 * (the key's own, newest first), GET /api/v1/exports/<id>, POST /api/v1/exports/<id>/cancel,
 * DELETE /api/v1/exports/<id> (cancel if needed, then remove its files), and the downloads
 * GET /files/exports/<id>/<token>/book.<ext> and …/loudness.json (the token is the credential,
 * as for a request's audio). Progress arrives as `export` events on GET /api/v1/events.
 */

import type { FastifyInstance } from 'fastify';
import {
  ExportRecordSchema,
  ExportListSchema,
  ExportRemovalSchema,
  ExportBodySchema,
  ExportListQuerySchema,
  MAX_COVER_BYTES,
  MAX_ID3_CHAPTERS,
  type CoverImage,
  type ExportBody,
  type ExportChapter,
  type ExportFileReport,
  type ExportRecord,
} from '../../../shared/book-exports';
import { BOOK_CONTENT_TYPES } from '../../../shared/book-formats';
import { downloadName } from '../../../shared/download-name';
import { AppError } from '../../../shared/errors';
import { DEFAULT_SYNTHESIS, isOneDecimalInRange, RATE_MAX, RATE_MIN } from '../../../shared/options';
import { cleanText } from '../../../shared/text';
import { toCredits } from '../../../shared/pricing';
import { NO_VOICE_MAPPING, type VoiceMapping } from '../../../shared/voice-mapping';
import { parseChapters } from '../../engine';
import { bookExtension, type ExportInput, type Jobs } from '../../jobs';
import type { ExportRow, KeyRow, Store } from '../../store';
import type { Auth } from '../auth';
import { sendFile } from '../files';
import { sendResult } from '../reply';
import { sameSecret } from '../security';
import type { CustomVoices } from '../../voices';
import { isRequestId, listPage, listQueryWording, measureText, resolveVoice, spokenBy } from '../validation';
import { ruleWording } from '../route-validation';
import { voiceAccess, withCustomVoice } from './custom-voices';
import { apiRoute, binary, KEY, pathParams, PUBLIC, typed } from '../openapi';
import { redactPaths } from '../../platform/redact-paths';
import { storedDetails } from '../../platform/error-details';

const DEFAULT_PAGE_SIZE = 20;

/** A body holds the text and a cover in base64 (4 bytes for each 3): room for both. */
const EXPORT_BODY_LIMIT = Math.ceil((MAX_COVER_BYTES * 4) / 3) + 2 * 1024 * 1024;

const RULES: Record<keyof ExportBody, string> = {
  input_text: 'input_text must be a string',
  voice_code: 'voice_code must be a string',
  model_id: 'model_id must be one of std-v1.6, std-v1.5, std-v1.5-turbo, std-v1',
  speed_rate: `speed_rate must be a number from ${RATE_MIN} to ${RATE_MAX.toFixed(1)} with at most one digit after the decimal point`,
  pitch_rate: `pitch_rate must be a number from ${RATE_MIN} to ${RATE_MAX.toFixed(1)} with at most one digit after the decimal point`,
  volume: 'volume must be an integer from 50 to 150',
  preset: 'preset must be "acx", "podcast" or "none"',
  format: 'format must be "m4b", "mp3" or "folder"',
  folder_format: 'folder_format must be "mp3" or "wav"',
  title: 'title must be a string of at most 500 characters',
  author: 'author must be a string of at most 500 characters',
  cover: 'cover must be a JPEG or PNG picture in base64',
};

/** The cover's bytes and type from base64 (an optional data: URL prefix); INVALID_FIELD otherwise. */
function parseCover(text: string): CoverImage {
  const invalid = (why: string) =>
    new AppError('INVALID_FIELD', `${RULES.cover}: ${why}.`, { field: 'cover' });
  const base64 = text.replace(/^data:image\/(?:jpeg|png);base64,/i, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) throw invalid('not base64');
  const data = Buffer.from(base64, 'base64');
  if (data.length > MAX_COVER_BYTES) throw invalid(`it has ${data.length} bytes, at most ${MAX_COVER_BYTES}`);
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) {
    return { data, mimeType: 'image/jpeg' };
  }
  if (
    data.length >= 8 &&
    data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return { data, mimeType: 'image/png' };
  }
  throw invalid('it is neither');
}

/**
 * Checks what ExportBodySchema cannot (fastify checked the rest, worded by RULES) and applies
 * the defaults. Throws AppError INVALID_FIELD, UNKNOWN_VOICE, NOTHING_TO_SPEAK or TEXT_TOO_LONG.
 */
function checkExportBody(
  request: ExportBody,
  maxTextChars: number,
  voiceMapping: VoiceMapping = NO_VOICE_MAPPING,
): Omit<ExportInput, 'keyId'> {
  for (const field of ['speed_rate', 'pitch_rate'] as const) {
    const value = request[field];
    if (value !== undefined && !isOneDecimalInRange(value, RATE_MIN, RATE_MAX)) {
      throw new AppError('INVALID_FIELD', `${RULES[field]}.`, { field });
    }
  }
  // Looked up as the spec's submit route does: a catalogue code, or a custom voice (its
  // definition kept as accepted: later edits and deletes change nothing accepted).
  const voice = resolveVoice(
    request.voice_code,
    voiceMapping,
    `Unknown voice_code "${request.voice_code}". GET /api/v1/voices lists the voices.`,
    'voice_code',
  );
  const { custom_voice } = spokenBy(voice);
  const format = request.format ?? 'm4b';
  if (request.folder_format !== undefined && format !== 'folder') {
    throw new AppError('INVALID_FIELD', 'folder_format applies only to format "folder".', {
      field: 'folder_format',
    });
  }
  const { text, characters } = measureText(
    request.input_text,
    maxTextChars,
    'input_text',
    voice.voice.voice_code,
  );
  // Refused here rather than charged and failed later: what the exporter would refuse.
  const chapters = parseChapters(cleanText(text));
  if (chapters.length === 0) {
    throw new AppError(
      'NOTHING_TO_SPEAK',
      'input_text has nothing to speak (only punctuation, symbols or emoji).',
      {
        field: 'input_text',
      },
    );
  }
  if (format === 'mp3' && chapters.length > MAX_ID3_CHAPTERS) {
    throw new AppError(
      'INVALID_FIELD',
      `An MP3 can list at most ${MAX_ID3_CHAPTERS} chapters and this book has ${chapters.length}: export to m4b or folder.`,
      { field: 'format' },
    );
  }
  // Cleaned as the text is (control characters out: PostgreSQL cannot store U+0000).
  const tag = (value: string | undefined) => (value === undefined ? '' : cleanText(value).trim()) || null;
  return {
    text,
    characters,
    voice_code: request.voice_code,
    model_id: request.model_id ?? DEFAULT_SYNTHESIS.model_id,
    speed_rate: request.speed_rate ?? DEFAULT_SYNTHESIS.speed_rate,
    pitch_rate: request.pitch_rate ?? DEFAULT_SYNTHESIS.pitch_rate,
    volume: request.volume ?? DEFAULT_SYNTHESIS.volume,
    preset: request.preset ?? 'acx',
    format,
    folder_format: format === 'folder' ? (request.folder_format ?? 'mp3') : null,
    title: tag(request.title),
    author: tag(request.author),
    cover: request.cover !== undefined && request.cover !== '' ? parseCover(request.cover) : null,
    custom_voice: custom_voice ?? null,
  };
}

/** The API's record of an export. */
function toExportRecord(row: ExportRow, jobs: Jobs): ExportRecord {
  const success = row.status === 'SUCCESS';
  return {
    export_id: row.id,
    status: row.status,
    progress: jobs.exports.progress(row),
    eta_seconds: jobs.exports.eta(row),
    characters: row.characters,
    voice_code: row.voice_code,
    model_id: row.model_id,
    speed_rate: row.speed_rate,
    pitch_rate: row.pitch_rate,
    volume: row.volume,
    preset: row.preset,
    format: row.format,
    folder_format: row.folder_format,
    title: row.title,
    author: row.author,
    has_cover: row.cover_type !== null,
    cost: toCredits(row.cost_milli),
    chapters: row.chapters ? (JSON.parse(row.chapters) as ExportChapter[]) : [],
    files: row.report ? (JSON.parse(row.report) as ExportFileReport[]) : [],
    duration_ms: row.duration_ms,
    file_bytes: row.file_bytes,
    file_link: success ? jobs.exports.fileLink(row) : null,
    report_link: success ? jobs.exports.reportLink(row) : null,
    error_code: row.error_code,
    error_message: row.error_message === null ? null : redactPaths(row.error_message),
    ...storedDetails(row.error_details),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/** The export if it exists and belongs to `key`; otherwise EXPORT_NOT_FOUND. */
async function ownedExport(store: Store, key: KeyRow, id: string): Promise<ExportRow> {
  const row = isRequestId(id) ? await store.exports.get(id) : undefined;
  if (!row || row.key_id !== key.id)
    throw new AppError('EXPORT_NOT_FOUND', `No export "${id}" for this API key.`, { id });
  return row;
}

export interface ExportRouteOptions {
  store: Store;
  jobs: Jobs;
  auth: Auth;
  maxTextChars: number;
  /** Custom voices: their codes are taken as voice_code. */
  customVoices?: Pick<CustomVoices, 'find'> | undefined;
}

export function registerExportRoutes(app: FastifyInstance, options: ExportRouteOptions): void {
  registerExportRecordRoutes(app, options);
  registerExportFileRoute(app, options);
}

/** Submit, list, read, cancel and delete the key's exports. */
function registerExportRecordRoutes(
  app: FastifyInstance,
  { store, jobs, auth, maxTextChars, customVoices }: ExportRouteOptions,
): void {
  const routes = typed(app);
  routes.post(
    '/api/v1/exports',
    {
      schema: apiRoute({
        operationId: 'submitExport',
        tag: 'exports',
        summary: 'Export a book (accepted at once, charged, rendered in turn)',
        security: KEY,
        body: ExportBodySchema,
        result: ExportRecordSchema,
        validate: { wording: ruleWording(RULES) },
      }),
      bodyLimit: EXPORT_BODY_LIMIT,
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const { body } = request;
      const input = checkExportBody(
        body,
        maxTextChars,
        await withCustomVoice(NO_VOICE_MAPPING, customVoices, voiceAccess(request, key), body.voice_code),
      );
      const row = await jobs.exports.submit({ keyId: key.id, ...input });
      return sendResult(reply, toExportRecord(row, jobs));
    },
  );

  routes.get(
    '/api/v1/exports',
    {
      schema: apiRoute({
        operationId: 'listExports',
        tag: 'exports',
        summary: "The key's exports, newest first",
        security: KEY,
        querystring: ExportListQuerySchema,
        result: ExportListSchema,
        validate: { wording: listQueryWording },
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const { page, pageSize, offset } = listPage(request.query, DEFAULT_PAGE_SIZE);
      const { rows, total } = await store.exports.list(key.id, pageSize, offset);
      return sendResult(reply, {
        items: rows.map((row) => toExportRecord(row, jobs)),
        page,
        page_size: pageSize,
        total,
      });
    },
  );

  routes.get(
    '/api/v1/exports/:id',
    {
      schema: apiRoute({
        operationId: 'getExport',
        tag: 'exports',
        summary: 'An export: status, progress, chapters, links',
        security: KEY,
        params: pathParams({ id: 'The export_id.' }),
        result: ExportRecordSchema,
      }),
    },
    async (request, reply) => {
      const row = await ownedExport(store, await auth.requireKey(request), request.params.id);
      return sendResult(reply, toExportRecord(row, jobs));
    },
  );

  routes.post(
    '/api/v1/exports/:id/cancel',
    {
      schema: apiRoute({
        operationId: 'cancelExport',
        tag: 'exports',
        summary: 'Cancel an export (idempotent)',
        security: KEY,
        params: pathParams({ id: 'The export_id.' }),
        result: ExportRecordSchema,
      }),
    },
    async (request, reply) => {
      const row = await ownedExport(store, await auth.requireKey(request), request.params.id);
      // Idempotent: cancelling a finished export changes nothing and answers its record.
      await jobs.exports.cancel(row.id);
      return sendResult(reply, toExportRecord((await store.exports.get(row.id))!, jobs));
    },
  );

  routes.delete(
    '/api/v1/exports/:id',
    {
      schema: apiRoute({
        operationId: 'deleteExport',
        tag: 'exports',
        summary: 'Cancel if needed, then remove the files',
        security: KEY,
        params: pathParams({ id: 'The export_id.' }),
        result: ExportRemovalSchema,
      }),
    },
    async (request, reply) => {
      const row = await ownedExport(store, await auth.requireKey(request), request.params.id);
      await jobs.exports.remove(row);
      return sendResult(reply, { export_id: row.id, removed: true });
    },
  );
}

/** An export's files by the link in its record (the token is the credential). */
function registerExportFileRoute(app: FastifyInstance, { store, jobs }: ExportRouteOptions): void {
  const routes = typed(app);
  routes.get(
    '/files/exports/:id/:token/:name',
    {
      schema: apiRoute({
        operationId: 'downloadExportFile',
        tag: 'files',
        summary: "An export's book (book.m4b, book.mp3, book.zip) or loudness.json, by its link",
        security: PUBLIC,
        params: pathParams({
          id: 'The export_id.',
          token: 'The token of the link.',
          name: `book.<${Object.keys(BOOK_CONTENT_TYPES).join('|')}> or loudness.json`,
        }),
        result: binary('The book or its loudness report', [
          ...Object.values(BOOK_CONTENT_TYPES),
          'application/json',
        ]),
      }),
    },
    async (request, reply) => {
      const { id, token, name } = request.params;
      const row = isRequestId(id) ? await store.exports.get(id) : undefined;
      const notFound = new AppError('NOT_FOUND', 'No such file.');
      if (!row || !sameSecret(token, row.download_token) || row.status !== 'SUCCESS') throw notFound;
      const extension = bookExtension(row.format);
      if (name === `book.${extension}`) {
        return sendFile(
          request,
          reply,
          { files: jobs.files, path: jobs.exports.bookPath(row) },
          BOOK_CONTENT_TYPES[extension],
          downloadName({ title: row.title, text: row.input_text, voice: row.voice_code, extension }),
        );
      }
      if (name === 'loudness.json') {
        return sendFile(
          request,
          reply,
          { files: jobs.files, path: jobs.exports.reportPath(row) },
          'application/json; charset=utf-8',
          downloadName({
            title: row.title,
            text: row.input_text,
            voice: row.voice_code,
            extension: 'loudness.json',
          }),
        );
      }
      throw notFound;
    },
  );
}
