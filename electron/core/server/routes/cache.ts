/**
 * GET and DELETE /api/v1/cache: the engine's sentence cache (rendered engine calls reused when
 * a text is rendered again after an edit). Only the signed-in studio may read its size and
 * counters, or clear it. The cache is shared by every key's renders, so its counters are the
 * whole machine's: a key that read them before and after rendering a sentence would learn
 * whether another key had spoken that sentence (a hit), so keys may not read them. Counters per
 * key would still be one cache (a hit is a hit whoever filled it), so the studio alone sees
 * them; emptying the cache slows every key's renders until it fills again.
 */

import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine';
import type { Auth } from '../auth';
import { sendResult } from '../reply';
import { SentenceCacheStatsSchema } from '../../../shared/sentence-cache';
import { apiRoute, SESSION, typed } from '../openapi';

export interface CacheRouteOptions {
  auth: Auth;
  engine: Pick<Engine, 'sentenceCacheStats' | 'clearSentenceCache'>;
}

export function registerCacheRoutes(app: FastifyInstance, { auth, engine }: CacheRouteOptions): void {
  const routes = typed(app);
  routes.get(
    '/api/v1/cache',
    {
      schema: apiRoute({
        operationId: 'getSentenceCache',
        tag: 'server',
        summary: "The sentence cache's size and counters (the studio only)",
        security: SESSION,
        result: SentenceCacheStatsSchema,
      }),
    },
    async (request, reply) => {
      auth.requireSession(request);
      return sendResult(reply, await engine.sentenceCacheStats());
    },
  );

  routes.delete(
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
