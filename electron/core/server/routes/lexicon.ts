/**
 * The pronunciation lexicon over HTTP (see shared/lexicon.ts for the entries and their rules).
 *
 * Any key or the studio session may read it and hear it: GET /api/v1/lexicon (`?language=`,
 * `?q=`), GET /api/v1/lexicon/<id>, GET /api/v1/lexicon/export (`?format=json|csv|pls`,
 * `&language=`), POST /api/v1/lexicon/<id>/preview and POST /api/v1/lexicon/preview (an entry
 * not saved yet), which answer a WAV streamed as it is synthesised, like a voice audition.
 * Changing it is the studio's alone, as managing keys is: the lexicon changes how every key's
 * requests sound, so one app's key may not change what another's listeners hear. POST
 * /api/v1/lexicon, PUT and DELETE /api/v1/lexicon/<id>, POST /api/v1/lexicon/import; and the
 * GET forms of the previews (an audio element's source). Offline, `npm run lexicon` edits the
 * same file, also while a server runs.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../../shared/errors';
import {
  LexiconSchema,
  LexiconChangeSchema,
  LexiconImportResultSchema,
  LexiconEntrySchema,
  LexiconRemovalSchema,
  filterEntries,
  LexiconEntryInputSchema,
  LexiconExportQuerySchema,
  LexiconImportBodySchema,
  LexiconPreviewBodySchema,
  LexiconQuerySchema,
  type Lexicon,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconPreviewBody,
} from '../../../shared/lexicon';
import { formatLexicon, LEXICON_FILE_TYPES, LexiconFileError } from '../../../shared/lexicon-files';
import { findVoice, VOICES } from '../../../shared/voices';
import type { Engine } from '../../engine';
import { preparedEntry, type LexiconStore } from '../../lexicon';
import type { VoiceLibrary } from '../../voices';
import { sendAudition } from '../audition-stream';
import type { Auth } from '../auth';
import { sendResult } from '../reply';
import type { Wording } from '../route-validation';
import { Type } from '@sinclair/typebox';
import { apiRoute, binary, KEY, pathParams, SESSION, typed } from '../openapi';

export interface LexiconRouteOptions {
  auth: Auth;
  lexicon: LexiconStore;
  /** Speaks the previews; without it they answer ENGINE_FAILED. */
  engine?: Pick<Engine, 'streamAudition'> | undefined;
  /** The voice code's neural voice speaks the preview when one is installed; else eSpeak. */
  voices?: Pick<VoiceLibrary, 'neuralVoice'> | undefined;
}

/** Problems worded `Invalid <what> field <field>: <rule>.` (INVALID_FIELD naming the field). */
function labelled(what: (field: string) => string): Wording {
  return ({ part, field, message }) => {
    if (part === 'params') return undefined;
    const label = what(field);
    const name = field || label;
    return new AppError('INVALID_FIELD', `Invalid ${label} field ${name}: ${message}.`, { field: name });
  };
}

/** A draft preview: the entry's fields and the preview's. */
const DRAFT_PREVIEW = Type.Composite([LexiconEntryInputSchema, LexiconPreviewBodySchema]);
const PREVIEW_FIELDS = new Set(Object.keys(LexiconPreviewBodySchema.properties));
/** A draft preview's fields are the entry's (`lexicon`) and the preview's own (`preview`). */
const draftWording = labelled((field) => (PREVIEW_FIELDS.has(field) ? 'preview' : 'lexicon'));
const checks = (what: string) => ({ wording: labelled(() => what), emptyBodyIsObject: true });

/**
 * The GET previews' `preValidation` step: a query's booleans and numbers as JSON would have
 * them (what the POST previews receive).
 */
async function readPreviewQuery(request: { query: unknown }): Promise<void> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.query ?? {})) {
    if (typeof value !== 'string') out[name] = value;
    else if (name === 'case_sensitive' || name === 'whole_word')
      out[name] = value === 'true' ? true : value === 'false' ? false : value;
    else if ((name === 'speed_rate' || name === 'pitch_rate' || name === 'volume') && value.trim() !== '')
      out[name] = Number(value);
    else out[name] = value;
  }
  request.query = out;
}

export function registerLexiconRoutes(app: FastifyInstance, options: LexiconRouteOptions): void {
  registerLexiconEntryRoutes(app, options);
  registerLexiconFileRoutes(app, options);
  registerLexiconPreviewRoutes(app, options);
}

/** List, add, read, change and remove entries. */
function registerLexiconEntryRoutes(app: FastifyInstance, { auth, lexicon }: LexiconRouteOptions): void {
  const routes = typed(app);
  routes.get(
    '/api/v1/lexicon',
    {
      schema: apiRoute({
        operationId: 'listLexicon',
        tag: 'lexicon',
        summary: 'The lexicon, filtered',
        security: KEY,
        querystring: LexiconQuerySchema,
        result: LexiconSchema,
        validate: checks('query'),
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      const { query } = request;
      const { version, items } = await lexicon.read();
      const result: Lexicon = { version, items: filterEntries(items, query) };
      return sendResult(reply, result);
    },
  );

  routes.post(
    '/api/v1/lexicon',
    {
      schema: apiRoute({
        operationId: 'addLexiconEntry',
        tag: 'lexicon',
        summary: 'Add an entry',
        security: SESSION,
        body: LexiconEntryInputSchema,
        result: LexiconChangeSchema,
        validate: checks('lexicon'),
      }),
    },
    async (request, reply) => {
      auth.requireSession(request);
      const input = request.body;
      return sendResult(reply, await lexicon.add(input));
    },
  );

  routes.get(
    '/api/v1/lexicon/:id',
    {
      schema: apiRoute({
        operationId: 'getLexiconEntry',
        tag: 'lexicon',
        summary: 'An entry',
        security: KEY,
        params: pathParams({ id: 'The entry id.' }),
        result: LexiconEntrySchema,
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return sendResult(reply, await lexicon.get(request.params.id));
    },
  );

  routes.put(
    '/api/v1/lexicon/:id',
    {
      schema: apiRoute({
        operationId: 'updateLexiconEntry',
        tag: 'lexicon',
        summary: 'Change an entry',
        security: SESSION,
        params: pathParams({ id: 'The entry id.' }),
        body: LexiconEntryInputSchema,
        result: LexiconChangeSchema,
        validate: checks('lexicon'),
      }),
    },
    async (request, reply) => {
      auth.requireSession(request);
      const input = request.body;
      return sendResult(reply, await lexicon.update(request.params.id, input));
    },
  );

  routes.delete(
    '/api/v1/lexicon/:id',
    {
      schema: apiRoute({
        operationId: 'deleteLexiconEntry',
        tag: 'lexicon',
        summary: 'Remove an entry',
        security: SESSION,
        params: pathParams({ id: 'The entry id.' }),
        result: LexiconRemovalSchema,
      }),
    },
    async (request, reply) => {
      auth.requireSession(request);
      return sendResult(reply, await lexicon.remove(request.params.id));
    },
  );
}

/** The lexicon as a file, and entries imported from one. */
function registerLexiconFileRoutes(app: FastifyInstance, { auth, lexicon }: LexiconRouteOptions): void {
  const routes = typed(app);
  routes.get(
    '/api/v1/lexicon/export',
    {
      schema: apiRoute({
        operationId: 'exportLexicon',
        tag: 'lexicon',
        summary: 'The lexicon as a file (JSON, CSV or PLS)',
        security: KEY,
        querystring: LexiconExportQuerySchema,
        validate: checks('export'),
        result: binary('The file', ['application/json', 'text/csv', 'application/pls+xml']),
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      const { format = 'json', language } = request.query;
      if (format === 'pls' && !language)
        throw new AppError('MISSING_FIELD', 'A PLS file holds one language: add &language=<code>.', {
          field: 'language',
        });
      const { items } = await lexicon.read();
      const entries = language ? items.filter((e) => e.language === language) : items;
      const type = LEXICON_FILE_TYPES[format];
      const name = `lexicon${language ? `-${language}` : ''}.${type.extension}`;
      return reply
        .type(type.contentType)
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(formatLexicon(entries, format, language));
    },
  );

  routes.post(
    '/api/v1/lexicon/import',
    {
      schema: apiRoute({
        operationId: 'importLexicon',
        tag: 'lexicon',
        summary: 'Import entries from a file',
        security: SESSION,
        body: LexiconImportBodySchema,
        result: LexiconImportResultSchema,
        validate: checks('import'),
      }),
    },
    async (request, reply) => {
      auth.requireSession(request);
      const { body } = request;
      // The file readers (CSV, and PLS's XML parsers) load with the first import, not with the server.
      const { parseLexicon } = await import('../../lexicon/lexicon-file-reader');
      let entries;
      try {
        entries = parseLexicon(body.text, body.format, body.language);
      } catch (error) {
        if (!(error instanceof LexiconFileError)) throw error;
        throw new AppError('LEXICON_FILE_INVALID', error.message, {
          ...(error.line !== undefined ? { line: error.line } : {}),
          ...(error.column !== undefined ? { column: error.column } : {}),
        });
      }
      return sendResult(reply, await lexicon.importEntries(entries, { replace: body.replace ?? false }));
    },
  );
}

// --- Previews: the entry's match spoken with (or without) the entry ---------------------

/** Speak `entry`'s match with (or without) it, as the preview's body says: a WAV streamed. */
function previewSpeaker({ engine, voices }: LexiconRouteOptions) {
  async function preview(
    entry: Omit<LexiconEntry, 'id'>,
    body: LexiconPreviewBody,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const voice = body.voice_code
      ? findVoice(body.voice_code)
      : VOICES.find((v) => v.language === entry.language);
    if (!voice)
      throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${body.voice_code ?? ''}".`, {
        field: 'voice_code',
        voice_code: body.voice_code ?? '',
      });
    if (voice.language !== entry.language)
      throw new AppError(
        'INVALID_FIELD',
        `${voice.voice_code} speaks ${voice.language_name}; the entry is for "${entry.language}": choose a voice of its language.`,
        { field: 'voice_code' },
      );
    if (!engine) throw new AppError('ENGINE_FAILED', 'No engine is available for previews.');
    const neuralVoice = await voices?.neuralVoice(voice.voice_code, 'std-v1.6');
    return sendAudition(reply, engine, {
      voice_code: voice.voice_code,
      speed_rate: body.speed_rate ?? 1,
      pitch_rate: body.pitch_rate ?? 1,
      volume: body.volume ?? 100,
      // A unit is read after a number: "2 kn" (its plural where it has one).
      text: entry.kind === 'unit' ? `2 ${entry.match}` : entry.match,
      ...(body.variant === 'without' ? {} : { lexicon: [entry] }),
      ...(neuralVoice ? { neuralVoice } : {}),
    });
  }
  return preview;
}

/** A draft entry from a preview's body or query (it need not be saved). */
function draft(input: LexiconEntryInput): Omit<LexiconEntry, 'id'> {
  return preparedEntry(input);
}

/** Speak a saved entry or a draft (POST, and GET for an audio element). */
function registerLexiconPreviewRoutes(app: FastifyInstance, options: LexiconRouteOptions): void {
  const { auth, lexicon } = options;
  const routes = typed(app);
  const preview = previewSpeaker(options);
  const previewSaved = async (id: string, body: LexiconPreviewBody, reply: FastifyReply) =>
    preview(await lexicon.get(id), body, reply);

  routes.post(
    '/api/v1/lexicon/:id/preview',
    {
      schema: apiRoute({
        operationId: 'previewLexiconEntry',
        tag: 'lexicon',
        summary: 'Speak a saved entry with (or without) it',
        security: KEY,
        params: pathParams({ id: 'The entry id.' }),
        body: LexiconPreviewBodySchema,
        result: binary('WAV audio', ['audio/wav']),
        validate: checks('preview'),
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return previewSaved(request.params.id, request.body, reply);
    },
  );
  routes.get(
    '/api/v1/lexicon/:id/preview',
    {
      schema: apiRoute({
        operationId: 'previewLexiconEntryStream',
        tag: 'lexicon',
        summary: 'The same for an audio element (the studio only)',
        security: SESSION,
        params: pathParams({ id: 'The entry id.' }),
        querystring: LexiconPreviewBodySchema,
        result: binary('WAV audio', ['audio/wav']),
        validate: checks('preview'),
      }),
      config: { sessionInQuery: true },
      preValidation: readPreviewQuery,
    },
    async (request, reply) => {
      auth.requireSession(request);
      return previewSaved(request.params.id, request.query, reply);
    },
  );
  routes.post(
    '/api/v1/lexicon/preview',
    {
      schema: apiRoute({
        operationId: 'previewLexiconDraft',
        tag: 'lexicon',
        summary: 'Speak an entry that is not saved',
        security: KEY,
        body: DRAFT_PREVIEW,
        result: binary('WAV audio', ['audio/wav']),
        validate: { wording: draftWording, emptyBodyIsObject: true },
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return preview(draft(request.body), request.body, reply);
    },
  );
  routes.get(
    '/api/v1/lexicon/preview',
    {
      schema: apiRoute({
        operationId: 'previewLexiconDraftStream',
        tag: 'lexicon',
        summary: 'The same for an audio element (the studio only)',
        security: SESSION,
        querystring: DRAFT_PREVIEW,
        result: binary('WAV audio', ['audio/wav']),
        validate: { wording: draftWording },
      }),
      config: { sessionInQuery: true },
      preValidation: readPreviewQuery,
    },
    async (request, reply) => {
      auth.requireSession(request);
      return preview(draft(request.query), request.query, reply);
    },
  );
}
