/**
 * The HTTP app factory: the spec's API, its extensions, downloads, the event stream and the
 * OpenAI-compatible endpoint, behind the host/origin checks. Not listening: the caller
 * (`createCore`) listens and closes it.
 */

import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors';
import type { Jobs } from '../jobs';
import type { Log } from '../platform/log';
import type { Store } from '../store';
import { HTTP_STATUS, sendError, toAppError, writeClientError } from './errors';
import { registerHealthRoute } from './routes/health';
import { registerMiscRoutes } from './routes/misc';
import { registerOpenAiRoutes, sendOpenAiError } from './routes/openai';
import { registerTtsRoutes } from './routes/tts';
import { createAuth } from './auth';
import { createAuthThrottle, type AuthThrottleOptions } from './auth-throttle';
import { createHostPolicy } from './security';
import { registerStudioRoutes, type StudioOptions } from './studio';
import { DEFAULT_MAX_TEXT_CHARS } from './validation';

/** Default limit on a JSON body, bytes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServerOptions {
  store: Store;
  jobs: Jobs;
  log: Log;
  /** Address the server binds to (for the Host check). */
  host: string;
  /** The real port, known after listen. */
  port(): number;
  /** Bytes; default 1 MiB. */
  bodyLimit?: number;
  /** Characters of input_text; default 100 000. */
  maxTextChars?: number;
  allowedHosts?: readonly string[];
  allowedOrigins?: readonly string[];
  /**
   * The slow-down of failed authentication (see auth-throttle.ts); defaults: 5 free failures a
   * minute per address, then 250 ms doubling to 5 s, 64 waiting at most, beyond that 429.
   */
  authThrottle?: AuthThrottleOptions;
  /** The studio UI and its session sign-in; without it only bearer keys work and `/` is 404. */
  studio?: Omit<StudioOptions, 'store' | 'port' | 'auth'>;
}

/** The HTTP app: fastify, which only the server layer imports. */
export type HttpApp = FastifyInstance;

export function buildServer(options: ServerOptions): HttpApp {
  const { store, jobs, log } = options;
  const maxTextChars = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Our own 503 (below) so requests arriving during shutdown get the spec's error shape.
    return503OnClosing: false,
    // Requests refused before any route (bad HTTP, bad URL) still get our error shape.
    clientErrorHandler: writeClientError,
    frameworkErrors: (error, request, reply) => void sendAnyError(request.url, reply, error),
  });
  // Some clients send "text/json" like the spec's responses; parse it as JSON too.
  // Only JSON bodies: a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  const policy = createHostPolicy({
    host: options.host,
    port: options.port,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
  });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    if (closing) {
      reply.header('connection', 'close');
      throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
    }
    reply.header('cache-control', 'no-store');
    if (!policy.isAllowedHost(request.headers.host)) {
      throw new AppError('FORBIDDEN_HOST', `Host "${request.headers.host ?? ''}" is not this server.`);
    }
    if (!policy.isAllowedOrigin(request.headers.origin)) {
      throw new AppError(
        'FORBIDDEN_ORIGIN',
        `Requests from origin "${request.headers.origin}" are not allowed.`,
      );
    }
  });

  const throttle = createAuthThrottle(options.authThrottle);
  // Waiting failed answers go out at once on close rather than holding the shutdown up.
  app.addHook('preClose', async () => throttle.close());
  const auth = createAuth({ store, throttle });

  if (options.studio) registerStudioRoutes(app, { store, auth, port: options.port, ...options.studio });

  const streams = new Set<FastifyReply>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.raw.end();
  });

  registerTtsRoutes(app, { store, jobs, auth, maxTextChars });
  registerMiscRoutes(app, { store, jobs, auth, streams });
  registerHealthRoute(app, { store, jobs });
  registerOpenAiRoutes(app, { jobs, auth, maxTextChars });

  app.setNotFoundHandler((request, reply) => {
    sendError(reply, new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (HTTP_STATUS[appError.code] >= 500) {
      log.warn(`${request.method} ${request.url}: ${(error as Error)?.stack ?? String(error)}`);
    }
    sendAnyError(request.url, reply, appError);
  });
  return app;
}

/** The OpenAI-compatible routes answer errors in OpenAI's shape, every other route in the spec's. */
function sendAnyError(url: string, reply: FastifyReply, error: unknown): FastifyReply {
  return url.startsWith('/v1/') ? sendOpenAiError(reply, error) : sendError(reply, error);
}
