/** Voices, usage, downloads and the event stream. */

import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Voice } from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import { VOICES } from '../../../shared/voices';
import type { Jobs } from '../../jobs';
import { toCredits } from '../../../shared/pricing';
import type { JobEventMap } from '../../jobs/events';
import type { Store } from '../../store';
import type { Auth } from '../auth';
import { API_CONTENT_TYPE } from '../errors';
import { CONTENT_TYPES, sendFile } from '../files';
import { toLedgerEntry } from '../views';

export interface MiscRouteOptions {
  store: Store;
  jobs: Jobs;
  auth: Auth;
  /** Open SSE streams, ended by the server on close. */
  streams: Set<FastifyReply>;
}

export function registerMiscRoutes(
  app: FastifyInstance,
  { store, jobs, auth, streams }: MiscRouteOptions,
): void {
  const voices: Voice[] = VOICES.map((v) => ({ ...v }));

  app.get('/api/v1/voices', async (_request, reply) =>
    reply.type(API_CONTENT_TYPE).send({ status: 1, result: { items: voices } }),
  );

  app.get<{ Querystring: Record<string, string> }>('/api/v1/usage', async (request, reply) => {
    const key = await auth.requireKey(request);
    const page = /^[1-9]\d{0,8}$/.test(request.query.page ?? '1') ? Number(request.query.page ?? 1) : NaN;
    const pageSize = /^[1-9]\d{0,2}$/.test(request.query.page_size ?? '50')
      ? Number(request.query.page_size ?? 50)
      : NaN;
    if (!Number.isFinite(page) || !Number.isFinite(pageSize) || pageSize > 100) {
      throw new AppError('INVALID_FIELD', 'page must be a positive integer and page_size from 1 to 100.');
    }
    const { rows, total } = store.ledger.list(key.id, pageSize, (page - 1) * pageSize);
    return reply.type(API_CONTENT_TYPE).send({
      status: 1,
      result: {
        balance: toCredits(key.balance_milli),
        balance_milli: key.balance_milli,
        queued: key.queued,
        ledger: rows.map(toLedgerEntry),
        page,
        page_size: pageSize,
        total,
      },
    });
  });

  app.get<{ Params: { id: string; token: string; name: string } }>(
    '/files/:id/:token/:name',
    async (request, reply) => {
      const { id, token, name } = request.params;
      const row = /^[0-9a-f]{32}$/.test(id) ? store.requests.get(id) : undefined;
      const notFound = new AppError('NOT_FOUND', 'No such file.');
      if (!row) throw notFound;
      const expected = Buffer.from(row.download_token);
      const given = Buffer.from(token);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound;
      if (row.status !== 'SUCCESS') throw notFound;
      if (name === `audio.${row.audio_type}`) {
        return sendFile(
          request,
          reply,
          jobs.files.audioPath(row),
          CONTENT_TYPES[row.audio_type],
          `${row.id}.${row.audio_type}`,
        );
      }
      if (name === 'subtitles.srt' && row.generate_srt) {
        return sendFile(request, reply, jobs.files.srtPath(row), CONTENT_TYPES.srt, `${row.id}.srt`);
      }
      throw notFound;
    },
  );

  app.get('/api/v1/events', async (request, reply) => {
    const key = await auth.requireKey(request);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-content-type-options': 'nosniff',
    });
    raw.write('retry: 2000\n: connected\n\n');
    const send = (event: string, data: unknown) =>
      raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const onRequest = ({ keyId, ...event }: JobEventMap['request'][0]) => {
      if (keyId === key.id) send('request', event);
    };
    const onDelivery = ({ keyId, ...event }: JobEventMap['delivery'][0]) => {
      if (keyId === key.id) send('delivery', event);
    };
    jobs.events.on('request', onRequest);
    jobs.events.on('delivery', onDelivery);
    const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
    streams.add(reply);
    raw.on('close', () => {
      clearInterval(heartbeat);
      jobs.events.off('request', onRequest);
      jobs.events.off('delivery', onDelivery);
      streams.delete(reply);
    });
  });
}
