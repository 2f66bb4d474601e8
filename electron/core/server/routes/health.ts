/**
 * GET /api/v1/health: liveness for supervisors, CI scripts and the load suite. No key needed
 * (it says nothing about anyone's requests, only totals); the Host and Origin checks still apply.
 * Answers from memory and one SUM over the keys table, so it stays fast under load.
 */

import type { FastifyInstance } from 'fastify';
import type { Jobs } from '../../jobs';
import type { Store } from '../../store';
import { sendResult } from '../reply';

export interface HealthRouteOptions {
  store: Store;
  jobs: Jobs;
}

export function registerHealthRoute(app: FastifyInstance, { store, jobs }: HealthRouteOptions): void {
  const startedAt = Date.now();
  app.get('/api/v1/health', async (_request, reply) =>
    sendResult(reply, {
      ok: true,
      uptime_s: Math.round((Date.now() - startedAt) / 1000),
      queued: store.keys.totalQueued(),
      running: jobs.runner.running,
      paused: jobs.runner.paused,
    }),
  );
}
