/**
 * The voices: GET /api/v1/voices lists the catalogue (no key needed); with the studio,
 * POST /api/v1/voices/<code>/audition speaks a short sample (any key or the session; nothing
 * is charged) with the code's neural voice when one is installed.
 */

import type { FastifyInstance } from 'fastify';
import { AuditionBodySchema, type AuditionBody, type Voice } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { findVoice, VOICES } from '../../../shared/voices';
import type { Engine } from '../../engine/engine';
import type { VoiceLibrary } from '../../voices';
import type { Auth } from '../auth';
import { sendResult } from '../reply';
import { firstSchemaProblem } from '../validation';

export function registerVoiceRoutes(app: FastifyInstance): void {
  const voices: Voice[] = VOICES.map((v) => ({ ...v }));
  app.get('/api/v1/voices', async (_request, reply) => sendResult(reply, { items: voices }));
}

export interface AuditionRouteOptions {
  auth: Auth;
  /** Without it the route answers ENGINE_FAILED. */
  engine: Pick<Engine, 'audition'> | undefined;
  /** The code's neural voice (std-v1.6) speaks the sample when one is installed; else eSpeak. */
  voices?: Pick<VoiceLibrary, 'neuralVoice'> | undefined;
}

export function registerAuditionRoute(
  app: FastifyInstance,
  { auth, engine, voices }: AuditionRouteOptions,
): void {
  app.post<{ Params: { code: string } }>('/api/v1/voices/:code/audition', async (request, reply) => {
    await auth.requireKey(request);
    const voice = findVoice(request.params.code);
    if (!voice)
      throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${request.params.code}".`, {
        field: 'voice_code',
      });
    const body = (request.body ?? {}) as AuditionBody;
    const problem = firstSchemaProblem(AuditionBodySchema, body);
    if (problem)
      throw new AppError('INVALID_FIELD', `Invalid audition field ${problem.field}: ${problem.message}.`);
    if (!engine) throw new AppError('ENGINE_FAILED', 'No engine is available for auditions.');
    const neuralVoice = await voices?.neuralVoice(voice.voice_code, 'std-v1.6');
    const wav = await engine.audition({
      voice_code: voice.voice_code,
      speed_rate: body.speed_rate ?? 1,
      pitch_rate: body.pitch_rate ?? 1,
      volume: body.volume ?? 100,
      ...(body.text ? { text: body.text } : {}),
      ...(neuralVoice ? { neuralVoice } : {}),
    });
    return reply.code(200).type('audio/wav').send(Buffer.from(wav));
  });
}
