/** Authentication for /api and /v1 routes: a bearer key, or the signed-in studio session (see studio.ts). */

import type { FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';
import { authenticate } from '../jobs/keys';
import type { KeyRow, Store } from '../store';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by the studio's onRequest hook when the request carries a valid session cookie:
     * resolves the key the studio acts with. null for every other request.
     */
    sessionKey: (() => KeyRow) | null;
  }
}

/**
 * The live key of the request, or throws UNAUTHORIZED. Looked up on every call, so a revocation
 * applies at once. An Authorization header always wins over a session cookie.
 */
export function requireKey(store: Store, request: FastifyRequest): KeyRow {
  const header = request.headers.authorization;
  if (!header && request.sessionKey) return request.sessionKey();
  if (!header) throw new AppError('UNAUTHORIZED', 'Missing header "Authorization: Bearer <API key>".');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError('UNAUTHORIZED', 'The Authorization header must be "Bearer <API key>".');
  const key = authenticate(store, match[1]!);
  if (!key) throw new AppError('UNAUTHORIZED', 'Unknown or revoked API key.');
  return key;
}

/** Throws UNAUTHORIZED unless the request is the signed-in studio (bearer keys may not manage keys). */
export function requireSession(request: FastifyRequest): void {
  if (!request.sessionKey || request.headers.authorization) {
    throw new AppError(
      'UNAUTHORIZED',
      'Only the signed-in studio may manage keys; open the address printed by "serve".',
    );
  }
}
