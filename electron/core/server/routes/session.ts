/**
 * The studio's sign-in and its session (sessions.ts): GET / is the UI, whatever its query (the
 * page itself posts a `?token=` to the sign-in, so a prefetch or a reload cannot spend it).
 * POST /api/v1/session/sign-in spends the login token and answers the session cookie and the
 * session's value (the token is checked in the caller's turn of the failed-authentication
 * throttle, like a key); GET /api/v1/session says who the signed-in studio acts as; DELETE
 * /api/v1/session signs out.
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  StudioSignInSchema,
  SessionInfoSchema,
  StudioSignInBodySchema,
  type SessionInfo,
  type StudioSignIn,
} from '../../../shared/api';
import { AppError } from '../../../shared/errors';
import type { KeyRow } from '../../store';
import { crossOriginSessionError, requireSession, type Auth } from '../auth';
import { cookiePath, type RequestPrefix } from '../public-url';
import { sendResult } from '../reply';
import { LOGIN_TOKEN_TTL_MS, sessionCookieName, type Sessions } from '../sessions';
import type { StaticUi } from '../static-ui';
import { toKeyInfo } from '../views';
import { apiRoute, NOT_API, PUBLIC, SESSION, typed } from '../openapi';
import type { Wording } from '../route-validation';

export interface SessionRouteOptions {
  sessions: Sessions;
  /** The failed-authentication throttle that wrong sign-in tokens go through. */
  auth: Auth;
  ui: StaticUi;
  studioKey: () => Promise<KeyRow>;
  port(): number;
  /** The server's own base URL, for the API page. */
  baseUrl(): string;
  /** Shown on the Settings page. */
  dataDir: string | undefined;
  /** The path the browser sees the request under (public-url.ts): the session cookie's Path. */
  prefix?: RequestPrefix;
  /** The cookie goes over HTTPS only (`Secure`): the server is reached through an https public URL. */
  secureCookie?: boolean;
}

/** A sign-in body that is not `{token}` with a token of at most 200 characters. */
const signInWording: Wording = ({ part }) =>
  part === 'body'
    ? new AppError('INVALID_FIELD', 'token must be the token of a sign-in address.', { field: 'token' })
    : undefined;

export function registerSessionRoutes(app: FastifyInstance, options: SessionRouteOptions): void {
  const { sessions, auth, ui, studioKey } = options;
  const secure = options.secureCookie ? '; Secure' : '';
  const prefix = options.prefix ?? (() => '');
  // Path: the studio's own (a reverse proxy's sub-path), not every application of the host.
  const cookie = (request: FastifyRequest, value: string, extra = '') =>
    `${sessionCookieName(options.port())}=${value}; HttpOnly; SameSite=Strict; Path=${cookiePath(prefix(request))}${secure}${extra}`;

  app.get('/', { schema: NOT_API }, async (_request, reply) => ui.sendIndex(reply));

  typed(app).post(
    '/api/v1/session/sign-in',
    {
      // Before the body is checked: a page of another site is refused whatever it sends.
      onRequest: async (request) => {
        if (request.crossOrigin) throw crossOriginSessionError();
      },
      schema: apiRoute({
        operationId: 'signIn',
        tag: 'studio',
        summary: "Spend a sign-in address's token for a studio session",
        security: PUBLIC,
        body: StudioSignInBodySchema,
        result: StudioSignInSchema,
        validate: { wording: signInWording, emptyBodyIsObject: true },
      }),
    },
    async (request, reply) => {
      const { body } = request;
      const signedIn = await auth.guard(request, () => sessions.signIn(body.token, studioKey), body.token);
      if (!signedIn) {
        throw new AppError(
          'UNAUTHORIZED',
          `This sign-in address is wrong, was already used or is older than ${LOGIN_TOKEN_TTL_MS / 60_000} minutes (each works once, within ${LOGIN_TOKEN_TTL_MS / 60_000} minutes). Open the newest sign-in address printed in the terminal of "npm start" or "serve": one that expired is replaced by a new one there.`,
          { reason: 'sign_in_address_refused', minutes: LOGIN_TOKEN_TTL_MS / 60_000 },
        );
      }
      // Kept by the browser as long as the session may live idle (not only until it closes).
      reply.header(
        'set-cookie',
        cookie(request, signedIn.id, `; Max-Age=${Math.round(sessions.idleTimeoutMs / 1000)}`),
      );
      const result: StudioSignIn = {
        session: signedIn.secret,
        idle_timeout_s: Math.round(sessions.idleTimeoutMs / 1000),
      };
      return sendResult(reply, result);
    },
  );

  app.get(
    '/api/v1/session',
    {
      schema: apiRoute({
        operationId: 'getSession',
        tag: 'studio',
        summary: 'Who the signed-in studio acts as',
        security: SESSION,
        result: SessionInfoSchema,
      }),
    },
    async (request, reply) => {
      requireSession(request);
      const result: SessionInfo = {
        key: toKeyInfo(await request.sessionKey!()),
        base_url: options.baseUrl(),
        data_dir: options.dataDir ?? null,
      };
      return sendResult(reply, result);
    },
  );

  app.delete(
    '/api/v1/session',
    { schema: apiRoute({ operationId: 'signOut', tag: 'studio', summary: 'Sign out', security: SESSION }) },
    async (request, reply) => {
      requireSession(request);
      await sessions.signOut(request.sessionId!);
      reply.header('set-cookie', cookie(request, '', '; Max-Age=0'));
      return sendResult(reply, { signed_out: true });
    },
  );
}
