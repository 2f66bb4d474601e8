/**
 * Studio sessions. `serve` prints a sign-in address, `/?token=<login token>`; the studio page
 * posts the token to POST /api/v1/session/sign-in (routes/session.ts), which spends it and
 * answers an HttpOnly SameSite=Strict session cookie and the session's own value. A request
 * acts as the studio only with both: the cookie and that value in the `X-Studio-Session`
 * header. Browsers send 127.0.0.1's cookies to every port (RFC 6265 §8.5), so the cookie can
 * reach another local server; the value lives in the page's own origin's storage, which a page
 * of another port cannot read. A signed-in request acts with full rights on the local studio:
 * it submits with the studio key (the --api-key key, else the oldest live one) and alone may
 * manage keys (see `requireSession` in auth.ts).
 *
 * A login token is single-use: the first sign-in spends it and a new one takes its place (serve
 * prints the new address). A session ends after `idleTimeoutMs` without a request, or when
 * signed out.
 */

import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { STUDIO_SESSION_HEADER, STUDIO_SESSION_QUERY } from '../../shared/api';
import { systemClock, type Clock } from '../platform/clock';
import { createApiKey } from '../jobs/keys';
import type { KeyRow, Store } from '../store';
import { sameSecret } from './security';

/** Default end of a session without requests: 12 hours. */
export const DEFAULT_SESSION_IDLE_MS = 12 * 60 * 60_000;

/** A new session: its id (the cookie) and its value (the header). */
export interface SignedIn {
  id: string;
  secret: string;
}

/** In-memory sessions: a restart signs every browser out (open the new printed address). */
export interface Sessions {
  /** The token of the current sign-in address; once spent, a new one replaces it. */
  readonly loginToken: string;
  /** A session when `token` is the current login token (which it spends), else undefined. */
  signIn(token: string): SignedIn | undefined;
  /**
   * True when `id` is a live session and `secret` its value; counts as activity (the idle time
   * starts again). An idle session found here is ended.
   */
  check(id: string | undefined, secret: string | undefined): boolean;
  /** Ends the session `id` (sign-out); nothing when there is none. */
  signOut(id: string): void;
  /** Calls `listener` with each new login token after one was spent. */
  onLoginToken(listener: (token: string) => void): void;
  readonly idleTimeoutMs: number;
}

export interface SessionsOptions {
  /** The first login token (default random); later ones are always random. */
  loginToken?: string;
  /** Time without requests after which a session ends, ms (default 12 h). */
  idleTimeoutMs?: number;
  clock?: Clock;
}

const newToken = () => randomBytes(24).toString('hex');

export function createSessions(options: SessionsOptions = {}): Sessions {
  const clock = options.clock ?? systemClock;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
  const live = new Map<string, { secret: string; lastUsed: number }>();
  const listeners: ((token: string) => void)[] = [];
  let loginToken = options.loginToken ?? newToken();

  const sweep = (now: number) => {
    for (const [id, session] of live) if (now - session.lastUsed >= idleTimeoutMs) live.delete(id);
  };

  return {
    get loginToken() {
      return loginToken;
    },
    idleTimeoutMs,
    signIn(token) {
      if (!sameSecret(token, loginToken)) return undefined;
      loginToken = newToken();
      const now = clock.now();
      sweep(now);
      const id = randomBytes(32).toString('base64url');
      const secret = randomBytes(32).toString('base64url');
      live.set(id, { secret, lastUsed: now });
      for (const listener of listeners) listener(loginToken);
      return { id, secret };
    },
    check(id, secret) {
      const session = id === undefined ? undefined : live.get(id);
      if (!session || secret === undefined) return false;
      const now = clock.now();
      if (now - session.lastUsed >= idleTimeoutMs) {
        live.delete(id!);
        return false;
      }
      if (!sameSecret(secret, session.secret)) return false;
      session.lastUsed = now;
      return true;
    },
    signOut(id) {
      live.delete(id);
    },
    onLoginToken(listener) {
      listeners.push(listener);
    },
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

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route also takes the session's value from the `studio_session` query parameter (a GET
     * an audio element plays, which cannot send headers); it is removed from the query.
     */
    sessionInQuery?: boolean;
  }
  interface FastifyRequest {
    /** The id of the request's valid session (cookie and value both right), else null. */
    sessionId: string | null;
  }
}

/** The session id of the request's cookie, if it carries one. */
function sessionCookie(header: string | undefined, port: number): string | undefined {
  const name = sessionCookieName(port);
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/**
 * Sets `request.sessionKey` (see auth.ts) and `request.sessionId` on every request that carries
 * a valid session cookie together with its session's value, unless it comes from a page of
 * another site (`request.crossOrigin`, cors.ts): those use keys, never the studio's session.
 */
export function attachSessions(
  app: FastifyInstance,
  { sessions, port, studioKey }: SessionCookieOptions,
): void {
  app.decorateRequest('sessionKey', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request) => {
    if (request.crossOrigin) return;
    const header = request.headers[STUDIO_SESSION_HEADER];
    let secret = typeof header === 'string' ? header : undefined;
    if (request.routeOptions.config.sessionInQuery && request.method === 'GET') {
      const query = request.query as Record<string, unknown>;
      const fromQuery = query[STUDIO_SESSION_QUERY];
      delete query[STUDIO_SESSION_QUERY];
      if (secret === undefined && typeof fromQuery === 'string') secret = fromQuery;
    }
    const id = sessionCookie(request.headers.cookie, port());
    if (sessions.check(id, secret)) {
      request.sessionKey = studioKey;
      request.sessionId = id!;
    }
  });
}
