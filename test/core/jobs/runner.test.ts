/** The job runner with the real engine and a real SQLite file. */

import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../../electron/core/engine/create-engine';
import type { Engine } from '../../../electron/core/engine/engine';
import { createJobs, type Jobs } from '../../../electron/core/jobs';
import { isoTime } from '../../../electron/core/platform/clock';
import { createApiKey } from '../../../electron/core/jobs/keys';
import type { SubmitInput } from '../../../electron/core/jobs/submit';
import { MAX_RUN_ATTEMPTS } from '../../../electron/core/jobs/runner';
import { openStore, type Store } from '../../../electron/core/store';
import { submitInput } from '../../fixtures/submit-input';

let engine: Engine;
let dir: string;
let store: Store;
let jobs: Jobs;

beforeAll(async () => {
  engine = await createEngine({ poolSize: 2 });
});
afterAll(async () => {
  await engine.close();
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'runner-test-'));
  store = openStore({ path: join(dir, 'studio.db') });
});
afterEach(async () => {
  await jobs?.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function makeJobs(concurrency = 2): Jobs {
  jobs = createJobs({
    engine,
    store,
    filesDir: join(dir, 'audio'),
    baseUrl: () => 'http://127.0.0.1:1',
    concurrency,
  });
  return jobs;
}

function input(keyId: string, text: string): SubmitInput {
  return submitInput(keyId, { text });
}

describe('job runner', () => {
  it('renders accepted requests to complete files and records SUCCESS', async () => {
    makeJobs().start();
    const key = createApiKey(store, jobs.clock).row;
    const row = await jobs.submit(input(key.id, 'A short sentence to render.'));
    const done = await jobs.whenFinished(row.id);
    expect(done).toMatchObject({ status: 'SUCCESS', run_attempts: 1, error_code: null });
    expect(done.audio_bytes).toBeGreaterThan(1000);
    expect(done.duration_ms).toBeGreaterThan(500);
    expect(existsSync(jobs.files.audioPath(done))).toBe(true);
    expect(store.keys.findById(key.id)?.queued).toBe(0);
  });

  it('lets keys take turns: a flood from one key does not hold back another key', async () => {
    makeJobs(1);
    const flood = createApiKey(store, jobs.clock).row;
    const other = createApiKey(store, jobs.clock).row;
    const text = 'This sentence is long enough to take a moment to synthesise, one after another. '.repeat(2);
    const floodRows = await Promise.all(Array.from({ length: 12 }, () => jobs.submit(input(flood.id, text))));
    const late = await jobs.submit(input(other.id, 'Just me.'));
    jobs.start();
    const order: string[] = [];
    jobs.events.on('finished', (e) => order.push(e.requestId));
    await Promise.all([...floodRows, late].map((r) => jobs.whenFinished(r.id)));
    // With one render at a time, the other key's request is the second or third to finish, not the 13th.
    expect(order.indexOf(late.id)).toBeLessThanOrEqual(2);
  });

  it('after a crash, requeues requests left processing and gives up (with refund) on repeat offenders', async () => {
    makeJobs();
    const key = createApiKey(store, jobs.clock, { balanceMilli: 1_000_000 }).row;
    const interrupted = await jobs.submit(input(key.id, 'I was being rendered when the power went out.'));
    const poison = await jobs.submit(input(key.id, 'I crashed the process every time.'));
    // What a killed process leaves behind: rows in processing, one of them started too often.
    store.requests.markProcessing(interrupted.id, isoTime(Date.now()));
    for (let i = 0; i < MAX_RUN_ATTEMPTS; i++) {
      store.requests.markProcessing(poison.id, isoTime(Date.now()));
      store.requests.requeueProcessing();
    }
    store.requests.markProcessing(poison.id, isoTime(Date.now()));
    // …and the half-written file of the interrupted render.
    mkdirSync(join(dir, 'audio'), { recursive: true });
    writeFileSync(join(dir, 'audio', `${interrupted.id}.wav.partial`), 'half a file');
    const balanceBefore = store.keys.findById(key.id)!.balance_milli;
    jobs.start();
    const [a, b] = await Promise.all([jobs.whenFinished(interrupted.id), jobs.whenFinished(poison.id)]);
    expect(a).toMatchObject({ status: 'SUCCESS', run_attempts: 2 });
    expect(readdirSync(join(dir, 'audio'))).toEqual([`${interrupted.id}.wav`]);
    expect(b).toMatchObject({ status: 'FAILURE', error_code: 'ENGINE_FAILED' });
    expect(store.keys.findById(key.id)!.balance_milli).toBe(balanceBefore + poison.cost_milli);
    expect(store.ledger.forRequest(poison.id).map((e) => e.kind)).toEqual(['charge', 'refund']);
  });

  it('on close, an interrupted render goes back to the queue instead of failing', async () => {
    makeJobs(1).start();
    const key = createApiKey(store, jobs.clock).row;
    const long = await jobs.submit(
      input(key.id, 'A much longer text that keeps the engine busy for a while. '.repeat(60)),
    );
    await new Promise<void>((resolve) =>
      jobs.events.on('request', (e) => e.request_id === long.id && e.status === 'processing' && resolve()),
    );
    await jobs.close(0);
    // Requeued, and a shutdown is not a crash: the start does not count against it.
    expect(store.requests.get(long.id)).toMatchObject({ status: 'new', run_attempts: 0 });
    expect(store.ledger.forRequest(long.id).map((e) => e.kind)).toEqual(['charge']);
  });
});
