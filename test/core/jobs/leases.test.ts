/**
 * Leases: how instances sharing one database split the queue. A request is claimed by exactly
 * one instance, under a lease it renews while rendering; only the lease's owner can finish or
 * requeue it; a lease that ran out (its instance died) puts the request back, the lost start
 * counted; a delivery is claimed by one instance at a time. First on the repository, then with
 * real runners. On the run's backend: on PostgreSQL the "instances" are separate stores (pools
 * of their own) on one database, as separate processes would have; on SQLite, one process has
 * the file, and the same races run through its one connection.
 */

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { Engine } from '../../../electron/core/engine/engine';
import { AppError } from '../../../electron/shared/errors';
import { createJobEvents } from '../../../electron/core/jobs/events';
import { createApiKey } from '../../../electron/core/jobs/keys';
import { createDirectoryFiles, type ResultFiles } from '../../../electron/core/jobs/result-files';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from '../../../electron/core/jobs/runner';
import { createSubmitter } from '../../../electron/core/jobs/submit';
import { isoTime, systemClock } from '../../../electron/core/platform/clock';
import { silentLog, type Log } from '../../../electron/core/platform/log';
import type { Finish, KeyRow, NewRequestRow, RequestRow, Store } from '../../../electron/core/store';
import { queuedRequestRow } from '../../fixtures/request-row';
import { openReopenableTestStore, type ReopenableTestStore } from '../../fixtures/reopenable-store';
import { submitInput } from '../../fixtures/submit-input';
import { onPostgres } from '../../fixtures/test-store';

let t: ReopenableTestStore;
let store: Store;
let key: KeyRow;
/** Runners the test made, closed before the stores. */
const runners: JobRunner[] = [];

beforeEach(async () => {
  t = await openReopenableTestStore();
  store = t.store;
  key = (await createApiKey(store, systemClock, { balanceMilli: 10_000_000 })).row;
});
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.close(0);
  await t.close();
});

/** The store a second instance has: its own on PostgreSQL, the same one on SQLite. */
const secondInstance = async (): Promise<Store> => (onPostgres ? t.openAnother() : store);

/** Inserts a queued request (no charge: the repository alone is under test). */
async function queued(overrides: Partial<NewRequestRow> = {}): Promise<string> {
  const request = queuedRequestRow(key.id, overrides);
  await store.requests.insert(request);
  return request.id;
}

const lease = (owner: string, untilMs = Date.now() + 60_000) => ({ owner, until: untilMs });
const claim = (id: string, owner: string, untilMs?: number, on: Pick<Store, 'requests'> = store) =>
  on.requests.claim([id], isoTime(Date.now()), lease(owner, untilMs));
const success = (callbackDueAt = Date.now()): Finish => ({
  status: 'SUCCESS',
  finishedAt: isoTime(Date.now()),
  durationMs: 900,
  audioBytes: 1234,
  callbackDueAt,
});
const row = async (id: string): Promise<RequestRow> => (await store.requests.get(id))!;

describe('leases on the requests repository', () => {
  it('claim gives each request to exactly one of two owners racing for it', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 80; i++) ids.add(await queued());
    const other = await secondInstance();
    /**
     * One claim loop as a runner's pump has it: the queued ids oldest first, claim the first
     * free one, again until none is queued.
     */
    const claimLoop = async (on: Store, owner: string) => {
      const claimed: RequestRow[] = [];
      for (;;) {
        const page = await on.requests.list({ keyId: key.id, status: 'new', limit: 1000, offset: 0 });
        if (page.rows.length === 0) return claimed;
        const oldestFirst = page.rows.map((r) => r.id).reverse();
        const won = await on.requests.claim(oldestFirst, isoTime(Date.now()), lease(owner));
        if (won) claimed.push(won);
      }
    };
    // Two instances, each with two loops (a runner renders several requests at once).
    const [a1, a2, b1, b2] = await Promise.all([
      claimLoop(store, 'instance-a'),
      claimLoop(store, 'instance-a'),
      claimLoop(other, 'instance-b'),
      claimLoop(other, 'instance-b'),
    ]);
    const byA = [...a1!, ...a2!];
    const byB = [...b1!, ...b2!];
    const all = [...byA, ...byB].map((r) => r.id);
    // Every request claimed, none twice.
    expect(all).toHaveLength(ids.size);
    expect(new Set(all)).toEqual(ids);
    // Both raced for real.
    expect(byA.length).toBeGreaterThan(0);
    expect(byB.length).toBeGreaterThan(0);
    for (const [owner, rows] of [
      ['instance-a', byA],
      ['instance-b', byB],
    ] as const) {
      for (const claimed of rows) {
        expect(claimed).toMatchObject({ status: 'processing', lease_owner: owner, run_attempts: 1 });
        expect(await row(claimed.id)).toMatchObject({
          status: 'processing',
          lease_owner: owner,
          run_attempts: 1,
        });
      }
      expect((await store.requests.leasedBy(owner)).sort()).toEqual(rows.map((r) => r.id).sort());
    }
    expect(await store.requests.claim([...ids], isoTime(Date.now()), lease('instance-c'))).toBeUndefined();
  });

  it('claims the first of the ids still queued, in the order given', async () => {
    const [first, second, third] = [await queued(), await queued(), await queued()];
    expect((await store.requests.claim([third, first, second], isoTime(Date.now()), lease('a')))?.id).toBe(
      third,
    );
    expect((await store.requests.claim([third, first, second], isoTime(Date.now()), lease('a')))?.id).toBe(
      first,
    );
    expect(await store.requests.claim([], isoTime(Date.now()), lease('a'))).toBeUndefined();
    expect(await store.requests.oldestQueuedPerKey()).toEqual([expect.objectContaining({ id: second })]);
  });

  it("oldestQueuedPerKey gives each key's oldest queued request, and none for a key with none queued", async () => {
    const other = (await createApiKey(store, systemClock, { balanceMilli: 1000 })).row;
    const idle = (await createApiKey(store, systemClock, { balanceMilli: 1000 })).row;
    const [a1, a2] = [await queued(), await queued()];
    const [b1, b2] = [await queued({ key_id: other.id }), await queued({ key_id: other.id })];
    await queued({ key_id: idle.id }).then((id) => claim(id, 'a'));
    const oldest = async () =>
      new Map((await store.requests.oldestQueuedPerKey()).map((row) => [row.key_id, row.id]));
    expect(await oldest()).toEqual(
      new Map([
        [key.id, a1],
        [other.id, b1],
      ]),
    );
    await claim(a1, 'a');
    await claim(b1, 'a');
    expect(await oldest()).toEqual(
      new Map([
        [key.id, a2],
        [other.id, b2],
      ]),
    );
    await claim(b2, 'a');
    expect(await oldest()).toEqual(new Map([[key.id, a2]]));
  });

  it("oldestQueuedPerKey still gives each key's oldest when many requests are queued (its speed: npm run bench:queue)", async () => {
    const other = (await createApiKey(store, systemClock, { balanceMilli: 1000 })).row;
    const [first, second] = [await queued(), await queued({ key_id: other.id })];
    const row = (i: number) => queuedRequestRow(i % 2 ? key.id : other.id);
    // Queued after the first two (the queue's order is the order of insertion).
    await store.transaction((tx) => tx.requests.insertMany(Array.from({ length: 1000 }, (_, i) => row(i))));
    const oldest = async () =>
      new Map((await store.requests.oldestQueuedPerKey()).map((r) => [r.key_id, r.id]));
    expect(await oldest()).toEqual(
      new Map([
        [key.id, first],
        [other.id, second],
      ]),
    );
  });

  it('only the lease owner finishes, requeues or renews; a finished request is finished once', async () => {
    const id = await queued();
    const until = Date.now() + 60_000;
    expect(await claim(id, 'owner', until)).toMatchObject({ lease_owner: 'owner', lease_until: until });
    // Another instance can do nothing to it.
    expect(await store.requests.finish(id, 'intruder', success())).toBe(false);
    await store.requests.requeue(id, 'intruder');
    expect(await store.requests.renewLease(id, lease('intruder'))).toBe(false);
    expect(await row(id)).toMatchObject({
      status: 'processing',
      lease_owner: 'owner',
      lease_until: until,
      run_attempts: 1,
      finished_at: null,
      duration_ms: null,
    });
    // The owner can.
    expect(await store.requests.finish(id, 'owner', success())).toBe(true);
    expect(await row(id)).toMatchObject({
      status: 'SUCCESS',
      duration_ms: 900,
      lease_owner: null,
      lease_until: null,
    });
    expect(await store.requests.leasedBy('owner')).toEqual([]);
    // Finished: a second outcome (even the owner's) is refused and changes nothing.
    const failure: Finish = { ...success(), status: 'FAILURE', errorCode: 'ENGINE_FAILED' };
    expect(await store.requests.finish(id, 'owner', failure)).toBe(false);
    await store.requests.requeue(id, 'owner');
    expect(await row(id)).toMatchObject({ status: 'SUCCESS', error_code: null, run_attempts: 1 });
  });

  it('requeueExpired puts back only the requests whose lease ran out before now, their start counted', async () => {
    const now = Date.now();
    const expired = await queued();
    const boundary = await queued();
    const live = await queued();
    const waiting = await queued();
    const finished = await queued();
    await claim(expired, 'dead', now - 1);
    await claim(boundary, 'dying', now);
    await claim(live, 'alive', now + 60_000);
    await claim(finished, 'alive', now - 5000);
    expect(await store.requests.finish(finished, 'alive', success())).toBe(true);

    expect(await store.requests.requeueExpired(now)).toEqual([expired]);
    // Back in the queue, no owner; the start it lost is counted (a crash, not a shutdown).
    expect(await row(expired)).toMatchObject({
      status: 'new',
      run_attempts: 1,
      lease_owner: null,
      lease_until: null,
    });
    expect(await row(boundary)).toMatchObject({
      status: 'processing',
      lease_owner: 'dying',
      lease_until: now,
    });
    expect(await row(live)).toMatchObject({ status: 'processing', lease_owner: 'alive' });
    expect(await row(waiting)).toMatchObject({ status: 'new', run_attempts: 0 });
    expect(await row(finished)).toMatchObject({ status: 'SUCCESS', lease_owner: null });
    expect(await store.requests.requeueExpired(now)).toEqual([]);

    // Claimed again: its second start.
    expect(await claim(expired, 'alive')).toMatchObject({ run_attempts: 2 });
    // A shutdown's requeue by the owner does not count the start.
    await store.requests.requeue(expired, 'alive');
    expect(await row(expired)).toMatchObject({ status: 'new', run_attempts: 1, lease_owner: null });
    // A moment later the boundary lease has run out too.
    expect(await store.requests.requeueExpired(now + 1)).toEqual([boundary]);
    expect(await store.requests.leasedBy('dying')).toEqual([]);
    expect(await store.requests.leasedBy('alive')).toEqual([live]);
    // Counted starts add up, and give a request up once they are too many.
    expect((await store.requests.exhausted(1)).map((r) => r.id).sort()).toEqual([expired, boundary].sort());
    expect(await store.requests.exhausted(2)).toEqual([]);
  });

  it('renewLease fails once another instance took the request over', async () => {
    const id = await queued();
    await claim(id, 'instance-a', Date.now() + 60_000);
    // While it holds the request, the owner renews.
    const later = Date.now() + 120_000;
    expect(await store.requests.renewLease(id, lease('instance-a', later))).toBe(true);
    expect((await row(id)).lease_until).toBe(later);
    // Its last renewal is long past (it stopped): the lease runs out and B takes over.
    expect(await store.requests.renewLease(id, lease('instance-a', Date.now() - 1))).toBe(true);
    expect(await store.requests.requeueExpired(Date.now())).toEqual([id]);
    const other = await secondInstance();
    expect(await claim(id, 'instance-b', Date.now() + 60_000, other)).toMatchObject({
      lease_owner: 'instance-b',
      run_attempts: 2,
    });
    // A wakes up: its lease is gone, and so is its say over the request.
    expect(await store.requests.renewLease(id, lease('instance-a'))).toBe(false);
    expect(await store.requests.finish(id, 'instance-a', success())).toBe(false);
    await store.requests.requeue(id, 'instance-a');
    expect(await row(id)).toMatchObject({ status: 'processing', lease_owner: 'instance-b', run_attempts: 2 });
    // B renews and finishes.
    const bUntil = Date.now() + 90_000;
    expect(await other.requests.renewLease(id, lease('instance-b', bUntil))).toBe(true);
    expect((await row(id)).lease_until).toBe(bUntil);
    expect(await other.requests.finish(id, 'instance-b', success())).toBe(true);
    // Nothing left to renew.
    expect(await other.requests.renewLease(id, lease('instance-b'))).toBe(false);
  });

  it('claimCallback succeeds for exactly one of two claimers of a due delivery', async () => {
    const other = await secondInstance();
    const due = Date.now() - 10;
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const id = await queued({ callback_url: 'http://127.0.0.1:9/hook' });
      await claim(id, 'renderer');
      expect(await store.requests.finish(id, 'renderer', success(due))).toBe(true);
      ids.push(id);
    }
    expect((await store.requests.dueCallbacks(Date.now(), 100)).map((r) => r.id).sort()).toEqual(
      [...ids].sort(),
    );
    const untilA = Date.now() + 60_000;
    const untilB = untilA + 1;
    const results = await Promise.all(
      ids.map((id) =>
        Promise.all([
          store.requests.claimCallback(id, due, untilA),
          other.requests.claimCallback(id, due, untilB),
        ]),
      ),
    );
    for (const [i, [a, b]] of results.entries()) {
      // Exactly one, and the row carries the winner's claim.
      expect(a !== b, `request ${i}: A ${a}, B ${b}`).toBe(true);
      expect(await row(ids[i]!)).toMatchObject({
        callback_state: 'pending',
        callback_due_at: a ? untilA : untilB,
      });
    }
    // Claimed: no longer due, and a claim with the old due time (a stale read) fails.
    expect(await store.requests.dueCallbacks(Date.now(), 100)).toEqual([]);
    expect(await store.requests.claimCallback(ids[0]!, due, untilA + 5)).toBe(false);
    // When that claim comes due (its instance died before recording the attempt), another
    // instance claims it with the due time it read.
    const stale = (await row(ids[0]!)).callback_due_at!;
    expect(await other.requests.claimCallback(ids[0]!, stale, Date.now() + 60_000)).toBe(true);
    // A delivery no longer pending cannot be claimed.
    await store.requests.updateCallback(ids[1]!, 'delivered', null, 1);
    expect(await store.requests.claimCallback(ids[1]!, (await row(ids[1]!)).callback_due_at ?? due, 0)).toBe(
      false,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Real runners

let engine: Engine;

beforeAll(async () => {
  engine = await createEngine({ poolSize: 2 });
});
afterAll(async () => {
  await engine.close();
});

/** An engine whose render never ends until aborted: a render in flight when its instance dies. */
const hangingEngine: Engine = {
  poolSize: 1,
  render: (request) =>
    new Promise((_resolve, reject) => {
      const signal = request.signal;
      if (!signal) return;
      if (signal.aborted) return reject(signal.reason as Error);
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    }),
  audition: () => Promise.reject(new AppError('INTERNAL', 'not used')),
  streamAudition: () => Promise.reject(new AppError('INTERNAL', 'not used')),
  exportBook: () => Promise.reject(new AppError('INTERNAL', 'not used')),
  exportChapters: () => Promise.reject(new AppError('INTERNAL', 'not used')),
  read: () => Promise.reject(new AppError('INTERNAL', 'not used')),
  sentenceCacheStats: () => Promise.reject(new AppError('INTERNAL', 'not used')),
  clearSentenceCache: () => Promise.reject(new AppError('INTERNAL', 'not used')),
  close: async () => {},
};

interface TestRunner {
  runner: JobRunner;
  /** Ids this runner recorded as finished. */
  finished: string[];
  warnings: string[];
}

function makeRunner(
  on: Store,
  files: ResultFiles,
  instanceId: string,
  options: Partial<Pick<JobRunnerOptions, 'engine' | 'leaseMs' | 'pollMs' | 'concurrency'>> = {},
): TestRunner {
  const finished: string[] = [];
  const warnings: string[] = [];
  const log: Log = { ...silentLog, warn: (message) => warnings.push(message) };
  const runner = createJobRunner({
    engine,
    store: on,
    files,
    instanceId,
    events: createJobEvents(),
    clock: systemClock,
    log,
    concurrency: 2,
    pollMs: 100,
    onFinished: (r) => finished.push(r.id),
    ...options,
  });
  runners.push(runner);
  return { runner, finished, warnings };
}

/** Submits `texts` (committed on return), telling each of `runners` of the work as instances hear of it. */
async function submitAll(texts: string[], ...runners: TestRunner[]): Promise<RequestRow[]> {
  const submitter = createSubmitter({
    store,
    clock: systemClock,
    maxQueuedPerKey: 100,
    onAccepted: () => runners.forEach((r) => r.runner.kick()),
  });
  try {
    return await Promise.all(texts.map((text) => submitter.submit(submitInput(key.id, { text }))));
  } finally {
    await submitter.close();
  }
}

/** Polls until `check` is true, or fails after `timeoutMs`. */
/** Polls `check` until it holds; the limit sits under vitest's 60 s test timeout and names what was awaited. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 50_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('two runners on one database', () => {
  it('render every request exactly once between them, each doing some', async () => {
    const files = createDirectoryFiles(join(t.dir, 'audio'));
    await files.prepare();
    const a = makeRunner(store, files, 'instance-a');
    const b = makeRunner(await secondInstance(), files, 'instance-b');
    // Both running before the work comes (on SQLite, a start requeues whatever is processing).
    await Promise.all([a.runner.start(), b.runner.start()]);
    // Both hear of the work, as instances do through the database's notifications.
    const rows = await submitAll(
      Array.from({ length: 20 }, (_, i) => `Request number ${i + 1}.`),
      a,
      b,
    );
    const ids = rows.map((r) => r.id);
    // A runner announces a request (onFinished) just after its outcome is committed: wait for both.
    await until('every request to finish and be announced', async () => {
      const page = await store.requests.list({ keyId: key.id, status: 'SUCCESS', limit: 100, offset: 0 });
      return page.total === ids.length && a.finished.length + b.finished.length >= ids.length;
    });
    for (const id of ids) {
      const done = await row(id);
      expect(done, id).toMatchObject({
        status: 'SUCCESS',
        run_attempts: 1,
        lease_owner: null,
        lease_until: null,
      });
      expect(existsSync(files.audioPath(done))).toBe(true);
    }
    // Each recorded by exactly one of them, and both did some.
    expect([...a.finished, ...b.finished].sort()).toEqual([...ids].sort());
    expect(a.finished.length).toBeGreaterThan(0);
    expect(b.finished.length).toBeGreaterThan(0);
    expect(a.warnings).toEqual([]);
    expect(b.warnings).toEqual([]);
    expect((await store.keys.findById(key.id))?.queued).toBe(0);
    expect(readdirSync(join(t.dir, 'audio')).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('a request whose owner died is requeued once its lease ran out, rendered by another, and the dead owner can no longer finish it', async () => {
    const files = createDirectoryFiles(join(t.dir, 'audio'));
    await files.prepare();
    // No poll of its own here: the test calls requeueExpired itself (as a shared database's poll does).
    const b = makeRunner(store, files, 'instance-b', { pollMs: 60_000 });
    await b.runner.start();
    const [request] = (await submitAll(['My first instance died.'])) as [RequestRow];
    // What the dead instance left: claimed, lease run out.
    expect(await claim(request.id, 'instance-dead', Date.now() - 1)).toBeDefined();
    // The runner's look at the queue, counted instead of waited for: once it has looked a
    // second time (a kick while it looks makes it look again), its first look, with any claim
    // it led to, is over.
    const looks = vi.spyOn(store.requests, 'oldestQueuedPerKey');
    b.runner.kick();
    await until('the runner to look at the queue', async () => looks.mock.calls.length > 0);
    b.runner.kick();
    await until('the runner to look again', async () => looks.mock.calls.length > 1);
    await Promise.all(looks.mock.results.map((r) => r.value));
    looks.mockRestore();
    expect(await row(request.id)).toMatchObject({ status: 'processing', lease_owner: 'instance-dead' });
    expect(await store.requests.requeueExpired(Date.now())).toEqual([request.id]);
    b.runner.kick();
    // Finished as the runner hears it: on SQLite a reader may see the row a moment before the
    // write's sync has finished and the runner's call returned.
    await until('the request to finish', async () => b.finished.length > 0);
    expect(await row(request.id)).toMatchObject({ status: 'SUCCESS', run_attempts: 2, lease_owner: null });
    expect(b.finished).toEqual([request.id]);
    // The dead instance's late outcome is refused; the credits stay charged once.
    const failure: Finish = { ...success(), status: 'FAILURE', errorCode: 'ENGINE_FAILED' };
    expect(await store.requests.finish(request.id, 'instance-dead', failure)).toBe(false);
    expect(await row(request.id)).toMatchObject({ status: 'SUCCESS', error_code: null });
    expect((await store.ledger.forRequest(request.id)).map((e) => e.kind)).toEqual(['charge']);
  });

  // On SQLite one process has the database (`store.exclusive`): no other instance to take over,
  // and the runner does not poll; the test above covers the takeover itself there.
  it.runIf(onPostgres)(
    'an instance that stops renewing its lease loses the request to one that polls, which finishes it',
    async () => {
      const files = createDirectoryFiles(join(t.dir, 'audio'));
      await files.prepare();
      const storeA = await t.openAnother();
      const a = makeRunner(storeA, files, 'instance-a', {
        engine: hangingEngine,
        leaseMs: 300,
        concurrency: 1,
      });
      await a.runner.start();
      const [request] = (await submitAll(['My instance was killed.'], a)) as [RequestRow];
      await until('instance A to claim it', async () => (await row(request.id)).lease_owner === 'instance-a');

      // A's renewals and B's polls, counted instead of waited for.
      const renewals = vi.spyOn(storeA.requests, 'renewLease');
      const polls = vi.spyOn(store.requests, 'requeueExpired');
      const b = makeRunner(store, files, 'instance-b', { leaseMs: 300 });
      await b.runner.start();
      // While A lives it renews its lease (every 100 ms): B, polling every 100 ms, leaves it
      // alone, however many times both have done so.
      const polled = polls.mock.calls.length;
      await until(
        'B to poll a few times while A renews',
        async () => renewals.mock.calls.length >= 3 && polls.mock.calls.length >= polled + 3,
      );
      await Promise.all(polls.mock.results.map((r) => r.value));
      renewals.mockRestore();
      polls.mockRestore();
      expect(await row(request.id)).toMatchObject({
        status: 'processing',
        lease_owner: 'instance-a',
        run_attempts: 1,
      });
      expect(b.finished).toEqual([]);

      // A "dies": its connections are gone, its renewals fail, its render never ends.
      await storeA.close();
      await until(
        'instance B to take it over, finish it and announce it',
        async () => (await row(request.id)).status === 'SUCCESS' && b.finished.length > 0,
      );
      expect(await row(request.id)).toMatchObject({ run_attempts: 2, lease_owner: null, error_code: null });
      expect(b.finished).toEqual([request.id]);
      expect(a.finished).toEqual([]);
      expect(a.warnings.some((w) => w.includes(`request ${request.id}: could not renew its lease`))).toBe(
        true,
      );
      expect(existsSync(files.audioPath(await row(request.id)))).toBe(true);
      expect((await store.keys.findById(key.id))?.queued).toBe(0);
    },
  );

  it.runIf(onPostgres)(
    'an instance whose lease was taken over stops its render and records nothing',
    async () => {
      const files = createDirectoryFiles(join(t.dir, 'audio'));
      await files.prepare();
      // A renders forever and renews every 100 ms; its lease is taken from it behind its back.
      const a = makeRunner(store, files, 'instance-a', {
        engine: hangingEngine,
        leaseMs: 300,
        concurrency: 1,
      });
      await a.runner.start();
      const [request] = (await submitAll(['Taken from me.'], a)) as [RequestRow];
      await until('instance A to claim it', async () => a.runner.isRunning(request.id));
      const other = await t.openAnother();
      // Another instance finds the lease run out (as if A had stalled) and takes the request; in
      // one transaction, so neither a renewal of A's nor A's own claim loop (free again once its
      // render stops) comes in between.
      const [requeued, claimedByB] = await other.transaction(async (tx) => {
        expect(await tx.requests.renewLease(request.id, lease('instance-a', Date.now() - 1))).toBe(true);
        const back = await tx.requests.requeueExpired(Date.now());
        return [back, await claim(request.id, 'instance-b', Date.now() + 60_000, tx)] as const;
      });
      expect(requeued).toEqual([request.id]);
      expect(claimedByB).toBeDefined();
      // A's next renewal finds it gone and aborts its render, without recording an outcome.
      await until('A to stop its render', async () => !a.runner.isRunning(request.id));
      expect(a.warnings.some((w) => w.includes('another instance took it over'))).toBe(true);
      expect(a.finished).toEqual([]);
      expect(await row(request.id)).toMatchObject({
        status: 'processing',
        lease_owner: 'instance-b',
        run_attempts: 2,
      });
      expect(await other.requests.finish(request.id, 'instance-b', success())).toBe(true);
    },
  );
});
