/**
 * A store that fails for a while (SQLITE_FULL from chosen methods of a real store of the run's
 * backend) under the real runner and deliverer, with the fake engine (test/fixtures/fake-engine.ts): nothing escapes as an unhandled
 * rejection, the failure is logged with the request id, and once the store works again the
 * request still finishes and its callback is delivered, once.
 */

import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJobs, type Jobs } from '../../../electron/core/jobs';
import { createApiKey } from '../../../electron/core/jobs/keys';
import type { SubmitInput } from '../../../electron/core/jobs/submit';
import type { Log } from '../../../electron/core/platform/log';
import type { Repos, Store } from '../../../electron/core/store';
import { startReceiver, type CallbackReceiver } from '../../fixtures/callback-receiver';
import { createFakeEngine, type FakeEngine } from '../../fixtures/fake-engine';
import { submitInput } from '../../fixtures/submit-input';
import { openTestStore, type TestStore } from '../../fixtures/test-store';

/** `repo.method` names that fail while listed, e.g. `requests.finish`. */
type Faulty = string;

/** How often each `repo.method` has failed (rejected with SQLITE_FULL) so far. */
const failures = new Map<Faulty, number>();
const failuresOf = (method: Faulty): number => failures.get(method) ?? 0;

/**
 * The repositories of `repos` with chosen methods rejecting with SQLITE_FULL while they are in
 * `failing` (every repository is wrapped, whichever the store has); each failure is counted.
 */
function faultyRepos<T extends object>(repos: T, failing: Set<Faulty>): T {
  const wrapRepo = (name: string, repo: object): object =>
    new Proxy(repo, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const fn = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => {
          // As the real (asynchronous) store fails: a rejection, never a throw.
          const method = `${name}.${String(property)}`;
          if (failing.has(method)) {
            failures.set(method, failuresOf(method) + 1);
            return Promise.reject(new Error('SQLITE_FULL: database or disk is full'));
          }
          return fn.apply(target, args);
        };
      },
    });
  const wrapped = new Map<string, object>();
  return new Proxy(repos, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'object' || value === null) return value;
      const name = String(property);
      if (!wrapped.has(name)) wrapped.set(name, wrapRepo(name, value));
      return wrapped.get(name);
    },
  });
}

/** The real store with faulty repositories, inside its transactions too. */
function faultyStore(real: Store, failing: Set<Faulty>): Store {
  const store = faultyRepos(real, failing);
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'transaction') {
        return <T>(fn: (tx: Repos) => Promise<T>) => real.transaction((tx) => fn(faultyRepos(tx, failing)));
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

let engine: FakeEngine;
let testStore: TestStore;
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
  engine = createFakeEngine();
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await engine.close();
});
beforeEach(async () => {
  testStore = await openTestStore();
  dir = testStore.dir;
  real = testStore.store;
  failing = new Set();
  failures.clear();
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
  await testStore.close();
});

/**
 * The jobs of one instance. On a shared database (PostgreSQL) `leaseMs` is how soon another
 * instance may take over what this one leaves processing.
 */
function makeJobs(options: { leaseMs?: number } = {}): Jobs {
  jobs = createJobs({
    ...options,
    pollMs: 100,
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

async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  // Under vitest's 60 s test timeout, so that the failure names what was awaited; long enough
  // that a busy machine only makes the wait longer, never the test fail.
  timeoutMs = 50_000,
): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a store that fails for a while', () => {
  it('an outcome the store cannot record waits in processing, then is recorded and its callback delivered', async () => {
    await makeJobs().start();
    const key = (await createApiKey(real, jobs!.clock)).row;
    failing.add('requests.finish');
    const row = await jobs!.submit(input(key.id, receiver.url));
    const finished = jobs!.whenFinished(row.id);
    await until('the failure to be logged', () => warnings.some((w) => w.includes(row.id)));
    expect(warnings.find((w) => w.includes(row.id))).toMatch(
      new RegExp(`^request ${row.id}: could not record SUCCESS: SQLITE_FULL`),
    );
    // Several retries go by while the store stays full; the row stays where it was.
    const retried = failuresOf('requests.finish') + 3;
    await until('three more tries to record it', () => failuresOf('requests.finish') >= retried);
    expect((await real.requests.get(row.id))?.status).toBe('processing');
    expect(receiver.received).toHaveLength(0);

    failing.clear();
    const done = await finished;
    expect(done).toMatchObject({ status: 'SUCCESS', run_attempts: 1 });
    expect(done.audio_bytes).toBeGreaterThan(1000);
    const [call] = await receiver.waitFor(1);
    expect(call!.json).toMatchObject({ request_id: row.id, status: 'SUCCESS' });
    await until(
      'the delivery to be recorded',
      async () => (await real.requests.get(row.id))?.callback_state === 'delivered',
    );
    expect((await real.keys.findById(key.id))?.queued).toBe(0);
    expect(unhandled).toEqual([]);
  });

  it('a callback whose attempt cannot be recorded is recorded later, not sent again and again', async () => {
    await makeJobs().start();
    const key = (await createApiKey(real, jobs!.clock)).row;
    failing.add('callbacks.insert');
    const row = await jobs!.submit(input(key.id, receiver.url));
    await jobs!.whenFinished(row.id);
    await receiver.waitFor(1);
    await until('the failure to be logged', () =>
      warnings.some((w) => w.startsWith(`callback ${row.id} attempt 1: could not record the outcome`)),
    );
    const retried = failuresOf('callbacks.insert') + 3;
    await until('three more tries to record the attempt', () => failuresOf('callbacks.insert') >= retried);
    expect(receiver.received).toHaveLength(1);
    expect((await real.requests.get(row.id))?.callback_state).toBe('pending');

    failing.clear();
    await until(
      'the delivery to be recorded',
      async () => (await real.requests.get(row.id))?.callback_state === 'delivered',
    );
    expect(await real.callbacks.list(row.id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    expect(unhandled).toEqual([]);
  });

  it('reading the queue and the delivery schedule fails: submits are still accepted, work resumes after', async () => {
    await makeJobs().start();
    const key = (await createApiKey(real, jobs!.clock)).row;
    failing.add('requests.oldestQueuedPerKey');
    failing.add('requests.dueCallbacks');
    failing.add('requests.nextCallbackDue');
    const row = await jobs!.submit(input(key.id, receiver.url));
    await until('the failure to be logged', () =>
      warnings.some((w) =>
        w.startsWith('runner: could not take the next request from the queue: SQLITE_FULL'),
      ),
    );
    const retried = failuresOf('requests.oldestQueuedPerKey') + 3;
    await until('three more reads of the queue', () => failuresOf('requests.oldestQueuedPerKey') >= retried);
    expect((await real.requests.get(row.id))?.status).toBe('new');

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
      async () => (await real.requests.get(row.id))?.callback_state === 'delivered',
    );
    expect(unhandled).toEqual([]);
  });

  it('an outcome still unrecorded at shutdown is rendered again and delivered after the next start', async () => {
    // On PostgreSQL the next start is another instance's, which takes the request over once the
    // stopped one's lease has run out (1 s here).
    await makeJobs({ leaseMs: 1000 }).start();
    const key = (await createApiKey(real, jobs!.clock)).row;
    failing.add('requests.finish');
    const row = await jobs!.submit(input(key.id, receiver.url));
    await until('the failure to be logged', () => warnings.some((w) => w.includes(row.id)));
    await jobs!.close();
    expect(warnings.at(-1)).toMatch(/1 finished request\(s\) could not be recorded and stay processing/);
    expect((await real.requests.get(row.id))?.status).toBe('processing');

    failing.clear();
    await makeJobs().start();
    const done = await jobs!.whenFinished(row.id);
    // Rendered twice: the start the stopped instance could not record counts.
    expect(done).toMatchObject({ status: 'SUCCESS', run_attempts: 2 });
    await receiver.waitFor(1);
    await until(
      'the delivery to be recorded',
      async () => (await real.requests.get(row.id))?.callback_state === 'delivered',
    );
    expect(unhandled).toEqual([]);
  });
});
