/**
 * Studio sessions, signed in as Jupyter does: `serve` prints `/?token=<login token>`; the
 * sign-in route (routes/session.ts) checks it and sets an HttpOnly SameSite=Strict session
 * cookie. A request carrying a valid session cookie acts with full rights on the local studio:
 * it submits with the studio key (the --api-key key, else the oldest live one) and alone may
 * manage keys (see `requireSession` in auth.ts).
 */

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../platform/clock';
import { createApiKey } from '../jobs/keys';
import type { KeyRow, Store } from '../store';
import { sameSecret } from './security';

/** In-memory sessions: a restart signs every browser out (open the printed address again). */
export interface Sessions {
  /** The login token of the printed address; valid for the server's lifetime, like Jupyter's. */
  readonly loginToken: string;
  /** A new session id when `token` is the login token, else undefined. */
  signIn(token: string): string | undefined;
  isValid(sessionId: string | undefined): boolean;
}

export function createSessions(loginToken = randomBytes(24).toString('hex')): Sessions {
  const ids = new Set<string>();
  return {
    loginToken,
    signIn(token) {
      if (!sameSecret(token, loginToken)) return undefined;
      const id = randomBytes(32).toString('base64url');
      ids.add(id);
      return id;
    },
    isValid: (id) => id !== undefined && ids.has(id),
  };
}

/** The session cookie's name: one per port, so two servers on this machine keep apart. */
export function sessionCookieName(port: number): string {
  return `ns_session_${port}`;
}

/** The key a session acts with: the oldest live key, created on first use when there is none. */
export function createStudioKey(
  store: Store,
  clock: Clock,
  defaultBalanceMilli: number | undefined,
): () => Promise<KeyRow> {
  return async () => {
    const live = (await store.keys.list()).find((k) => k.revoked_at === null);
    if (live) return live;
    const created = await createApiKey(store, clock, {
      name: 'Studio',
      ...(defaultBalanceMilli !== undefined ? { balanceMilli: defaultBalanceMilli } : {}),
    });
    return created.row;
  };
}

export interface SessionCookieOptions {
  sessions: Sessions;
  /** The real port (after listen): it names the cookie. */
  port(): number;
  studioKey: () => Promise<KeyRow>;
}

/** Sets `request.sessionKey` (see auth.ts) on every request that carries a valid session cookie. */
export function attachSessions(
  app: FastifyInstance,
  { sessions, port, studioKey }: SessionCookieOptions,
): void {
  const readCookie = (header: string | undefined): string | undefined => {
    const name = sessionCookieName(port());
    for (const part of (header ?? '').split(';')) {
      const [k, ...v] = part.trim().split('=');
      if (k === name) return v.join('=');
    }
    return undefined;
  };
  app.decorateRequest('sessionKey', null);
  app.addHook('onRequest', async (request) => {
    if (sessions.isValid(readCookie(request.headers.cookie))) request.sessionKey = studioKey;
  });
}
