/**
 * GET and DELETE /api/v1/cache: the engine's sentence cache (rendered engine calls reused when
 * a text is rendered again after an edit). Any valid key or the studio may read its size and
 * counters; only the signed-in studio may clear it: it is shared by every key's renders, and
 * emptying it slows them all until it fills again.
 */

import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine';
import type { Auth } from '../auth';
import { sendResult } from '../reply';
import { SentenceCacheStatsSchema } from '../../../shared/sentence-cache';
import { apiRoute, KEY, SESSION } from '../openapi';

export interface CacheRouteOptions {
  auth: Auth;
  engine: Pick<Engine, 'sentenceCacheStats' | 'clearSentenceCache'>;
}

export function registerCacheRoutes(app: FastifyInstance, { auth, engine }: CacheRouteOptions): void {
  app.get(
    '/api/v1/cache',
    {
      schema: apiRoute({
        operationId: 'getSentenceCache',
        tag: 'server',
        summary: "The sentence cache's size and counters",
        security: KEY,
        result: SentenceCacheStatsSchema,
      }),
    },
    async (request, reply) => {
      await auth.requireKey(request);
      return sendResult(reply, await engine.sentenceCacheStats());
    },
  );

  app.delete(
    '/api/v1/cache',
    {
      schema: apiRoute({
        operationId: 'clearSentenceCache',
        tag: 'server',
        summary: 'Empty the sentence cache (the studio only)',
        security: SESSION,
        result: SentenceCacheStatsSchema,
      }),
    },
    async (request, reply) => {
      auth.requireSession(request);
      return sendResult(reply, await engine.clearSentenceCache());
    },
  );
}
