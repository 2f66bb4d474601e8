/**
 * GET /api/v1/health: liveness for supervisors, CI scripts and the load suite. Without a key it
 * says only whether the server is ok (200 `{ok: true}`, or the error of the database check,
 * 503): a stranger learns nothing of the machine or of anyone's requests. With a key (or the
 * studio's session) it also says which instance answered: its id, host and process, the
 * database kind, the queue totals and the requests it renders now (ids only). A key that is
 * presented and wrong is refused like anywhere else (and goes through the guessing throttle).
 * The Host and Origin checks still apply. Answers from memory and one SUM over the keys table,
 * so it stays fast under load.
 */

import { hostname } from 'node:os';
import type { FastifyInstance } from 'fastify';
import type { Jobs } from '../../jobs';
import type { Store } from '../../store';
import type { Auth } from '../auth';
import { sendResult } from '../reply';
import { apiRoute, KEY, typed, type RouteSecurity } from '../openapi';

export interface HealthRouteOptions {
  store: Store;
  jobs: Jobs;
  auth: Auth;
}

/** No key (the short answer), or a key or the studio's session (the full one). */
const KEY_OPTIONAL: RouteSecurity = [{}, ...KEY];

export function registerHealthRoute(app: FastifyInstance, { store, jobs, auth }: HealthRouteOptions): void {
  const startedAt = Date.now();
  typed(app).get(
    '/api/v1/health',
    {
      schema: apiRoute({
        operationId: 'getHealth',
        tag: 'server',
        summary: 'Liveness; with a key, which instance answered and its queue',
        security: KEY_OPTIONAL,
      }),
    },
    async (request, reply) => {
      const identified = request.headers.authorization !== undefined || Boolean(request.sessionKey);
      if (identified) await auth.requireKey(request);
      // The database answers, or the route fails with its error (503): "not ok".
      const queued = await store.keys.totalQueued();
      if (!identified) return sendResult(reply, { ok: true });
      return sendResult(reply, {
        ok: true,
        uptime_s: Math.round((Date.now() - startedAt) / 1000),
        queued,
        running: jobs.runner.running,
        paused: jobs.runner.paused,
        instance: {
          id: jobs.instanceId,
          host: hostname(),
          pid: process.pid,
          database: store.kind,
          rendering: jobs.runner.runningIds(),
        },
      });
    },
  );
}
