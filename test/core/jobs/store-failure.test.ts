/**
 * A store that fails for a while (SQLITE_FULL from chosen methods of a real SQLite store) under
 * the real runner, engine and deliverer: nothing escapes as an unhandled rejection, the
 * failure is logged with the request id, and once the store works again the request still
 * finishes and its callback is delivered, once.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { Engine } from '../../../electron/core/engine/engine';
import { createJobs, type Jobs } from '../../../electron/core/jobs';
import { createApiKey } from '../../../electron/core/jobs/keys';
import type { SubmitInput } from '../../../electron/core/jobs/submit';
import type { Log } from '../../../electron/core/platform/log';
import { openStore, type Store } from '../../../electron/core/store';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { submitInput } from '../../fixtures/submit-input';

/** `repo.method` names that throw while listed, e.g. `requests.finish`. */
type Faulty = string;

/**
 * The real store, with chosen repository methods throwing SQLITE_FULL while they are in
 * `failing` (every repository is wrapped, whichever the store has).
 */
function faultyStore(real: Store, failing: Set<Faulty>): Store {
  const wrapRepo = (name: string, repo: object): object =>
    new Proxy(repo, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const fn = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          if (failing.has(`${name}.${String(property)}`))
            throw new Error('SQLITE_FULL: database or disk is full');
          return fn.apply(target, args);
        };
      },
    });
  const repos = new Map<string, object>();
  return new Proxy(real, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'object' || value === null) return value;
      const name = String(property);
      if (!repos.has(name)) repos.set(name, wrapRepo(name, value));
      return repos.get(name);
    },
  });
}

let engine: Engine;
let dir: string;
let real: Store;
let store: Store;
let failing: Set<Faulty>;
let receiver: CallbackReceiver;
let jobs: Jobs | undefined;
let warnings: string[];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
const log: Log = { info: () => {}, warn: (message) => warnings.push(message) };

beforeAll(async () => {
  engine = await createEngine({ poolSize: 1 });
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await engine.close();
});
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'store-failure-test-'));
  real = openStore({ path: join(dir, 'studio.db') });
  failing = new Set();
  store = faultyStore(real, failing);
  warnings = [];
  unhandled.length = 0;
  receiver = await startReceiver();
});
afterEach(async () => {
  failing.clear();
  await jobs?.close();
  jobs = undefined;
  await receiver.close();
  real.close();
  rmSync(dir, { recursive: true, force: true });
});

function makeJobs(): Jobs {
  jobs = createJobs({
    engine,
    store,
    filesDir: join(dir, 'audio'),
    baseUrl: () => 'http://127.0.0.1:1',
    log,
    concurrency: 1,
    storeRetryMs: 40,
    retry: { attempts: 3, baseDelayMs: 40, factor: 2, timeoutMs: 2000 },
  });
  return jobs;
}

function input(keyId: string, callbackUrl: string | null): SubmitInput {
  return submitInput(keyId, { text: 'The store was full for a moment.', callback_url: callbackUrl });
}

async function until(what: string, condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a store that fails for a while', () => {
  it('an outcome the store cannot record waits in processing, then is recorded and its callback delivered', async () => {
    makeJobs().start();
    const key = createApiKey(real, jobs!.clock).row;
    failing.add('requests.finish');
    const row = await jobs!.submit(input(key.id, receiver.url));
    const finished = jobs!.whenFinished(row.id);
    await until('the failure to be logged', () => warnings.some((w) => w.includes(row.id)));
    expect(warnings.find((w) => w.includes(row.id))).toMatch(
      new RegExp(`^request ${row.id}: could not record SUCCESS: SQLITE_FULL`),
    );
    // Several retries go by while the store stays full; the row stays where it was.
    await sleep(300);
    expect(real.requests.get(row.id)?.status).toBe('processing');
    expect(receiver.received).toHaveLength(0);

    failing.clear();
    const done = await finished;
    expect(done).toMatchObject({ status: 'SUCCESS', run_attempts: 1 });
    expect(done.audio_bytes).toBeGreaterThan(1000);
    const [call] = await receiver.waitFor(1);
    expect(call!.json).toMatchObject({ request_id: row.id, status: 'SUCCESS' });
    await until(
      'the delivery to be recorded',
      () => real.requests.get(row.id)?.callback_state === 'delivered',
    );
    expect(real.keys.findById(key.id)?.queued).toBe(0);
    expect(unhandled).toEqual([]);
  });

  it('a callback whose attempt cannot be recorded is recorded later, not sent again and again', async () => {
    makeJobs().start();
    const key = createApiKey(real, jobs!.clock).row;
    failing.add('callbacks.insert');
    const row = await jobs!.submit(input(key.id, receiver.url));
    await jobs!.whenFinished(row.id);
    await receiver.waitFor(1);
    await until('the failure to be logged', () =>
      warnings.some((w) => w.startsWith(`callback ${row.id} attempt 1: could not record the outcome`)),
    );
    await sleep(300);
    expect(receiver.received).toHaveLength(1);
    expect(real.requests.get(row.id)?.callback_state).toBe('pending');

    failing.clear();
    await until(
      'the delivery to be recorded',
      () => real.requests.get(row.id)?.callback_state === 'delivered',
    );
    expect(real.callbacks.list(row.id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect(unhandled).toEqual([]);
  });

  it('reading the queue and the delivery schedule fails: submits are still accepted, work resumes after', async () => {
    makeJobs().start();
    const key = createApiKey(real, jobs!.clock).row;
    failing.add('requests.oldestQueuedPerKey');
    failing.add('requests.dueCallbacks');
    failing.add('requests.nextCallbackDue');
    const row = await jobs!.submit(input(key.id, receiver.url));
    await until('the failure to be logged', () =>
      warnings.some((w) =>
        w.startsWith('runner: could not take the next request from the queue: SQLITE_FULL'),
      ),
    );
    await sleep(200);
    expect(real.requests.get(row.id)?.status).toBe('new');

    failing.delete('requests.oldestQueuedPerKey');
    const done = await jobs!.whenFinished(row.id);
    expect(done.status).toBe('SUCCESS');
    await until('the schedule failure to be logged', () =>
      warnings.some((w) => w.startsWith('callbacks: could not read')),
    );
    expect(receiver.received).toHaveLength(0);

    failing.clear();
    await receiver.waitFor(1);
    await until(
      'the delivery to be recorded',
      () => real.requests.get(row.id)?.callback_state === 'delivered',
    );
    expect(unhandled).toEqual([]);
  });

  it('an outcome still unrecorded at shutdown is rendered again and delivered after the next start', async () => {
    makeJobs().start();
    const key = createApiKey(real, jobs!.clock).row;
    failing.add('requests.finish');
    const row = await jobs!.submit(input(key.id, receiver.url));
    await until('the failure to be logged', () => warnings.some((w) => w.includes(row.id)));
    await jobs!.close();
    expect(warnings.at(-1)).toMatch(/1 finished request\(s\) could not be recorded and stay processing/);
    expect(real.requests.get(row.id)?.status).toBe('processing');

    failing.clear();
    makeJobs().start();
    const done = await jobs!.whenFinished(row.id);
    expect(done.status).toBe('SUCCESS');
    await receiver.waitFor(1);
    await until(
      'the delivery to be recorded',
      () => real.requests.get(row.id)?.callback_state === 'delivered',
    );
    expect(unhandled).toEqual([]);
  });
});
