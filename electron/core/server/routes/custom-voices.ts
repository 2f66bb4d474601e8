/**
 * Custom voices over HTTP (shared/custom-voices.ts; any key or the studio session, as voices
 * are the instance's, not a key's): GET and POST /api/v1/custom-voices, GET, PUT and DELETE
 * /api/v1/custom-voices/<code>, and POST /api/v1/custom-voices/<code>/audition, which speaks a
 * short sample as the voice speaks (its base, prosody and lexicon) like a voice audition, a WAV
 * streamed as it is synthesised; GET of the same path (the options in the query) is the studio's
 * audio element's source. Answers are the spec's envelope, errors its error shape.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AuditionBody } from '../../../shared/api';
import {
  CUSTOM_VOICE_ROUTES,
  CustomVoiceInputSchema,
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
  librarySpeakers,
  resolveCustomVoice,
  type CustomVoices,
  type VoiceLibrary,
} from '../../voices';
import { sendAudition } from '../audition-stream';
import type { Auth } from '../auth';
import { apiRoute, KEY, pathParams } from '../openapi';
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
}

/**
 * `mapping` with the custom voice `code` names, when there is one, and those an SSML `text`
 * names in `<voice name>` (a request's voice codes are looked up once, before its checks, which
 * are synchronous); `mapping` itself otherwise.
 */
export async function withCustomVoice(
  mapping: VoiceMapping,
  customVoices: Pick<CustomVoices, 'find'> | undefined,
  code: unknown,
  text?: unknown,
): Promise<VoiceMapping> {
  if (!customVoices) return mapping;
  const named = typeof text === 'string' && isSsml(cleanText(text)) ? ssmlVoiceNames(text) : [];
  const codes = new Set([...(typeof code === 'string' ? [code] : []), ...named.slice(0, 20)]);
  const custom: Record<string, CustomVoice> = {};
  for (const c of codes) {
    if (c === '' || c.length > 100 || findVoice(c)) continue;
    const voice = await customVoices.find(c);
    if (voice) custom[c] = voice;
  }
  return Object.keys(custom).length > 0 ? { ...mapping, custom: { ...mapping.custom, ...custom } } : mapping;
}

const CODE_PARAM = pathParams({ code: 'A custom voice code (GET /api/v1/custom-voices).' });

export function registerCustomVoiceRoutes(app: FastifyInstance, options: CustomVoiceRouteOptions): void {
  const { auth, customVoices, engine, voices } = options;
  const base = CUSTOM_VOICE_ROUTES;

  app.get(
    base,
    {
      schema: apiRoute({
        operationId: 'listCustomVoices',
        tag: 'customVoices',
        summary: "The instance's custom voices",
        security: KEY,
        result: Type.Object({ voices: Type.Array(CustomVoiceSchema) }),
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return sendResult(reply, { voices: await customVoices.list() });
    },
  );
  app.post(
    base,
    {
      schema: apiRoute({
        operationId: 'createCustomVoice',
        tag: 'customVoices',
        summary: 'Create a custom voice (201; 409 when the code is taken or reserved)',
        security: KEY,
        body: CustomVoiceInputSchema,
        result: CustomVoiceSchema,
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      const voice = await customVoices.create(request.body);
      return sendResult(reply.code(201), voice);
    },
  );
  app.get<{ Params: { code: string } }>(
    `${base}/:code`,
    {
      schema: apiRoute({
        operationId: 'getCustomVoice',
        tag: 'customVoices',
        summary: 'One custom voice',
        security: KEY,
        params: CODE_PARAM,
        result: CustomVoiceSchema,
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return sendResult(reply, await customVoices.get(request.params.code));
    },
  );
  app.put<{ Params: { code: string } }>(
    `${base}/:code`,
    {
      schema: apiRoute({
        operationId: 'replaceCustomVoice',
        tag: 'customVoices',
        summary: "Replace a custom voice's definition (requests already accepted keep theirs)",
        security: KEY,
        params: CODE_PARAM,
        body: CustomVoiceInputSchema,
        result: CustomVoiceSchema,
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return sendResult(reply, await customVoices.replace(request.params.code, request.body));
    },
  );
  app.delete<{ Params: { code: string } }>(
    `${base}/:code`,
    {
      schema: apiRoute({
        operationId: 'deleteCustomVoice',
        tag: 'customVoices',
        summary: 'Delete a custom voice (204; requests already accepted still render with it)',
        security: KEY,
        params: CODE_PARAM,
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      await customVoices.delete(request.params.code);
      return reply.code(204).send();
    },
  );

  const audition = async (code: string, body: AuditionBody, reply: FastifyReply) => {
    const voice = await customVoices.get(code);
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
