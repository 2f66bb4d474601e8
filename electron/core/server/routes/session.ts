/**
 * The studio's sign-in and its session: GET /?token= checks the login token, sets the session
 * cookie and redirects to `/` so the token leaves the address bar (a wrong token gets a page
 * saying so, through the failed-authentication throttle); GET / without a token is the UI.
 * GET /api/v1/session says who the signed-in studio acts as.
 */

import type { FastifyInstance } from 'fastify';
import type { SessionInfo } from '../../../shared/api';
import { isAppError } from '../../../shared/errors';
import type { KeyRow } from '../../store';
import { requireSession, type Auth } from '../auth';
import { setRetryAfter } from '../errors';
import { sendResult } from '../reply';
import { sessionCookieName, type Sessions } from '../sessions';
import type { StaticUi } from '../static-ui';
import { toKeyInfo } from '../views';

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
}

export function registerSessionRoutes(app: FastifyInstance, options: SessionRouteOptions): void {
  const { sessions, auth, ui, studioKey } = options;

  app.get<{ Querystring: { token?: string } }>('/', async (request, reply) => {
    const token = request.query.token;
    if (token === undefined) return ui.sendIndex(reply);
    const id = sessions.signIn(token);
    if (!id) {
      try {
        await auth.failed(request);
      } catch (error) {
        if (!isAppError(error) || error.code !== 'TOO_MANY_REQUESTS') throw error;
        setRetryAfter(reply, error);
        return ui.sendPage(
          reply,
          429,
          'Too many sign-in attempts',
          `<p>Too many wrong sign-in links were opened from this computer. Wait ${String(error.details?.retry_after_s ?? 5)} s, then open the address that <code>serve</code> printed in its terminal.</p>`,
        );
      }
      return ui.sendPage(
        reply,
        401,
        'Sign-in link not valid',
        '<p>This sign-in link is wrong or belongs to an earlier run of the server.</p><p>Open the address that <code>serve</code> printed in its terminal: <code>open http://127.0.0.1:…/?token=…</code></p>',
      );
    }
    reply.header(
      'set-cookie',
      `${sessionCookieName(options.port())}=${id}; HttpOnly; SameSite=Strict; Path=/`,
    );
    return reply.code(303).header('location', '/').send();
  });

  app.get('/api/v1/session', async (request, reply) => {
    requireSession(request);
    const result: SessionInfo = {
      key: toKeyInfo(await studioKey()),
      base_url: options.baseUrl(),
      data_dir: options.dataDir ?? null,
    };
    return sendResult(reply, result);
  });
}
