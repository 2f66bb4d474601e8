/**
 * CORS for the origins the operator named (`--allow-origin`, the Settings view's "Allowed
 * origins"; the decision is the host policy's, security.ts): a page of another site or a browser
 * extension calling the API with `fetch` and a bearer key. Its preflight (`OPTIONS` with
 * Access-Control-Request-Method) is answered 204 with the methods and headers allowed; its
 * requests get Access-Control-Allow-Origin echoing the origin and Access-Control-Expose-Headers
 * naming the headers of the answer a script may read. Every other origin stays refused
 * (FORBIDDEN_ORIGIN, app.ts).
 *
 * Access-Control-Allow-Credentials is never sent: such a page authenticates with its key, and
 * the studio's session cookie must stay of no use to it (the session is not attached to a
 * cross-origin request, sessions.ts, and signing in from one is refused).
 *
 * Not @fastify/cors: its catch-all OPTIONS route answers every OPTIONS request (those with no
 * Origin, or from our own pages, included) outside our error shapes, and the origin decision
 * and the session rule are ours anyway; what is left is these few headers.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HostPolicy } from './security';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * True for a request from an origin named by `--allow-origin` (not one of this server's
     * own): it may use bearer keys, never the studio's session.
     */
    crossOrigin: boolean;
  }
}

/** Methods a cross-origin page may use. */
const CORS_ALLOWED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Request headers a cross-origin page may send: the key, JSON bodies, idempotent submits,
 * ranges of audio downloads, the event stream's resume point, and what fetch wrappers and the
 * `openai` package (6.x, `dangerouslyAllowBrowser`) add.
 */
const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Requested-With',
  'Accept',
  'Range',
  'Last-Event-ID',
  'OpenAI-Organization',
  'OpenAI-Project',
  'X-Stainless-Arch',
  'X-Stainless-Lang',
  'X-Stainless-OS',
  'X-Stainless-Package-Version',
  'X-Stainless-Retry-Count',
  'X-Stainless-Runtime',
  'X-Stainless-Runtime-Version',
  'X-Stainless-Timeout',
] as const;

/** How long a browser may keep a preflight's answer, seconds. */
const CORS_MAX_AGE_S = 600;

/**
 * Response headers a script reads without being told (CORS-safelisted), and those it may never
 * read or that concern the connection: not listed in Access-Control-Expose-Headers.
 */
const NOT_EXPOSED = new Set([
  'cache-control',
  'content-language',
  'content-length',
  'content-type',
  'expires',
  'last-modified',
  'pragma',
  'set-cookie',
  'vary',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'x-content-type-options',
]);

/** True for a CORS preflight: OPTIONS asking which method it may use. */
function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/**
 * Installs the cross-origin answers: `request.crossOrigin`, set by `markCrossOrigin` (called by
 * the app's origin check), and the exposed headers of every answer to such a request.
 */
export function registerCors(app: FastifyInstance): void {
  app.decorateRequest('crossOrigin', false);
  app.addHook('onSend', async (request, reply) => {
    if (!request.crossOrigin) return;
    const names = Object.keys(reply.getHeaders()).filter(
      (name) => !NOT_EXPOSED.has(name) && !name.startsWith('access-control-'),
    );
    if (names.length > 0) reply.header('access-control-expose-headers', names.join(', '));
  });
}

/**
 * For a request whose Origin the policy allows: answers `Vary: Origin` when any cross origin is
 * allowed (so a cache keeps answers to different pages apart) and, for an allowed cross origin,
 * marks the request, echoes its origin and answers a preflight at once (true: the request is
 * answered). On the raw response, so an answer that takes the socket over (the event stream)
 * carries them too.
 */
export function answerCrossOrigin(policy: HostPolicy, request: FastifyRequest, reply: FastifyReply): boolean {
  if (policy.allowedOrigins.length === 0) return false;
  reply.raw.setHeader('vary', 'Origin');
  const origin = request.headers.origin;
  if (!policy.isCrossOrigin(origin)) return false;
  request.crossOrigin = true;
  reply.raw.setHeader('access-control-allow-origin', origin!);
  if (!isPreflight(request)) return false;
  reply.raw.setHeader('access-control-allow-methods', CORS_ALLOWED_METHODS.join(', '));
  reply.raw.setHeader('access-control-allow-headers', CORS_ALLOWED_HEADERS.join(', '));
  reply.raw.setHeader('access-control-max-age', String(CORS_MAX_AGE_S));
  // Chromium's Private Network Access asks before a public page reaches a loopback server.
  if (request.headers['access-control-request-private-network'] === 'true')
    reply.raw.setHeader('access-control-allow-private-network', 'true');
  void reply.code(204).send();
  return true;
}
