/**
 * The HTTP app without a network or an engine, for server behaviour that needs neither
 * (validation, auth, Host and Origin checks, error mapping, the studio's sign-in and its
 * session-only routes): `buildServer` over a real store (the run's database: SQLite in a temp
 * dir, or a fresh PostgreSQL database on the PostgreSQL run) and real jobs that are never
 * started, called with fastify's `app.inject()`. Nothing renders: the engine is out of scope,
 * and one that is called anyway says so. Tests that cross layers (renders, callbacks,
 * downloads of real audio, events after a render, raw sockets) use the full core (helpers.ts).
 */

import { createProjectExports } from '../../../electron/core/projects/project-export';
import { createProjectRenders } from '../../../electron/core/projects/project-renders';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import type { Engine } from '../../../electron/core/engine/engine';
import { readingOf } from '../../../electron/core/engine';
import { createJobs, type Jobs } from '../../../electron/core/jobs';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { systemClock, type Clock } from '../../../electron/core/platform/clock';
import { silentLog } from '../../../electron/core/platform/log';
import { dataPaths } from '../../../electron/core/platform/paths';
import { openFileSettings } from '../../../electron/core/platform/settings-store';
import { buildServer, type HttpApp } from '../../../electron/core/server/app';
import type { AuthThrottleOptions } from '../../../electron/core/server/auth-throttle';
import type { EdgeOptions } from '../../../electron/core/server/http-edge';
import { createSessions } from '../../../electron/core/server/sessions';
import { DEFAULT_UI_DIR } from '../../../electron/core/server/static-ui';
import { createProjectService } from '../../../electron/core/projects/project-service';
import { openStore, type Store } from '../../../electron/core/store';
import type { LexiconStore } from '../../../electron/core/lexicon/lexicon-store';
import type { VoiceLibrary } from '../../../electron/core/voices';
import { signInBody, studioSession, type StudioSession } from '../../fixtures/studio-session';
import { testDatabase } from '../../fixtures/test-store';
import { callRequest, toHttpResult, type CallOptions, type HttpResult, type Method } from './http';

/** The port the app believes it listens on (it never does): the Host check and the links use it. */
export const TEST_PORT = 48_123;

export interface TestAppOptions {
  /** Characters of input_text at most (default 100 000). */
  maxTextChars?: number;
  /** JSON body bytes at most (default 1 MiB). */
  bodyLimit?: number;
  /** Requests waiting or running per key at most (default 10 000). */
  maxQueuedPerKey?: number;
  allowedHosts?: string[];
  allowedOrigins?: string[];
  /** The failed-authentication slow-down (default: the server's). */
  authThrottle?: AuthThrottleOptions;
  /** Timeouts, connection caps, trusted proxies (default: the server's). */
  edge?: EdgeOptions;
  /** Built renderer served at `/` (default dist/renderer of the repository). */
  uiDir?: string;
  /** First login token of the studio's sign-in address (default: random); each works once. */
  loginToken?: string;
  /** Time source of the studio sessions (default the system clock). */
  clock?: Clock;
  /** A studio session ends after this long without a request, ms (default 12 h). */
  sessionIdleMs?: number;
  /** Folder of settings.json (default: `config` in the temp dir; never the real user's). */
  settingsDir?: string;
  /** A voice library over the temp data dir (the /api/v1/voice-packs routes); none by default. */
  voices?: (dataDir: string) => VoiceLibrary;
  /** The pronunciation lexicon over the temp data dir (the /api/v1/lexicon routes); none by default. */
  lexicon?: (dataDir: string) => LexiconStore;
  /** What works readings out (default: this thread, as `readingOf`); a real engine host to measure its thread. */
  reader?: Pick<Engine, 'read'>;
  /** Called for each route as the app adds it (fastify's onRoute hook, installed before any). */
  onRoute?: (route: RouteOptions) => void;
}

export interface InjectOptions extends CallOptions {
  /** The caller's address as the server sees it (default 127.0.0.1). */
  remoteAddress?: string;
}

export interface TestApp {
  app: HttpApp;
  store: Store;
  /** Real jobs, never started: accepted requests stay queued. */
  jobs: Jobs;
  /** The temp data directory (the SQLite file, audio folder, settings). */
  dir: string;
  /** The app's own address, e.g. http://127.0.0.1:48123 (for Origin headers and links). */
  url: string;
  port: number;
  /** The studio's current sign-in path with its token: `/?token=…` (each token works once). */
  readonly loginPath: string;
  /** Signs in as the studio page does (spending the current token); the session's headers. */
  signIn(): Promise<StudioSession>;
  /** A key with the default balance. */
  key: string;
  newKey(balanceMilli?: number): Promise<string>;
  /** A call through `app.inject()`, Host `127.0.0.1:<port>` unless given, with `key` as a bearer key unless `key: null`. */
  call(method: Method, path: string, options?: InjectOptions): Promise<HttpResult>;
  close(): Promise<void>;
}

const notUsed = (): never => {
  throw new Error('not used in this test');
};

/** An engine for tests that never render: every method throws. */
export const UNUSED_ENGINE: Engine = {
  render: notUsed,
  audition: notUsed,
  streamAudition: notUsed,
  exportBook: notUsed,
  exportChapters: notUsed,
  read: notUsed,
  sentenceCacheStats: notUsed,
  clearSentenceCache: notUsed,
  poolSize: 0,
  close: notUsed,
};

export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = mkdtempSync(join(tmpdir(), 'app-test-'));
  const paths = dataPaths(dir);
  const database = await testDatabase();
  const store = await openStore(
    database.databaseUrl ? { url: database.databaseUrl } : { path: paths.database },
  ).catch(async (error: unknown) => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  const port = TEST_PORT;
  const url = `http://127.0.0.1:${port}`;
  const jobs = createJobs({
    engine: UNUSED_ENGINE,
    store,
    filesDir: paths.files,
    baseUrl: () => url,
    ...(options.maxQueuedPerKey ? { maxQueuedPerKey: options.maxQueuedPerKey } : {}),
  });
  // Book projects, their renders and exports (never started: a render stays queued).
  const projects = createProjectService({ store, filesDir: paths.files });
  const projectRenders = createProjectRenders({
    engine: UNUSED_ENGINE,
    store,
    events: jobs.events,
    filesDir: paths.files,
    instanceId: jobs.instanceId,
    clock: systemClock,
    log: silentLog,
    service: projects,
  });
  const projectExports = createProjectExports({
    engine: UNUSED_ENGINE,
    store,
    renders: projectRenders,
    filesDir: paths.files,
    clock: systemClock,
    log: silentLog,
    baseUrl: () => url,
  });
  const sessions = createSessions({
    store,
    ...(options.loginToken ? { loginToken: options.loginToken } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.sessionIdleMs ? { idleTimeoutMs: options.sessionIdleMs } : {}),
  });
  const app = buildServer({
    store,
    jobs,
    log: silentLog,
    host: '127.0.0.1',
    port: () => port,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.maxTextChars ? { maxTextChars: options.maxTextChars } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    authThrottle: { clock: systemClock, ...options.authThrottle },
    ...(options.edge ? { edge: options.edge } : {}),
    ...(options.voices ? { voices: options.voices(dir) } : {}),
    ...(options.lexicon ? { lexicon: options.lexicon(dir) } : {}),
    projects,
    projectRenders,
    projectExports,
    studio: {
      sessions,
      clock: systemClock,
      // Nothing renders; readings (pure text work) are worked out on this thread unless a reader is given.
      engine: {
        ...UNUSED_ENGINE,
        read: options.reader
          ? (text, language, reading) => options.reader!.read(text, language, reading)
          : async (text, language, reading) => readingOf(text, language, reading),
      },
      uiDir: options.uiDir ?? DEFAULT_UI_DIR,
      dataDir: dir,
      settings: openFileSettings(options.settingsDir ?? join(dir, 'config')),
      baseUrl: () => url,
    },
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Started here (its plugins loaded, its routes added), so a test's first call is not its start.
  await app.ready();
  const newKey = async (balanceMilli?: number) =>
    (await createApiKey(store, systemClock, balanceMilli === undefined ? {} : { balanceMilli })).key;
  const key = await newKey();
  let closing: Promise<void> | undefined;
  const call: TestApp['call'] = async (method, path, { remoteAddress, ...callOptions } = {}) => {
    const { headers, payload } = callRequest(callOptions, key);
    const res = await app.inject({
      method,
      url: path,
      headers: { host: `127.0.0.1:${port}`, ...headers },
      ...(payload !== undefined ? { payload } : {}),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
    return toHttpResult(res.statusCode, res.headers, res.rawPayload);
  };
  const loginPath = () => `/?token=${sessions.loginToken}`;
  return {
    app,
    store,
    jobs,
    dir,
    url,
    port,
    get loginPath() {
      return loginPath();
    },
    async signIn() {
      const res = await call('POST', '/api/v1/session/sign-in', {
        key: null,
        raw: signInBody(loginPath()),
        headers: { 'content-type': 'application/json' },
      });
      return studioSession(res.status, res.headers['set-cookie'], res.json);
    },
    key,
    newKey,
    call,
    close() {
      closing ??= (async () => {
        await app.close();
        await jobs.close();
        await store.close();
        await database.drop();
        rmSync(dir, { recursive: true, force: true });
      })();
      return closing;
    },
  };
}
