/**
 * GET /api/v1/health: liveness for supervisors, CI scripts and the load suite, and which
 * instance answered: its id, host and process, the database kind, and the requests it renders
 * now (ids only). No key needed (it says nothing about anyone's requests beyond random ids and
 * totals); the Host and Origin checks still apply. Answers from memory and one SUM over the
 * keys table, so it stays fast under load.
 */

import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Jobs } from '../../jobs';
import type { Store } from '../../store';
import { sendResult } from '../reply';
import { apiRoute, PUBLIC } from '../openapi';

export interface HealthRouteOptions {
  store: Store;
  jobs: Jobs;
}

export function registerHealthRoute(app: FastifyInstance, { store, jobs }: HealthRouteOptions): void {
  const startedAt = Date.now();
  app.get(
    '/api/v1/health',
    {
      schema: apiRoute({
        operationId: 'getHealth',
        tag: 'server',
        summary: 'Liveness, and which instance answered',
        security: PUBLIC,
      }),
    },
    async (_request, reply) =>
      sendResult(reply, {
        ok: true,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        queued: await store.keys.totalQueued(),
        running: jobs.runner.running,
        paused: jobs.runner.paused,
        instance: {
          id: jobs.instanceId,
          host: hostname(),
          pid: process.pid,
          database: store.kind,
          rendering: jobs.runner.runningIds(),
        },
      }),
  );
}
