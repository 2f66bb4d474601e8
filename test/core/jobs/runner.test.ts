/** The job runner with the real engine and a real database of the run's backend. */

import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { Engine } from '../../../electron/core/engine/engine';
import { createJobs, type Jobs } from '../../../electron/core/jobs';
import { isoTime } from '../../../electron/core/platform/clock';
import { createApiKey } from '../../../electron/core/jobs/keys';
import type { SubmitInput } from '../../../electron/core/jobs/submit';
import { MAX_RUN_ATTEMPTS } from '../../../electron/core/jobs/runner';
import type { RequestRow, Store } from '../../../electron/core/store';
import { submitInput } from '../../fixtures/submit-input';
import { openTestStore, type TestStore } from '../../fixtures/test-store';

let engine: Engine;
let dir: string;
let testStore: TestStore;
let store: Store;
let jobs: Jobs | undefined;

beforeAll(async () => {
  engine = await createEngine({ poolSize: 2 });
});
afterAll(async () => {
  await engine.close();
});
beforeEach(async () => {
  testStore = await openTestStore();
  dir = testStore.dir;
  store = testStore.store;
});
afterEach(async () => {
  await jobs?.close();
  jobs = undefined;
  await testStore.close();
});

function makeJobs(concurrency = 2): Jobs {
  jobs = createJobs({
    engine,
    store,
    filesDir: join(dir, 'audio'),
    baseUrl: () => 'http://127.0.0.1:1',
    concurrency,
    // A shared database (PostgreSQL) is looked at every 0.1 s, not every 2 s.
    pollMs: 100,
  });
  return jobs;
}

function input(keyId: string, text: string): SubmitInput {
  return submitInput(keyId, { text });
}

/** What a killed instance leaves: the request claimed by it, its lease already run out. */
async function claimedByDeadInstance(id: string): Promise<void> {
  const row = await store.requests.claim([id], isoTime(Date.now()), {
    owner: 'killed-instance',
    until: Date.now() - 1,
  });
  expect(row?.id).toBe(id);
}

describe('job runner', () => {
  it('renders accepted requests to complete files and records SUCCESS', async () => {
    const jobs = makeJobs();
    await jobs.start();
    const key = (await createApiKey(store, jobs.clock)).row;
    const row = await jobs.submit(input(key.id, 'A short sentence to render.'));
    const done = await jobs.whenFinished(row.id);
    expect(done).toMatchObject({
      status: 'SUCCESS',
      run_attempts: 1,
      error_code: null,
      lease_owner: null,
      lease_until: null,
    });
    expect(done.audio_bytes).toBeGreaterThan(1000);
    expect(done.duration_ms).toBeGreaterThan(500);
    expect(existsSync(jobs.files.audioPath(done))).toBe(true);
    expect((await store.keys.findById(key.id))?.queued).toBe(0);
  });

  it('lets keys take turns: a flood from one key does not hold back another key', async () => {
    const jobs = makeJobs(1);
    const flood = (await createApiKey(store, jobs.clock)).row;
    const other = (await createApiKey(store, jobs.clock)).row;
    const text = 'This sentence is long enough to take a moment to synthesise, one after another. '.repeat(2);
    const floodRows = await Promise.all(Array.from({ length: 12 }, () => jobs.submit(input(flood.id, text))));
    const late = await jobs.submit(input(other.id, 'Just me.'));
    await jobs.start();
    const order: string[] = [];
    jobs.events.on('finished', (e) => order.push(e.requestId));
    await Promise.all([...floodRows, late].map((r) => jobs.whenFinished(r.id)));
    // With one render at a time, the other key's request is the second or third to finish, not the 13th.
    expect(order.indexOf(late.id)).toBeLessThanOrEqual(2);
  });

  it("a key whose long renders hold every slot does not make another key's short request wait for them (issue 36)", async () => {
    const jobs = makeJobs(2);
    await jobs.start();
    const flood = (await createApiKey(store, jobs.clock, { balanceMilli: 1_000_000_000 })).row;
    const other = (await createApiKey(store, jobs.clock)).row;
    const long = 'This sentence is long enough to take a moment to synthesise, one after another. '.repeat(
      40,
    );
    const finished: string[] = [];
    jobs.events.on('finished', (e) => finished.push(e.requestId));
    const floodRows: RequestRow[] = [];
    for (let i = 0; i < 6; i++) floodRows.push(await jobs.submit(input(flood.id, long)));
    // The flood's renders hold both slots.
    for (let i = 0; i < 600 && jobs.runner.running < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(jobs.runner.runningIds().sort()).toEqual(
      floodRows
        .slice(0, 2)
        .map((r) => r.id)
        .sort(),
    );
    let finishedWhenStarted = -1;
    jobs.events.on('request', (e) => {
      if (e.keyId === other.id && e.status === 'processing' && finishedWhenStarted < 0)
        finishedWhenStarted = finished.length;
    });
    const submittedAt = Date.now();
    const late = await jobs.submit(input(other.id, 'A short one from B.'));
    const done = await jobs.whenFinished(late.id);
    const waitedMs = Date.now() - submittedAt;
    expect(done.status).toBe('SUCCESS');
    // Structural, not timed: the other key's request started while the flood still held every
    // slot (none of its renders had ended), and ended before any of them.
    expect(finishedWhenStarted).toBe(0);
    expect(finished.indexOf(late.id)).toBe(0);
    console.log(
      `other key's request: done ${waitedMs} ms after its submit, with ${floodRows.length} of the flood's queued; it waited for none of their renders`,
    );
    await Promise.all(floodRows.map((r) => jobs.cancel(r.id)));
    await Promise.all(floodRows.map((r) => jobs.whenFinished(r.id)));
  }, 180_000);

  it('after a crash, requeues requests left processing and gives up (with refund) on repeat offenders', async () => {
    const jobs = makeJobs();
    const key = (await createApiKey(store, jobs.clock, { balanceMilli: 1_000_000 })).row;
    const interrupted = await jobs.submit(input(key.id, 'I was being rendered when the power went out.'));
    const poison = await jobs.submit(input(key.id, 'I crashed the process every time.'));
    // What a killed process leaves behind: rows in processing (their leases run out: on a shared
    // database that is how the others know), one of them started too often.
    for (let i = 0; i < MAX_RUN_ATTEMPTS; i++) {
      await claimedByDeadInstance(poison.id);
      expect(await store.requests.requeueExpired(Date.now())).toEqual([poison.id]);
    }
    await claimedByDeadInstance(poison.id);
    await claimedByDeadInstance(interrupted.id);
    // …and the half-written file of the interrupted render, old enough that no live render
    // of another instance can be writing it.
    mkdirSync(join(dir, 'audio'), { recursive: true });
    const partial = join(dir, 'audio', `${interrupted.id}.wav.0badf00d.partial`);
    writeFileSync(partial, 'half a file');
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    utimesSync(partial, hourAgo, hourAgo);
    const balanceBefore = (await store.keys.findById(key.id))!.balance_milli;
    await jobs.start();
    const [a, b] = await Promise.all([jobs.whenFinished(interrupted.id), jobs.whenFinished(poison.id)]);
    expect(a).toMatchObject({ status: 'SUCCESS', run_attempts: 2 });
    // (Beside the files: the audiobook exports' folder, which their runner makes at start.)
    expect(readdirSync(join(dir, 'audio')).filter((f) => f !== 'exports')).toEqual([`${interrupted.id}.wav`]);
    expect(b).toMatchObject({ status: 'FAILURE', error_code: 'ENGINE_FAILED' });
    expect((await store.keys.findById(key.id))!.balance_milli).toBe(balanceBefore + poison.cost_milli);
    expect((await store.ledger.forRequest(poison.id)).map((e) => e.kind)).toEqual(['charge', 'refund']);
  });

  it('on close, an interrupted render goes back to the queue instead of failing', async () => {
    const jobs = makeJobs(1);
    await jobs.start();
    const key = (await createApiKey(store, jobs.clock)).row;
    const processing = new Promise<string>((resolve) =>
      jobs.events.on('request', (e) => e.status === 'processing' && resolve(e.request_id)),
    );
    const long = await jobs.submit(
      input(key.id, 'A much longer text that keeps the engine busy for a while. '.repeat(60)),
    );
    expect(await processing).toBe(long.id);
    expect(await store.requests.get(long.id)).toMatchObject({
      status: 'processing',
      lease_owner: jobs.instanceId,
    });
    await jobs.close(0);
    // Requeued, and a shutdown is not a crash: the start does not count against it.
    expect(await store.requests.get(long.id)).toMatchObject({
      status: 'new',
      run_attempts: 0,
      lease_owner: null,
      lease_until: null,
    });
    expect((await store.ledger.forRequest(long.id)).map((e) => e.kind)).toEqual(['charge']);
  });
});
