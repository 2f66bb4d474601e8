/**
 * Authentication for /api and /v1 routes: a bearer key, or the signed-in studio session (see
 * sessions.ts). Every presented key (and sign-in token) is checked in its bucket's turn of the
 * failed-authentication throttle (auth-throttle.ts): a client that keeps failing waits before
 * each check of a credential it does not hold, and no one else does.
 *
 * A route that needs a key or the session says so in its schema (`security: KEY` or `SESSION`,
 * openapi.ts); `checkBeforeBody` checks it in `onRequest`, before any byte of the body is read,
 * and the handler's own `requireKey` reuses that check.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KEY_FILTER_ALL } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { authenticate } from '../jobs';
import type { KeyRow, Store } from '../store';
import type { AuthThrottle } from './auth-throttle';
import type { RouteSecurity } from './openapi';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by the studio's onRequest hook when the request carries a valid session cookie and
     * that session's X-Studio-Session value (sessions.ts): resolves the key the studio acts
     * with. null for every other request, the cookie alone included.
     */
    sessionKey: (() => Promise<KeyRow>) | null;
  }
}

export interface Auth {
  /**
   * The live key of the request. Looked up on every call, so a revocation applies at once. An
   * Authorization header always wins over a session cookie. The key is checked in the
   * throttle's turn of the caller; rejects with UNAUTHORIZED when it is malformed, unknown or
   * revoked (counted as a failure; a missing one is not a guess and is refused at once), or
   * with TOO_MANY_REQUESTS, unchecked, when too many of the caller's checks already wait.
   * Checked once per request: later calls for the same request answer the first one's result.
   */
  requireKey(request: FastifyRequest): Promise<KeyRow>;
  /** Throws UNAUTHORIZED unless the request is the signed-in studio (bearer keys may not manage keys). */
  requireSession(request: FastifyRequest): void;
  /**
   * Runs `check` (of another credential: a studio sign-in token, `credential`) in the caller's
   * turn, like a key's; undefined counts as a failure. Rejects with TOO_MANY_REQUESTS like
   * `requireKey`.
   */
  guard<T>(
    request: FastifyRequest,
    check: () => Promise<T | undefined> | T | undefined,
    credential?: string,
  ): Promise<T | undefined>;
  /** A credential the server knows to be right (the sign-in token): its checks never share a guesser's turn. */
  remember(credential: string): void;
  /** A key was revoked: its prefix no longer has a bucket of its own (unless a live key shares it). */
  forgetKey(key: KeyRow): void;
}

/**
 * The key whose records a list shows, from its `key` query value (KEY_FILTER_ALL or a key's
 * id), or null for every key. Without a value, the caller's own key. Only the signed-in studio
 * may name another key or all of them; a bearer key may name only itself (UNAUTHORIZED
 * otherwise: other keys' traffic does not exist for it).
 */
export async function keyFilter(
  store: Store,
  request: FastifyRequest,
  own: KeyRow,
  value: string | undefined,
): Promise<KeyRow | null> {
  if (value === undefined || value === own.id) return own;
  if (!isStudio(request)) {
    throw new AppError(
      'UNAUTHORIZED',
      'A bearer key sees only its own requests and credits: leave out "key" or give its own id.',
    );
  }
  if (value === KEY_FILTER_ALL) return null;
  const row = await store.keys.findById(value);
  if (!row) throw new AppError('KEY_NOT_FOUND', `No API key "${value}".`);
  return row;
}

export function createAuth({ store, throttle }: { store: Store; throttle: AuthThrottle }): Auth {
  // request.ip: the socket's address, or the client a trusted proxy names (app.ts: trustProxy).
  const guard: Auth['guard'] = (request, check, credential) => throttle.guard(request.ip, check, credential);
  const checkKey = async (request: FastifyRequest): Promise<KeyRow> => {
    const header = request.headers.authorization;
    if (!header && request.sessionKey) return request.sessionKey();
    if (!header) throw new AppError('UNAUTHORIZED', 'Missing header "Authorization: Bearer <API key>".');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const presented = match?.[1];
    const key = await guard(
      request,
      () => (presented !== undefined ? authenticate(store, presented) : undefined),
      presented,
    );
    if (key) return key;
    throw new AppError(
      'UNAUTHORIZED',
      match ? 'Unknown or revoked API key.' : 'The Authorization header must be "Bearer <API key>".',
    );
  };
  /** Each request's one check (its onRequest hook's, reused by the handler). */
  const checked = new WeakMap<FastifyRequest, Promise<KeyRow>>();
  return {
    requireKey(request) {
      let key = checked.get(request);
      if (!key) {
        key = checkKey(request);
        checked.set(request, key);
      }
      return key;
    },
    requireSession,
    guard,
    remember: (credential) => throttle.remember(credential),
    forgetKey: (key) => {
      if (key.prefix_hash !== null) throttle.forget(key.prefix_hash);
    },
  };
}

/**
 * Checks the key (routes with `security: KEY`) or the studio session (`SESSION`) in
 * `onRequest`, before the body is read: a request refused here never has its body read, and
 * its connection is closed after the answer rather than drained. Added after the session hook
 * (sessions.ts), which it relies on.
 */
export function checkBeforeBody(app: FastifyInstance, auth: Auth): void {
  app.addHook('onRequest', async (request, reply) => {
    const security = (request.routeOptions.schema as { security?: RouteSecurity } | undefined)?.security;
    if (!security || security.length === 0) return;
    // A route whose schemes include the empty one takes a request without credentials too
    // (health's short answer); credentials that are presented are still checked here.
    const optional = security.some((scheme) => Object.keys(scheme).length === 0);
    if (optional && request.headers.authorization === undefined && !request.sessionKey) return;
    try {
      if (security.some((scheme) => 'bearerKey' in scheme)) await auth.requireKey(request);
      else requireSession(request);
    } catch (error) {
      if (hasBody(request)) reply.header('connection', 'close');
      throw error;
    }
  });
}

/** True when the request is the signed-in studio (a bearer key, even with the cookie, is not). */
export function isStudio(request: FastifyRequest): boolean {
  return Boolean(request.sessionKey) && !request.headers.authorization;
}

/**
 * Throws UNAUTHORIZED unless the request is the signed-in studio (bearer keys may not manage
 * keys); FORBIDDEN_ORIGIN for a page of another site (`--allow-origin`), whatever it carries.
 */
export function requireSession(request: FastifyRequest): void {
  if (request.crossOrigin) throw crossOriginSessionError();
  if (!isStudio(request)) {
    throw new AppError(
      'UNAUTHORIZED',
      'Only the signed-in studio may do this (bearer keys may not): sign in with the address printed by "npm start" or "serve"; the studio sends its session cookie and its X-Studio-Session header.',
    );
  }
}

/** The studio's session from a page of another site (`--allow-origin`): refused whatever it carries. */
export function crossOriginSessionError(): AppError {
  return new AppError(
    'FORBIDDEN_ORIGIN',
    "The studio session works only on the studio's own pages; a page of another site calls the API with an API key.",
  );
}

/** True when the request announces a body (a length above 0, or chunks). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
}
