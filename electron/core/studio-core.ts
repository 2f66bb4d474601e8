/**
 * Composition helper for the headless server and the Electron main process: opens the store,
 * starts the engine, wires jobs and the HTTP server, and listens. `close()` shuts down in
 * order: server (stop accepting), jobs (finish or requeue renders, finish deliveries),
 * engine, store.
 */

import { checkVoiceModel, createEngineHost, type Engine } from './engine';
import { createVoiceLibrary, parseKokoroVoice, recordingPackSpeed, type VoiceLibrary } from './voices';
import type { AddressInfo } from 'node:net';
import type { CatalogueEntry } from '../shared/voice-packs';
import { systemClock, type Clock } from './platform/clock';
import { silentLog, type Log } from './platform/log';
import {
  callbackTargets,
  createJobs,
  internalAddressKind,
  restrictsCallbacks,
  type InternalCallbacks,
  type Jobs,
  type RetryPolicy,
} from './jobs';
import { createLexiconStore, type LexiconStore } from './lexicon';
import { dataPaths, sentenceCacheDir } from './platform/paths';
import { keepNewFilesPrivate, makePrivateDataDir, tightenDataDir } from './platform/private-files';
import {
  createProjectExports,
  createProjectRenders,
  createProjectService,
  type ProjectExports,
  type ProjectRenders,
  type ProjectService,
} from './projects';
import { DEFAULT_SENTENCE_CACHE_MB } from '../shared/options';
import {
  type AuthThrottleOptions,
  buildServer,
  type EdgeOptions,
  createSessions,
  DEFAULT_UI_DIR,
  type HttpApp,
  publicBase,
  signInAddress,
} from './server';
import type { VoiceMapping } from '../shared/voice-mapping';
import { openFileSettings, type SettingsStore } from './platform/settings-store';
import { openStore, type Store } from './store';

export interface CoreOptions {
  /** Data directory (database and audio files); created if missing. */
  dataDir: string;
  /** TCP port; 0 picks a free one (default 8787). */
  port?: number;
  /** Bind address (default 127.0.0.1: loopback only). */
  host?: string;
  /** Engine worker threads (default: available parallelism). */
  poolSize?: number;
  /**
   * Release what the engine holds unused this long (workers, the Japanese dictionary, neural
   * models), ms (default 60 000; 0 keeps them). See EngineOptions.idleReleaseMs.
   */
  idleReleaseMs?: number;
  /**
   * Size limit of the sentence cache in `<dataDir>/cache/sentences/`, MB (default 512; 0: no
   * cache). Ignored when `engine` is given: that engine has its own.
   */
  sentenceCacheMb?: number;
  /** Renders in flight (default: twice the pool). */
  concurrency?: number;
  /** Credit balance of new keys, milli-credits (default 1,000,000 credits). */
  defaultBalanceMilli?: number;
  /** Characters of input_text at most (default 100 000). */
  maxTextChars?: number;
  /** JSON body bytes at most (default 1 MiB). */
  bodyLimit?: number;
  /** How long a `response_type: "direct"` submit waits for its render, ms (default 120 000; 0 answers at once). */
  directTimeoutMs?: number;
  /** Requests waiting or running per key at most (default 10 000). */
  maxQueuedPerKey?: number;
  /** Callback retry policy (default 6 attempts, 2 s doubling, 10 s timeout). */
  retry?: Partial<RetryPolicy>;
  /**
   * Callback destinations allowed although internal (host names, addresses, ranges such as
   * `10.0.0.0/8`). A server reachable from other machines (`host` beyond loopback, or
   * `databaseUrl`) refuses callbacks to loopback, private, link-local and metadata addresses
   * but these; a server on loopback only refuses none.
   */
  allowCallbackHosts?: string[];
  /**
   * `--internal-callbacks`: whether callbacks to internal destinations are refused. `auto` (the
   * default) refuses them when the server can be reached from elsewhere: `host` beyond loopback,
   * `databaseUrl`, `publicUrl` or `allowedHosts` (a reverse proxy); `refuse` always (but
   * `allowCallbackHosts`), `allow` never.
   */
  internalCallbacks?: InternalCallbacks;
  /** Host names (besides loopback and the bound address) accepted in the Host header. */
  allowedHosts?: string[];
  /**
   * Origins of other sites' pages and of browser extensions (`--allow-origin`) accepted in the
   * Origin header besides the server's own: they get CORS headers and may use keys, never the
   * studio's session (server/cors.ts).
   */
  allowedOrigins?: readonly string[];
  /** Base URL for audio_link / srt_link when the server is reached through another name. */
  publicUrl?: string;
  /** Voice codes that are not ours: aliases, and what an unknown code gets (default: refused). */
  voiceMapping?: VoiceMapping;
  /**
   * Slow-down of guessing per client and credential prefix (default: 5 free failures a minute,
   * then every check in that bucket waits 250 ms doubling to 5 s; beyond 4 waiting checks of a
   * bucket or 64 in all, 429 with Retry-After; a key in use never waits for a guesser). Its
   * window runs on `clock` unless one is given here.
   */
  authThrottle?: AuthThrottleOptions;
  /**
   * The HTTP edge: timeouts, connection caps (in all, per address) and the proxies trusted to
   * name the client (`serve --trust-proxy`); defaults in server/http-edge.ts.
   */
  edge?: EdgeOptions;
  /** Wait for renders in flight on close before requeueing them, ms (default 10 000). */
  closeGraceMs?: number;
  clock?: Clock;
  log?: Log;
  /** Built renderer served at `/` (default dist/renderer of the repository). */
  uiDir?: string;
  /** First login token of the studio's sign-in address (default: random); each works once. */
  loginToken?: string;
  /** A studio session ends after this long without a request, ms (default 12 h). */
  sessionIdleMs?: number;
  /**
   * The shared settings file the Settings view edits (port and data folder of the next start).
   * The desktop shell passes its electron-store one; default: the file in `settingsDir`.
   */
  settings?: SettingsStore;
  /** Folder of `settings.json` when `settings` is not given (default: the per-user config folder). */
  settingsDir?: string;
  /** An engine to use instead of starting one (the Electron shell shares its own); not closed by `close()` then. */
  engine?: Engine;
  /** Base URL of the voice catalogue's downloads (default: the public repositories); an organisation's mirror. */
  voiceMirror?: string;
  /** Base URL of the voice catalogue's sample recordings (default: GitHub's raw files); a mirror. */
  voiceSampleMirror?: string;
  /** Catalogue of downloadable packs instead of the built-in one (an organisation's, or a test's). */
  voiceCatalogue?: readonly CatalogueEntry[];
  /**
   * What this process is, named to a second process refused the data directory (default
   * "Narration Studio"), e.g. "Narration Studio serve".
   */
  holder?: string;
  /**
   * A PostgreSQL URL (`postgres://user@host:port/db`) to keep requests, keys, ledger and
   * deliveries in, shared by every instance pointed at it (default: SQLite in `dataDir`).
   * Audio files stay in `dataDir`, which those instances must share.
   */
  databaseUrl?: string;
  /** This instance's id (default: host name and random digits). */
  instanceId?: string;
  /** Lease of a claimed request, ms (default 30 000). */
  leaseMs?: number;
  /** On a shared database, the slow poll under the notifications, ms (default 2000). */
  pollMs?: number;
}

export interface Core {
  /** Where the server listens, e.g. http://127.0.0.1:8787 */
  readonly url: string;
  /** Base of audio_link / srt_link: `publicUrl` when given, else `url`. */
  readonly publicUrl: string;
  readonly port: number;
  /**
   * Opens the studio signed in: `<url>/?token=<login token>`. Works once, within 10 minutes:
   * after a sign-in it names the next token (see `onLoginUrl`), and read after the 10 minutes
   * it names a new one.
   */
  readonly loginUrl: string;
  /**
   * The sign-in address under `publicUrl` (`--public-url`, its sub-path included): the one to
   * print for people who reach the server through a reverse proxy. `loginUrl` without one.
   */
  readonly publicLoginUrl: string;
  /**
   * Calls `listener` with the next sign-in address each time one is spent or expired: on this
   * machine (`url`) and under the public URL (`publicUrl`, as `publicLoginUrl`).
   */
  onLoginUrl(listener: (url: string, publicUrl: string) => void): void;
  readonly store: Store;
  readonly jobs: Jobs;
  /** Book projects of the data directory (the /api/v1/projects routes' service). */
  readonly projects: ProjectService;
  /** Renders of book projects (a durable queue) and their regenerations. */
  readonly projectRenders: ProjectRenders;
  /** Exports of book projects. */
  readonly projectExports: ProjectExports;
  readonly engine: Engine;
  /** The neural voice library of the data directory. */
  readonly voices: VoiceLibrary;
  /** The pronunciation lexicon of the data directory (`lexicon.json`). */
  readonly lexicon: LexiconStore;
  readonly server: HttpApp;
  /** Default balance for keys created through this core, milli-credits. */
  readonly defaultBalanceMilli: number | undefined;
  /** Idempotent ordered shutdown. */
  close(): Promise<void>;
}

/** How long close() lets HTTP requests in flight finish before cutting their connections, ms. */
const SERVER_CLOSE_GRACE_MS = 2000;

/** What the core's parts share: the store, the engine, the voices and lexicon, the time and the log. */
interface CoreParts {
  options: CoreOptions;
  host: string;
  store: Store;
  engine: Engine;
  voices: VoiceLibrary;
  lexicon: LexiconStore;
  clock: Clock;
  log: Log;
  filesDir: string;
  /** Base of the links the API gives (the public URL, or where the server listens). */
  baseUrl: () => string;
}

export async function createCore(options: CoreOptions): Promise<Core> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLog;
  const paths = dataPaths(options.dataDir);
  // The data folder and everything written in it are the user's alone (private-files.ts).
  keepNewFilesPrivate();
  makePrivateDataDir(options.dataDir);
  const store = await openStore(
    options.databaseUrl
      ? { url: options.databaseUrl }
      : { path: paths.database, ...(options.holder ? { holder: options.holder } : {}) },
  );
  const voices = createVoiceLibrary({
    dataDir: options.dataDir,
    validateModel: checkVoiceModel,
    log,
    ...(options.voiceMirror ? { mirror: options.voiceMirror } : {}),
    ...(options.voiceSampleMirror ? { sampleMirror: options.voiceSampleMirror } : {}),
    ...(options.voiceCatalogue ? { catalogue: options.voiceCatalogue } : {}),
  });
  const lexicon = createLexiconStore({ dataDir: options.dataDir, log });
  let engine: Engine | undefined;
  try {
    // The engine gets its own thread, so encoding never stalls the HTTP event loop.
    // Renders record each pack's speed on its first use (voices/<id>/speed.json).
    const rawEngine = options.engine ?? (await startEngine(options));
    engine = recordingPackSpeed(rawEngine, options.dataDir, log);
    let port = 0;
    const localUrl = () => `http://${urlHost(host)}:${port}`;
    // The public URL keeps its path (a reverse proxy's sub-path): links are built under it.
    const baseUrl = () => (options.publicUrl !== undefined ? publicBase(options.publicUrl) : localUrl());
    const parts: CoreParts = {
      options,
      host,
      store,
      engine,
      voices,
      lexicon,
      clock,
      log,
      filesDir: paths.files,
      baseUrl,
    };
    const { jobs, projects, projectRenders, projectExports } = createWork(parts);
    const sessions = createSessions({
      store,
      clock,
      ...(options.loginToken ? { loginToken: options.loginToken } : {}),
      ...(options.sessionIdleMs ? { idleTimeoutMs: options.sessionIdleMs } : {}),
    });
    const server = createCoreServer(
      parts,
      { jobs, projects, projectRenders, projectExports, sessions },
      () => port,
    );
    await server.listen({ port: options.port ?? 8787, host });
    port = (server.server.address() as AddressInfo).port;
    await jobs.start();
    await projectRenders.start();
    await projectExports.resume();
    const tightening = tightenInBackground(options.dataDir, log);

    const ownEngine = options.engine === undefined;
    // Callers get the engine as given or started (the Electron shell shares its own); the
    // core's jobs and routes use it through the speed-recording wrapper.
    const started = rawEngine;
    let closing: Promise<void> | undefined;
    return {
      url: localUrl(),
      get loginUrl() {
        return signInAddress(localUrl(), sessions.loginToken);
      },
      get publicLoginUrl() {
        return signInAddress(baseUrl(), sessions.loginToken);
      },
      onLoginUrl(listener) {
        sessions.onLoginToken((token) =>
          listener(signInAddress(localUrl(), token), signInAddress(baseUrl(), token)),
        );
      },
      publicUrl: baseUrl(),
      port,
      store,
      jobs,
      projects,
      projectRenders,
      projectExports,
      engine: started,
      voices,
      lexicon,
      server,
      defaultBalanceMilli: options.defaultBalanceMilli,
      close() {
        closing ??= (async () => {
          await tightening.stop();
          await closeServer(server);
          try {
            // A project export, then the render it may wait for, are queued again for the next start.
            await projectExports.close();
            await projectRenders.close();
            await jobs.close(options.closeGraceMs);
            if (ownEngine) await started.close();
          } finally {
            // Last, and even when a step before failed: the store's commits are all on disk.
            await store.close();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    if (engine && options.engine === undefined) await engine.close();
    await store.close();
    throw error;
  }
}

/** The engine host the core starts when it is given none. */
function startEngine(options: CoreOptions): Promise<Engine> {
  return createEngineHost({
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
    ...(options.idleReleaseMs !== undefined ? { idleReleaseMs: options.idleReleaseMs } : {}),
    sentenceCache: {
      dir: sentenceCacheDir(options.dataDir),
      maxBytes: (options.sentenceCacheMb ?? DEFAULT_SENTENCE_CACHE_MB) * 1024 * 1024,
    },
  });
}

/** The queues of work: API requests (jobs), book projects, their renders and their exports. */
function createWork(parts: CoreParts) {
  const { options, host, store, engine, voices, lexicon, clock, log, filesDir, baseUrl } = parts;
  const jobs = createJobs({
    engine,
    store,
    filesDir,
    baseUrl,
    clock,
    log,
    neuralVoice: (voiceCode, modelId) => voices.neuralVoice(voiceCode, modelId),
    kokoroVoice: async (text) => {
      const mix = parseKokoroVoice(text);
      return mix && (await voices.kokoroVoice(mix))?.voice;
    },
    packVoice: (packId, speaker) => voices.packVoice(packId, speaker),
    lexicon: (language) => lexicon.entriesFor(language),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.maxQueuedPerKey ? { maxQueuedPerKey: options.maxQueuedPerKey } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    callbackTargets: callbackTargets({
      restricted: restrictsCallbacks(
        options.internalCallbacks,
        options.databaseUrl !== undefined ||
          !isLoopbackHost(host) ||
          options.publicUrl !== undefined ||
          (options.allowedHosts ?? []).length > 0,
      ),
      allowed: options.allowCallbackHosts ?? [],
    }),
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  const projects = createProjectService({ store, filesDir, now: () => new Date(clock.now()) });
  const projectRenders = createProjectRenders({
    engine,
    store,
    events: jobs.events,
    filesDir,
    instanceId: jobs.instanceId,
    clock,
    log,
    neuralVoice: (voiceCode, modelId) => voices.neuralVoice(voiceCode, modelId),
    packVoice: (packId, speaker) => voices.packVoice(packId, speaker),
    kokoroVoice: async (text) => {
      const mix = parseKokoroVoice(text);
      return mix && (await voices.kokoroVoice(mix))?.voice;
    },
    lexicon: (language) => lexicon.entriesFor(language),
    service: projects,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  const projectExports = createProjectExports({
    engine,
    store,
    renders: projectRenders,
    filesDir,
    clock,
    log,
    baseUrl,
    markExported: (projectId, chapterIds) => projects.markExported(projectId, chapterIds),
    instanceId: jobs.instanceId,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    ...(options.pollMs ? { pollMs: options.pollMs } : {}),
  });
  return { jobs, projects, projectRenders, projectExports };
}

/** The HTTP server over the core's services (not yet listening). */
function createCoreServer(
  parts: CoreParts,
  services: ReturnType<typeof createWork> & { sessions: ReturnType<typeof createSessions> },
  port: () => number,
): HttpApp {
  const { options, host, store, engine, voices, lexicon, clock, log, baseUrl } = parts;
  const { jobs, projects, projectRenders, projectExports, sessions } = services;
  const server = buildServer({
    store,
    jobs,
    log,
    host,
    port,
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(options.maxTextChars ? { maxTextChars: options.maxTextChars } : {}),
    ...(options.directTimeoutMs !== undefined ? { directTimeoutMs: options.directTimeoutMs } : {}),
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    // The public name and port pass the Host check too (downloads of audio_link arrive under it).
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    ...(options.voiceMapping ? { voiceMapping: options.voiceMapping } : {}),
    authThrottle: { clock, ...options.authThrottle },
    ...(options.edge ? { edge: options.edge } : {}),
    voices,
    lexicon,
    projects,
    projectRenders,
    projectExports,
    studio: {
      sessions,
      clock,
      engine,
      uiDir: options.uiDir ?? DEFAULT_UI_DIR,
      dataDir: options.dataDir,
      settings: options.settings ?? openFileSettings(options.settingsDir),
      baseUrl,
      // Behind an https public URL the session cookie travels over HTTPS only.
      ...(options.publicUrl?.startsWith('https:') ? { secureCookie: true } : {}),
      ...(options.defaultBalanceMilli !== undefined
        ? { defaultBalanceMilli: options.defaultBalanceMilli }
        : {}),
    },
  });
  return server;
}

/**
 * What earlier versions left readable by others, tightened in the background, once a start;
 * `stop` ends it (the rest at the next start) and waits for it.
 */
function tightenInBackground(dataDir: string, log: Log): { stop(): Promise<void> } {
  const tightening = new AbortController();
  const tightened = tightenDataDir(dataDir, { signal: tightening.signal }).then(
    (report) => {
      if (report.tightened > 0 || report.failed > 0 || !report.complete)
        log.info(
          `data folder permissions: ${report.tightened} of ${report.seen} files and folders made private in ${report.ms} ms` +
            (report.failed > 0 ? `, ${report.failed} could not be changed` : '') +
            (report.complete ? '' : '; the rest at the next start'),
        );
    },
    (error: unknown) => log.warn(`data folder permissions: ${(error as Error).message}`),
  );
  return {
    async stop() {
      tightening.abort();
      await tightened;
    },
  };
}

/**
 * Stops the server: idle keep-alive connections are closed at once; a connection node still
 * counts as busy (seen after a file download) would hold close() for the 72 s keep-alive
 * timeout, so whatever is left after a short grace is cut.
 */
async function closeServer(server: HttpApp): Promise<void> {
  const cut = setTimeout(() => server.server.closeAllConnections(), SERVER_CLOSE_GRACE_MS);
  try {
    await server.close();
  } finally {
    clearTimeout(cut);
  }
}

/** True for a bind address only this machine reaches: `localhost`, 127.x.x.x, ::1. */
function isLoopbackHost(host: string): boolean {
  return host.toLowerCase() === 'localhost' || internalAddressKind(host) === 'loopback';
}

/** The host part of a URL for a bind address (wildcards become loopback, IPv6 gets brackets). */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
