/**
 * `serve [--port N] [--host H] [--data-dir D] [--api-key K] …`: runs the local API server (and
 * the studio UI) until SIGTERM or SIGINT, then shuts down in order.
 */

import { readFileSync } from 'node:fs';
import { DEFAULT_BALANCE_MILLI, MILLI_PER_CREDIT } from '../../shared/pricing';
import { DEFAULT_SENTENCE_CACHE_MB } from '../../shared/options';
import { normalizeAllowedOrigins } from '../../shared/origins';
import { CatalogueEntrySchema, type CatalogueEntry } from '../../shared/voice-packs';
import { firstSchemaProblem, trustProxyProblem } from '../server';
import {
  parseVoiceAlias,
  UNKNOWN_VOICE_POLICIES,
  type UnknownVoicePolicy,
  type VoiceMapping,
} from '../../shared/voice-mapping';
import {
  ensureApiKey,
  INTERNAL_CALLBACKS,
  isValidKeyText,
  KEY_TEXT_RULE,
  parseAllowedCallbackHost,
  type InternalCallbacks,
} from '../jobs';
import { systemClock } from '../platform/clock';
import { stderrLog } from '../platform/log';
import { defaultDataDir } from '../platform/paths';
import { choosePort, writeLastPort } from '../platform/ports';
import { DEFAULT_PORT } from '../../shared/settings';
import { createCore, type Core, type CoreOptions } from '../studio-core';
import { installProcessErrorHandlers } from './process-errors';
import {
  creditsOption,
  databaseOption,
  integerOption,
  parseCommandLine,
  type ParsedCommandLine,
  runCommand,
  UsageError,
} from './usage';

const SERVE_USAGE = `Usage: serve [options]
  --port <n>              TCP port, 0 for a free one (default: the data folder's last port, else
                          8787; another free one when that is taken)
  --host <addr>           bind address (default 127.0.0.1)
  --data-dir <dir>        database and audio files (default: the per-user app data folder); with
                          --database, the audio folder every instance shares
  --database <url>        keep requests, keys, ledger and callbacks in PostgreSQL, shared by every
                          instance given the same URL (default: DATABASE_URL, else SQLite in --data-dir)
  --lease <s>             with --database: how long a render's claim holds unless renewed; another
                          instance takes over a request whose instance died this long ago (default 30)
  --settings-dir <dir>    folder of settings.json, edited by the Settings view (default: the per-user config folder)
  --api-key <key>         make sure this API key exists (new keys get the default balance); at
                          least 32 characters
  --balance <credits>     starting balance of keys created here (default 1000000)
  --pool-size <n>         engine worker threads at most, started as the work needs them (default: CPU count)
  --idle-release <s>      release engine workers, the Japanese dictionary and neural models unused
                          this long; reloaded on demand (default 60; 0: keep them)
  --sentence-cache-mb <n> size of the sentence cache in <data-dir>/cache/sentences: rendered
                          sentences reused when a text is rendered again after an edit (default ${DEFAULT_SENTENCE_CACHE_MB}; 0: none)
  --concurrency <n>       render slots shared by the keys (default: twice the pool); a key with
                          no render in flight starts one beyond them (up to n more, one per key)
  --max-text-chars <n>    longest input_text (default 100000)
  --direct-timeout <s>    how long a response_type "direct" submit waits for its audio before
                          answering the record as it stands (default 120; 0: at once)
  --max-queued <n>        requests waiting per key before 429 (default 10000)
  --callback-attempts <n> delivery attempts per callback (default 6)
  --callback-delay-ms <n> wait before the first retry, doubling (default 2000)
  --public-url <url>      the address people open when reached under another name or through a
                          reverse proxy, its sub-path included (http://host/tts): base of
                          audio_link/srt_link, the printed sign-in address, the cookie's path
  --voice-mirror <url>    base URL of the voice catalogue's downloads (an organisation's mirror)
  --voice-sample-mirror <url>
                          base URL of the catalogue's sample recordings (default
                          https://raw.githubusercontent.com; the layout of rhasspy/piper-samples)
  --voice-catalogue <file> JSON array of catalogue entries replacing the built-in voice catalogue
                          (an organisation's own packs; URLs relative to --voice-mirror)
  --allowed-host <name>   another Host name to accept (repeatable)
  --trust-proxy <addr>    a reverse proxy's address or range (10.0.0.0/8; loopback, linklocal,
                          uniquelocal) whose X-Forwarded-For names the client, for the
                          guessing slow-down, the connection caps and the log (repeatable;
                          default none: the header is ignored)
  --unknown-voices <refuse|closest>
                          a voice_code that is not ours: refused with UNKNOWN_VOICE (refuse, the
                          default), or spoken by our voice of the language, region and gender its
                          words name (closest: hn_/hanoi northern and sg_/hcm/saigon southern
                          Vietnamese, vi, en, …; female/male); the request keeps the code sent
  --voice-alias <CODE=OURCODE>
                          speak CODE with our voice OURCODE (repeatable; wins over closest)
  --allow-origin <origin> a web page's, browser extension's or app's origin (scheme://host[:port],
                          e.g. http://127.0.0.1:5001, chrome-extension://<id>, moz-extension://<uuid>,
                          app://obsidian.md, capacitor://localhost, tauri://localhost) that may
                          call the API from a browser with a key: its preflights and answers get
                          CORS headers, every header it asks for but the studio's session
                          (repeatable; "*" alone for every site, "null" for local files);
                          other origins stay refused
  --allow-callback-host <host>
                          a callback destination to allow although it is internal: a host name,
                          an address or a range such as 10.0.0.0/8 (repeatable). A server
                          reachable from other machines refuses callbacks to loopback, private,
                          link-local and metadata addresses but these (see --internal-callbacks)
  --internal-callbacks <auto|refuse|allow>
                          callbacks to loopback, private, link-local and metadata addresses:
                          refused when the server can be reached from elsewhere (auto, the
                          default: --host beyond loopback, --database, --public-url or
                          --allowed-host), always (refuse: e.g. behind a proxy started without
                          those) or never (allow); a refused callback is told "not allowed"`;

/** `--voice-catalogue <file>`: a JSON array of catalogue entries; UsageError when unreadable or invalid. */
function readCatalogue(path: string): CatalogueEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--voice-catalogue ${path}: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new UsageError(`--voice-catalogue ${path}: not a JSON array`);
  const seen = new Set<string>();
  for (const [i, entry] of parsed.entries()) {
    const problem = firstSchemaProblem(CatalogueEntrySchema, entry);
    if (problem)
      throw new UsageError(
        `--voice-catalogue ${path}: entry ${i}: ${problem.field || 'the entry'}: ${problem.message}`,
      );
    const id = (entry as CatalogueEntry).id;
    if (seen.has(id)) throw new UsageError(`--voice-catalogue ${path}: "${id}" is listed twice`);
    seen.add(id);
  }
  return parsed as CatalogueEntry[];
}

/** `--unknown-voices` and the `--voice-alias` values; UsageError (one line) when one is wrong. */
function voiceMappingOption(policy: string | undefined, aliases: readonly string[]): VoiceMapping {
  if (policy !== undefined && !(UNKNOWN_VOICE_POLICIES as readonly string[]).includes(policy))
    throw new UsageError(`--unknown-voices must be ${UNKNOWN_VOICE_POLICIES.join(' or ')}`);
  const map: Record<string, string> = {};
  for (const alias of aliases) {
    try {
      const [code, voiceCode] = parseVoiceAlias(alias);
      map[code] = voiceCode;
    } catch (error) {
      throw new UsageError(`--voice-alias: ${(error as Error).message}`);
    }
  }
  return { unknownVoices: (policy as UnknownVoicePolicy | undefined) ?? 'refuse', aliases: map };
}

/** The options `serve` takes. */
const SERVE_OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  database: { type: 'string' },
  lease: { type: 'string' },
  'settings-dir': { type: 'string' },
  'api-key': { type: 'string' },
  balance: { type: 'string' },
  'pool-size': { type: 'string' },
  'idle-release': { type: 'string' },
  'sentence-cache-mb': { type: 'string' },
  concurrency: { type: 'string' },
  'max-text-chars': { type: 'string' },
  'direct-timeout': { type: 'string' },
  'max-queued': { type: 'string' },
  'callback-attempts': { type: 'string' },
  'callback-delay-ms': { type: 'string' },
  'public-url': { type: 'string' },
  'voice-mirror': { type: 'string' },
  'voice-sample-mirror': { type: 'string' },
  'voice-catalogue': { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'trust-proxy': { type: 'string', multiple: true },
  'unknown-voices': { type: 'string' },
  'voice-alias': { type: 'string', multiple: true },
  'allow-origin': { type: 'string', multiple: true },
  'allow-callback-host': { type: 'string', multiple: true },
  'internal-callbacks': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type ServeValues = ParsedCommandLine<typeof SERVE_OPTIONS>['values'];

/** What `serve` is asked for: the core's options and the key to make sure of. */
interface ServeSettings {
  /** --port as given (undefined: the data folder's last one, else the default). */
  askedPort: number | undefined;
  apiKey: string | undefined;
  balance: number | undefined;
  /** The core's options but its port. */
  core: Omit<CoreOptions, 'port'> & { host: string };
}

/** The command line's values checked and turned into the core's options; UsageError (one line) when one is wrong. */
function serveSettings(values: ServeValues): ServeSettings {
  const askedPort = integerOption('port', values.port, 0, 65535);
  const apiKey = values['api-key'];
  if (apiKey !== undefined && !isValidKeyText(apiKey)) {
    throw new UsageError(`--api-key must be ${KEY_TEXT_RULE} (e.g. from "keys create")`);
  }
  for (const option of ['public-url', 'voice-mirror', 'voice-sample-mirror'] as const) {
    const url = values[option];
    if (url !== undefined && !/^https?:\/\/[^\s/]+/.test(url)) {
      throw new UsageError(`--${option} must be an http(s) URL`);
    }
  }
  const voiceCatalogue =
    values['voice-catalogue'] !== undefined ? readCatalogue(values['voice-catalogue']) : undefined;
  const balance = creditsOption(values.balance);
  const attempts = integerOption('callback-attempts', values['callback-attempts'], 1, 100);
  const delay = integerOption('callback-delay-ms', values['callback-delay-ms'], 1);
  const poolSize = integerOption('pool-size', values['pool-size'], 1, 64);
  const idleRelease = integerOption('idle-release', values['idle-release'], 0, 86_400);
  const sentenceCacheMb = integerOption('sentence-cache-mb', values['sentence-cache-mb'], 0, 1_048_576);
  const concurrency = integerOption('concurrency', values.concurrency, 1, 1024);
  const maxTextChars = integerOption('max-text-chars', values['max-text-chars'], 1);
  const directTimeout = integerOption('direct-timeout', values['direct-timeout'], 0, 86_400);
  const maxQueued = integerOption('max-queued', values['max-queued'], 1);
  const databaseUrl = databaseOption(values.database);
  const allowCallbackHosts = values['allow-callback-host'] ?? [];
  for (const host of allowCallbackHosts) {
    try {
      parseAllowedCallbackHost(host);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const internalCallbacks = values['internal-callbacks'] as InternalCallbacks | undefined;
  if (internalCallbacks !== undefined && !INTERNAL_CALLBACKS.includes(internalCallbacks))
    throw new UsageError(`--internal-callbacks must be ${INTERNAL_CALLBACKS.join(', ')}`);
  const voiceMapping = voiceMappingOption(values['unknown-voices'], values['voice-alias'] ?? []);
  let allowedOrigins: string[];
  try {
    allowedOrigins = normalizeAllowedOrigins(values['allow-origin'] ?? [], '--allow-origin');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const trustProxy = values['trust-proxy'] ?? [];
  for (const value of trustProxy) {
    const problem = trustProxyProblem(value);
    if (problem) throw new UsageError(`--trust-proxy: ${problem}`);
  }
  const lease = integerOption('lease', values.lease, 1, 3600);
  if (lease !== undefined && !databaseUrl) throw new UsageError('--lease applies with --database only');

  const dataDir = values['data-dir'] ?? defaultDataDir();
  const host = values.host ?? '127.0.0.1';
  const core: ServeSettings['core'] = {
    dataDir,
    ...(values['settings-dir'] ? { settingsDir: values['settings-dir'] } : {}),
    host,
    log: stderrLog,
    holder: 'Narration Studio serve',
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(lease !== undefined ? { leaseMs: lease * 1000 } : {}),
    ...(poolSize ? { poolSize } : {}),
    ...(idleRelease !== undefined ? { idleReleaseMs: idleRelease * 1000 } : {}),
    ...(sentenceCacheMb !== undefined ? { sentenceCacheMb } : {}),
    ...(concurrency ? { concurrency } : {}),
    ...(maxTextChars ? { maxTextChars } : {}),
    ...(directTimeout !== undefined ? { directTimeoutMs: directTimeout * 1000 } : {}),
    ...(maxQueued ? { maxQueuedPerKey: maxQueued } : {}),
    ...(attempts || delay
      ? { retry: { ...(attempts ? { attempts } : {}), ...(delay ? { baseDelayMs: delay } : {}) } }
      : {}),
    ...(values['public-url'] ? { publicUrl: values['public-url'] } : {}),
    ...(values['voice-mirror'] ? { voiceMirror: values['voice-mirror'] } : {}),
    ...(values['voice-sample-mirror'] ? { voiceSampleMirror: values['voice-sample-mirror'] } : {}),
    ...(voiceCatalogue ? { voiceCatalogue } : {}),
    ...(values['allowed-host'] ? { allowedHosts: values['allowed-host'] } : {}),
    ...(trustProxy.length > 0 ? { edge: { trustProxy } } : {}),
    voiceMapping,
    allowedOrigins,
    allowCallbackHosts,
    ...(internalCallbacks ? { internalCallbacks } : {}),
  };
  return { askedPort, apiKey, balance, core };
}

/** Runs the server until SIGTERM or SIGINT, then shuts down in order and resolves. */
export function runServe(argv: string[]): Promise<number> {
  return runCommand(SERVE_USAGE, async () => {
    const { values } = parseCommandLine(argv, SERVE_OPTIONS);
    if (values.help) {
      process.stdout.write(`${SERVE_USAGE}\n`);
      return;
    }
    const { askedPort, apiKey, balance, core: coreOptions } = serveSettings(values);
    const { dataDir } = coreOptions;
    // Without --port: the port this data folder's server had last (else 8787), so the printed
    // address stays the same from start to start; another free one when it is taken.
    let port = askedPort;
    if (port === undefined) {
      const chosen = await choosePort(dataDir, DEFAULT_PORT, coreOptions.host);
      if (chosen.notice) process.stderr.write(`${chosen.notice}\n`);
      port = chosen.port;
    }
    const core = await createCore({ ...coreOptions, port });
    if (apiKey !== undefined) {
      const { row, created } = await ensureApiKey(
        core.store,
        systemClock,
        apiKey,
        balance ?? DEFAULT_BALANCE_MILLI,
      );
      if (row.revoked_at) stderrLog.warn(`the key given with --api-key was revoked on ${row.revoked_at}`);
      else if (created)
        stderrLog.info(`created API key ${row.id} with ${row.balance_milli / MILLI_PER_CREDIT} credits`);
    }
    if (askedPort !== 0) {
      try {
        writeLastPort(dataDir, core.port);
      } catch (error) {
        stderrLog.warn(`the port was not remembered for the next start: ${(error as Error).message}`);
      }
    }
    return serveUntilStopped(core);
  });
}

/**
 * Prints the addresses and serves until SIGTERM or SIGINT (or an uncaught exception), then
 * closes the core; resolves with the command's exit code.
 */
function serveUntilStopped(core: Core): Promise<number> {
  // The signal handlers go in before the address is printed: a caller that stops the server as
  // soon as it reads the address must not find the default action (death by signal) still there.
  const finished = new Promise<number>((resolve) => {
    let stopping: Promise<void> | undefined;
    /** Closes the core once; the command then ends with `code` (1 when closing failed). */
    const shutDown = (code: number): Promise<void> =>
      (stopping ??= core.close().then(
        () => resolve(code),
        (error: unknown) => {
          stderrLog.warn(`shutdown: ${(error as Error).message}`);
          resolve(1);
        },
      ));
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal means "now": the database is consistent at every commit.
        process.stderr.write(`${signal} again: exiting at once\n`);
        process.exit(130);
      }
      stderrLog.info(`${signal}: shutting down`);
      void shutDown(0);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    // Never a silent death: a stray rejection is logged (serving goes on), an uncaught
    // exception is logged and stops the server in order with exit code 1.
    installProcessErrorHandlers({
      log: stderrLog,
      stop: () => shutDown(1),
      exit: (code) => process.exit(code),
    });
  });
  // One write, so a reader that waits for the first line also has the second.
  // With --public-url, the address people open is under it (its sub-path included); the one on
  // this machine follows.
  const alsoHere = (local: string, printed: string) =>
    printed === local ? '' : `(on this machine: ${local})\n`;
  process.stdout.write(
    `listening on ${core.url}\nopen ${core.publicLoginUrl}\n${alsoHere(core.loginUrl, core.publicLoginUrl)}`,
  );
  // Each sign-in address works once, within 10 minutes: after one is used, or when one that
  // expired is tried, the next one is printed.
  core.onLoginUrl((url, publicUrl) =>
    process.stdout.write(
      `each works once, within 10 minutes; the next sign-in address:\nopen ${publicUrl}\n${alsoHere(url, publicUrl)}`,
    ),
  );

  return finished;
}
