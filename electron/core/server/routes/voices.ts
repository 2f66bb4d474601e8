/**
 * The voices: GET /api/v1/voices lists the catalogue (no key needed), and GET
 * /api/public/v1/voices the same in the service's published shape (no key needed); with the studio,
 * POST /api/v1/voices/<code>/audition speaks a short sample (any key or the session; nothing
 * is charged) with the code's neural voice when one is installed, as a WAV streamed while it is
 * synthesised. GET of the same path, with the body's fields in the query, is the studio's (the
 * session only): an audio element's source, so it plays as the bytes arrive.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AuditionBodySchema,
  PublicVoiceListSchema,
  VoiceSchema,
  type AuditionBody,
  type Voice,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { findVoice, VOICES } from '../../../shared/voices';
import type { Engine } from '../../engine';
import type { VoiceLibrary } from '../../voices';
import { sendAudition } from '../audition-stream';
import type { Auth } from '../auth';
import { publicVoicePage } from '../public-voices';
import { sendResult } from '../reply';
import type { Wording } from '../route-validation';
import { Type } from '@sinclair/typebox';
import { apiRoute, binary, KEY, pathParams, PUBLIC, SESSION, typed, type RouteDoc } from '../openapi';

export function registerVoiceRoutes(app: FastifyInstance): void {
  const voices: Voice[] = VOICES.map((v) => ({ ...v }));
  app.get(
    '/api/v1/voices',
    {
      schema: apiRoute({
        operationId: 'listVoices',
        tag: 'voices',
        summary: 'The voice catalogue (no key needed)',
        security: PUBLIC,
        result: Type.Object({ items: Type.Array(VoiceSchema) }),
      }),
    },
    async (_request, reply) => sendResult(reply, { items: voices }),
  );
  // The same catalogue in the service's published shape, paged; public like the one above (a
  // client's Authorization and app-id headers are not needed and not checked).
  app.get<{ Querystring: Record<string, unknown> }>(
    '/api/public/v1/voices',
    {
      schema: apiRoute({
        operationId: 'listPublicVoices',
        tag: 'voices',
        summary: "The voice catalogue in the cloud service's published shape, 20 a page (no key needed)",
        description:
          'Query: `limit` (1–100, default 20), `cursor` (a `next_cursor` or `prev_cursor` of this list), filters `code`, `language_code` (or `languageCode`), `gender`; `voice_ownership` is accepted and ignored.',
        security: PUBLIC,
        result: PublicVoiceListSchema,
      }),
    },
    async (request, reply) => sendResult(reply, publicVoicePage(request.query)),
  );
}

export interface AuditionRouteOptions {
  auth: Auth;
  /** Without it the route answers ENGINE_FAILED. */
  engine: Pick<Engine, 'streamAudition'> | undefined;
  /** The code's neural voice (std-v1.6) speaks the sample when one is installed; else eSpeak. */
  voices?: Pick<VoiceLibrary, 'neuralVoice'> | undefined;
}

/**
 * The GET audition's `preValidation` step: its query holds the body's fields as strings, and
 * the numbers are read as numbers (a repeated or empty parameter stays as it is, and the schema
 * refuses it).
 */
async function readAuditionQuery(request: { query: unknown }): Promise<void> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(request.query ?? {})) {
    const numeric = name === 'speed_rate' || name === 'pitch_rate' || name === 'volume';
    body[name] = numeric && typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  }
  request.query = body;
}

/** How an audition's options that break AuditionBodySchema are refused: INVALID_FIELD naming the field. */
const auditionWording: Wording = ({ part, field, message }) =>
  part === 'params'
    ? undefined
    : new AppError('INVALID_FIELD', `Invalid audition field ${field}: ${message}.`, { field });

/**
 * The two routes of one audition: POST `path` (any key or the session; the options in the body)
 * and GET `path` (the studio's audio element: the same options in the query, the session only,
 * which may come as the studio_session parameter). `speak` answers with the streamed WAV.
 */
export function registerAuditionPair(
  app: FastifyInstance,
  auth: Auth,
  route: {
    path: string;
    tag: RouteDoc['tag'];
    operationId: string;
    summary: string;
    description?: string;
    codeParam: string;
  },
  speak: (code: string, body: AuditionBody, reply: FastifyReply, request: FastifyRequest) => Promise<unknown>,
): void {
  const params = pathParams({ code: route.codeParam });
  const routes = typed(app);
  routes.post(
    route.path,
    {
      schema: apiRoute({
        operationId: route.operationId,
        tag: route.tag,
        summary: route.summary,
        ...(route.description ? { description: route.description } : {}),
        security: KEY,
        params,
        body: AuditionBodySchema,
        result: binary('WAV audio', ['audio/wav']),
        validate: { wording: auditionWording, emptyBodyIsObject: true },
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return speak(request.params.code, request.body, reply, request);
    },
  );
  routes.get(
    route.path,
    {
      preValidation: readAuditionQuery,
      schema: apiRoute({
        operationId: `${route.operationId}Stream`,
        tag: route.tag,
        summary:
          'The same for an audio element: the options in the query (the studio only, its session value may be the studio_session parameter)',
        security: SESSION,
        params,
        querystring: AuditionBodySchema,
        result: binary('WAV audio', ['audio/wav']),
        validate: { wording: auditionWording },
      }),
      config: { sessionInQuery: true },
    },
    async (request, reply) => {
      auth.requireSession(request);
      return speak(request.params.code, request.query, reply, request);
    },
  );
}

export function registerAuditionRoute(
  app: FastifyInstance,
  { auth, engine, voices }: AuditionRouteOptions,
): void {
  registerAuditionPair(
    app,
    auth,
    {
      path: '/api/v1/voices/:code/audition',
      tag: 'voices',
      operationId: 'auditionVoice',
      summary: 'Speak a short sample (WAV, streamed; not charged)',
      codeParam: 'A voice code (GET /api/v1/voices).',
    },
    async (code, body, reply) => {
      const voice = findVoice(code);
      if (!voice)
        throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${code}".`, {
          field: 'voice_code',
          voice_code: code,
        });
      if (!engine) throw new AppError('ENGINE_FAILED', 'No engine is available for auditions.');
      const neuralVoice = await voices?.neuralVoice(voice.voice_code, 'std-v1.6');
      return sendAudition(reply, engine, {
        voice_code: voice.voice_code,
        speed_rate: body.speed_rate ?? 1,
        pitch_rate: body.pitch_rate ?? 1,
        volume: body.volume ?? 100,
        ...(body.text ? { text: body.text } : {}),
        ...(neuralVoice ? { neuralVoice } : {}),
      });
    },
  );
}
