/**
 * The HTTP app factory: the spec's API, its extensions, downloads, the event stream and the
 * OpenAI-compatible endpoint, behind the host/origin checks; with `studio`, also the studio UI,
 * its session sign-in and the session-only routes. Not listening: the caller (`createCore`)
 * listens and closes it.
 */

import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { AppError } from '../../shared/errors';
import type { Engine } from '../engine';
import type { Jobs } from '../jobs';
import type { LexiconStore } from '../lexicon';
import type { Clock } from '../platform/clock';
import { redactUrl, type Log } from '../platform/log';
import type { SettingsStore } from '../platform/settings-store';
import type { ProjectExports, ProjectRenders, ProjectService } from '../projects';
import type { Store } from '../store';
import { CATALOGUE, createCustomVoices, type CustomVoices, type VoiceLibrary } from '../voices';
import { HTTP_STATUS, sendError, toAppError, writeClientError } from './errors';
import { registerCacheRoutes } from './routes/cache';
import { registerCustomVoiceRoutes } from './routes/custom-voices';
import { registerDownloadRoute } from './routes/downloads';
import { registerEventsRoute } from './routes/events';
import { registerExportRoutes } from './routes/exports';
import { registerManuscriptRoutes } from './routes/manuscripts';
import { registerProjectRenderRoutes } from './routes/project-renders';
import { registerProjectRoutes } from './routes/projects';
import { registerRequestChaptersRoute } from './routes/request-chapters';
import { registerHealthRoute } from './routes/health';
import { registerKeyRoutes } from './routes/keys';
import { registerLexiconRoutes } from './routes/lexicon';
import { registerKokoroFastApiRoutes } from './routes/kokoro-fastapi';
import { registerOpenAiRoutes, sendOpenAiError } from './routes/openai';
import { registerReadingRoute } from './routes/reading';
import { registerSessionRoutes } from './routes/session';
import { registerSettingsRoutes } from './routes/settings';
import { registerTtsRoutes } from './routes/tts';
import { registerUsageRoute } from './routes/usage';
import { registerAuditionRoute, registerVoiceRoutes } from './routes/voices';
import { registerVoicePackRoutes } from './routes/voice-packs';
import { createVoiceInstalls } from './voice-installs';
import { checkBeforeBody, createAuth, type Auth } from './auth';
import { createAuthThrottle, type AuthThrottleOptions } from './auth-throttle';
import { limitBodies } from './body-limits';
import { answerCrossOrigin, registerCors } from './cors';
import { inAppContext, registerOpenApi } from './openapi';
import {
  answerHalfClosedClients,
  edgeServerOptions,
  limitClientsBehindProxies,
  limitConnections,
  type EdgeOptions,
} from './http-edge';
import { hostRefusal, originRefusal, sendHostRefusalPage, wantsPage } from './refusals';
import { prefixRedirects, publicPath, requestPrefix, type RequestPrefix } from './public-url';
import { createHostPolicy } from './security';
import { attachSessions, createStudioKey, type Sessions } from './sessions';
import { registerStaticUi } from './static-ui';
import { DEFAULT_MAX_TEXT_CHARS } from './validation';
import { NO_VOICE_MAPPING, type VoiceMapping } from '../../shared/voice-mapping';

/** Default limit on a JSON body, bytes. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;
/** Default wait of a submit with `response_type: "direct"` for its render, ms. */
const DEFAULT_DIRECT_TIMEOUT_MS = 120_000;

export interface ServerOptions {
  store: Store;
  jobs: Jobs;
  log: Log;
  /** Address the server binds to (for the Host check). */
  host: string;
  /** The real port, known after listen. */
  port(): number;
  /** Bytes of a JSON body (but those body-limits.ts sets); default 1 MiB. */
  bodyLimit?: number;
  /** Characters of input_text; default 100 000. */
  maxTextChars?: number;
  /**
   * How long a submit with `response_type: "direct"` waits for its render before answering the
   * record as it stands (the request carries on), ms; default 120 000.
   */
  directTimeoutMs?: number;
  allowedHosts?: readonly string[];
  /**
   * `--allow-origin`: origins of other sites' pages and of browser extensions that may call the
   * API with a key; they pass the Origin check and get CORS headers (cors.ts), never the studio's
   * session. Each as `checkAllowedOrigin` (shared/origins.ts) takes it.
   */
  allowedOrigins?: readonly string[];
  /**
   * `--public-url`: its name and port pass the Host check, its origin the Origin check; its path
   * (a reverse proxy's sub-path) goes into redirects, the session cookie's Path and the OpenAPI
   * document's `servers` (public-url.ts).
   */
  publicUrl?: string;
  /**
   * The slow-down of guessing (see auth-throttle.ts); defaults: 5 free failures a minute per
   * bucket (a client and the credentials it does not hold; a live key has its own), then
   * every check of that bucket waits 250 ms doubling to 5 s, 4 waiting per bucket and 64 in
   * all, beyond that 429.
   */
  authThrottle?: AuthThrottleOptions;
  /** Timeouts, connection caps and trusted proxies (http-edge.ts: EDGE_DEFAULTS). */
  edge?: EdgeOptions;
  /** The studio UI and its session sign-in; without it only bearer keys work and `/` is 404. */
  studio?: StudioOptions;
  /**
   * The neural voice library: the /api/v1/voice-packs routes and neural auditions. Without it
   * those routes are 404 and auditions use eSpeak.
   */
  voices?: VoiceLibrary;
  /** Bytes of an archive imported through POST /api/v1/voice-packs/import (default 1 GiB). */
  importLimit?: number;
  /**
   * The pronunciation lexicon: the /api/v1/lexicon routes (previews speak with the studio's
   * engine). Without it those routes are 404.
   */
  lexicon?: LexiconStore;
  /**
   * Custom voices (the /api/v1/custom-voices routes, and their codes wherever a voice code is
   * taken); default: those of `store`, checked against `voices`.
   */
  customVoices?: CustomVoices;
  /** Book projects: the /api/v1/projects routes (without it they are 404). */
  projects?: ProjectService;
  /** Renders and exports of book projects (routes/project-renders.ts; without them those are 404). */
  projectRenders?: ProjectRenders;
  projectExports?: ProjectExports;
  /**
   * Voice codes that are not ours (`serve --unknown-voices`, `--voice-alias`): default refuse,
   * the spec's UNKNOWN_VOICE.
   */
  voiceMapping?: VoiceMapping;
}

export interface StudioOptions {
  sessions: Sessions;
  clock: Clock;
  /**
   * For voice auditions (without it the audition route answers ENGINE_FAILED), the sentence
   * cache routes and POST /api/v1/reading, worked out on its thread (without it they are not
   * served).
   */
  engine?: Pick<Engine, 'streamAudition' | 'sentenceCacheStats' | 'clearSentenceCache' | 'read'>;
  /** The built renderer (`DEFAULT_UI_DIR` of static-ui.ts). */
  uiDir: string;
  /** The server's own base URL, for the API page. */
  baseUrl(): string;
  /** Shown on the Settings page. */
  dataDir?: string;
  /** Balance of the keys the studio creates (its own, and those of the keys page), milli-credits. */
  defaultBalanceMilli?: number;
  /**
   * The shared settings file, for GET/PUT /api/v1/settings (port, data folder and allowed
   * origins of the next start). Without it those routes answer NOT_FOUND.
   */
  settings?: SettingsStore;
  /** The data folder a null `dataDir` setting means (default: the per-user app data folder). */
  defaultDataDir?: string;
  /** The session cookie is `Secure` (sent over HTTPS only): the public URL is https. */
  secureCookie?: boolean;
}

/** The HTTP app: fastify, which only the server layer imports. */
export type HttpApp = FastifyInstance;

export function buildServer(options: ServerOptions): HttpApp {
  const { log } = options;
  const edge = options.edge ?? {};
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    ...edgeServerOptions(edge, options.directTimeoutMs ?? DEFAULT_DIRECT_TIMEOUT_MS),
    // Our own 503 (below) so requests arriving during shutdown get the spec's error shape.
    return503OnClosing: false,
    // Requests refused before any route (bad HTTP, bad URL) still get our error shape.
    clientErrorHandler: writeClientError,
    frameworkErrors: (error, request, reply) => void sendAnyError(request.url, reply, error),
  });
  limitConnections(app.server, edge);
  answerHalfClosedClients(app.server);
  app.server.on('connection', () => options.jobs.noteConnection());
  limitBodies(app, { maxTextChars: options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS });
  // Some clients send "text/json" like the spec's responses; parse it as JSON too.
  // Only JSON bodies: a text/plain body is a 415, not a string to validate.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  const policy = createHostPolicy({
    host: options.host,
    port: options.port,
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  });
  registerCors(app);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    if (closing) {
      reply.header('connection', 'close');
      throw new AppError('SHUTTING_DOWN', 'The server is shutting down.');
    }
    reply.header('cache-control', 'no-store');
    if (!policy.isAllowedHost(request.headers.host)) {
      // A browser opening the studio gets a page that says what to set, not a blank one.
      if (wantsPage(request)) return sendHostRefusalPage(request, reply);
      throw hostRefusal(request);
    }
    if (!policy.isAllowedOrigin(request.headers.origin)) throw originRefusal(request);
    // Answered here when it is an allowed page's preflight.
    if (answerCrossOrigin(policy, request, reply)) return reply;
  });
  limitClientsBehindProxies(app, edge);

  // Under a public URL with a path (a reverse proxy's sub-path), what the browser follows gets
  // the path back (public-url.ts).
  const prefix = requestPrefix(options.publicUrl, (host) => policy.isPublicHost(host));
  if (publicPath(options.publicUrl) !== '') prefixRedirects(app, prefix);

  registerOpenApi(app, options.publicUrl);
  // The routes are added when the app starts, after the document's generator (openapi.ts:
  // inAppContext). A new route carries its schema: openapi.ts's apiRoute or openAiRoute, with
  // the TypeBox schemas its handler validates with; test/core/server/openapi.test.ts fails
  // for a route the document lacks.
  void app.register(
    inAppContext(async (root) => registerRoutes(root, options, policy.allowedOrigins, prefix)),
  );

  app.setNotFoundHandler((request, reply) => {
    sendAnyError(
      request.url,
      reply,
      new AppError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`),
    );
  });
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (HTTP_STATUS[appError.code] >= 500) {
      // Query values redacted: a query may carry the studio's session value (sessions.ts).
      log.warn(
        `${request.ip} ${request.method} ${redactUrl(request.url)}: ${(error as Error)?.stack ?? String(error)}`,
      );
    }
    sendAnyError(request.url, reply, appError);
  });
  return app;
}

/** Every route of the app, with the hooks that belong to them. */
function registerRoutes(
  app: HttpApp,
  options: ServerOptions,
  allowedOrigins: readonly string[],
  prefix: RequestPrefix,
): void {
  const { store, jobs, log } = options;
  const maxTextChars = options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS;
  const voiceMapping = options.voiceMapping ?? NO_VOICE_MAPPING;
  // The store tells which prefixes begin a live key: a key is known from its first request.
  const throttle = createAuthThrottle(options.authThrottle, (hashes) => store.keys.livePrefixHashes(hashes));
  // Waiting failed answers go out at once on close rather than holding the shutdown up.
  app.addHook('preClose', async () => throttle.close());
  const auth = createAuth({ store, throttle });
  const customVoices =
    options.customVoices ??
    createCustomVoices({
      store,
      checks: () => ({
        installed: async () => (options.voices ? options.voices.list() : []),
        catalogue: options.voices?.catalogue ?? CATALOGUE,
        aliases: voiceMapping.aliases,
      }),
      now: () => new Date().toISOString(),
    });

  if (options.studio)
    registerStudio(app, {
      store,
      auth,
      port: options.port,
      studio: options.studio,
      voices: options.voices,
      voiceMapping,
      allowedOrigins,
      prefix,
    });
  // After the session's own hook (registerStudio), which it relies on.
  checkBeforeBody(app, auth);
  if (options.voices) {
    const installs = createVoiceInstalls({ voices: options.voices, events: jobs.events, log });
    // Installs still running are cancelled (their temporary folders removed) on close.
    app.addHook('onClose', async () => installs.close());
    registerVoicePackRoutes(app, {
      auth,
      voices: options.voices,
      installs,
      ...(options.importLimit ? { importLimit: options.importLimit } : {}),
    });
  }

  const streams = new Set<FastifyReply>();
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.raw.end();
  });

  registerTtsRoutes(app, {
    store,
    jobs,
    auth,
    maxTextChars,
    directTimeoutMs: options.directTimeoutMs ?? DEFAULT_DIRECT_TIMEOUT_MS,
    voiceMapping,
    customVoices,
  });
  registerExportRoutes(app, { store, jobs, auth, maxTextChars, customVoices });
  if (options.projects) registerProjectRoutes(app, { store, auth, projects: options.projects });
  if (options.projectRenders && options.projectExports) {
    registerProjectRenderRoutes(app, {
      store,
      auth,
      renders: options.projectRenders,
      exports: options.projectExports,
      filesDir: options.projectRenders.filesDir,
    });
  }
  registerRequestChaptersRoute(app, { store, jobs, auth });
  registerManuscriptRoutes(app, { auth });
  registerVoiceRoutes(app);
  registerCustomVoiceRoutes(app, {
    auth,
    customVoices,
    engine: options.studio?.engine,
    voices: options.voices,
    lexicon: options.lexicon ? (language) => options.lexicon!.entriesFor(language) : undefined,
    projects: options.projects,
  });
  if (options.lexicon) {
    registerLexiconRoutes(app, {
      auth,
      lexicon: options.lexicon,
      engine: options.studio?.engine,
      voices: options.voices,
    });
  }
  if (options.studio?.engine)
    registerReadingRoute(app, {
      auth,
      engine: options.studio.engine,
      voiceMapping,
      customVoices,
      lexicon: options.lexicon ? (language) => options.lexicon!.entriesFor(language) : undefined,
    });
  if (options.studio?.engine) registerCacheRoutes(app, { auth, engine: options.studio.engine });
  registerUsageRoute(app, { store, auth });
  registerDownloadRoute(app, { store, jobs });
  registerEventsRoute(app, { jobs, auth, streams });
  registerHealthRoute(app, { store, jobs, auth });
  registerOpenAiRoutes(app, { jobs, auth, maxTextChars, voices: options.voices, voiceMapping, customVoices });
  registerKokoroFastApiRoutes(app, {
    store,
    jobs,
    auth,
    maxTextChars,
    voices: options.voices,
    voiceMapping,
    customVoices,
  });
}

/**
 * The OpenAI-compatible routes (everything under /v1, unknown ones included, and
 * Kokoro-FastAPI's under /dev) answer errors in OpenAI's shape, every other route in the spec's.
 */
function sendAnyError(url: string, reply: FastifyReply, error: unknown): FastifyReply {
  return /^\/(v1|dev)(\/|\?|$)/.test(url) ? sendOpenAiError(reply, error) : sendError(reply, error);
}

/** The studio: session cookies, the built UI, sign-in, and the session-only routes. */
function registerStudio(
  app: HttpApp,
  {
    store,
    auth,
    port,
    studio,
    voices,
    voiceMapping,
    allowedOrigins,
    prefix,
  }: {
    store: Store;
    auth: Auth;
    port(): number;
    studio: StudioOptions;
    voices: VoiceLibrary | undefined;
    voiceMapping: VoiceMapping;
    allowedOrigins: readonly string[];
    prefix: RequestPrefix;
  },
): void {
  const studioKey = createStudioKey(store, studio.clock, studio.defaultBalanceMilli);
  attachSessions(app, { sessions: studio.sessions, port, store });
  // The sign-in token is known: a guesser's failures never hold up the person who has it.
  auth.remember(studio.sessions.loginToken);
  studio.sessions.onLoginToken((token) => auth.remember(token));
  const ui = registerStaticUi(app, studio.uiDir);
  registerSessionRoutes(app, {
    sessions: studio.sessions,
    auth,
    ui,
    studioKey,
    port,
    baseUrl: studio.baseUrl,
    dataDir: studio.dataDir,
    prefix,
    ...(studio.secureCookie ? { secureCookie: true } : {}),
  });
  registerSettingsRoutes(app, {
    settings: studio.settings,
    port,
    dataDir: studio.dataDir,
    defaultDataDir: studio.defaultDataDir,
    voiceMapping,
    allowedOrigins,
  });
  registerKeyRoutes(app, {
    store,
    auth,
    clock: studio.clock,
    defaultBalanceMilli: studio.defaultBalanceMilli,
  });
  registerAuditionRoute(app, { auth, engine: studio.engine, voices });
}
