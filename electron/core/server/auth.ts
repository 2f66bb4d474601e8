/**
 * Authentication for /api and /v1 routes: a bearer key, or the signed-in studio session (see
 * sessions.ts). A rejected credential is answered through the failed-authentication throttle
 * (auth-throttle.ts); a valid one never waits.
 */

import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { authenticate } from '../jobs/keys';
import type { KeyRow, Store } from '../store';
import { throttleAddress, type AuthThrottle } from './auth-throttle';

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
   * Authorization header always wins over a session cookie. Rejects with UNAUTHORIZED, after
   * the throttle's delay when the request presented a key that is malformed, unknown or
   * revoked (a missing one is not a guess and is refused at once), or with TOO_MANY_REQUESTS
   * when too many failed answers are already waiting.
   */
  requireKey(request: FastifyRequest): Promise<KeyRow>;
  /** Throws UNAUTHORIZED unless the request is the signed-in studio (bearer keys may not manage keys). */
  requireSession(request: FastifyRequest): void;
  /**
   * Records a failed sign-in (a wrong studio login token) and resolves when its answer may be
   * sent; rejects with TOO_MANY_REQUESTS like `requireKey`.
   */
  failed(request: FastifyRequest): Promise<void>;
}

export function createAuth({ store, throttle }: { store: Store; throttle: AuthThrottle }): Auth {
  const failed = (request: FastifyRequest) => throttle.failed(throttleAddress(request.socket.remoteAddress));
  return {
    async requireKey(request) {
      const header = request.headers.authorization;
      if (!header && request.sessionKey) return request.sessionKey();
      if (!header) throw new AppError('UNAUTHORIZED', 'Missing header "Authorization: Bearer <API key>".');
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      const key = match ? await authenticate(store, match[1]!) : undefined;
      if (key) return key;
      await failed(request);
      throw new AppError(
        'UNAUTHORIZED',
        match ? 'Unknown or revoked API key.' : 'The Authorization header must be "Bearer <API key>".',
      );
    },
    requireSession,
    failed,
  };
}

/** Throws UNAUTHORIZED unless the request is the signed-in studio (bearer keys may not manage keys). */
export function requireSession(request: FastifyRequest): void {
  if (!request.sessionKey || request.headers.authorization) {
    throw new AppError(
      'UNAUTHORIZED',
      'Only the signed-in studio may do this (bearer keys may not): sign in with the address printed by "serve"; the studio sends its session cookie and its X-Studio-Session header.',
    );
  }
}
