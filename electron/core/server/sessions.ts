/**
 * Studio sessions. `serve` prints a sign-in address, `/?token=<login token>`; the studio page
 * posts the token to POST /api/v1/session/sign-in (routes/session.ts), which spends it and
 * answers an HttpOnly SameSite=Strict session cookie and the session's own value. A request
 * acts as the studio only with both: the cookie and that value in the `X-Studio-Session`
 * header. Browsers send 127.0.0.1's cookies to every port (RFC 6265 §8.5), so the cookie can
 * reach another local server; the value lives in the page's own origin's storage, which a page
 * of another port cannot read. A signed-in request acts with full rights on the local studio:
 * it submits with the studio key (its own, else the oldest live one: jobs/keys.ts studioKey) and
 * alone may manage keys (see `requireSession` in auth.ts).
 *
 * A login token is single-use and short-lived: the first sign-in spends it and a new one takes
 * its place (serve prints the new address), and one older than `LOGIN_TOKEN_TTL_MS` (10 minutes,
 * on the sessions' clock) is refused: a sign-in address left in a terminal's scroll-back, a shell
 * history or a screenshot opens nothing later. An expired token is replaced when it is next
 * asked for (`loginToken`: the desktop window's own sign-in) or tried (serve prints the new
 * address then). Sessions are kept in the data directory's database (store/
 * sessions-repo.ts, SHA-256 hashes of the id and the value only), so a restart of the same data
 * directory keeps the studio signed in. A session ends when signed out, after `idleTimeoutMs`
 * without a request, or when the key it acts with (the studio key at its sign-in) is revoked.
 */

import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { STUDIO_SESSION_HEADER, STUDIO_SESSION_QUERY } from '../../shared/api';
import { AppError } from '../../shared/errors';
import { systemClock, type Clock } from '../platform/clock';
import { studioKey } from '../jobs/keys';
import type { KeyRow, Store } from '../store';
import { sameSecret } from './security';

/** Default end of a session without requests: 30 days (a restart does not end it). */
const DEFAULT_SESSION_IDLE_MS = 30 * 24 * 60 * 60_000;

/** A new session: its id (the cookie) and its value (the header). */
export interface SignedIn {
  id: string;
  secret: string;
}

/** How long a login token (a sign-in address) works, ms: 10 minutes. */
export const LOGIN_TOKEN_TTL_MS = 10 * 60_000;

/** Sessions kept in the store: they outlive a restart of the server on the same data directory. */
export interface Sessions {
  /**
   * The token of the current sign-in address; once spent, or older than `LOGIN_TOKEN_TTL_MS`, a
   * new one replaces it (reading it when it has expired makes the new one, and tells the
   * `onLoginToken` listeners).
   */
  readonly loginToken: string;
  /**
   * A session acting with the key `key()` resolves, when `token` is the current login token
   * and younger than `LOGIN_TOKEN_TTL_MS` (it is spent), else undefined. A try while the
   * current token has expired replaces it (the listeners hear of the new one).
   */
  signIn(token: string, key: () => Promise<KeyRow>): Promise<SignedIn | undefined>;
  /**
   * The id of the key the session acts with when `id` is a live session and `secret` its value,
   * else undefined; counts as activity (the idle time starts again). An idle session, or one
   * whose key was revoked, found here is ended.
   */
  check(id: string | undefined, secret: string | undefined): Promise<string | undefined>;
  /** Ends the session `id` (sign-out); nothing when there is none. */
  signOut(id: string): Promise<void>;
  /** Calls `listener` with each new login token after one was spent or expired. */
  onLoginToken(listener: (token: string) => void): void;
  readonly idleTimeoutMs: number;
}

export interface SessionsOptions {
  store: Store;
  /** The first login token (default random); later ones are always random. */
  loginToken?: string;
  /** Time without requests after which a session ends, ms (default 30 days). */
  idleTimeoutMs?: number;
  clock?: Clock;
}

const newToken = () => randomBytes(24).toString('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/**
 * Activity is written at most this often per session (a page makes many requests a second), so a
 * session may end up to this much before its idle period is over.
 */
const TOUCH_EVERY_MS = 60_000;

export function createSessions(options: SessionsOptions): Sessions {
  const { store } = options;
  const clock = options.clock ?? systemClock;
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_SESSION_IDLE_MS;
  const listeners: ((token: string) => void)[] = [];
  let loginToken = options.loginToken ?? newToken();
  let issuedAt = clock.now();
  const expired = () => {
    const age = clock.now() - issuedAt;
    return age >= LOGIN_TOKEN_TTL_MS || age < 0;
  };
  /** A new login token, told to the listeners (serve prints its address). */
  const replace = () => {
    loginToken = newToken();
    issuedAt = clock.now();
    for (const listener of listeners) listener(loginToken);
  };

  return {
    get loginToken() {
      if (expired()) replace();
      return loginToken;
    },
    idleTimeoutMs,
    async signIn(token, key) {
      if (expired()) {
        replace();
        return undefined;
      }
      if (!sameSecret(token, loginToken)) return undefined;
      replace();
      const now = clock.now();
      await store.sessions.deleteIdle(now - idleTimeoutMs);
      const { id: keyId } = await key();
      const id = randomBytes(32).toString('base64url');
      const secret = randomBytes(32).toString('base64url');
      await store.sessions.insert({
        id_hash: sha256(id),
        secret_hash: sha256(secret),
        key_id: keyId,
        created_at: new Date(now).toISOString(),
        last_used_ms: now,
      });
      return { id, secret };
    },
    async check(id, secret) {
      if (id === undefined || secret === undefined || id === '') return undefined;
      const idHash = sha256(id);
      const session = await store.sessions.find(idHash);
      if (!session) return undefined;
      const now = clock.now();
      if (now - session.last_used_ms >= idleTimeoutMs || session.revoked_at !== null) {
        await store.sessions.delete(idHash);
        return undefined;
      }
      if (!sameSecret(sha256(secret), session.secret_hash)) return undefined;
      if (now - session.last_used_ms >= TOUCH_EVERY_MS || now < session.last_used_ms)
        await store.sessions.touch(idHash, now);
      return session.key_id;
    },
    async signOut(id) {
      await store.sessions.delete(sha256(id));
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

/**
 * The key a session acts with (jobs/keys.ts `studioKey`): the studio's own live key, else the
 * oldest live key when the studio never had one of its own, made on first use when there is
 * none; a revoked studio key's balance moves to the new one.
 */
export function createStudioKey(
  store: Store,
  clock: Clock,
  defaultBalanceMilli: number | undefined,
): () => Promise<KeyRow> {
  return () =>
    studioKey(store, clock, defaultBalanceMilli !== undefined ? { balanceMilli: defaultBalanceMilli } : {});
}

export interface SessionCookieOptions {
  sessions: Sessions;
  /** The real port (after listen): it names the cookie. */
  port(): number;
  store: Store;
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
export function attachSessions(app: FastifyInstance, { sessions, port, store }: SessionCookieOptions): void {
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
    const keyId = await sessions.check(id, secret);
    if (keyId !== undefined) {
      request.sessionKey = async () => {
        const key = await store.keys.findById(keyId);
        if (!key)
          throw new AppError('UNAUTHORIZED', 'The key of this studio session is gone: sign in again.');
        return key;
      };
      request.sessionId = id!;
    }
  });
}
