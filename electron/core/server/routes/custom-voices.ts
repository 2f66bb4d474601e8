/**
 * Custom voices over HTTP (shared/custom-voices.ts; any key or the studio session; a key reaches
 * its own voices and the studio's, the studio every one: CustomVoiceAccess in voices/
 * custom-voice.ts): GET and POST /api/v1/custom-voices, GET, PUT and DELETE
 * /api/v1/custom-voices/<code>, and POST /api/v1/custom-voices/<code>/audition, which speaks a
 * short sample as the voice speaks (its base, prosody and lexicon) like a voice audition, a WAV
 * streamed as it is synthesised; GET of the same path (the options in the query) is the studio's
 * audio element's source. Answers are the spec's envelope, errors its error shape.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuditionBody } from '../../../shared/api';
import {
  CUSTOM_VOICE_LIST,
  CUSTOM_VOICE_ROUTES,
  CustomVoiceInputSchema,
  CustomVoiceListQuerySchema,
  CustomVoiceListSchema,
  CustomVoiceSchema,
  type CustomVoice,
} from '../../../shared/custom-voices';
import { isSsml, ssmlVoiceNames } from '../../../shared/ssml';
import { cleanText } from '../../../shared/text';
import { AppError } from '../../../shared/errors';
import type { Engine, LexiconRule } from '../../engine';
import { findVoice, type LanguageCode } from '../../../shared/voices';
import type { VoiceMapping } from '../../../shared/voice-mapping';
import {
  customLexicon,
  customVoiceSchemaError,
  keyAccess,
  librarySpeakers,
  resolveCustomVoice,
  STUDIO_ACCESS,
  type CustomVoiceAccess,
  type CustomVoices,
  type VoiceLibrary,
} from '../../voices';
import type { ProjectService } from '../../projects';
import type { KeyRow } from '../../store';
import { sendAudition } from '../audition-stream';
import { isStudio, type Auth } from '../auth';
import { apiRoute, KEY, pathParams, typed } from '../openapi';
import type { Wording } from '../route-validation';
import { sendResult } from '../reply';
import { registerAuditionPair } from './voices';

export interface CustomVoiceRouteOptions {
  auth: Auth;
  customVoices: CustomVoices;
  /** Speaks the auditions; without it they answer ENGINE_FAILED. */
  engine?: Pick<Engine, 'streamAudition'> | undefined;
  /** What is installed: the base's neural voice speaks the audition when installed; else eSpeak. */
  voices?: Pick<VoiceLibrary, 'neuralVoice' | 'packVoice' | 'kokoroVoice'> | undefined;
  /** The global lexicon's entries of a language (the voice's own entries win over them). */
  lexicon?: ((language: LanguageCode) => Promise<readonly LexiconRule[]>) | undefined;
  /** Book projects: `?project=<id>` lists the voices one may cast (without it, PROJECT_NOT_FOUND). */
  projects?: Pick<ProjectService, 'castAccess'> | undefined;
}

/**
 * The custom voices a request reaches, `key` being the key it acts with: every one for the
 * signed-in studio, else that key's and the studio's.
 */
export function voiceAccess(request: FastifyRequest, key: Pick<KeyRow, 'id'>): CustomVoiceAccess {
  return isStudio(request) ? STUDIO_ACCESS : keyAccess(key.id);
}

/**
 * `mapping` with the custom voice `code` names, when there is one `access` may speak with, and
 * those an SSML `text` names in `<voice name>` (a request's voice codes are looked up once,
 * before its checks, which are synchronous); `mapping` itself otherwise. Another key's voice is
 * left out, so its code is an unknown voice (UNKNOWN_VOICE), as if it did not exist.
 */
export async function withCustomVoice(
  mapping: VoiceMapping,
  customVoices: Pick<CustomVoices, 'find'> | undefined,
  access: CustomVoiceAccess,
  code: unknown,
  text?: unknown,
): Promise<VoiceMapping> {
  if (!customVoices) return mapping;
  const named = typeof text === 'string' && isSsml(cleanText(text)) ? ssmlVoiceNames(text) : [];
  const codes = new Set([...(typeof code === 'string' ? [code] : []), ...named.slice(0, 20)]);
  const custom: Record<string, CustomVoice> = {};
  for (const c of codes) {
    if (c === '' || c.length > 100 || findVoice(c)) continue;
    const voice = await customVoices.find(c, access);
    if (voice) custom[c] = voice;
  }
  return Object.keys(custom).length > 0 ? { ...mapping, custom: { ...mapping.custom, ...custom } } : mapping;
}

/** A body that breaks CustomVoiceInputSchema: worded as the core check words it (the CLI's too). */
const customVoiceWording: Wording = ({ part, path, message }) =>
  part === 'body' ? customVoiceSchemaError(path, message) : undefined;

const CODE_PARAM = pathParams({ code: 'A custom voice code (GET /api/v1/custom-voices).' });

export function registerCustomVoiceRoutes(app: FastifyInstance, options: CustomVoiceRouteOptions): void {
  const { auth, customVoices, engine, voices, projects } = options;
  const base = CUSTOM_VOICE_ROUTES;
  const routes = typed(app);

  routes.get(
    base,
    {
      schema: apiRoute({
        operationId: 'listCustomVoices',
        tag: 'customVoices',
        summary: `A page of the custom voices the caller reaches, by code (a key: its own and the studio's; the studio: all; limit: at most ${CUSTOM_VOICE_LIST.page}; cursor: a next_cursor); ?project=<id>: those the project may cast`,
        security: KEY,
        querystring: CustomVoiceListQuerySchema,
        result: CustomVoiceListSchema,
        validate: {},
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const { project, cursor, limit } = request.query;
      const page = {
        ...(cursor === undefined ? {} : { cursor }),
        ...(limit === undefined ? {} : { limit: Number(limit) }),
      };
      if (project === undefined)
        return sendResult(reply, await customVoices.page(voiceAccess(request, key), page));
      if (!projects)
        throw new AppError('PROJECT_NOT_FOUND', `No project "${project}".`, { part: 'project', id: project });
      return sendResult(reply, await customVoices.page(await projects.castAccess(key.id, project), page));
    },
  );
  routes.post(
    base,
    {
      schema: apiRoute({
        operationId: 'createCustomVoice',
        tag: 'customVoices',
        summary: 'Create a custom voice (201; 409 when the code is taken or reserved)',
        security: KEY,
        body: CustomVoiceInputSchema,
        validate: { wording: customVoiceWording },
        result: CustomVoiceSchema,
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const voice = await customVoices.create(request.body, voiceAccess(request, key));
      return sendResult(reply.code(201), voice);
    },
  );
  routes.get(
    `${base}/:code`,
    {
      schema: apiRoute({
        operationId: 'getCustomVoice',
        tag: 'customVoices',
        summary: 'One custom voice',
        security: KEY,
        params: CODE_PARAM,
        result: CustomVoiceSchema,
        validate: {},
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      return sendResult(reply, await customVoices.get(request.params.code, voiceAccess(request, key)));
    },
  );
  routes.put(
    `${base}/:code`,
    {
      schema: apiRoute({
        operationId: 'replaceCustomVoice',
        tag: 'customVoices',
        summary: "Replace a custom voice's definition (requests already accepted keep theirs)",
        security: KEY,
        params: CODE_PARAM,
        body: CustomVoiceInputSchema,
        validate: { wording: customVoiceWording },
        result: CustomVoiceSchema,
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      return sendResult(
        reply,
        await customVoices.replace(request.params.code, request.body, voiceAccess(request, key)),
      );
    },
  );
  routes.delete(
    `${base}/:code`,
    {
      schema: apiRoute({
        operationId: 'deleteCustomVoice',
        tag: 'customVoices',
        summary: 'Delete a custom voice (204; requests already accepted still render with it)',
        security: KEY,
        params: CODE_PARAM,
        validate: {},
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      await customVoices.delete(request.params.code, voiceAccess(request, key));
      return reply.code(204).send();
    },
  );

  const audition = async (code: string, body: AuditionBody, reply: FastifyReply, request: FastifyRequest) => {
    const voice = await customVoices.get(code, voiceAccess(request, await auth.requireKey(request)));
    if (!engine) throw new AppError('ENGINE_FAILED', 'No engine is available for auditions.');
    const resolved = await resolveCustomVoice(
      voice,
      { speed_rate: body.speed_rate ?? 1, pitch_rate: body.pitch_rate ?? 1, volume: body.volume ?? 100 },
      voices
        ? librarySpeakers(voices, 'std-v1.6')
        : {
            neuralVoice: async () => undefined,
            packVoice: async () => undefined,
            kokoroVoice: async () => undefined,
          },
    );
    const global = (await options.lexicon?.(voice.language as LanguageCode)) ?? [];
    return sendAudition(reply, engine, {
      voice_code: resolved.voice_code,
      speed_rate: resolved.speed_rate,
      pitch_rate: resolved.pitch_rate,
      volume: resolved.volume,
      lexicon: customLexicon(voice, global),
      ...(body.text ? { text: body.text } : {}),
      ...(resolved.neuralVoice ? { neuralVoice: resolved.neuralVoice } : {}),
    });
  };
  registerAuditionPair(
    app,
    auth,
    {
      path: `${base}/:code/audition`,
      tag: 'customVoices',
      operationId: 'auditionCustomVoice',
      summary: 'Speak a short sample with a custom voice (WAV, streamed; not charged)',
      description:
        "The body's speed_rate, pitch_rate and volume are the request's: the voice's prosody multiplies them.",
      codeParam: 'A custom voice code (GET /api/v1/custom-voices).',
    },
    audition,
  );
}
