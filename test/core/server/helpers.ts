/**
 * Starts a real core (engine, the run's database: a SQLite file in a temp dir or a fresh
 * PostgreSQL database, HTTP on 127.0.0.1) for server tests.
 */

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { createCore, type Core, type CoreOptions } from '../../../electron/core/studio-core';
import { systemClock } from '../../../electron/core/platform/clock';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { AppError } from '../../../electron/shared/errors';
import { skipFirstRunOffer } from '../../fixtures/first-run-settings';
import { signInStudio, type StudioSession } from '../../fixtures/studio-session';
import { testDatabase, type TestDatabase } from '../../fixtures/test-store';
import { createFakeEngine, type FakeEngine } from '../../fixtures/fake-engine';
import { callRequest, toHttpResult, type CallOptions, type HttpResult, type Method } from './http';

export interface TestCore {
  core: Core;
  dir: string;
  /** A key with the default balance. */
  key: string;
  call(method: Method, path: string, options?: CallOptions): Promise<HttpResult>;
  newKey(balanceMilli?: number): Promise<string>;
  close(): Promise<void>;
}

export async function fetchUrl(
  url: string,
  method: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<HttpResult> {
  const response = await request(url, {
    method: method as 'GET',
    headers: options.headers,
    body: options.body,
  });
  return toHttpResult(response.statusCode, response.headers, Buffer.from(await response.body.arrayBuffer()));
}

/**
 * A data folder and database a test keeps across several cores (a restart): `startTestCore`
 * with it uses them and leaves them; `drop` removes them.
 */
export interface TestData {
  dir: string;
  database: TestDatabase;
  drop(): Promise<void>;
}

export async function testData(): Promise<TestData> {
  const dir = mkdtempSync(join(tmpdir(), 'core-test-'));
  // Browser tests of the studio would meet the first-run voice offer's dialog: answered here.
  skipFirstRunOffer(join(dir, 'config'));
  const database = await testDatabase();
  return {
    dir,
    database,
    async drop() {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function startTestCore(
  options: Partial<CoreOptions> = {},
  /** The data to run on and leave when closed (default: fresh, removed when closed). */
  kept?: TestData,
): Promise<TestCore> {
  const data = kept ?? (await testData());
  const { dir, database } = data;
  const drop = () => (kept ? Promise.resolve() : data.drop());
  let core: Core;
  try {
    core = await createCore({
      dataDir: dir,
      // A shared database makes the server refuse internal callback addresses; the receivers are local.
      ...(database.databaseUrl
        ? { databaseUrl: database.databaseUrl, allowCallbackHosts: ['127.0.0.1'] }
        : {}),
      // Never the real user's settings file.
      settingsDir: join(dir, 'config'),
      port: 0,
      poolSize: 2,
      retry: { attempts: 3, baseDelayMs: 30, factor: 2, timeoutMs: 2000 },
      ...options,
    });
  } catch (error) {
    await drop();
    throw error;
  }
  const newKey = async (balanceMilli?: number) =>
    (await createApiKey(core.store, systemClock, balanceMilli === undefined ? {} : { balanceMilli })).key;
  const key = await newKey();
  return {
    core,
    dir,
    key,
    newKey,
    call(method, path, options = {}) {
      const { headers, payload } = callRequest(options, key);
      return fetchUrl(`${core.url}${path}`, method, {
        headers,
        ...(payload !== undefined ? { body: payload } : {}),
      });
    },
    async close() {
      await core.close();
      await drop();
    },
  };
}

/** Starts a core with `start` on a new fake engine, which its `close` closes too. */
async function onFakeEngine<T extends TestCore>(
  start: (engine: FakeEngine) => Promise<T>,
): Promise<T & { engine: FakeEngine }> {
  const engine = createFakeEngine();
  let t: T;
  try {
    t = await start(engine);
  } catch (error) {
    await engine.close();
    throw error;
  }
  return {
    ...t,
    engine,
    async close() {
      await t.close();
      await engine.close();
    },
  };
}

/**
 * `startTestCore` on the fake engine (test/fixtures/fake-engine.ts): the real server, store,
 * jobs and callbacks over HTTP on 127.0.0.1, with renders answered at once (WAV only). For
 * server behaviour where speech is not the subject; it keeps a file in the fast tier.
 */
export function startFakeEngineCore(
  options: Partial<CoreOptions> = {},
  kept?: TestData,
): Promise<TestCore & { engine: FakeEngine }> {
  return onFakeEngine((engine) => startTestCore({ ...options, engine }, kept));
}

/**
 * A stand-in for the built studio in a new temp folder (the caller removes it): index.html and
 * one hashed asset, `assets/app-1.js`, which the server sends as it sends the real build.
 */
export function makeStudioUiDir(): string {
  const uiDir = mkdtempSync(join(tmpdir(), 'ui-'));
  mkdirSync(join(uiDir, 'assets'));
  writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(join(uiDir, 'assets', 'app-1.js'), 'console.log(1)');
  return uiDir;
}

/** A core whose studio is signed in, as its page signs in: the "studio with a sign-in" of server tests. */
export interface SignedInTestCore extends TestCore {
  /** The studio's session: cookie, value, and both as the headers of a signed-in call. */
  studio: StudioSession;
  /** The sign-in address the session was made with: spent (the core names a new one). */
  spentLoginUrl: string;
  /** The stand-in studio page served at `/` (makeStudioUiDir), removed by `close`. */
  uiDir: string;
}

/**
 * `startTestCore` with a stand-in studio page (unless `options.uiDir` names one), signed in
 * over real HTTP with its first sign-in address (`signInStudio`, which spends it).
 */
export async function startSignedInCore(
  options: Partial<CoreOptions> = {},
  kept?: TestData,
): Promise<SignedInTestCore> {
  const uiDir = options.uiDir ?? makeStudioUiDir();
  const removeUi = () => {
    if (options.uiDir === undefined) rmSync(uiDir, { recursive: true, force: true });
  };
  let t: TestCore;
  try {
    t = await startTestCore({ ...options, uiDir }, kept);
  } catch (error) {
    removeUi();
    throw error;
  }
  const close = async () => {
    try {
      await t.close();
    } finally {
      removeUi();
    }
  };
  const spentLoginUrl = t.core.loginUrl;
  try {
    return { ...t, studio: await signInStudio(spentLoginUrl), spentLoginUrl, uiDir, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * `startSignedInCore` on the fake engine (as `startFakeEngineCore`): a signed-in studio for server
 * behaviour where speech is not the subject (errors, wording, refusals); it keeps a file in the
 * fast tier.
 */
export function startFakeEngineStudio(
  options: Partial<CoreOptions> = {},
  kept?: TestData,
): Promise<SignedInTestCore & { engine: FakeEngine }> {
  return onFakeEngine((engine) => startSignedInCore({ ...options, engine }, kept));
}

/**
 * Reads a streamed speech answer of request `id` to its end: the pieces as they arrived, and the
 * request's status (read from the core) when the first one came.
 */
export async function readWhileRendering(
  t: Pick<TestCore, 'call'>,
  id: string,
  body: AsyncIterable<unknown>,
): Promise<{ pieces: Buffer[]; statusAtFirstBytes: string | undefined }> {
  const pieces: Buffer[] = [];
  let statusAtFirstBytes: string | undefined;
  for await (const piece of body) {
    if (pieces.length === 0) {
      statusAtFirstBytes = (await t.call('GET', `/api/v1/tts/${id}`)).json.result.status as string;
    }
    pieces.push(Buffer.from(piece as Uint8Array));
  }
  return { pieces, statusAtFirstBytes };
}

/**
 * Polls until `check` returns a value (not undefined), or fails after `timeoutMs`: by default 50 s,
 * under vitest's 60 s test timeout, so a busy machine waits longer instead of failing the race.
 * Every `intervalMs` (20 ms); a wait of many seconds for a server process polls less often, as
 * each poll costs CPU on both sides.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 50_000,
  intervalMs = 20,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The text that makes renders of `failRendersWith` fail: accepted (and charged), never rendered. */
export const FAILING_TEXT = 'This render is made to fail by the test.';

/**
 * Makes the core's engine fail every render whose text contains FAILING_TEXT (ENGINE_FAILED, as
 * a crashed or broken engine would), for tests of what a FAILURE does (refund, callback). Text
 * with nothing to speak is refused at submit, so it cannot be the way a test makes a render
 * fail. Returns the function that puts the engine back.
 */
export function failRendersWith(core: Core): () => void {
  const engine = core.engine;
  const render = engine.render;
  engine.render = async (request) => {
    if (request.text.includes(FAILING_TEXT)) {
      throw new AppError('ENGINE_FAILED', 'The engine failed (made to by the test).');
    }
    return render.call(engine, request);
  };
  return () => {
    engine.render = render;
  };
}
