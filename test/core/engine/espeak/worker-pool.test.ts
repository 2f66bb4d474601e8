import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPool } from '../../../../electron/core/engine/espeak/worker-pool';
import type { EngineSettings } from '../../../../electron/core/engine/espeak/protocol';
import { settleOnFakeTimers } from '../../../fixtures/fake-timeouts';

const settings: EngineSettings = { voice: 'en-us+f3', rate: 175, pitch: 50, range: 50, volume: 60 };

describe('worker pool', () => {
  let pool: WorkerPool;
  beforeAll(async () => {
    pool = await createWorkerPool({
      size: 2,
      workerUrl: new URL('../../../fixtures/faulty-worker.ts', import.meta.url),
    });
  });
  afterAll(() => pool.close());

  it('synthesises in worker threads with word events and audio', async () => {
    const out = await pool.synthesize('Hello there, this is a short test.', settings);
    expect(out.sampleRate).toBe(22050);
    expect(out.pcm.length / out.sampleRate).toBeGreaterThan(1);
    expect(out.words.length).toBeGreaterThanOrEqual(6);
    expect(out.words[0]).toMatchObject({ textPosition: 1, wordLength: 5 });
  });

  it('keeps the main thread free while synthesising', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    await pool.synthesize('The quick brown fox jumps over the lazy dog. '.repeat(12), settings);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });

  it('rejects an unknown engine voice instead of speaking with the previous one', async () => {
    await expect(pool.synthesize('Hello.', { ...settings, voice: 'xx-nope' })).rejects.toMatchObject({
      code: 'UNKNOWN_VOICE',
    });
  });

  it('replaces a crashed worker and keeps serving', async () => {
    await expect(pool.synthesize('__crash__', settings)).rejects.toMatchObject({ code: 'ENGINE_FAILED' });
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => pool.synthesize(`Sentence number ${n}.`, settings)),
    );
    expect(results.every((r) => r.pcm.length > 0)).toBe(true);
  });

  it('replaces a hung worker after the task timeout', async () => {
    // The default 60 s task timer, run out on a fake clock: no real task meets a short limit.
    const hung = await settleOnFakeTimers(() => pool.synthesize('__hang__', settings), 60_000);
    expect(hung).toMatchObject({ status: 'rejected', reason: { code: 'ENGINE_TIMEOUT' } });
    const out = await pool.synthesize('Still here.', settings);
    expect(out.pcm.length).toBeGreaterThan(0);
  });

  it("cancels an owner's queued tasks and keeps serving others", async () => {
    const doomed = Array.from({ length: 8 }, (_, i) =>
      pool.synthesize(`Queued sentence ${i}.`, settings, 'doomed'),
    );
    const settled = Promise.allSettled(doomed);
    expect(pool.cancel('doomed')).toBeGreaterThanOrEqual(6);
    const outcomes = await settled;
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThanOrEqual(6);
    const out = await pool.synthesize('Others go on.', settings, 'other');
    expect(out.pcm.length).toBeGreaterThan(0);
  });

  it('serves owners in turn so a long job does not starve a short one', async () => {
    const order: string[] = [];
    const long = Array.from({ length: 12 }, (_, i) =>
      pool
        .synthesize(`Long job sentence ${i} with several more words in it.`, settings, 'long')
        .then(() => order.push('long')),
    );
    await new Promise((r) => setTimeout(r, 0));
    const short = pool.synthesize('Short.', settings, 'short').then(() => order.push('short'));
    await Promise.all([...long, short]);
    expect(order.indexOf('short')).toBeLessThan(5);
  });
  it('gives a turn at once while no other owner waits for a worker', async () => {
    // A fresh pool: no worker is started for turns alone.
    const idle = await createWorkerPool({
      size: 1,
      workerUrl: new URL('../../../fixtures/faulty-worker.ts', import.meta.url),
    });
    try {
      await Promise.all(Array.from({ length: 20 }, () => idle.turn('cached')));
      expect(idle.workers).toBe(0);
    } finally {
      await idle.close();
    }
  });

  it("takes turns for work needing no worker between other owners' tasks", async () => {
    const order: string[] = [];
    const busy = Array.from({ length: 8 }, (_, i) =>
      pool
        .synthesize(`Busy owner sentence ${i} with a few more words.`, settings, 'busy')
        .then(() => order.push('task')),
    );
    // Queued behind the busy owner's tasks: each turn comes as a worker frees, in turn with
    // the busy owner's tasks, not all at once ahead of them.
    const turns = Array.from({ length: 4 }, () => pool.turn('cached').then(() => order.push('turn')));
    await Promise.all([...busy, ...turns]);
    const firstTurn = order.indexOf('turn');
    const lastTurn = order.lastIndexOf('turn');
    expect(firstTurn).toBeLessThan(4);
    // Spread out among the tasks: between the first and the last turn, tasks were served.
    expect(order.slice(firstTurn, lastTurn).filter((o) => o === 'task').length).toBeGreaterThanOrEqual(2);
    expect(lastTurn).toBeLessThan(order.length - 1);
  });

  it('holds turns while every worker is busy, even with nothing waiting', async () => {
    const order: string[] = [];
    // Two tasks on the two workers (started by the tests before): the machine is taken.
    const busy = [0, 1].map((i) =>
      pool
        .synthesize(`A sentence of some length for worker ${i}, with a few more words.`, settings, 'busy')
        .then(() => order.push('task')),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pool.workers).toBe(2);
    await Promise.all([...busy, pool.turn('cached').then(() => order.push('turn'))]);
    expect(order[0]).toBe('task');
  });

  it('gives an owner its turns while only its own tasks take the workers', async () => {
    const order: string[] = [];
    // The owner's changed sentences on both workers and queued behind them: its sentences
    // from the cache do not wait for them (nobody else needs the machine).
    const own = Array.from({ length: 6 }, (_, i) =>
      pool
        .synthesize(`A changed sentence ${i} of some length, with a few more words.`, settings, 'edited')
        .then(() => order.push('task')),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    const turns = Array.from({ length: 3 }, () => pool.turn('edited').then(() => order.push('turn')));
    await Promise.all([...own, ...turns]);
    expect(order.slice(0, 3)).toEqual(['turn', 'turn', 'turn']);
    // Another owner's task waiting holds them again.
    const other = Array.from({ length: 4 }, (_, i) =>
      pool.synthesize(`Another render's sentence ${i}, long enough to take a while.`, settings, 'other'),
    );
    const mine = pool.synthesize('A changed sentence, once more, with a few more words.', settings, 'edited');
    await new Promise((resolve) => setTimeout(resolve, 0));
    let turned = false;
    const held = pool.turn('edited').then(() => (turned = true));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(turned).toBe(false);
    await Promise.all([...other, mine, held]);
  });

  it('rejects the turns of a cancelled owner', async () => {
    const busy = Array.from({ length: 6 }, (_, i) =>
      pool.synthesize(`Filler sentence ${i}.`, settings, 'filler'),
    );
    const turn = pool.turn('gone');
    pool.cancel('gone');
    await expect(turn).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
    await Promise.all(busy);
  });
});
