/**
 * CORS for the origins the operator named (`--allow-origin`, the Settings view's "Allowed
 * origins"; the decision is the host policy's, security.ts): a page of another site, a browser
 * extension or an app in a web view (Electron, Capacitor, Tauri) calling the API with `fetch`
 * and a bearer key. Its preflight (`OPTIONS` with Access-Control-Request-Method) is answered
 * 204 with the methods allowed and the headers it asked for (below); its requests get
 * Access-Control-Allow-Origin echoing the origin and Access-Control-Expose-Headers naming the
 * headers of the answer a script may read. Every other origin stays refused (FORBIDDEN_ORIGIN,
 * app.ts), with no CORS header.
 *
 * Request headers: a named origin is trusted with a key, so its preflight is granted every
 * header it asks for (Access-Control-Request-Headers, echoed) beside a list of those common
 * clients send; clients add headers of their own (the `openai` package's User-Agent, which
 * Firefox and Safari put in the preflight while Chromium drops it, its X-Stainless-* family;
 * a player's Cache-Control), and a list can never keep up with them. Two are never granted:
 * the studio's session header and Cookie. The answer depends on the request's headers, so it
 * says `Vary: Origin, Access-Control-Request-Headers`.
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
import { STUDIO_SESSION_HEADER } from '../../shared/api';
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
 * Request headers every preflight of a named origin is granted, asked for or not: the key, JSON
 * bodies, idempotent submits, ranges of audio downloads, the event stream's resume point, and
 * what fetch wrappers, players and the `openai` package (6.x, `dangerouslyAllowBrowser`) add.
 * Those asked for beyond them are granted too (`allowedRequestHeaders`).
 */
const CORS_ALLOWED_HEADERS = [
  'Authorization',
  'Content-Type',
  'Idempotency-Key',
  'X-Requested-With',
  'Accept',
  'Accept-Language',
  'Cache-Control',
  'Pragma',
  'User-Agent',
  'Range',
  'Last-Event-ID',
  'OpenAI-Organization',
  'OpenAI-Project',
  'OpenAI-Beta',
  'X-Stainless-Arch',
  'X-Stainless-Lang',
  'X-Stainless-OS',
  'X-Stainless-Package-Version',
  'X-Stainless-Retry-Count',
  'X-Stainless-Runtime',
  'X-Stainless-Runtime-Version',
  'X-Stainless-Timeout',
  'X-Stainless-Helper-Method',
  'X-Stainless-Poll-Helper',
  'X-Stainless-Custom-Poll-Interval',
] as const;

/** Request headers a cross-origin page is never granted, even when it asks: the studio's own. */
const NEVER_ALLOWED_HEADERS = new Set([STUDIO_SESSION_HEADER, 'cookie']);

/** A header name (an HTTP token, RFC 9110 §5.6.2). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/i;

/** At most this many names of Access-Control-Request-Headers are echoed. */
const MAX_ECHOED_HEADERS = 100;

/**
 * The request headers a named origin's preflight is granted: the common ones and those it asks
 * for (lower case, as browsers send them), but the studio's session header and Cookie; names
 * that are not header names are left out.
 */
export function allowedRequestHeaders(requested: string | undefined): string[] {
  const names: string[] = [...CORS_ALLOWED_HEADERS];
  const known = new Set(names.map((name) => name.toLowerCase()));
  for (const part of (requested ?? '').split(',').slice(0, MAX_ECHOED_HEADERS)) {
    const name = part.trim().toLowerCase();
    if (!HEADER_NAME.test(name) || known.has(name) || NEVER_ALLOWED_HEADERS.has(name)) continue;
    known.add(name);
    names.push(name);
  }
  return names;
}

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
 * Installs the cross-origin answers: `request.crossOrigin`, set by `answerCrossOrigin` (called
 * by the app's origin check), and the exposed headers of every answer to such a request.
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
 * answered; it also varies by the headers asked for). On the raw response, so an answer that
 * takes the socket over (the event stream) carries them too.
 */
export function answerCrossOrigin(policy: HostPolicy, request: FastifyRequest, reply: FastifyReply): boolean {
  if (policy.allowedOrigins.length === 0) return false;
  reply.raw.setHeader('vary', 'Origin');
  const origin = request.headers.origin;
  if (!policy.isCrossOrigin(origin)) return false;
  request.crossOrigin = true;
  reply.raw.setHeader('access-control-allow-origin', origin!);
  if (!isPreflight(request)) return false;
  reply.raw.setHeader('vary', 'Origin, Access-Control-Request-Headers');
  reply.raw.setHeader('access-control-allow-methods', CORS_ALLOWED_METHODS.join(', '));
  const requested = request.headers['access-control-request-headers'];
  reply.raw.setHeader('access-control-allow-headers', allowedRequestHeaders(requested).join(', '));
  reply.raw.setHeader('access-control-max-age', String(CORS_MAX_AGE_S));
  // Chromium's Private Network Access asks before a public page reaches a loopback server.
  if (request.headers['access-control-request-private-network'] === 'true')
    reply.raw.setHeader('access-control-allow-private-network', 'true');
  void reply.code(204).send();
  return true;
}
