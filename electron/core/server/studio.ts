/**
 * The studio UI in a browser, signed in as Jupyter does: `serve` prints
 * `/?token=<login token>`; GET /?token= checks it, sets an HttpOnly SameSite=Strict session
 * cookie and redirects to `/` so the token leaves the address bar. The session then acts with
 * full rights on the local studio: it submits with the studio key (the --api-key key, else the
 * oldest live one) and alone may manage keys. The built renderer is served from `uiDir`.
 */

import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import {
  AuditionBodySchema,
  CreateKeyBodySchema,
  type ApiKeyInfo,
  type AuditionBody,
  type CreateKeyBody,
  type CreatedKey,
  type ServerSettings,
  type SessionInfo,
  type UpdateServerSettingsBody,
} from '../../shared/api';
import { AppError, isAppError } from '../../shared/errors';
import { checkServerSettings, type Settings } from '../../shared/settings';
import { findVoice } from '../../shared/voices';
import type { Engine } from '../engine/engine';
import type { Clock } from '../platform/clock';
import { toCredits } from '../../shared/pricing';
import { defaultDataDir } from '../platform/paths';
import type { SettingsStore } from '../platform/settings-store';
import { createApiKey, revokeApiKey } from '../jobs/keys';
import type { KeyRow, Store } from '../store';
import { requireSession, type Auth } from './auth';
import { API_CONTENT_TYPE, setRetryAfter } from './errors';

/** Where `npm run build:ui` writes the renderer. */
export const DEFAULT_UI_DIR = fileURLToPath(new URL('../../../dist/renderer', import.meta.url));

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
  const expected = Buffer.from(loginToken);
  return {
    loginToken,
    signIn(token) {
      const given = Buffer.from(token);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      const id = randomBytes(32).toString('base64url');
      ids.add(id);
      return id;
    },
    isValid: (id) => id !== undefined && ids.has(id),
  };
}

export interface StudioOptions {
  store: Store;
  sessions: Sessions;
  /** Key checks, and the failed-authentication throttle that wrong sign-in tokens go through. */
  auth: Auth;
  clock: Clock;
  /** For voice auditions; without it the audition route answers ENGINE_FAILED. */
  engine?: Pick<Engine, 'audition'>;
  uiDir: string;
  port(): number;
  /** The server's own base URL, for the API page. */
  baseUrl(): string;
  /** Shown on the Settings page. */
  dataDir?: string;
  /** Balance of a studio key created when there is none, milli-credits. */
  defaultBalanceMilli?: number;
  /**
   * The shared settings file, for GET/PUT /api/v1/settings (port and data folder of the next
   * start). Without it those routes answer NOT_FOUND.
   */
  settings?: SettingsStore;
  /** The data folder a null `dataDir` setting means (default: the per-user app data folder). */
  defaultDataDir?: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  // wavesurfer.js puts a <style> in its shadow root.
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function toKeyInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.key_prefix,
    balance: toCredits(row.balance_milli),
    queued: row.queued,
    signing_secret: row.signing_secret,
    created_at: row.created_at,
    revoked_at: row.revoked_at,
  };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${title} · Narration Studio</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:15vh auto;padding:0 1.5rem;color:#1d2433}
@media (prefers-color-scheme: dark){body{background:#15181f;color:#e5e8ef}}code{background:#8882;padding:.1em .35em;border-radius:4px}</style></head>
<body><h1>${title}</h1>${body}</body></html>`;
}

export function registerStudioRoutes(app: FastifyInstance, options: StudioOptions): void {
  const { store, sessions, auth, clock } = options;
  const cookieName = () => `ns_session_${options.port()}`;
  const uiRoot = resolve(options.uiDir);

  /** The key a session acts with, created on first use when the studio has no live key. */
  const studioKey = (): KeyRow => {
    const live = store.keys.list().find((k) => k.revoked_at === null);
    if (live) return live;
    return createApiKey(store, clock, {
      name: 'Studio',
      ...(options.defaultBalanceMilli !== undefined ? { balanceMilli: options.defaultBalanceMilli } : {}),
    }).row;
  };

  const readCookie = (header: string | undefined): string | undefined => {
    const name = cookieName();
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

  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).type('text/html; charset=utf-8').header('content-security-policy', CSP).send(body);

  const sendUiFile = async (reply: FastifyReply, relative: string) => {
    const path = resolve(join(uiRoot, relative));
    if (path !== uiRoot && !path.startsWith(uiRoot + sep)) throw new AppError('NOT_FOUND', 'No such file.');
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) throw new AppError('NOT_FOUND', 'No such file.');
    const type = TYPES[extname(path)] ?? 'application/octet-stream';
    // Built assets carry a content hash in their names: cache them for good.
    if (relative.startsWith('assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
    return reply
      .code(200)
      .type(type)
      .header('content-security-policy', CSP)
      .send(await readFile(path));
  };

  app.get<{ Querystring: { token?: string } }>('/', async (request, reply) => {
    const token = request.query.token;
    if (token !== undefined) {
      const id = sessions.signIn(token);
      if (!id) {
        try {
          await auth.failed(request);
        } catch (error) {
          if (!isAppError(error) || error.code !== 'TOO_MANY_REQUESTS') throw error;
          setRetryAfter(reply, error);
          return html(
            reply,
            429,
            page(
              'Too many sign-in attempts',
              `<p>Too many wrong sign-in links were opened from this computer. Wait ${String(error.details?.retry_after_s ?? 5)} s, then open the address that <code>serve</code> printed in its terminal.</p>`,
            ),
          );
        }
        return html(
          reply,
          401,
          page(
            'Sign-in link not valid',
            '<p>This sign-in link is wrong or belongs to an earlier run of the server.</p><p>Open the address that <code>serve</code> printed in its terminal: <code>open http://127.0.0.1:…/?token=…</code></p>',
          ),
        );
      }
      reply.header('set-cookie', `${cookieName()}=${id}; HttpOnly; SameSite=Strict; Path=/`);
      return reply.code(303).header('location', '/').send();
    }
    if (!existsSync(join(uiRoot, 'index.html'))) {
      return html(
        reply,
        503,
        page(
          'Studio UI not built',
          '<p>The server runs, but the studio UI has not been built.</p><p>Run <code>npm run build:ui</code>, then reload this page.</p>',
        ),
      );
    }
    return sendUiFile(reply, 'index.html');
  });

  app.get<{ Params: { '*': string } }>('/assets/*', async (request, reply) =>
    sendUiFile(reply, `assets/${request.params['*']}`),
  );
  app.get('/favicon.svg', async (_request, reply) => sendUiFile(reply, 'favicon.svg'));

  const ok = (reply: FastifyReply, result: unknown) =>
    reply.type(API_CONTENT_TYPE).send({ status: 1, result });

  app.get('/api/v1/session', async (request, reply) => {
    requireSession(request);
    const result: SessionInfo = {
      key: toKeyInfo(studioKey()),
      base_url: options.baseUrl(),
      data_dir: options.dataDir ?? null,
    };
    return ok(reply, result);
  });

  const serverSettings = (stored: Settings): ServerSettings => {
    const runningPort = options.port();
    const runningDataDir = options.dataDir ?? null;
    const nextDataDir = resolve(stored.dataDir ?? options.defaultDataDir ?? defaultDataDir());
    const portChanges = stored.port !== 0 && stored.port !== runningPort;
    const dataDirChanges = runningDataDir !== null && nextDataDir !== resolve(runningDataDir);
    return {
      port: stored.port,
      data_dir: stored.dataDir,
      running_port: runningPort,
      running_data_dir: runningDataDir,
      restart_required: portChanges || dataDirChanges,
      settings_file: options.settings!.path,
    };
  };
  const requireSettings = (): SettingsStore => {
    if (!options.settings) throw new AppError('NOT_FOUND', 'This server has no settings file.');
    return options.settings;
  };

  app.get('/api/v1/settings', async (request, reply) => {
    requireSession(request);
    return ok(reply, serverSettings(requireSettings().get()));
  });

  app.put('/api/v1/settings', async (request, reply) => {
    requireSession(request);
    const settings = requireSettings();
    const body = (request.body ?? {}) as UpdateServerSettingsBody;
    if (typeof body !== 'object' || Array.isArray(body))
      throw new AppError('INVALID_FIELD', 'The body must be a JSON object with port and/or data_dir.');
    const unknown = Object.keys(body).find((k) => k !== 'port' && k !== 'data_dir');
    if (unknown !== undefined)
      throw new AppError(
        'INVALID_FIELD',
        `Unknown setting "${unknown}"; only port and data_dir can be set.`,
        {
          field: unknown,
        },
      );
    const [problem] = checkServerSettings(body);
    if (problem) throw new AppError('INVALID_FIELD', problem.message, { field: problem.field });
    const dataDir =
      body.data_dir === undefined ? undefined : body.data_dir === null ? null : body.data_dir.trim();
    if (typeof dataDir === 'string' && !isAbsolute(dataDir))
      throw new AppError('INVALID_FIELD', 'Data folder must be an absolute path on this computer.', {
        field: 'data_dir',
      });
    const stored = settings.update({
      ...(body.port !== undefined ? { port: body.port } : {}),
      ...(dataDir !== undefined ? { dataDir } : {}),
    });
    return ok(reply, serverSettings(stored));
  });

  app.get('/api/v1/keys', async (request, reply) => {
    requireSession(request);
    return ok(reply, { items: store.keys.list().map(toKeyInfo) });
  });

  app.post('/api/v1/keys', async (request, reply) => {
    requireSession(request);
    const body = (request.body ?? {}) as CreateKeyBody;
    if (!Value.Check(CreateKeyBodySchema, body))
      throw new AppError('INVALID_FIELD', 'name must be 1 to 100 characters.', { field: 'name' });
    const created = createApiKey(store, clock, {
      ...(body.name ? { name: body.name } : {}),
      ...(options.defaultBalanceMilli !== undefined ? { balanceMilli: options.defaultBalanceMilli } : {}),
    });
    const result: CreatedKey = { key: created.key, info: toKeyInfo(created.row) };
    return ok(reply, result);
  });

  app.post<{ Params: { id: string } }>('/api/v1/keys/:id/revoke', async (request, reply) => {
    requireSession(request);
    const row = store.keys.findById(request.params.id);
    if (!row) throw new AppError('KEY_NOT_FOUND', `No API key "${request.params.id}".`);
    return ok(reply, toKeyInfo(row.revoked_at ? row : revokeApiKey(store, clock, row.id)));
  });

  app.post<{ Params: { code: string } }>('/api/v1/voices/:code/audition', async (request, reply) => {
    // Any key or the session may audition; nothing is charged.
    await auth.requireKey(request);
    const voice = findVoice(request.params.code);
    if (!voice)
      throw new AppError('UNKNOWN_VOICE', `Unknown voice_code "${request.params.code}".`, {
        field: 'voice_code',
      });
    const body = (request.body ?? {}) as AuditionBody;
    if (!Value.Check(AuditionBodySchema, body)) {
      const first = Value.Errors(AuditionBodySchema, body).First();
      throw new AppError(
        'INVALID_FIELD',
        `Invalid audition field ${first?.path.slice(1) ?? ''}: ${first?.message ?? 'bad value'}.`,
      );
    }
    if (!options.engine) throw new AppError('ENGINE_FAILED', 'No engine is available for auditions.');
    const wav = await options.engine.audition({
      voice_code: voice.voice_code,
      speed_rate: body.speed_rate ?? 1,
      pitch_rate: body.pitch_rate ?? 1,
      volume: body.volume ?? 100,
      ...(body.text ? { text: body.text } : {}),
    });
    return reply.code(200).type('audio/wav').send(Buffer.from(wav));
  });
}
