/**
 * GET /api/v1/events: server-sent events of the key's requests (`request`: status and
 * progress), callback deliveries (`delivery`) and audiobook exports (`export`: status and
 * progress); for the studio session also voice-pack
 * installs (`voice-pack`: progress and end, the same for every session). Open streams are kept in `streams`, which the
 * server ends on close.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { JobEventMap, Jobs } from '../../jobs';
import { isStudio, type Auth } from '../auth';
import { apiRoute, binary, KEY, typed } from '../openapi';
import { STREAMED_ANSWER_HEADERS } from '../streamed-answer';
import { progressPercent } from '../views';

export interface EventsRouteOptions {
  jobs: Jobs;
  auth: Auth;
  /** Open SSE streams, ended by the server on close. */
  streams: Set<FastifyReply>;
}

export function registerEventsRoute(app: FastifyInstance, { jobs, auth, streams }: EventsRouteOptions): void {
  typed(app).get(
    '/api/v1/events',
    {
      schema: apiRoute({
        operationId: 'streamEvents',
        tag: 'events',
        summary: "Server-sent events of the key's requests, callbacks and exports",
        security: KEY,
        description:
          'Events `request` (RequestEvent), `delivery` (DeliveryEvent), `export` (ExportEvent), `project` (ProjectEvent: the render of a book project and its segment states); for the studio session also `voice-pack`. A comment line every 15 s keeps the stream open.',
        result: binary('text/event-stream', ['text/event-stream']),
      }),
    },
    async (request, reply) => {
      const key = await auth.requireKey(request);
      const studio = isStudio(request);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...STREAMED_ANSWER_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
        'x-content-type-options': 'nosniff',
      });
      raw.write('retry: 2000\n: connected\n\n');
      const send = (event: string, data: unknown) =>
        raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const onRequest = ({ keyId, progress, ...event }: JobEventMap['request'][0]) => {
        if (keyId === key.id)
          send('request', { ...event, progress: progressPercent(event.status, progress) });
      };
      const onDelivery = ({ keyId, ...event }: JobEventMap['delivery'][0]) => {
        if (keyId === key.id) send('delivery', event);
      };
      const onExport = ({ keyId, ...event }: JobEventMap['export'][0]) => {
        if (keyId === key.id) send('export', event);
      };
      const onProject = ({ keyId, ...event }: JobEventMap['project'][0]) => {
        if (keyId === key.id) send('project', event);
      };
      const onVoicePack = (event: JobEventMap['voice-pack'][0]) => send('voice-pack', event);
      jobs.events.on('request', onRequest);
      jobs.events.on('delivery', onDelivery);
      jobs.events.on('export', onExport);
      jobs.events.on('project', onProject);
      if (studio) jobs.events.on('voice-pack', onVoicePack);
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), 15_000);
      streams.add(reply);
      raw.on('close', () => {
        clearInterval(heartbeat);
        jobs.events.off('request', onRequest);
        jobs.events.off('delivery', onDelivery);
        jobs.events.off('export', onExport);
        jobs.events.off('project', onProject);
        jobs.events.off('voice-pack', onVoicePack);
        streams.delete(reply);
      });
    },
  );
}
